import { describe, expect, it } from 'vitest';
import { manualHost as createManualHost } from './testing/manualHost';
import { defaultScenario, SERVING_PRESETS } from '../scenario/presets';
import type { ServingScenario } from '../scenario/schema';
import { isLearningScheduler } from '../schedulers/serving/registry';
import { runServingScenario } from '../scenario/servingRunner';
import type { ServingFrame } from './servingProtocol';
import { SERIES_MAX_POINTS } from './liveLoop';
import { ServingSession } from './servingSession';
import { done } from './testing/answers';

const manualHost = () => createManualHost<ServingFrame>();

const small = (durationS = 60): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  // The classic lanes only (the learning lanes need tfjs: learningSession.test.ts covers them).
  return { ...s, serving: { ...s.serving, durationS, lanes: s.serving.lanes.filter((l) => !isLearningScheduler(l.scheduler)) } };
};

/** The page-side series of a lane rebuilt from the frames (as a store would). */
function collect(frames: readonly ServingFrame[], lane: number) {
  let endMs: number[] = [];
  let arrivals: number[] = [];
  let batch: number[] = [];
  for (const f of frames) {
    const p = f.lanes[lane]!.points;
    if (f.replace) endMs = arrivals = batch = [];
    endMs = [...endMs, ...p.endMs];
    arrivals = [...arrivals, ...p.arrivals];
    batch = [...batch, ...p.batchSize];
  }
  return { endMs, arrivals, batch };
}

const withoutDecision = <T extends { decisionMeanUs: number }>({ decisionMeanUs: _d, ...rest }: T) => {
  void _d;
  return rest;
};

