import { describe, expect, it } from 'vitest';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { createPipelineStore } from '../worlds/pipeline/store/pipelineStore';
import { createServingStore } from '../worlds/serving/store/servingStore';
import { inProcessClient } from './testing/inProcessStores';
import { SERVING_PRESETS } from '../worlds/serving/presets';
import type { ServingScenario } from '../worlds/serving/schema';
import { pipelineApi } from '../worlds/pipeline/worker/pipelineApi';
import { PipelineSession } from '../worlds/pipeline/worker/pipelineSession';
import type { PipelineFrame, PipelineApi } from '../worlds/pipeline/worker/pipelineProtocol';
import { servingApi } from '../worlds/serving/worker/servingApi';
import { ServingSession } from '../worlds/serving/worker/servingSession';
import type { ServingApi, ServingFrame } from '../worlds/serving/worker/servingProtocol';

/** The worker's very API object, with every call it answers recorded by name. */
function counting<A extends object>(api: A): { api: A; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(api, {
    get: (target, name) => {
      const value = (target as Record<PropertyKey, unknown>)[name];
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { api: proxy, calls };
}

describe('a live edit is one worker call (ARCHITECTURE §1, step 4)', () => {
  it('pipeline: ODIN α from the store costs one call, and the store has the new scenario and its undo', async () => {
    let listener: ((frame: PipelineFrame) => void) | null = null;
    const session = new PipelineSession({ now: () => 0, schedule: () => undefined, emit: (frame) => listener?.(frame) });
    const { api, calls } = counting(pipelineApi(session, { subscribe: (cb) => void (listener = cb) }));
    const store = createPipelineStore(inProcessClient<PipelineApi, PipelineFrame>(api, (onFrame) => void (listener = onFrame)), () => 0);
    expect(await store.getState().load(defaultPipelineScenario(), 'preset')).toBe(true);
    const odin = store.getState().scenario!.pipeline.lanes.findIndex((l) => l.scheduler === 'odin');
    calls.length = 0;
    expect(await store.getState().setLaneParameter(odin, 'alpha', 7)).toBe(true);
    expect(calls).toEqual(['setLaneParameter']);
    expect(store.getState().scenario!.pipeline.lanes[odin]!.params?.alpha).toBe(7);
    expect(store.getState().past).toHaveLength(1);
    // Setting the same value again changes nothing: no second undo step.
    calls.length = 0;
    expect(await store.getState().setLaneParameter(odin, 'alpha', 7)).toBe(true);
    expect(calls).toEqual(['setLaneParameter']);
  });

  it('pipeline: an applied edit puts its answer into the slice (the lane, the events); a refused one gives false, the banner names the field and nothing changes', async () => {
    let listener: ((frame: PipelineFrame) => void) | null = null;
    const session = new PipelineSession({ now: () => 0, schedule: () => undefined, emit: (frame) => listener?.(frame) });
    const api = pipelineApi(session, { subscribe: (cb) => void (listener = cb) });
    const store = createPipelineStore(inProcessClient<PipelineApi, PipelineFrame>(api, (onFrame) => void (listener = onFrame)), () => 0);
    expect(await store.getState().load(defaultPipelineScenario(), 'preset')).toBe(true);
    const odin = store.getState().scenario!.pipeline.lanes.findIndex((l) => l.scheduler === 'odin');
    expect(await store.getState().setLaneParameter(odin, 'alpha', 3)).toBe(true);
    expect(store.getState().lanes.find((l) => l.index === odin)!.params['alpha']).toBe(3);
    const before = store.getState().events.length;
    expect(await store.getState().addEvent(1, 'I')).toBe(true);
    const events = store.getState().events;
    expect(events).toHaveLength(before + 1);
    expect(await store.getState().removeEvent(events[events.length - 1]!.id)).toBe(true);
    expect(store.getState().events).toHaveLength(before);
    const scenario = store.getState().scenario;
    expect(await store.getState().setLaneParameter(odin, 'alpha', -5)).toBe(false);
    expect(store.getState().errors?.source).toBe('edit');
    expect(store.getState().errors?.errors.map((e) => e.path).join(' ')).toContain('alpha');
    expect(store.getState().scenario).toBe(scenario);
    expect(store.getState().lanes.find((l) => l.index === odin)!.params['alpha']).toBe(3);
  });

  it('serving: the request rate from the store costs one call', async () => {
    let listener: ((frame: ServingFrame) => void) | null = null;
    const session = new ServingSession({ now: () => 0, schedule: () => undefined, emit: (frame) => listener?.(frame) });
    const host = { learningFor: async () => null, sweeps: { start: () => Promise.reject(new Error('no sweeps here')) } } as unknown as Parameters<typeof servingApi>[2];
    const { api, calls } = counting(servingApi(session, { subscribe: (cb) => void (listener = cb) }, host));
    const store = createServingStore(inProcessClient<ServingApi, ServingFrame>(api, (onFrame) => void (listener = onFrame)), () => 0);
    const scenario = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
    const cheap: ServingScenario = { ...scenario, serving: { ...scenario.serving, lanes: [{ scheduler: 'fixed' }] } };
    expect(await store.getState().load(cheap, 'preset')).toBe(true);
    calls.length = 0;
    expect(await store.getState().setArrivalRate(20)).toBe(true);
    expect(calls).toEqual(['setArrivalRate']);
    expect(store.getState().scenario!.serving.rateRps).toBe(20);
    expect(store.getState().past).toHaveLength(1);
  });
});
