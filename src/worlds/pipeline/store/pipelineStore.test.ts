import { describe, expect, it } from 'vitest';
import { decodePipelineScenarioLink, encodePipelineScenarioLink } from '../door';
import { defaultPipelineScenario } from '../defaultPreset';
import { HISTORY_LIMIT } from './pipelineStore';
import { inProcessPipeline } from '../../../store/testing/inProcessStores';

const inProcessStore = () => inProcessPipeline().store;

describe('the lab store', () => {
  it('applies frames: served, series and live state per lane', async () => {
    const store = inProcessStore();
    expect(await store.getState().load(defaultPipelineScenario(), 'preset')).toBe(true);
    await store.getState().step(200);
    const s = store.getState();
    expect(s.served).toBe(200);
    expect(s.position).toBe(200);
    expect(s.furthest).toBe(200);
    expect(s.series).toHaveLength(4);
    expect(s.series[0]!.length).toBeGreaterThan(0);
    expect(s.live[0]!.configuration.reduce((a, b) => a + b, 0)).toBe(16);
    expect(s.summaries).toHaveLength(4);
  });

  it('keeps the last good scenario and reports where a bad one came from', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultPipelineScenario(), 'preset');
    const ok = await store.getState().load({ ...defaultPipelineScenario(), seed: -1 }, 'file');
    expect(ok).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'file', errors: [{ path: 'seed', message: 'must be an integer from 0 to 4294967295, got -1' }] });
    expect(store.getState().scenario!.seed).toBe(1);
  });

  it('undoes and redoes edits, placed workloads included', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultPipelineScenario(), 'preset');
    await store.getState().edit((s) => ({ ...s, pipeline: { ...s.pipeline, model: 'resnet50' } }));
    await store.getState().step(10);
    await store.getState().addEvent(2, 'I');
    expect(store.getState().scenario!.pipeline.interference.events).toHaveLength(2);
    expect(store.getState().past).toHaveLength(2);
    await store.getState().undo();
    expect(store.getState().scenario!.pipeline.interference.events).toHaveLength(1);
    expect(store.getState().scenario!.pipeline.model).toBe('resnet50');
    await store.getState().undo();
    expect(store.getState().scenario!.pipeline.model).toBe('vgg16');
    await store.getState().redo();
    expect(store.getState().scenario!.pipeline.model).toBe('resnet50');
    expect(store.getState().future).toHaveLength(1);
    // A new edit forgets what was undone.
    await store.getState().edit((s) => ({ ...s, seed: 9 }));
    expect(store.getState().future).toHaveLength(0);
  });

  it('keeps at most HISTORY_LIMIT scenarios to undo', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultPipelineScenario(), 'preset');
    for (let seed = 2; seed < HISTORY_LIMIT + 20; seed++) await store.getState().edit((s) => ({ ...s, seed }));
    expect(store.getState().past).toHaveLength(HISTORY_LIMIT);
  });

  it('carries the classroom view in the scenario, and drops it when back to normal', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultPipelineScenario(), 'preset');
    store.getState().setView({ mode: 'presentation', hide: ['lanes'] });
    expect(store.getState().scenario!.view).toEqual({ mode: 'presentation', hide: ['lanes'] });
    // Placing a workload goes through the worker, which does not know the view: it is kept.
    await store.getState().addEvent(0, 'B');
    expect(store.getState().scenario!.view).toEqual({ mode: 'presentation', hide: ['lanes'] });
    store.getState().setView({ mode: 'normal', hide: [] });
    expect(store.getState().scenario).not.toHaveProperty('view');
  });

  it('refuses a live edit out of the schema’s bounds by name, and the link stays (α = 31)', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultPipelineScenario(), 'preset');
    await store.getState().step(20);
    const link = encodePipelineScenarioLink(store.getState().scenario!);
    // The slider's range is the registry's 1–30, which the schema checks; the scheduler alone takes any α ≥ 1.
    expect(await store.getState().setLaneParameter(0, 'alpha', 31)).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'edit', errors: [{ path: 'pipeline.lanes[0].params.alpha', message: 'must be an integer from 1 to 30, got 31' }] });
    expect(store.getState().scenario!.pipeline.lanes[0]).toEqual({ scheduler: 'odin', params: { alpha: 10 } });
    expect(store.getState().lanes[0]!.label).toBe('ODIN α=10');
    expect(store.getState().past).toHaveLength(0);
    // The link is the one before the edit, and opens: nothing was lost.
    expect(encodePipelineScenarioLink(store.getState().scenario!)).toBe(link);
    expect(decodePipelineScenarioLink(link).ok).toBe(true);
    // Within the bounds the edit goes through, and the banner of the refused one goes.
    expect(await store.getState().setLaneParameter(0, 'alpha', 30)).toBe(true);
    expect(store.getState().errors).toBeNull();
    const reopened = decodePipelineScenarioLink(encodePipelineScenarioLink(store.getState().scenario!));
    expect(reopened.ok && reopened.scenario.pipeline.lanes[0]).toEqual({ scheduler: 'odin', params: { alpha: 30 } });
  });

  it('refuses the threshold and placed workloads out of bounds by name', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultPipelineScenario(), 'preset');
    expect(await store.getState().setDetectionThreshold(0)).toBe(false);
    expect(store.getState().errors?.errors).toEqual([{ path: 'pipeline.assumptions.detectionThreshold', message: 'must be a number from 0.0001 to 10, got 0' }]);
    expect(await store.getState().addEvent(4, 'E')).toBe(false);
    expect(store.getState().errors?.errors[0]).toEqual({ path: 'pipeline.interference.events[1].executionPlace', message: 'must be below the number of execution places (4), got 4' });
    expect(await store.getState().addEvent(1, 'A' as never)).toBe(false);
    expect(store.getState().errors?.errors[0]).toEqual({ path: 'pipeline.interference.events[1].mode', message: 'must be an interference mode B–L, got "A"' });
    expect(store.getState().scenario).toEqual(defaultPipelineScenario());
    expect(store.getState().events).toHaveLength(1);
  });
});