describe('ServingSession', () => {
  it('loads, steps in lock step and reports points and live state per lane', () => {
    const { host, frames } = manualHost();
    const session = new ServingSession(host);
    const loaded = session.load(small());
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.lanes.map((l) => l.scheduler)).toEqual(['fixed', 'deeprt', 'ga']);
    expect(loaded.models).toHaveLength(6);
    session.step(10_000);
    const last = frames.at(-1)!;
    expect(last.timeMs).toBe(10_000);
    expect(last.status).toBe('paused');
    expect(last.summaries).toHaveLength(3);
    for (const lane of last.lanes) {
      expect(lane.live.models).toHaveLength(6);
      expect(lane.live.memoryUsedMb).toBeGreaterThan(0);
      expect(lane.live.memoryUsedMb).toBeLessThanOrEqual(lane.live.memoryTotalMb);
      for (const m of lane.live.models) {
        const { late, under25, under50, rest } = m.slack;
        expect(late + under25 + under50 + rest).toBe(m.queueLength);
      }
    }
    const slots = 10_000 / loaded.slotMs;
    const series = [0, 1, 2].map((lane) => collect(frames, lane));
    for (const s of series) expect(s.endMs).toHaveLength(slots);
    // The identical arrival trace: every lane sees the same requests reach the edge per slot and model.
    expect(series[1]!.arrivals).toEqual(series[0]!.arrivals);
    expect(series[2]!.arrivals).toEqual(series[0]!.arrivals);
    expect(series[0]!.arrivals.reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
  });

  it('ends with the same summaries as the command line', () => {
    const { host, frames } = manualHost();
    const session = new ServingSession(host);
    session.load(small());
    session.step(25_000);
    session.step(100_000);
    const last = frames.at(-1)!;
    expect(last.status).toBe('done');
    expect(last.timeMs).toBe(60_000);
    const cli = runServingScenario(small());
    expect(last.summaries!.map(withoutDecision)).toEqual(cli.map((r) => withoutDecision(r.summary)));
  });

  it('rejects a pipeline scenario with a field error and keeps the last good one', () => {
    const { host } = manualHost();
    const session = new ServingSession(host);
    session.load(small());
    const bad = session.load(defaultScenario());
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]!.path).toBe('world');
    const invalid = session.load({ ...small(), seed: -4 });
    expect(invalid.ok).toBe(false);
    expect(session.currentScenario()!.world).toBe('serving');
  });

  it('applies a per-model setting of a fixed lane from the next slot on', () => {
    const { host, frames } = manualHost();
    const session = new ServingSession(host);
    session.load(small());
    session.step(5_000);
    expect(session.setModelConfig(1, 0, 32, 3)).toEqual({
      ok: false,
      errors: [{ path: 'lane', message: 'DeepRT maxBatch=8 admission=1 decides its own batch size and instances (only a fixed lane takes them from the page)' }],
    });
    // Out of the schema's range for a per-model batch size: refused by name, nothing changed.
    expect(session.setModelConfig(0, 0, 256, 3)).toEqual({ ok: false, errors: [{ path: 'serving.lanes[0].params.batchSize.yolo', message: 'must be an integer from 1 to 128, got 256' }] });
    const info = done(session.setModelConfig(0, 0, 32, 3)).lane;
    expect(info).toMatchObject({ params: { 'batchSize.yolo': 32, 'instances.yolo': 3 } });
    session.step(5_000);
    const s = collect(frames, 0);
    const models = frames.at(-1)!.models;
    const batchOfYolo = (point: number) => s.batch[point * models]!;
    expect(batchOfYolo(4)).toBe(8);
    expect(batchOfYolo(5)).toBe(8); // the slot under way when the setting changed (decided at 5 s)
    expect(batchOfYolo(6)).toBe(32);
    expect(batchOfYolo(9)).toBe(32);
    expect(frames.at(-1)!.lanes[0]!.live.models[0]).toMatchObject({ batchSize: 32, instances: 3 });
    expect(session.currentScenario()!.serving.lanes[0]!.params).toMatchObject({ 'batchSize.yolo': 32, 'instances.yolo': 3 });
  });

  it('adds background on every lane and removes it by an exact replay', () => {
    const { host, frames } = manualHost();
    const session = new ServingSession(host);
    session.load(small());
    session.step(5_000);
    expect(session.addBackground(1.5, 1000)).toEqual({ ok: false, errors: [{ path: 'serving.background[0].intensity', message: 'must be a number from 0 to 1, got 1.5' }] });
    const added = done(session.addBackground(0.5, 1000)).backgrounds;
    expect(added).toEqual([{ id: 1, intensity: 0.5, memoryMb: 1000, fromMs: 5_000, toMs: null }]);
    session.step(5_000);
    const before = frames.at(-1)!;
    expect(before.lanes[0]!.live.availableCompute).toBeLessThanOrEqual(0.5);
    const summariesBefore = before.summaries!;
    const removed = done(session.removeBackground(1)).backgrounds;
    expect(removed).toEqual([{ id: 1, intensity: 0.5, memoryMb: 1000, fromMs: 5_000, toMs: 10_000 }]);
    const replayed = frames.at(-1)!;
    expect(replayed.replace).toBe(true);
    expect(replayed.generation).toBe(before.generation + 1);
    expect(replayed.timeMs).toBe(10_000);
    expect(replayed.lanes[0]!.points.endMs).toHaveLength(10);
    // Up to the removal the replay is the same run.
    expect(replayed.summaries).toEqual(summariesBefore);
    expect(session.currentScenario()!.serving.background).toEqual([{ fromS: 5, toS: 10, intensity: 0.5, memoryMb: 1000 }]);
    // Removing it again is done already (the page may show it a frame longer); an unknown id is refused by name.
    expect(session.removeBackground(1)).toEqual({ ok: true, backgrounds: removed });
    expect(session.removeBackground(99)).toEqual({ ok: false, errors: [{ path: 'id', message: 'must be the id of a tenant (1), got 99' }] });
  });

  it('restarts at a new rate and plays paced by the clock', () => {
    const { host, frames, advanceTime } = manualHost();
    const session = new ServingSession(host);
    session.load(small());
    session.step(3_000);
    expect(session.setArrivalRate(0)).toEqual({ ok: false, errors: [{ path: 'serving.rateRps', message: 'must be a number from 0.1 to 10000, got 0' }] });
    expect(session.setArrivalRate(10)).toEqual({ ok: true });
    expect(frames.at(-1)!.timeMs).toBe(0);
    expect(session.currentScenario()!.serving.rateRps).toBe(10);
    session.setSpeed(5);
    session.play();
    advanceTime(1000);
    const t = frames.at(-1)!.timeMs;
    expect(t).toBeGreaterThanOrEqual(4_500);
    expect(t).toBeLessThanOrEqual(5_000);
    session.setSpeed('max');
    advanceTime(5_000);
    expect(frames.at(-1)!.status).toBe('done');
  });

  it('keeps each lane series bounded on a long run', () => {
    const { host, frames } = manualHost();
    const session = new ServingSession(host);
    const s = small(3000);
    session.load({ ...s, serving: { ...s.serving, rateRps: 2, assumptions: { ...s.serving.assumptions, slotMs: 100 } } });
    session.step(3_000_000);
    let points = 0;
    for (const f of frames) points = f.replace ? f.lanes[0]!.points.endMs.length : points + f.lanes[0]!.points.endMs.length;
    expect(points).toBeLessThanOrEqual(SERIES_MAX_POINTS);
    expect(frames.at(-1)!.stride).toBeGreaterThanOrEqual(16);
    const slots = collect(frames, 0);
    expect(slots.endMs.at(-1)).toBe(3_000_000);
  });

  it('sends the reference lanes’ search progress before the lanes exist, then a frame that ends it', () => {
    const { host, frames } = manualHost();
    const session = new ServingSession(host);
    const base = small(30);
    const scenario: ServingScenario = {
      ...base,
      serving: { ...base.serving, lanes: [{ scheduler: 'fixed' }, { scheduler: 'fixed-hindsight', params: { maxBatch: 4, maxInstances: 2 } }, { scheduler: 'fixed-per-phase', params: { maxBatch: 2, maxInstances: 1 } }] },
    };
    expect(session.load(scenario).ok).toBe(true);
    const searching = frames.filter((f) => f.search != null);
    const firstBuilt = frames.findIndex((f) => f.lanes.length > 0);
    // Every progress frame comes before the lanes' first frame, and has no lanes.
    expect(searching.length).toBeGreaterThan(2);
    expect(frames.slice(0, firstBuilt).every((f) => f.search != null && f.lanes.length === 0)).toBe(true);
    expect(frames[firstBuilt]!.search).toBeNull();
    const progress = searching.map((f) => f.search!);
    expect(new Set(progress.map((p) => `${p.lane}:${p.label}:${p.ordinal}/${p.of}`))).toEqual(new Set(['1:Best fixed in hindsight:1/2', '2:Best fixed per phase:2/2']));
    for (const lane of [1, 2]) {
      const own = progress.filter((p) => p.lane === lane);
      expect(own[0]!.done).toBe(1);
      for (let i = 1; i < own.length; i++) expect(own[i]!.done).toBeGreaterThan(own[i - 1]!.done);
      expect(own.every((p) => p.done <= p.total)).toBe(true);
    }
    // Frames after the first built one say nothing about a search.
    session.step(2000);
    expect(frames.slice(firstBuilt + 1).every((f) => f.search === undefined)).toBe(true);
    // A scenario without reference lanes sends no search field at all.
    const plain = manualHost();
    new ServingSession(plain.host).load(small(30));
    expect(plain.frames.every((f) => f.search === undefined)).toBe(true);
  });
});
