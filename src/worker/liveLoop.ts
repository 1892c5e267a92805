/**
 * What every live session shares, whatever its world: the host it runs on, pacing to a
 * speed, the cadence of frames and the measured simulation speed, the log of live edits
 * replayed after a seek, and bounded checkpoints for time travel. The pipeline session
 * (ODIN, queries) and the serving session (BCEdge, simulated milliseconds) are built on it;
 * a new world's session is too.
 */

/** What a session needs from where it runs (the worker, or a test). */
export interface SessionHost<F> {
  /** Wall-clock milliseconds. */
  now(): number;
  /** Runs `fn` after about `delayMs`. */
  schedule(fn: () => void, delayMs: number): void;
  /** Hands a frame to the page; `transfer` lists the buffers it may move. */
  emit(frame: F, transfer: ArrayBuffer[]): void;
  /**
   * Runs background work (`start`: a search, a sweep, a load) when the host lets it: the
   * worker holds it until the run's first frame past 0 went out (`BackgroundGate`). Absent: at once.
   */
  background?(start: () => void): void;
}

export type PlaybackStatus = 'paused' | 'playing' | 'done';

/** Playback speed in the world's speed unit (queries or simulated seconds per wall second), or 'max'. */
export type Speed = number | 'max';

/** Wall-clock time one tick may compute before it yields and reports, ms. */
export const TICK_BUDGET_MS = 12;
/** Minimum wall-clock time between two frames, ms (≈ 60 frames per second). */
export const FRAME_INTERVAL_MS = 16;
/** At full speed frames come at most this often (≈ 30 per second): the page has less to do. */
export const MAX_SPEED_FRAME_INTERVAL_MS = 33;
/** Points a lane's downsampled series holds at most before neighbours merge and the stride doubles (both worlds). */
export const SERIES_MAX_POINTS = 1024;

/** What the loop asks of the world it paces. */
export interface PacedWorld {
  /** Where the run is, in the world's position unit (queries served, simulated ms). */
  position(): number;
  /** Where the run ends, in the same unit. */
  end(): number;
  /** Position units one speed unit covers in one wall-clock second (1 query; 1000 simulated ms). */
  readonly unitsPerSpeedSecond: number;
  /** Whether positions are whole numbers (queries are; simulated time is not). */
  readonly integral: boolean;
  /** Advances some way toward `target` (at most to it); the loop calls again while its budget lasts. */
  advanceToward(target: number): void;
}

/**
 * Pacing and frame cadence for a live session: play, pause and speed; a tick that advances
 * the world toward where the wall clock says it should be, for at most TICK_BUDGET_MS, then
 * reports; and the measured speed over the last wall-clock second. It owns no timers: the
 * host schedules.
 */
export class LiveLoop {
  status: PlaybackStatus = 'paused';
  private speedNow: Speed;
  private playStartMs = 0;
  private playStartPosition = 0;
  private lastFrameMs = Number.NEGATIVE_INFINITY;
  private ticking = false;
  private speedWindow: { timeMs: number; position: number }[] = [];

  constructor(
    private readonly host: Pick<SessionHost<unknown>, 'now' | 'schedule'>,
    private readonly world: PacedWorld,
    /** Called after each tick's work: `force` when the frame must go out (the run just ended). */
    private readonly report: (force: boolean) => void,
    initialSpeed: Speed,
  ) {
    this.speedNow = initialSpeed;
  }

  get speed(): Speed {
    return this.speedNow;
  }

  /** Starts playing (not when done); the first tick runs as soon as the host lets it. */
  play(): void {
    if (this.status === 'done') return;
    this.status = 'playing';
    this.restartClock();
    if (this.ticking) return;
    this.ticking = true;
    this.host.schedule(() => this.tick(), 0);
  }

  /** Pauses; true if it was playing. */
  pause(): boolean {
    if (this.status !== 'playing') return false;
    this.status = 'paused';
    return true;
  }

  /** Paused, or done when the world has reached its end. */
  settle(): void {
    this.status = this.world.position() >= this.world.end() ? 'done' : 'paused';
  }

  /** Sets the speed (the caller has checked its bounds); the pace counts from now. */
  setSpeed(speed: Speed): void {
    this.speedNow = speed;
    this.restartClock();
  }

  /** The pace counts from the world's position now (after a load, a seek or a replay). */
  restartClock(): void {
    this.playStartMs = this.host.now();
    this.playStartPosition = this.world.position();
  }

  /** Forgets the speed measured so far (a fresh run). */
  resetMeasure(): void {
    this.speedWindow = [];
  }

  /**
   * Whether a frame is due now (or `force`); when it is, the frame's time is noted and the
   * measured speed (speed units per wall second over the last second) is returned.
   */
  frameDue(force: boolean): { readonly measuredSpeed: number } | null {
    const now = this.host.now();
    const interval = this.speedNow === 'max' ? MAX_SPEED_FRAME_INTERVAL_MS : FRAME_INTERVAL_MS;
    if (!force && now - this.lastFrameMs < interval) return null;
    this.lastFrameMs = now;
    const position = this.world.position();
    this.speedWindow.push({ timeMs: now, position });
    while (this.speedWindow.length > 2 && now - this.speedWindow[0]!.timeMs > 1000) this.speedWindow.shift();
    const oldest = this.speedWindow[0]!;
    const measuredSpeed = now > oldest.timeMs ? ((position - oldest.position) * 1000) / (now - oldest.timeMs) / this.world.unitsPerSpeedSecond : 0;
    return { measuredSpeed };
  }

