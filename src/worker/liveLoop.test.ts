import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FIT_AFTER, CHECKPOINT_FIT_HEADROOM, CheckpointLog, EditLog, FRAME_INTERVAL_MS, LiveLoop, MAX_SPEED_FRAME_INTERVAL_MS, retainedBytes, TICK_BUDGET_MS } from './liveLoop';
import { manualHost } from './testing/manualHost';

/**
 * A tiny world: a counter that adds its increment at every step, the increment being what
 * live edits change. Every step costs `costMs` of the manual clock, so the loop's budget
 * can be watched.
 */
function fakeWorld(end: number, costMs = 0, clock?: { advance(ms: number): void }) {
  const state = { position: 0, value: 0, increment: 1 };
  const edits = new EditLog<number>();
  const checkpoints = new CheckpointLog<{ value: number; increment: number }>(4, 8);
  checkpoints.reset(0, { value: 0, increment: 1 });
  const stepOnce = (_?: undefined) => {
    void _;
    state.value += state.increment;
    state.position++;
    clock?.advance(costMs);
    if (checkpoints.due(state.position)) checkpoints.add(state.position, { value: state.value, increment: state.increment });
    for (const increment of edits.at(state.position)) state.increment = increment;
  };
  return {
    state,
    edits,
    checkpoints,
    world: { position: () => state.position, end: () => end, unitsPerSpeedSecond: 1, integral: true, advanceToward: (target: number) => stepOnce(void target) },
    edit(increment: number) {
      edits.add(state.position, increment);
      state.increment = increment;
    },
    /** Back by restoring the latest checkpoint before `target` and replaying (edits included). */
    seek(target: number) {
      const from = checkpoints.before(target);
      state.position = from.position;
      state.value = from.checkpoint.value;
      state.increment = from.checkpoint.increment;
      for (const increment of edits.at(state.position)) state.increment = increment;
      while (state.position < target) stepOnce();
    },
  };
}

describe('LiveLoop', () => {
  it('paces the world to its speed and reports the measured speed', () => {
    const { host, advanceTime } = manualHost<never>();
    const fake = fakeWorld(1000);
    const speeds: number[] = [];
    // As a session does: each report asks whether a frame is due and what speed it measured.
    const loop: LiveLoop = new LiveLoop(host, fake.world, (force) => void speeds.push(loop.frameDue(force)?.measuredSpeed ?? Number.NaN), 10);
    loop.play();
    advanceTime(0);
    advanceTime(1000);
    // 10 units per second of the wall clock; the ticks come every frame interval.
    expect(fake.state.position).toBeGreaterThanOrEqual(9);
    expect(fake.state.position).toBeLessThanOrEqual(10);
    const measured = speeds.filter((v) => !Number.isNaN(v)).at(-1)!;
    expect(measured).toBeGreaterThan(8);
    expect(measured).toBeLessThanOrEqual(11);
    expect(loop.pause()).toBe(true);
    const at = fake.state.position;
    advanceTime(1000);
    expect(fake.state.position).toBe(at);
    expect(loop.pause()).toBe(false);
  });

  it('computes at most a tick budget per tick at full speed and ends done with a forced report', () => {
    const { host, advanceTime } = manualHost<never>();
    let time = 0;
    const clocked = { ...host, now: () => time + host.now() };
    const fake = fakeWorld(500, 1, { advance: (ms) => (time += ms) });
    const reports: boolean[] = [];
    const loop = new LiveLoop(clocked, fake.world, (force) => reports.push(force), 'max');
    loop.play();
    advanceTime(0);
    expect(fake.state.position).toBe(500);
    // Each tick computed for its budget (one unit costs 1 ms here), then reported.
    expect(reports.length).toBe(Math.ceil(500 / TICK_BUDGET_MS));
    expect(loop.status).toBe('done');
    expect(reports.at(-1)).toBe(true);
    // Done stays done: play does nothing until the world is reset.
    loop.play();
    expect(loop.status).toBe('done');
  });

  it('sends frames at most once per frame interval unless forced (less often at full speed)', () => {
    const { host, advanceTime } = manualHost<never>();
    const fake = fakeWorld(10);
    const loop = new LiveLoop(host, fake.world, () => undefined, 1);
    expect(loop.frameDue(false)).not.toBeNull();
    expect(loop.frameDue(false)).toBeNull();
    expect(loop.frameDue(true)).not.toBeNull();
    advanceTime(FRAME_INTERVAL_MS);
    expect(loop.frameDue(false)).not.toBeNull();
    loop.setSpeed('max');
    advanceTime(FRAME_INTERVAL_MS);
    expect(loop.frameDue(false)).toBeNull();
    advanceTime(MAX_SPEED_FRAME_INTERVAL_MS - FRAME_INTERVAL_MS);
    expect(loop.frameDue(false)).not.toBeNull();
  });
});

