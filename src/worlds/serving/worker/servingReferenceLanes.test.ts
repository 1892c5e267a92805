import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { runServingScenario } from '../scenario/servingRunner';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import type { ServingFrame } from './servingProtocol';
import { ServingSession } from './servingSession';
import { manualHost } from '../../../worker/testing/manualHost';

/**
 * Three models for 30 s with a tenant from 10 to 20 s (three phases), Triton and both
 * reference lanes on a small grid (b ≤ 4, m_c ≤ 2): about 150 runs of the trace to search.
 */
function oracles(seed = 1): ServingScenario {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  const grid = { maxBatch: 4, maxInstances: 2 };
  return {
    ...s,
    seed,
    serving: {
      ...s.serving,
      durationS: 30,
      models: s.serving.models.slice(0, 3),
      background: [{ fromS: 10, toS: 20, intensity: 0.5, memoryMb: 1000 }],
      lanes: [{ scheduler: 'fixed' }, { scheduler: 'fixed-hindsight', params: grid }, { scheduler: 'fixed-per-phase', params: grid }],
    },
  };
}

type Summary = NonNullable<NonNullable<ServingFrame['summaries']>[number]>;
const withoutDecision = ({ decisionMeanUs: _d, ...rest }: Summary) => (void _d, rest);

/** The page-side series of a lane rebuilt from the frames (as a store would): end times and arrivals. */
function collect(frames: readonly ServingFrame[], lane: number) {
  let endMs: number[] = [];
  let arrivals: number[] = [];
  for (const f of frames) {
    const p = f.lanes[lane]!.points;
    if (f.replace) endMs = arrivals = [];
    endMs = [...endMs, ...p.endMs];
    arrivals = [...arrivals, ...p.arrivals];
  }
  return { endMs, arrivals };
}

const waiting = (frame: ServingFrame) => frame.lanes.some((l) => l.search !== undefined);

/** Runs the host's tasks 16 ms at a time until the run is over and no lane waits any more. */
function drain(frames: readonly ServingFrame[], advanceTime: (ms: number) => void): void {
  for (let i = 0; i < 20_000 && (frames.at(-1)!.status !== 'done' || waiting(frames.at(-1)!)); i++) advanceTime(16);
  expect(waiting(frames.at(-1)!)).toBe(false);
}

/** The last summaries a frame carried. */
const lastSummaries = (frames: readonly ServingFrame[]) => frames.findLast((f) => f.summaries !== undefined)!.summaries!;