  private tick(): void {
    this.ticking = false;
    if (this.status !== 'playing') return;
    const start = this.host.now();
    const end = this.world.end();
    let target = end;
    if (this.speedNow !== 'max') {
      const due = ((start - this.playStartMs) * this.speedNow * this.world.unitsPerSpeedSecond) / 1000;
      target = Math.min(end, this.playStartPosition + (this.world.integral ? Math.floor(due) : due));
    }
    while (this.world.position() < target && this.host.now() - start < TICK_BUDGET_MS) this.world.advanceToward(target);
    const done = this.world.position() >= end;
    if (done) this.status = 'done';
    this.report(done);
    if (this.status === 'playing') {
      this.ticking = true;
      this.host.schedule(() => this.tick(), this.speedNow === 'max' ? 0 : FRAME_INTERVAL_MS);
    }
  }
}

/**
 * Live edits (a placed workload, a parameter, a tenant) kept with the position they were
 * made at, so that a replay from a checkpoint applies each again where it happened. Each
 * entry knows whether the world as it stands has had it (`due` hands out those it has not).
 */
export class EditLog<E> {
  private entries: { readonly position: number; readonly edit: E; applied: boolean }[] = [];

  /** The edits in the order they were made. */
  get all(): readonly E[] {
    return this.entries.map((e) => e.edit);
  }

  /** The edits in the order of their positions (made at the same position: in the order they were made). */
  get ordered(): readonly E[] {
    return this.sorted().map((e) => e.edit);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Keeps an edit made at `position`; `applied` when the world has it already. */
  add(position: number, edit: E, applied = false): void {
    this.entries.push({ position, edit, applied });
  }

  /** The edits made at exactly `position`, in the order they were made. */
  at(position: number): E[] {
    return this.entries.filter((e) => e.position === position).map((e) => e.edit);
  }

  /** The world went back to `position` (a checkpoint taken there, before its edits): it has the edits made before, not the others. */
  rewindTo(position: number): void {
    for (const e of this.entries) e.applied = e.position < position;
  }

  /** The edits up to `position` the world has not had yet, in position order; they count as applied from now. */
  takeDue(position: number): E[] {
    const due = this.sorted().filter((e) => !e.applied && e.position <= position);
    for (const e of due) e.applied = true;
    return due.map((e) => e.edit);
  }

  /** Where the next edit the world has not had lies past `position` (Infinity when none). */
  nextAfter(position: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const e of this.entries) if (!e.applied && e.position > position && e.position < next) next = e.position;
    return next;
  }

  remove(edit: E): void {
    this.entries = this.entries.filter((e) => e.edit !== edit);
  }

  clear(): void {
    this.entries = [];
  }

  private sorted() {
    // Array.prototype.sort is stable: edits at one position keep the order they were made in.
    return [...this.entries].sort((a, b) => a.position - b.position);
  }
}

/**
 * A memory budget for checkpoints: what they may hold together, in bytes, and the part of a
 * checkpoint that is its memory (`held`: its copies, without the live objects it names).
 */
export interface CheckpointBudget<C> {
  readonly bytes: number;
  held(checkpoint: C): unknown;
}

/** Checkpoints taken at the first spacing before a budgeted log fits its spacing to the run (`CheckpointLog`). */
export const CHECKPOINT_FIT_AFTER = 6;
/** The part of the budget a fitted spacing aims at: the checkpoints grow a little as a run goes on (a learner's buffers filling). */
export const CHECKPOINT_FIT_HEADROOM = 0.85;

/**
 * Checkpoints of a session for time travel, bounded: one every `every` position units at
 * first; past `max` of them, or past the memory `budget` when there is one, the spacing
 * doubles (every other one is dropped), so a run of any length keeps at most `max` and a
 * seek replays at most one spacing.
 *
 * Under a budget, with the run's end known (`reset`'s `end`), the spacing is fitted to the run
 * once `CHECKPOINT_FIT_AFTER` checkpoints are taken: the finest spacing, in whole tenths of the
 * first, at which the checkpoints to the end would fill `CHECKPOINT_FIT_HEADROOM` of the budget
 * at the rate they have grown so far (and at most `max` of them). Doubling alone would go from
 * 10 s straight to 20 s on a run that needs 14 s; a seek's longest replay is one spacing.
 */
export class CheckpointLog<C> {
  private items: { readonly position: number; readonly checkpoint: C }[] = [];
  private every: number;
  /** Under a budget: the buffers and objects the checkpoints hold, each once, and their bytes. */
  private seen = new Set<object>();
  private total = 0;
  /** Where the run ends (a fit's horizon), and the memory after the first checkpoint; null once fitted or without a budget. */
  private fit: { readonly end: number; readonly firstBytes: number } | null = null;