describe('time travel with CheckpointLog and EditLog', () => {
  it('seeking back and replaying gives what an uninterrupted run gave, live edits included', () => {
    const straight = fakeWorld(200);
    const values: number[] = [0];
    for (let p = 1; p <= 200; p++) {
      straight.world.advanceToward(p);
      if (p === 37) straight.edit(3);
      if (p === 120) straight.edit(-2);
      values.push(straight.state.value);
    }
    for (const target of [0, 1, 36, 37, 38, 119, 120, 121, 199, 200, 57]) {
      straight.seek(target);
      expect(straight.state.value, `at ${target}`).toBe(values[target]);
    }
  });

  it('keeps at most its bound of checkpoints, doubling the spacing, and always the first', () => {
    const log = new CheckpointLog<number>(4, 8);
    log.reset(0, 0);
    for (let p = 1; p <= 10_000; p++) if (log.due(p)) log.add(p, p);
    expect(log.size).toBeLessThanOrEqual(9);
    expect(log.before(1).position).toBe(0);
    const last = log.before(10_001);
    expect(last.position).toBeGreaterThan(10_000 - 10_000 / 4);
    log.dropAfter(100);
    expect(log.before(10_001).position).toBeLessThanOrEqual(100);
  });

  it('under a memory budget, doubles the spacing when the checkpoints hold more, counting what they share once', () => {
    // Each checkpoint holds 1 kB of its own and a 64 kB block shared by all: about 2 × 1 kB + 64 kB per pair.
    const shared = new Float64Array(8192);
    const log = new CheckpointLog<{ own: Float64Array; shared: Float64Array }>(10, 1000, { bytes: 100_000, held: (c) => c });
    log.reset(0, { own: new Float64Array(128), shared });
    for (let p = 1; p <= 1000; p++) if (log.due(p)) log.add(p, { own: new Float64Array(128), shared });
    expect(log.bytes).toBeLessThanOrEqual(100_000);
    expect(log.bytes).toBeGreaterThan(65_536 + 10 * 1024);
    expect(log.spacing).toBeGreaterThan(10);
    // Without the shared block counted once, 30 checkpoints could not fit.
    expect(log.size).toBeGreaterThan(15);
    expect(retainedBytes({ a: shared, b: shared, n: 1 }, new Set())).toBe(65_536 + 16 + 8);
  });

  it('under a budget, with the run’s end known, fits the spacing to the run after its first checkpoints: the finest that keeps them all within the budget', () => {
    // 1 kB per checkpoint (a typed array counts its buffer); a run of 1000 units at 10 apart would need 100 kB against 40 kB.
    const run = (end?: number) => {
      const log = new CheckpointLog<Float64Array>(10, 1000, { bytes: 40_000, held: (c) => c });
      log.reset(0, new Float64Array(128), end);
      for (let p = 1; p <= 1000; p++) if (log.due(p)) log.add(p, new Float64Array(128));
      return log;
    };
    const fitted = run(1000);
    // After CHECKPOINT_FIT_AFTER at 10 (7 held, 7168 B): (1000 − 60) × 1024 B per checkpoint over 0.85 × 40,000 − 7168 B → 35.9, in whole units: 36.
    expect(fitted.spacing).toBe(36);
    expect(fitted.positions.slice(0, CHECKPOINT_FIT_AFTER + 2)).toEqual([0, 10, 20, 30, 40, 50, 60, 72]);
    expect(fitted.bytes).toBeLessThanOrEqual(CHECKPOINT_FIT_HEADROOM * 40_000);
    // Doubling alone goes from 10 to 40 here (20 does not fit): a seek replays up to 39, not 35.
    const doubled = run();
    expect(doubled.spacing).toBe(40);
    expect(doubled.bytes).toBeLessThanOrEqual(40_000);
    // A run that fits at the first spacing keeps it.
    const roomy = new CheckpointLog<Float64Array>(10, 1000, { bytes: 1_000_000, held: (c) => c });
    roomy.reset(0, new Float64Array(128), 1000);
    for (let p = 1; p <= 1000; p++) if (roomy.due(p)) roomy.add(p, new Float64Array(128));
    expect(roomy.spacing).toBe(10);
    expect(roomy.size).toBe(101);
  });

  it('an edit log gives back the edits of a position in order, and forgets removed ones', () => {
    const log = new EditLog<string>();
    log.add(5, 'a');
    log.add(7, 'b');
    log.add(5, 'c');
    expect(log.at(5)).toEqual(['a', 'c']);
    log.remove('a');
    expect(log.at(5)).toEqual(['c']);
    expect(log.all).toEqual(['b', 'c']);
  });
});
