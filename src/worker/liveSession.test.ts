import { describe, expect, it } from 'vitest';
import { TICK_BUDGET_MS } from './liveLoop';
import type { LiveFrame } from './liveProtocol';
import { LiveSession } from './liveSession';
import { manualHost } from './testing/manualHost';
import type { FrameContext, SessionContext, TimeTravel, WorldPlugin } from './worldPlugin';

/** How the counter world goes back: checkpoints at this spacing and count, or replay. */
type CounterTravel = { readonly every: number; readonly max: number } | 'replay';

/**
 * A tiny world: one lane, a counter that adds its increment at every unit of position; a
 * live edit sets the increment. Its frames carry the counter; it counts the units it ran,
 * its restores and its rebuilds, so the tests can see how the session went back.
 */
interface CounterScenario {
  readonly end: number;
  readonly start: number;
}
interface CounterFrame extends LiveFrame<{ readonly value: number }, { readonly total: number }> {
  readonly position: number;
  readonly furthest: number;
}
interface CounterTypes {
  readonly scenario: CounterScenario;
  readonly loaded: { readonly end: number };
  readonly frame: CounterFrame;
  readonly edit: { readonly increment: number };
  readonly checkpoint: { readonly position: number; readonly value: number; readonly increment: number };
}

class CounterWorld implements WorldPlugin<CounterTypes> {
  readonly unitsPerSpeedSecond = 1;
  readonly integral = true;
  readonly initialSpeed = 10;
  readonly speedLimits = { min: 1, max: 1000 };
  readonly positionField = 'position';
  readonly positionRule = 'an integer';
  readonly buildErrorPath = 'counter';
  scenario: CounterScenario = { end: 0, start: 0 };
  state = { position: 0, value: 0, increment: 1 };
  unitsRun = 0;
  restores = 0;
  rebuilds = 0;
  jumps = 0;

  readonly timeTravel: TimeTravel<CounterTypes['checkpoint']>;

  constructor(
    travel: CounterTravel,
    /** Wall-clock cost of one unit, ms (the manual clock advances by it). */
    private readonly cost: { ms: number; clock?: { advance(ms: number): void } } = { ms: 0 },
  ) {
    this.timeTravel =
      travel === 'replay'
        ? { by: 'replay', rebuild: () => this.rebuild() }
        : { by: 'checkpoints', ...travel, snapshot: () => this.snapshot(), restore: (c) => this.restore(c) };
  }

  attach(_session: SessionContext<CounterTypes>): void {
    void _session;
  }
  parse(input: unknown) {
    const s = input as Partial<CounterScenario> | null;
    if (s === null || typeof s !== 'object' || !(typeof s.end === 'number' && s.end >= 1)) {
      return { ok: false as const, errors: [{ path: 'end', message: 'must be a number ≥ 1' }] };
    }
    return { ok: true as const, scenario: { end: s.end, start: s.start ?? 0 } };
  }
  start(scenario: CounterScenario): void {
    if (scenario.start < 0) throw new Error('cannot start below 0');
    this.scenario = scenario;
    this.state = { position: 0, value: scenario.start, increment: 1 };
  }
  rebuild(): void {
    this.rebuilds++;
    this.state = { position: 0, value: this.scenario.start, increment: 1 };
  }
  position(): number {
    return this.state.position;
  }
  end(): number {
    return this.scenario.end;
  }
  advanceToward(target: number): void {
    // Several units per stretch, as real worlds do: the session must stop it at edits and checkpoints.
    for (let k = 0; k < 7 && this.state.position < target; k++) {
      this.state.value += this.state.increment;
      this.state.position++;
      this.unitsRun++;
      this.cost.clock?.advance(this.cost.ms);
    }
  }
  snapshot() {
    return { ...this.state };
  }
  restore(c: CounterTypes['checkpoint']): void {
    this.restores++;
    this.state = { ...c };
  }
  applyEdit(edit: CounterTypes['edit']): void {
    this.state.increment = edit.increment;
  }
  forgetAfter(): void {}
  jumped(): void {
    this.jumps++;
  }
  stepped(): void {}
  loaded() {
    return { end: this.scenario.end };
  }
  currentScenario(): CounterScenario {
    return this.scenario;
  }
  frameLanes() {
    return { lanes: [{ value: this.state.value }], replace: false, stride: 1 };
  }
  summaries() {
    return [{ total: this.state.value }];
  }
  frameExtra(context: FrameContext) {
    return { position: this.state.position, furthest: context.furthest };
  }
}

