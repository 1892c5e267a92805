import { describe, expect, it } from 'vitest';
import { manualHost as createManualHost } from '../../../worker/testing/manualHost';
import { findPreset } from '../../../scenario/presets';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { isLearningScheduler } from '../schedulers/registry';
import { runServingScenario } from '../scenario/servingRunner';
import type { ServingFrame } from './servingProtocol';
import { SERIES_MAX_POINTS } from '../../../worker/liveLoop';
import { ServingSession } from './servingSession';
import { done } from '../../../worker/testing/answers';

/** Another world's scenario, from the kit's list of presets (the lab's first one is the pipeline world's). */
const otherWorldScenario = () => structuredClone(findPreset('default')!.scenario);

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

const withoutDecision = <T extends { decisionMeanUs: number }>(summary: T | null) => {
  if (summary === null) return null;
  const { decisionMeanUs: _d, ...rest } = summary;
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
      const live = lane.live!;
      expect(live.models).toHaveLength(6);
      expect(live.memoryUsedMb).toBeGreaterThan(0);
      expect(live.memoryUsedMb).toBeLessThanOrEqual(live.memoryTotalMb);
      for (const m of live.models) {
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
    const bad = session.load(otherWorldScenario());
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
    // Its title names the model set apart, as a link reopened with this setting does.
    expect(info.label).toBe('Triton (fixed) b=8 m_c=2; yolo b=32 m_c=3');
    session.step(5_000);
    const s = collect(frames, 0);
    const models = frames.at(-1)!.models;
    const batchOfYolo = (point: number) => s.batch[point * models]!;
    expect(batchOfYolo(4)).toBe(8);
    expect(batchOfYolo(5)).toBe(8); // the slot under way when the setting changed (decided at 5 s)
    expect(batchOfYolo(6)).toBe(32);
    expect(batchOfYolo(9)).toBe(32);
    expect(frames.at(-1)!.lanes[0]!.live!.models[0]).toMatchObject({ batchSize: 32, instances: 3 });
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
    expect(before.lanes[0]!.live!.availableCompute).toBeLessThanOrEqual(0.5);
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
    // 3000 s of 100 ms slots, with a checkpoint every 10 s: seconds on a loaded machine.
  }, 30_000);

  it('starts the other lanes at once; a reference lane waits with its search’s progress and no points, then joins with every point up to now', () => {
    // The clock moves on as work is done, so the search runs in slices between the run's ticks.
    const { host, frames, advanceTime } = createManualHost<ServingFrame>(0.5);
    const session = new ServingSession(host);
    const base = small(30);
    const scenario: ServingScenario = {
      ...base,
      serving: { ...base.serving, lanes: [{ scheduler: 'fixed' }, { scheduler: 'fixed-hindsight', params: { maxBatch: 4, maxInstances: 2 } }, { scheduler: 'fixed-per-phase', params: { maxBatch: 2, maxInstances: 1 } }] },
    };
    const loaded = session.load(scenario);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    // Every lane is there from the load on: the reference lanes waiting, nothing searched yet.
    expect(loaded.lanes.map((l) => l.scheduler)).toEqual(['fixed', 'fixed-hindsight', 'fixed-per-phase']);
    const first = frames.at(-1)!;
    expect(first.lanes).toHaveLength(3);
    expect(first.lanes[0]!.search).toBeUndefined();
    // Hindsight: 6 uniform configurations and one pass over 6 models × 5 others. Per phase (grid 2): hindsight's 2 + 6, then
    // for its one phase its start, 2 uniform and 6, and the final run.
    expect(first.lanes.slice(1).map((l) => [l.search, l.live, l.points.endMs.length])).toEqual([
      [{ done: 0, total: 36, replayedMs: null }, null, 0],
      [{ done: 0, total: 18, replayedMs: null }, null, 0],
    ]);
    session.setSpeed(10);
    session.play();
    for (let i = 0; i < 2000 && frames.at(-1)!.status !== 'done'; i++) advanceTime(16);
    expect(frames.at(-1)!.status).toBe('done');
    const joinedAt = [0, 1, 2].map((lane) => frames.find((f) => f.lanes[lane]!.search === undefined)?.timeMs);
    // The fixed lane ran from the start; each reference lane joined once the run was under way, before its end.
    expect(joinedAt[0]).toBe(0);
    for (const lane of [1, 2]) {
      expect(joinedAt[lane]).toBeGreaterThan(0);
      expect(joinedAt[lane]).toBeLessThan(30_000);
    }
    for (const lane of [1, 2]) {
      const own = frames.map((f) => f.lanes[lane]!);
      const waiting = own.filter((l) => l.search !== undefined);
      // While it waits: no points, no device, no summary; its count of runs only goes up, to at most the bound.
      expect(waiting.every((l) => l.points.endMs.length === 0 && l.live === null)).toBe(true);
      expect(frames.filter((f) => f.lanes[lane]!.search !== undefined && f.summaries !== undefined).every((f) => f.summaries![lane] === null)).toBe(true);
      const done = waiting.map((l) => l.search!.done);
      expect(done.some((d) => d > 0)).toBe(true);
      for (let i = 1; i < done.length; i++) expect(done[i]).toBeGreaterThanOrEqual(done[i - 1]!);
      expect(waiting.every((l) => l.search!.done <= l.search!.total)).toBe(true);
      // Time went on while it searched.
      expect(frames.some((f) => f.timeMs > 0 && f.lanes[lane]!.search !== undefined && f.lanes[lane]!.search!.done > 0)).toBe(true);
      // The frame it joins in carries every point of every lane again, its own up to where the run is.
      const joined = frames.findIndex((f) => f.lanes[lane]!.search === undefined);
      const frame = frames[joined]!;
      expect(frame.replace).toBe(true);
      expect(frame.lanes[lane]!.points.endMs).toEqual(frame.lanes[0]!.points.endMs);
      expect(frame.lanes[lane]!.live).not.toBeNull();
    }
    // From then on each reference lane has the points the fixed lane has (the same slots), to the end.
    const series = [0, 1, 2].map((lane) => collect(frames, lane).endMs);
    expect(series[0]).toHaveLength(30);
    expect(series[1]).toEqual(series[0]);
    expect(series[2]).toEqual(series[0]);
    // A scenario without reference lanes has no lane that waits.
    const plain = manualHost();
    new ServingSession(plain.host).load(small(30));
    expect(plain.frames.every((f) => f.lanes.every((l) => l.search === undefined))).toBe(true);
  });
});
