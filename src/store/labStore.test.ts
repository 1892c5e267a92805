import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { HISTORY_LIMIT } from './labStore';
import { inProcessLab } from './testing/inProcess';

const inProcessStore = () => inProcessLab().store;

describe('the lab store', () => {
  it('applies frames: served, series and live state per lane', async () => {
    const store = inProcessStore();
    expect(await store.getState().load(defaultScenario(), 'preset')).toBe(true);
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
    await store.getState().load(defaultScenario(), 'preset');
    const ok = await store.getState().load({ ...defaultScenario(), seed: -1 }, 'file');
    expect(ok).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'file', errors: [{ path: 'seed', message: 'must be an integer from 0 to 4294967295, got -1' }] });
    expect(store.getState().scenario!.seed).toBe(1);
  });

  it('undoes and redoes edits, placed workloads included', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultScenario(), 'preset');
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
    await store.getState().load(defaultScenario(), 'preset');
    for (let seed = 2; seed < HISTORY_LIMIT + 20; seed++) await store.getState().edit((s) => ({ ...s, seed }));
    expect(store.getState().past).toHaveLength(HISTORY_LIMIT);
  });

  it('carries the classroom view in the scenario, and drops it when back to normal', async () => {
    const store = inProcessStore();
    await store.getState().load(defaultScenario(), 'preset');
    store.getState().setView({ mode: 'presentation', hide: ['lanes'] });
    expect(store.getState().scenario!.view).toEqual({ mode: 'presentation', hide: ['lanes'] });
    // Placing a workload goes through the worker, which does not know the view: it is kept.
    await store.getState().addEvent(0, 'B');
    expect(store.getState().scenario!.view).toEqual({ mode: 'presentation', hide: ['lanes'] });
    store.getState().setView({ mode: 'normal', hide: [] });
    expect(store.getState().scenario).not.toHaveProperty('view');
  });
});