class CounterSession extends LiveSession<CounterTypes> {
  /** Sets the increment from now on (a live edit). */
  setIncrement(increment: number): void {
    this.edit({ increment });
    this.report(true);
  }
}

function counter(timeTravel: CounterTravel = { every: 4, max: 8 }, end = 200) {
  const h = manualHost<CounterFrame>();
  const world = new CounterWorld(timeTravel);
  const session = new CounterSession(h.host, world);
  expect(session.load({ end })).toEqual({ ok: true, end });
  return { ...h, world, session, last: () => h.frames.at(-1)! };
}

const TRAVELS: readonly [string, CounterTravel][] = [
  ['checkpoints', { every: 4, max: 8 }],
  ['replay from the start', 'replay'],
];

describe('LiveSession over a tiny world', () => {
  it('paces the world to its speed, reports the measured speed, and pauses with summaries', () => {
    const { session, advanceTime, last } = counter();
    session.play();
    expect(session.status).toBe('playing');
    advanceTime(0);
    for (let i = 0; i < 10; i++) advanceTime(100);
    // 10 units per wall second at the initial speed.
    expect(last().position).toBeGreaterThanOrEqual(9);
    expect(last().position).toBeLessThanOrEqual(10);
    expect(last().measuredSpeed).toBeGreaterThan(8);
    expect(last().measuredSpeed).toBeLessThanOrEqual(11);
    session.setSpeed(100);
    advanceTime(1000);
    expect(last().position).toBeGreaterThanOrEqual(105);
    session.pause();
    expect(last().status).toBe('paused');
    expect(last().summaries).toEqual([{ total: last().position }]);
  });

  it('plays at full speed in ticks of at most its budget, then finishes with summaries', () => {
    // Each unit costs 1 ms of this clock; the ticks the session schedules are run one by one.
    let nowMs = 0;
    const ticks: (() => void)[] = [];
    const frames: CounterFrame[] = [];
    const host = { now: () => nowMs, schedule: (fn: () => void) => void ticks.push(fn), emit: (frame: CounterFrame) => void frames.push(frame) };
    const world = new CounterWorld({ every: 4, max: 8 }, { ms: 1, clock: { advance: (ms) => (nowMs += ms) } });
    const session = new CounterSession(host, world);
    session.load({ end: 500 });
    session.setSpeed('max');
    session.play();
    ticks.shift()!();
    // One stretch (at most 7 units) may run past the budget, no more.
    expect(world.state.position).toBeGreaterThanOrEqual(TICK_BUDGET_MS);
    expect(world.state.position).toBeLessThanOrEqual(TICK_BUDGET_MS + 7);
    // At full speed a frame goes out at most every MAX_SPEED_FRAME_INTERVAL_MS: not after this first tick.
    expect(frames.at(-1)!.position).toBe(0);
    for (let i = 0; i < 200 && ticks.length > 0; i++) ticks.shift()!();
    expect(session.status).toBe('done');
    expect(frames.at(-1)!).toMatchObject({ status: 'done', position: 500, summaries: [{ total: 500 }] });
  });

  it('ignores speeds out of the world’s bounds and steps that are not whole units', () => {
    const { session, last } = counter();
    session.setSpeed(0);
    session.setSpeed(5000);
    session.play();
    session.pause();
    session.step(2.5);
    session.step(-1);
    expect(last().position).toBe(0);
    session.step(3);
    expect(last()).toMatchObject({ position: 3, status: 'paused', summaries: [{ total: 3 }] });
    session.step(1000);
    expect(last()).toMatchObject({ position: 200, status: 'done' });
  });

  for (const [name, travel] of TRAVELS) {
    it(`time travel by ${name}: seeking back or forward shows what an uninterrupted run showed there, live edits included`, () => {
      const straight = counter(travel);
      const values = [0];
      for (let p = 1; p <= 200; p++) {
        straight.session.step(1);
        if (p === 37) straight.session.setIncrement(3);
        if (p === 120) straight.session.setIncrement(-2);
        values.push(straight.last().lanes[0]!.value);
      }
      const { session, world, last } = counter(travel);
      session.step(37);
      session.setIncrement(3);
      session.step(83);
      session.setIncrement(-2);
      session.step(80);
      expect(last().lanes[0]!.value).toBe(values[200]);
      for (const target of [0, 1, 36, 37, 38, 119, 120, 121, 199, 200, 57, 150]) {
        const generation = last().generation;
        const unitsBefore = world.unitsRun;
        const back = target <= last().position;
        expect(session.seek(target)).toEqual({ ok: true });
        expect(last().lanes[0]!.value, `at ${target}`).toBe(values[target]);
        expect(last()).toMatchObject({ position: target, furthest: 200, summaries: [{ total: values[target] }] });
        expect(last().generation).toBeGreaterThan(generation);
        // Checkpoints: a seek back replays at most one spacing (4 units at first, doubled past 8 of them: 32 for 200).
        if (travel !== 'replay' && back) expect(world.unitsRun - unitsBefore).toBeLessThanOrEqual(32);
      }
      if (travel === 'replay') expect(world.rebuilds).toBeGreaterThan(0);
      else expect(world.restores).toBeGreaterThan(0);
      expect(world.jumps).toBe(12);
    });

    it(`edit replay by ${name}: an edit after a seek back goes before the later ones, and the run is run afresh from there`, () => {
      const { session, last } = counter(travel);
      session.step(37);
      session.setIncrement(3);
      session.step(83);
      session.setIncrement(-2);
      session.step(80);
      session.seek(50);
      session.setIncrement(5);
      // The future the run had seen is gone: the time line ends here.
      expect(last().furthest).toBe(50);
      session.step(150);
      // The same as making the edits in position order in a fresh session.
      const fresh = counter(travel);
      fresh.session.step(37);
      fresh.session.setIncrement(3);
      fresh.session.step(13);
      fresh.session.setIncrement(5);
      fresh.session.step(70);
      fresh.session.setIncrement(-2);
      fresh.session.step(80);
      expect(last().lanes[0]!.value).toBe(fresh.last().lanes[0]!.value);
      expect(last().lanes[0]!.value).toBe(37 + 13 * 3 + 70 * 5 - 80 * 2);
      // And seeking back into the new history gives it again.
      session.seek(60);
      expect(last().lanes[0]!.value).toBe(37 + 13 * 3 + 10 * 5);
    });
  }

  it('refuses a bad position with a message naming the field, and a scenario before one is loaded', () => {
    const h = manualHost<CounterFrame>();
    const session = new CounterSession(h.host, new CounterWorld('replay'));
    expect(session.seek(3)).toEqual({ ok: false, errors: [{ path: 'position', message: 'no scenario is loaded' }] });
    session.load({ end: 120 });
    expect(session.seek(121)).toEqual({ ok: false, errors: [{ path: 'position', message: 'must be an integer from 0 to 120, got 121' }] });
    expect(session.seek(2.5)).toEqual({ ok: false, errors: [{ path: 'position', message: 'must be an integer from 0 to 120, got 2.5' }] });
    expect(session.seek('10')).toEqual({ ok: false, errors: [{ path: 'position', message: 'must be an integer from 0 to 120, got "10"' }] });
  });

  it('keeps the last good scenario when one does not parse or cannot be built', () => {
    const { session, last } = counter();
    session.step(10);
    expect(session.load({ end: -1 })).toEqual({ ok: false, errors: [{ path: 'end', message: 'must be a number ≥ 1' }] });
    expect(last().position).toBe(10);
    expect(session.load({ end: 50, start: -1 })).toEqual({ ok: false, errors: [{ path: 'counter', message: 'cannot start below 0' }] });
    expect(session.currentScenario()).toEqual({ end: 200, start: 0 });
    session.step(500);
    expect(last().position).toBe(200);
  });

  it('a reset starts again with a new generation and forgets the edits', () => {
    const { session, last } = counter('replay');
    session.step(10);
    session.setIncrement(4);
    session.step(10);
    const generation = last().generation;
    session.reset();
    expect(last()).toMatchObject({ position: 0, furthest: 0, lanes: [{ value: 0 }] });
    expect(last().generation).toBeGreaterThan(generation);
    session.step(10);
    expect(last().lanes[0]!.value).toBe(10);
  });
});