  constructor(
    private readonly firstEvery: number,
    private readonly max: number,
    private readonly budget: CheckpointBudget<C> | null = null,
  ) {
    this.every = firstEvery;
  }

  get size(): number {
    return this.items.length;
  }

  /** The checkpoints' memory under a budget (shared parts counted once), bytes; 0 without one. */
  get bytes(): number {
    return this.total;
  }

  /** Where the checkpoints are, in order. */
  get positions(): readonly number[] {
    return this.items.map((c) => c.position);
  }

  /** The spacing now, in position units. */
  get spacing(): number {
    return this.every;
  }

  /** Starts again with one checkpoint at `position`; `end`, where the run ends, lets a budgeted log fit its spacing to it. */
  reset(position: number, checkpoint: C, end?: number): void {
    this.every = this.firstEvery;
    this.items = [{ position, checkpoint }];
    this.measure();
    this.fit = this.budget !== null && end !== undefined && end > position ? { end, firstBytes: this.total } : null;
  }

  /** The next position past `position` where a checkpoint may be due (a multiple of the spacing). */
  nextDue(position: number): number {
    return (Math.floor(position / this.every) + 1) * this.every;
  }

  /** Whether a checkpoint is due at `position` (a multiple of the spacing, past the last one). */
  due(position: number): boolean {
    return position % this.every === 0 && position > (this.items.at(-1)?.position ?? Number.NEGATIVE_INFINITY);
  }

  add(position: number, checkpoint: C): void {
    this.items.push({ position, checkpoint });
    if (this.budget !== null) this.total += retainedBytes(this.budget.held(checkpoint), this.seen);
    if (this.fit !== null && this.items.length > CHECKPOINT_FIT_AFTER) this.fitSpacing(this.fit, position);
    while (this.items.length > this.max || (this.budget !== null && this.total > this.budget.bytes && this.items.length > 2)) {
      this.every *= 2;
      this.items = this.items.filter((c, i) => i === 0 || c.position % this.every === 0);
      this.measure();
    }
  }

  /**
   * The latest checkpoint at or before `target` (the first one when none is): where a seek
   * replays from. A checkpoint is taken before the edits made at its position, which are due
   * again when it is restored, so one at `target` itself is a seek's whole way there.
   */
  before(target: number): { readonly position: number; readonly checkpoint: C } {
    let from = this.items[0]!;
    for (const c of this.items) if (c.position <= target && c.position >= from.position) from = c;
    return from;
  }

  /**
   * Sets the spacing from here on (the checkpoints taken stay) to the finest that keeps the
   * checkpoints to the end within the headroom of the budget and `max`, in tenths of the first
   * spacing, never finer than it is.
   */
  private fitSpacing(fit: { readonly end: number; readonly firstBytes: number }, position: number): void {
    this.fit = null;
    const taken = this.items.length - 1;
    const perCheckpoint = (this.total - fit.firstBytes) / taken;
    const room = CHECKPOINT_FIT_HEADROOM * this.budget!.bytes - this.total;
    const ahead = fit.end - position;
    const byMemory = room > 0 ? (ahead * perCheckpoint) / room : Number.POSITIVE_INFINITY;
    const byCount = ahead / Math.max(1, this.max - this.items.length);
    const granule = this.firstEvery / 10;
    const every = Math.ceil(Math.max(this.every, byMemory, byCount) / granule) * granule;
    if (Number.isFinite(every)) this.every = every;
  }

  /** Forgets the checkpoints past `position` (the future a live edit changed). */
  dropAfter(position: number): void {
    this.items = this.items.filter((c) => c.position <= position);
    this.measure();
  }

  /** Counts the checkpoints' memory afresh (after some were dropped). */
  private measure(): void {
    if (this.budget === null) return;
    this.seen = new Set();
    this.total = 0;
    for (const c of this.items) this.total += retainedBytes(this.budget.held(c.checkpoint), this.seen);
  }
}

/**
 * The bytes `value` holds that `seen` does not hold already (then adds them to it): typed
 * arrays count their buffer's length, numbers 8, strings 2 a character, objects and arrays
 * 16 besides what they hold. An estimate of what a checkpoint keeps alive, with its shared
 * parts (an unchanged chunk of a replay buffer, a slot record) counted once.
 */
export function retainedBytes(value: unknown, seen: Set<object>): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') bytes += 8;
    else if (typeof v === 'string') bytes += 2 * v.length;
    else if (typeof v === 'object' && v !== null) {
      if (ArrayBuffer.isView(v)) {
        if (!seen.has(v.buffer)) {
          seen.add(v.buffer);
          bytes += v.buffer.byteLength;
        }
        continue;
      }
      if (seen.has(v)) continue;
      seen.add(v);
      bytes += 16;
      if (Array.isArray(v)) for (const x of v) stack.push(x);
      else if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
      else for (const x of Object.values(v)) stack.push(x);
    }
  }
  return bytes;
}
