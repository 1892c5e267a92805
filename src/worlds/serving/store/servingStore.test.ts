import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../scenario/presets';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { isLearningScheduler } from '../schedulers/registry';
import { inProcessServing } from '../../../store/testing/inProcessStores';
import { manualHost } from '../../../worker/testing/manualHost';
import type { ServingFrame } from '../worker/servingProtocol';
import { SERIES_MAX_POINTS } from '../../../worker/liveLoop';
import { ServingSeriesBuffer } from './servingStore';

/** Another world's scenario, from the kit's list of presets (the lab's first one is the pipeline world's). */
const otherWorldScenario = () => structuredClone(findPreset('default')!.scenario);

/** The store wired to a serving session in the same thread, with a manual clock (as pipelineStore.test.ts). */
const inProcessStore = () => inProcessServing().store;

const small = (durationS = 30): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  // The classic lanes only (the learning lanes need tfjs: learningSession.test.ts covers them).
  return { ...s, serving: { ...s.serving, durationS, lanes: s.serving.lanes.filter((l) => !isLearningScheduler(l.scheduler)) } };
};

describe('the serving store', () => {
  it('applies frames: time, series and live state per lane', async () => {
    const store = inProcessStore();
    expect(await store.getState().load(small(), 'preset')).toBe(true);
    const loaded = store.getState();
    expect(loaded.lanes.map((l) => l.scheduler)).toEqual(['fixed', 'deeprt', 'ga']);
    expect(loaded.models).toHaveLength(6);
    expect(loaded.durationMs).toBe(30_000);
    const version = loaded.version;
    await store.getState().step(10_000);
    const s = store.getState();
    expect(s.version).toBeGreaterThan(version);
    expect(s.timeMs).toBe(10_000);
    // The shared names of the same things (the page shell reads these in either lab).
    expect(s.position).toBe(10_000);
    expect(s.furthest).toBe(s.furthestMs);
    expect(s.furthestMs).toBe(10_000);
    expect(s.status).toBe('paused');
    expect(s.modelCount).toBe(6);
    expect(s.series).toHaveLength(3);
    for (const buffer of s.series) {
      expect(buffer.length).toBe(10_000 / s.slotMs);
      expect(buffer.columns.endMs[buffer.length - 1]).toBe(10_000);
    }
    // The identical arrival trace: every lane sees the same arrivals per point and model.
    const arrivals = (lane: number) => Array.from(s.series[lane]!.modelColumns.arrivals.subarray(0, s.series[lane]!.length * 6));
    expect(arrivals(1)).toEqual(arrivals(0));
    expect(arrivals(0).reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
    expect(s.live).toHaveLength(3);
    expect(s.live[0]!.models).toHaveLength(6);
    expect(s.summaries).toHaveLength(3);
    await store.getState().step(100_000);
    expect(store.getState().status).toBe('done');
    expect(store.getState().timeMs).toBe(30_000);
  });

  it('keeps the last good scenario and reports where a bad one came from', async () => {
    const store = inProcessStore();
    await store.getState().load(small(), 'preset');
    expect(await store.getState().load({ ...small(), seed: -1 }, 'file')).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'file', errors: [{ path: 'seed', message: 'must be an integer from 0 to 4294967295, got -1' }] });
    expect(await store.getState().load(otherWorldScenario(), 'link')).toBe(false);
    expect(store.getState().errors?.source).toBe('link');
    expect(store.getState().errors?.errors[0]!.path).toBe('world');
    expect(store.getState().scenario!.serving.durationS).toBe(30);
    expect(store.getState().past).toHaveLength(0);
    store.getState().dismissErrors();
    expect(store.getState().errors).toBeNull();
  });

  it('refuses live edits out of the schema’s bounds by name and keeps the scenario', async () => {
    const store = inProcessStore();
    await store.getState().load(small(), 'preset');
    await store.getState().step(2_000);
    const before = store.getState().scenario;
    expect(await store.getState().setArrivalRate(20_000)).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'edit', errors: [{ path: 'serving.rateRps', message: 'must be a number from 0.1 to 10000, got 20000' }] });
    expect(await store.getState().setModelConfig(0, 0, 32, 9)).toBe(false);
    expect(store.getState().errors?.errors).toEqual([{ path: 'serving.lanes[0].params.instances.yolo', message: 'must be an integer from 1 to 8, got 9' }]);
    expect(await store.getState().addBackground(0.5, 200_000)).toBe(false);
    expect(store.getState().errors?.errors).toEqual([{ path: 'serving.background[0].memoryMb', message: 'must be a number from 0 to 100000, got 200000' }]);
    expect(store.getState().scenario).toBe(before);
    expect(store.getState().backgrounds).toEqual([]);
    expect(store.getState().timeMs).toBe(2_000);
  });

  it('undoes and redoes edits, per-model settings included', async () => {
    const store = inProcessStore();
    await store.getState().load(small(), 'preset');
    await store.getState().edit((s) => ({ ...s, serving: { ...s.serving, platform: 'tx2' } }));
    expect(store.getState().platform).toBe('tx2');
    await store.getState().step(5_000);
    expect(await store.getState().setModelConfig(1, 0, 32, 3)).toBe(false); // DeepRT is not configurable
    expect(store.getState().editedAtMs).toBeNull();
    expect(await store.getState().setModelConfig(0, 0, 32, 3)).toBe(true);
    // The live scoreboard's numbers from before it are marked as such (scoreboard.ts `staleness`).
    expect(store.getState().editedAtMs).toBe(5_000);
    expect(store.getState().lanes[0]!.params).toMatchObject({ 'batchSize.yolo': 32, 'instances.yolo': 3 });
    expect(store.getState().scenario!.serving.lanes[0]!.params).toMatchObject({ 'batchSize.yolo': 32, 'instances.yolo': 3 });
    // Applied from the next slot on.
    await store.getState().step(2_000);
    expect(store.getState().live[0]!.models[0]).toMatchObject({ batchSize: 32, instances: 3 });
    expect(store.getState().past).toHaveLength(2);
    await store.getState().undo();
    expect(store.getState().scenario!.serving.lanes[0]!.params?.['batchSize.yolo']).toBeUndefined();
    expect(store.getState().scenario!.serving.platform).toBe('tx2');
    expect(store.getState().timeMs).toBe(0);
    // A run started afresh has no edit newer than its numbers.
    expect(store.getState().editedAtMs).toBeNull();
    await store.getState().undo();
    expect(store.getState().scenario!.serving.platform).toBe('xavier-nx');
    await store.getState().redo();
    expect(store.getState().scenario!.serving.platform).toBe('tx2');
    expect(store.getState().future).toHaveLength(1);
    // A new edit forgets what was undone.
    await store.getState().edit((s) => ({ ...s, seed: 9 }));
    expect(store.getState().future).toHaveLength(0);
  });

  it('keeps rate and backgrounds in the scenario', async () => {
    const store = inProcessStore();
    await store.getState().load(small(), 'preset');
    expect(await store.getState().setArrivalRate(0)).toBe(false);
    expect(await store.getState().setArrivalRate(10)).toBe(true);
    expect(store.getState().rateRps).toBe(10);
    expect(store.getState().scenario!.serving.rateRps).toBe(10);
    await store.getState().step(5_000);
    await store.getState().addBackground(0.5, 1000);
    expect(store.getState().backgrounds).toEqual([{ id: 1, intensity: 0.5, memoryMb: 1000, fromMs: 5_000, toMs: null }]);
    await store.getState().step(5_000);
    const generation = store.getState().generation;
    await store.getState().removeBackground(1);
    const s = store.getState();
    expect(s.backgrounds).toEqual([{ id: 1, intensity: 0.5, memoryMb: 1000, fromMs: 5_000, toMs: 10_000 }]);
    // The removal replays the run: a new generation, the series rebuilt up to now.
    expect(s.generation).toBe(generation + 1);
    expect(s.series[0]!.length).toBe(10_000 / s.slotMs);
    expect(s.scenario!.serving.background).toEqual([{ fromS: 5, toS: 10, intensity: 0.5, memoryMb: 1000 }]);
    expect(s.past).toHaveLength(3);
  });

  it('keeps each lane series bounded on a long run', async () => {
    const store = inProcessStore();
    const s = small(3000);
    await store.getState().load({ ...s, serving: { ...s.serving, rateRps: 2, assumptions: { ...s.serving.assumptions, slotMs: 100 } } });
    for (let i = 0; i < 10; i++) await store.getState().step(300_000);
    const state = store.getState();
    expect(state.status).toBe('done');
    expect(state.stride).toBeGreaterThanOrEqual(16);
    for (const buffer of state.series) {
      expect(buffer.length).toBeLessThanOrEqual(SERIES_MAX_POINTS);
      expect(buffer.columns.endMs[buffer.length - 1]).toBe(3_000_000);
      // Points follow each other in time, and their slots add up to the run.
      let slots = 0;
      for (let i = 0; i < buffer.length; i++) {
        slots += buffer.columns.slots[i]!;
        if (i > 0) expect(buffer.columns.endMs[i]!).toBeGreaterThan(buffer.columns.endMs[i - 1]!);
      }
      expect(slots).toBe(30_000);
    }
    // 30,000 slots and 300 checkpoints: about 2 s alone, several times that beside other test files.
  }, 30_000);
});