/** Counts the searches started, of either kind, from here on. */
function countSearches() {
  return [vi.spyOn(SERVING_SCHEDULERS['fixed-hindsight'].reference!, 'start'), vi.spyOn(SERVING_SCHEDULERS['fixed-per-phase'].reference!, 'start')];
}
const started = (spies: ReturnType<typeof countSearches>) => spies.reduce((n, s) => n + s.mock.calls.length, 0);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reference lanes in the serving worker: searched beside the run, joined late, the command line’s numbers', () => {
  it('a run whose reference lanes joined while it played ends with the summaries of the command line, every lane', () => {
    const { host, frames, advanceTime } = manualHost<ServingFrame>(0.5);
    const session = new ServingSession(host);
    expect(session.load(oracles()).ok).toBe(true);
    session.setSpeed(5);
    session.play();
    drain(frames, advanceTime);
    // Both joined while the run was under way, before its end.
    for (const lane of [1, 2]) {
      const joined = frames.find((f) => f.lanes[lane]!.search === undefined)!;
      expect(joined.timeMs).toBeGreaterThan(0);
      expect(joined.timeMs).toBeLessThan(30_000);
    }
    const cli = runServingScenario(oracles()).map((r) => withoutDecision(r.summary));
    expect(lastSummaries(frames).map((s) => withoutDecision(s!))).toEqual(cli);
    // The plan and its cost are the command line's: the per-phase lane counts the hindsight search it started from.
    expect(cli[2]!.learning).toMatchObject({ fellBackToHindsight: expect.any(Boolean) });
  }, 60_000);

  it('a run stepped to its end before any search finished: the lanes join at the end, with the command line’s summaries', () => {
    const { host, frames, advanceTime } = manualHost<ServingFrame>(0.5);
    const session = new ServingSession(host);
    expect(session.load(oracles()).ok).toBe(true);
    session.step(30_000);
    const end = frames.at(-1)!;
    expect(end.status).toBe('done');
    expect(end.summaries!.map((s) => s === null)).toEqual([false, true, true]);
    drain(frames, advanceTime);
    expect(lastSummaries(frames).map((s) => withoutDecision(s!))).toEqual(runServingScenario(oracles()).map((r) => withoutDecision(r.summary)));
  }, 60_000);

  it('a lane built late has the live edits at their times: the same run as one whose plan was known from the start', () => {
    // A slower clock than elsewhere: the searches take more slices, and the edits come while both lanes wait.
    const { host, frames, advanceTime } = manualHost<ServingFrame>(3);
    const session = new ServingSession(host);
    expect(session.load(oracles()).ok).toBe(true);
    session.setSpeed(2);
    session.play();
    // A tenant dropped on the device early (a paced position, between two slot boundaries), then a Triton setting.
    // (The times are read from the frame each edit sends: the run may have gone on past the last frame before.)
    while (frames.at(-1)!.timeMs < 150) advanceTime(16);
    session.addBackground(0.3, 500);
    const tenantAtMs = frames.at(-1)!.timeMs;
    expect(tenantAtMs % 1000).not.toBe(0);
    while (frames.at(-1)!.timeMs < 300) advanceTime(16);
    expect(session.setModelConfig(0, 1, 8, 1)).not.toBeNull();
    const configAtMs = frames.at(-1)!.timeMs;
    expect(frames.at(-1)!.lanes.map((l) => l.search !== undefined)).toEqual([false, true, true]);
    drain(frames, advanceTime);
    // Both joined after the edits: they had them while catching up, which took more than one slice.
    for (const lane of [1, 2]) expect(frames.find((f) => f.lanes[lane]!.search === undefined)!.timeMs).toBeGreaterThan(configAtMs);
    const replayed = frames.flatMap((f) => f.lanes.map((l) => l.search?.replayedMs ?? null)).filter((t) => t !== null);
    expect(replayed.some((t) => t > 0)).toBe(true);
    const late = { summaries: lastSummaries(frames).map((s) => withoutDecision(s!)), series: [0, 1, 2].map((lane) => collect(frames, lane)) };

    // The same session keeps the plans: loaded again, every lane runs from the start. The same edits at the same times.
    const from = frames.length;
    expect(session.load(oracles()).ok).toBe(true);
    expect(waiting(frames.at(-1)!)).toBe(false);
    session.step(tenantAtMs);
    session.addBackground(0.3, 500);
    session.step(configAtMs - tenantAtMs);
    expect(frames.at(-1)!.timeMs).toBe(configAtMs);
    expect(session.setModelConfig(0, 1, 8, 1)).not.toBeNull();
    session.step(30_000);
    const upFront = frames.slice(from);
    expect(upFront.every((f) => !waiting(f))).toBe(true);
    expect(lastSummaries(upFront).map((s) => withoutDecision(s!))).toEqual(late.summaries);
    expect([0, 1, 2].map((lane) => collect(upFront, lane))).toEqual(late.series);
  }, 60_000);

  it('a checkpoint taken while a reference lane waited: restored after it joined, the lane catches up again from time 0, and the run ends with the command line’s summaries', () => {
    const { host, frames, advanceTime } = manualHost<ServingFrame>(0.5);
    const session = new ServingSession(host);
    expect(session.load(oracles()).ok).toBe(true);
    // Checkpoints at 0, 10 and 20 s hold both reference lanes waiting for their search.
    session.step(25_000);
    expect(frames.at(-1)!.lanes.map((l) => l.search !== undefined)).toEqual([false, true, true]);
    for (let i = 0; i < 20_000 && waiting(frames.at(-1)!); i++) advanceTime(16);
    expect(waiting(frames.at(-1)!)).toBe(false);
    // Back to 15 s: the checkpoint at 10 s had them waiting; their plans are known now, so they catch up from 0 and join.
    expect(session.seek(15_000)).toEqual({ ok: true });
    expect(frames.at(-1)!.timeMs).toBe(15_000);
    expect(frames.at(-1)!.lanes.map((l) => l.search !== undefined)).toEqual([false, true, true]);
    for (let i = 0; i < 20_000 && waiting(frames.at(-1)!); i++) advanceTime(16);
    expect(frames.at(-1)!.lanes.every((l) => l.live !== null)).toBe(true);
    session.step(15_000);
    expect(lastSummaries(frames).map((s) => withoutDecision(s!))).toEqual(runServingScenario(oracles()).map((r) => withoutDecision(r.summary)));
  }, 60_000);

  it('does not search again for the same scenario: a second load (another title and view), a seek back, a replay; another seed does', () => {
    const spies = countSearches();
    const { host, frames, advanceTime } = manualHost<ServingFrame>(0.5);
    const session = new ServingSession(host);
    expect(session.load(oracles()).ok).toBe(true);
    session.step(5_000);
    drain(frames, advanceTime);
    // One search per reference lane (the per-phase one started from the hindsight plan found).
    expect(started(spies)).toBe(2);

    // Reopened as a classroom link would: the same run, another title, presented, parts hidden.
    const again: ServingScenario = { ...oracles(), title: 'in class', view: { mode: 'presentation', hide: ['palette'] } };
    const from = frames.length;
    expect(session.load(again).ok).toBe(true);
    expect(waiting(frames.at(-1)!)).toBe(false);
    session.step(12_000);
    const added = session.addBackground(0.4, 800);
    if (!added.ok) throw new Error(JSON.stringify(added.errors));
    const tenant = added.backgrounds.at(-1)!;
    session.step(4_000);
    // Back in time (from a checkpoint), and a tenant dropped live ended now (a replay to here): every lane runs in every frame.
    expect(session.seek(3_000)).toEqual({ ok: true });
    session.step(10_000);
    session.removeBackground(tenant.id);
    advanceTime(1_000);
    expect(frames.slice(from).every((f) => !waiting(f) && f.lanes.every((l) => l.live !== null))).toBe(true);
    expect(started(spies)).toBe(2);
    // The scenario's own tenant ended early changes the run the plans are found on (the command line's): they are searched again.
    session.removeBackground(1);
    expect(frames.at(-1)!.lanes.map((l) => l.search !== undefined)).toEqual([false, true, true]);
    drain(frames, advanceTime);
    expect(started(spies)).toBe(4);

    // Another seed is another trace: both lanes search again, and then the first seed's plans are still kept.
    expect(session.load(oracles(2)).ok).toBe(true);
    expect(frames.at(-1)!.lanes.map((l) => l.search !== undefined)).toEqual([false, true, true]);
    drain(frames, advanceTime);
    expect(started(spies)).toBe(6);
    expect(session.load(oracles()).ok).toBe(true);
    expect(waiting(frames.at(-1)!)).toBe(false);
    expect(started(spies)).toBe(6);
  }, 60_000);
});
