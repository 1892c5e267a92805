import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualHost } from '../../../worker/testing/manualHost';
import { registerWorld } from '../../../kit/worlds';
import type { QueueFrame } from '../worker/queuePlugin';
import { queueScenario } from '../schema';
import { queueLaneRun, queueWorld, runQueueLane } from '../world';
import { queueLab } from './queueLab';

let unregister: () => void;
beforeAll(() => {
  unregister = registerWorld(queueWorld);
});
afterAll(() => unregister());

/** The queue lab on a manual clock: the session's ticks run when the test moves the clock. */
function lab() {
  const h = manualHost<QueueFrame>();
  return { ...queueLab(h.host), advanceTime: h.advanceTime };
}

/** The lanes' summaries of a headless run to `timeMs`. */
const headless = (timeMs: number) =>
  queueScenario().queue.lanes.map((_, k) => {
    const run = queueLaneRun(queueScenario(), k);
    run.advanceTo(timeMs);
    return run.summary();
  });

describe('the third world through the live kit (ARCHITECTURE §7b): LiveSession and createLiveStore', () => {
  it('loads a queue scenario, steps, plays, goes back in time and reads its frames, with the headless kit\'s numbers', async () => {
    const { store, advanceTime } = lab();
    expect(await store.getState().load(queueScenario(), 'preset')).toBe(true);
    let s = store.getState();
    expect(s.scenario).toEqual(queueScenario());
    expect(s.lanes.map((l) => l.scheduler)).toEqual(['fixed', 'threshold']);
    expect([s.status, s.position, s.speed]).toEqual(['paused', 0, 10]);

    // A step of 10 simulated seconds: one point per second on each lane, and the summaries.
    await store.getState().step(10_000);
    s = store.getState();
    expect(s.position).toBe(10_000);
    expect(s.series.map((b) => b.length)).toEqual([10, 10]);
    expect(Array.from(s.series[0]!.columns.timeMs.subarray(0, 3))).toEqual([1000, 2000, 3000]);
    expect(s.summaries).toEqual(headless(10_000));
    expect(s.live[0]).toEqual(expect.objectContaining({ busy: expect.any(Number), waiting: expect.any(Number) }));

    // Playing at 10× for one wall-clock second runs 10 simulated seconds more.
    await store.getState().play();
    advanceTime(1000);
    expect(store.getState().status).toBe('playing');
    await store.getState().pause();
    s = store.getState();
    expect(s.status).toBe('paused');
    expect(s.position).toBe(20_000);
    expect(s.furthest).toBe(20_000);
    expect(s.series.map((b) => b.length)).toEqual([20, 20]);
    const played = s.position;

    // Back in time: a new generation, the series replaced by the replay's, the same numbers.
    const generation = s.generation;
    expect(await store.getState().seek(5_000)).toBe(true);
    s = store.getState();
    expect(s.generation).toBeGreaterThan(generation);
    expect(s.position).toBe(5_000);
    expect(s.furthest).toBe(played);
    expect(s.series.map((b) => b.length)).toEqual([5, 5]);
    expect(s.summaries).toEqual(headless(5_000));

    // To the end: the live session's summaries are the headless runs' (`runQueueLane`).
    expect(await store.getState().seek(600_000)).toBe(true);
    s = store.getState();
    expect(s.status).toBe('done');
    expect(s.summaries).toEqual([runQueueLane(queueScenario(), 0), runQueueLane(queueScenario(), 1)]);
    expect(s.series[0]!.length).toBe(600);
  });

  it('is a door: a bad field is refused by name and the last good scenario keeps running; a bad seek is refused', async () => {
    const { store } = lab();
    await store.getState().load(queueScenario(), 'preset');
    const bad = { ...queueScenario(), queue: { ...queueScenario().queue, serviceRps: 0 } };
    expect(await store.getState().load(bad, 'file')).toBe(false);
    expect(store.getState().errors?.errors.map((e) => e.path)).toEqual(['queue.serviceRps']);
    expect(store.getState().scenario).toEqual(queueScenario());
    expect(await store.getState().seek(700_000)).toBe(false);
    expect(store.getState().errors?.errors.map((e) => e.path)).toEqual(['timeMs']);
  });
});