describe('ServingSeriesBuffer', () => {
  const chunk = (from: number, n: number, models: number) => ({
    endMs: Float64Array.from({ length: n }, (_, i) => (from + i + 1) * 1000),
    slots: new Float64Array(n).fill(1),
    throughputRps: Float64Array.from({ length: n * models }, (_, k) => from * models + k),
    latencyMeanMs: new Float64Array(n * models),
    utility: new Float64Array(n * models),
    utilityCount: new Float64Array(n * models),
    arrivals: new Float64Array(n * models),
    violations: new Float64Array(n * models),
    batchSize: Int32Array.from({ length: n * models }, (_, k) => from * models + k),
    instances: new Int32Array(n * models).fill(1),
  });

  it('appends, grows past its capacity and replaces', () => {
    const buffer = new ServingSeriesBuffer(4);
    buffer.add(chunk(0, 3, 2), false, 2);
    buffer.add(chunk(3, 5, 2), false, 2);
    expect(buffer.length).toBe(8);
    expect(Array.from(buffer.columns.endMs.subarray(0, 8))).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((x) => x * 1000));
    expect(buffer.at('throughputRps', 7, 1)).toBe(15);
    expect(buffer.at('batchSize', 4, 0)).toBe(8);
    buffer.add(chunk(0, 2, 3), true, 3);
    expect(buffer.length).toBe(2);
    expect(buffer.models).toBe(3);
    expect(buffer.at('batchSize', 1, 2)).toBe(5);
  });

  it('shows each reference lane’s search on its lane while the others run, then its points once it joins', async () => {
    const clock = manualHost<ServingFrame>(2);
    const { store } = inProcessServing(undefined, clock.host);
    const base = small(20);
    expect(await store.getState().load({ ...base, serving: { ...base.serving, lanes: [{ scheduler: 'fixed' }, { scheduler: 'fixed-hindsight', params: { maxBatch: 4, maxInstances: 1 } }] } }, 'file')).toBe(true);
    // 3 uniform + 1 pass × 6 models × 2 others = 15 evaluations at most.
    expect(store.getState().searches).toEqual([null, { done: 0, total: 15, replayedMs: null }]);
    await store.getState().step(5000);
    // The fixed lane ran; the reference lane has no points, no device and no summary yet.
    const stepped = store.getState();
    expect(stepped.series.map((s) => s.length)).toEqual([5, 0]);
    expect(stepped.live[1]).toBeNull();
    expect(stepped.summaries?.[1]).toBeNull();
    const seen: string[] = [];
    const unsubscribe = store.subscribe((s) => s.searches[1] ?? null, (search) => seen.push(search === null ? 'joined' : `${search.done}/${search.total}`));
    for (let i = 0; i < 1000 && store.getState().searches[1] != null; i++) clock.advanceTime(16);
    unsubscribe();
    expect(seen.at(-1)).toBe('joined');
    expect(seen.length).toBeGreaterThan(2);
    // Paused: it joined with its summary, and every point up to where the run is.
    const joined = store.getState();
    expect(joined.searches).toEqual([null, null]);
    expect(joined.series.map((s) => s.length)).toEqual([5, 5]);
    expect(joined.summaries?.[1]?.learning).toMatchObject({ evaluations: expect.any(Number) });
    expect(joined.live[1]).not.toBeNull();
  });
});
