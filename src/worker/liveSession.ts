/**
 * The generic live session (ARCHITECTURE §1): one class for every world. It owns pacing
 * (`LiveLoop`), frames (generation, status, stride, the world's lane data, summaries), the
 * log of live edits, checkpoints, and time travel (seek, step back, replay); the world
 * plugin (`worldPlugin.ts`) owns its scenario and lanes. A world's session subclasses it with the
 * world's live edits (`PipelineSession`, `ServingSession`). It owns no timers (the host
 * schedules), so it runs the same in a worker and a test.
 */
import { CheckpointLog, EditLog, LiveLoop, type PlaybackStatus, type SessionHost, type Speed } from './liveLoop';
import type { Answer, LiveFrame, LoadResultOf, Refused, SeekResult } from './liveProtocol';
import type { FrameContext, WorldPlugin } from './worldPlugin';
import type { SessionTypes } from '../kit/worldTypes';

export class LiveSession<T extends SessionTypes> {
  protected readonly loop: LiveLoop;
  protected readonly edits = new EditLog<T['edit']>();
  private readonly checkpoints: CheckpointLog<T['checkpoint']> | null;
  private started: T['scenario'] | null = null;
  private generationNow = 0;
  private furthestNow = 0;
  private summariesDue = false;

  constructor(
    protected readonly host: SessionHost<T['frame']>,
    protected readonly world: WorldPlugin<T>,
  ) {
    const travel = world.timeTravel;
    this.checkpoints = travel.by === 'replay' ? null : new CheckpointLog(travel.every, travel.max, travel.budget ?? null);
    world.attach({
      now: () => host.now(),
      schedule: (fn, delayMs) => host.schedule(fn, delayMs),
      ...(host.background === undefined ? {} : { background: (start: () => void) => host.background!(start) }),
      report: (force) => {
        if (force && this.loop.status !== 'playing') this.summariesDue = true;
        this.report(force);
      },
      generation: () => this.generationNow,
      status: () => this.loop.status,
      furthest: () => this.furthestNow,
      edits: () => this.edits.ordered,
    });
    this.loop = new LiveLoop(
      host,
      {
        position: () => world.position(),
        end: () => world.end(),
        unitsPerSpeedSecond: world.unitsPerSpeedSecond,
        integral: world.integral,
        advanceToward: (target) => this.advanceOnce(target),
      },
      (done) => {
        if (done) this.summariesDue = true;
        this.report(done);
      },
      world.initialSpeed,
    );
  }

  /** Playing, paused or done. */
  get status(): PlaybackStatus {
    return this.loop.status;
  }

  /** Whether a scenario is loaded. */
  protected get isLoaded(): boolean {
    return this.started !== null;
  }

  /** Loads a scenario from any value (validated by the world: the worker is a door too). */
  load(input: unknown): LoadResultOf<T['loaded']> {
    const parsed = this.world.parse(input);
    if (!parsed.ok) return parsed;
    return this.loadValid(parsed.scenario);
  }

  /**
   * Loads a scenario its world's door has just validated: a worker API that validates first, to
   * prepare what the scenario needs (the serving world's learners), does not validate it twice.
   */
  protected loadValid(scenario: T['scenario']): LoadResultOf<T['loaded']> {
    // The scenario as it stands, live edits folded in: what comes back if this one cannot be built.
    const previous = this.isLoaded ? this.world.currentScenario() : null;
    this.loop.status = 'paused';
    try {
      this.start(scenario);
    } catch (error) {
      // A scenario that parses but cannot be built (e.g. no shipped agent): keep the last good one.
      this.started = null;
      if (previous !== null) this.start(previous);
      return { ok: false, errors: [{ path: this.world.buildErrorPath, message: error instanceof Error ? error.message : String(error) }] };
    }
    return { ok: true, ...this.world.loaded() };
  }

  play(): void {
    if (!this.isLoaded) return;
    this.loop.play();
  }

  pause(): void {
    if (!this.loop.pause()) return;
    this.summariesDue = true;
    this.report(true);
  }

  /** Advances by `amount` position units (a whole number of them in an integral world), then reports. */
  step(amount: unknown): Answer {
    if (!this.isLoaded) return refuse('amount', 'no scenario is loaded');
    const fits = typeof amount === 'number' && Number.isFinite(amount) && (this.world.integral ? Number.isInteger(amount) && amount >= 1 : amount > 0);
    if (!fits) return refuse('amount', `must be ${this.world.integral ? 'an integer ≥ 1' : 'a number above 0'} (${this.world.positionField} to advance), got ${describeValue(amount)}`);
    if (this.loop.status === 'playing') this.loop.status = 'paused';
    this.advanceTo(Math.min(this.world.end(), this.world.position() + amount));
    this.world.stepped();
    if (this.world.position() >= this.world.end()) this.loop.status = 'done';
    this.summariesDue = true;
    this.report(true);
    return { ok: true };
  }

  /** Back to the start of the scenario as it stands now (live edits folded in). */
  reset(): void {
    if (!this.isLoaded) return;
    this.loop.status = 'paused';
    this.start(this.world.currentScenario());
  }

  setSpeed(speed: unknown): Answer {
    const { min, max } = this.world.speedLimits;
    if (speed !== 'max' && !(typeof speed === 'number' && Number.isFinite(speed) && speed >= min && speed <= max)) {
      return refuse('speed', `must be "max" or a number from ${min} to ${max}, got ${describeValue(speed)}`);
    }
    this.loop.setSpeed(speed as Speed);
    return { ok: true };
  }

  /** The scenario as it stands (live edits included). */
  currentScenario(): T['scenario'] | null {
    return this.isLoaded ? this.world.currentScenario() : null;
  }

  /**
   * Goes to `position`: back by restoring the latest checkpoint before it (or rebuilding at
   * the start) and replaying with the live edits at their positions, so the page shows exactly
   * what it showed the first time; forward by running on. The worker is a door: a bad position
   * is refused with a message naming the field.
   */
  seek(position: unknown): SeekResult {
    const refused = this.checkPosition(position);
    if (refused !== null) return refused;
    this.seekChecked(position as number, () => {});
    return { ok: true };
  }

  /** Why `position` cannot be sought (null when it can). */
  protected checkPosition(position: unknown): Extract<SeekResult, { ok: false }> | null {
    const field = this.world.positionField;
    if (!this.isLoaded) return { ok: false, errors: [{ path: field, message: 'no scenario is loaded' }] };
    const end = this.world.end();
    const fits = typeof position === 'number' && (this.world.integral ? Number.isInteger(position) : Number.isFinite(position)) && position >= 0 && position <= end;
    if (fits) return null;
    return { ok: false, errors: [{ path: field, message: `must be ${this.world.positionRule} from 0 to ${end}, got ${describeValue(position)}` }] };
  }

  /** Seeks a checked position; `there` runs once the lanes are there, before the frame. */
  protected seekChecked(position: number, there: () => void): void {
    this.loop.pause();
    this.goTo(position);
    there();
    this.loop.settle();
    this.summariesDue = true;
    this.report(true);
  }

  /** The session's generation (frames of an older one are stale). */
  protected get generation(): number {
    return this.generationNow;
  }

  /** How far the run has been since it started, in position units. */
  protected get furthest(): number {
    return this.furthestNow;
  }

  /** A fresh run of `scenario` at position 0 (a load, a reset, a change that redraws the run), and a frame. */
  protected start(scenario: T['scenario']): void {
    this.generationNow++;
    this.world.start(scenario);
    this.started = scenario;
    this.edits.clear();
    this.furthestNow = 0;
    this.loop.resetMeasure();
    this.summariesDue = false;
    if (this.checkpoints !== null) this.checkpoints.reset(0, this.snapshot(), this.world.end());
    this.report(true);
  }

  /**
   * Puts the lanes at `target`: forward by running on; back by going to the latest checkpoint
   * before `target` (the start, in a replay world) and replaying from it. A checkpoint world
   * also replays to where it is (`target` = now: the last unit is run again, e.g. to collect
   * its algorithm steps) unless `again` is false; a replay world does so only when asked
   * (`again`), since its replay starts from 0.
   */
  protected goTo(target: number, again = this.checkpoints !== null): void {
    // A new generation: the page drops its series and markers and takes them afresh (frames
    // sent while the lanes are rebuilt, e.g. a reference lane's search, belong to it already).
    this.generationNow++;
    const position = this.world.position();
    if (target < position || (target === position && again) || this.checkpointAhead(position, target)) this.rewind(target);
    this.advanceTo(target);
    this.loop.resetMeasure();
    this.world.jumped();
  }

  /**
   * Whether a forward seek from `position` to `target` may start from a checkpoint past
   * `position` (the latest before `target`) instead of running the way there: a checkpoint past
   * the run's position belongs to the run as it stands, since an edit drops the checkpoints
   * past it (`edit`, `changedFrom`). Seeking back then forward costs a restore, not a replay
   * of the stretch between.
   */
  private checkpointAhead(position: number, target: number): boolean {
    return this.checkpoints !== null && target > position && this.checkpoints.before(target).position > position;
  }

  /** The checkpoints kept: how many, where, their spacing now and (under a budget) their memory in bytes; null in a replay world. */
  checkpointMemory(): { readonly count: number; readonly positions: readonly number[]; readonly spacing: number; readonly bytes: number } | null {
    const log = this.checkpoints;
    return log === null ? null : { count: log.size, positions: log.positions, spacing: log.spacing, bytes: log.bytes };
  }

  /**
   * The run changed from `position` on in a way the edit log does not hold (an edit changed
   * after it was made, e.g. a tenant's end): the checkpoints past it are dropped, so that a
   * replay runs it afresh.
   */
  protected changedFrom(position: number): void {
    this.checkpoints?.dropAfter(position);
  }

  /**
   * The world rebuilt its lanes at position 0 (what they start from changed, e.g. a scripted
   * tenant ended live): the checkpoints start again from there and the run is replayed to
   * `position` with every live edit at its position, and reports.
   */
  protected replayRebuiltTo(position: number): void {
    this.edits.rewindTo(0);
    if (this.checkpoints !== null) this.checkpoints.reset(0, this.snapshot(), this.world.end());
    this.goTo(position, false);
    this.summariesDue = this.loop.status !== 'playing';
    this.report(true);
  }

  /** Replays the run to where it is now (after an edit that changes the past, e.g. a tenant ended at an earlier time), and reports. */
  protected replayHere(): void {
    this.goTo(this.world.position(), true);
    this.summariesDue = this.loop.status !== 'playing';
    this.report(true);
  }

  /** Advances to `target` (at most the end), stopping at live edits and checkpoints on the way. */
  protected advanceTo(target: number): void {
    const to = Math.min(target, this.world.end());
    this.applyDue();
    while (this.world.position() < to) this.advanceOnce(to);
  }

  /**
   * Records a live edit made now and applies it to the lanes (`applied`: the caller did).
   * When the run had been further than here (the person went back in time), the future it
   * saw is gone: checkpoints past this point are dropped, the time line ends here, and the
   * run will be run afresh; the edits made later stay, and apply when the run reaches them.
   */
  protected edit(edit: T['edit'], applied = false): void {
    const position = this.world.position();
    this.edits.add(position, edit, true);
    if (!applied) this.world.applyEdit(edit);
    if (this.furthestNow > position) {
      this.furthestNow = position;
      this.checkpoints?.dropAfter(position);
      this.world.forgetAfter(position);
    }
  }

  /**
   * The door of a live edit: the scenario it would make, validated as a scenario file is (the
   * world's `parse`, the schema's bounds and rules). Null when it may be made; otherwise the
   * refusal naming the field, and nothing has changed. A rule between fields names each of
   * them (an event's EP and the number of EPs); the refusal keeps those of `edited`, the
   * fields the edit sets, which are the ones the person can change here.
   */
  protected refusedEdit(next: unknown, edited: readonly string[]): Refused | null {
    const parsed = this.world.parse(next);
    if (parsed.ok) return null;
    const own = parsed.errors.filter((e) => edited.some((f) => e.path === f || e.path.startsWith(`${f}.`) || e.path.startsWith(`${f}[`)));
    return { ok: false, errors: own.length > 0 ? own : parsed.errors };
  }

  /** Drops a live edit (the run is replayed by the caller). */
  protected forgetEdit(edit: T['edit']): void {
    this.edits.remove(edit);
  }

  /** Asks for the summaries in the next frame. */
  protected wantSummaries(): void {
    this.summariesDue = true;
  }

  /** Sends a frame when one is due (or `force`). */
  protected report(force: boolean): void {
    const due = this.loop.frameDue(force);
    if (due === null) return;
    const context: FrameContext = { force, nowMs: this.host.now(), status: this.loop.status, furthest: this.furthestNow, transfer: [] };
    const { lanes, replace, stride } = this.world.frameLanes(context);
    const summaries = this.summariesDue ? this.world.summaries() : undefined;
    this.summariesDue = false;
    const shared: LiveFrame<unknown, unknown> = {
      generation: this.generationNow,
      status: this.loop.status,
      stride,
      replace,
      lanes,
      ...(summaries ? { summaries } : {}),
      measuredSpeed: due.measuredSpeed,
    };
    // The world's fields complete the generic frame into the world's frame.
    const frame = { ...shared, ...this.world.frameExtra(context) } as T['frame'];
    this.host.emit(frame, context.transfer);
  }

  /** One stretch toward `target`: the world advances at most to the next live edit or checkpoint, which are then taken. */
  private advanceOnce(target: number): void {
    this.applyDue();
    const from = this.world.position();
    const stop = Math.min(target, this.edits.nextAfter(from), this.checkpoints?.nextDue(from) ?? Number.POSITIVE_INFINITY);
    this.world.advanceToward(stop);
    const at = this.world.position();
    if (at > this.furthestNow) this.furthestNow = at;
    // The checkpoint comes before the edits made at its position, which a restore applies again.
    if (this.checkpoints?.due(at)) this.checkpoints.add(at, this.snapshot());
    this.applyDue();
  }

  /** Applies the live edits due by now that the lanes have not had (a replay reaching them). */
  private applyDue(): void {
    for (const edit of this.edits.takeDue(this.world.position())) this.world.applyEdit(edit);
  }

  /** Back to the latest checkpoint before `target` (a replay world: the start). */
  private rewind(target: number): void {
    const travel = this.world.timeTravel;
    if (travel.by === 'replay') {
      travel.rebuild();
      this.edits.rewindTo(0);
    } else {
      const { position, checkpoint } = this.checkpoints!.before(target);
      travel.restore(checkpoint);
      this.edits.rewindTo(position);
    }
  }

  /** The world's lanes now, for a checkpoint (only a checkpoint world is asked). */
  private snapshot(): T['checkpoint'] {
    const travel = this.world.timeTravel;
    if (travel.by === 'replay') throw new TypeError('a replay world keeps no checkpoints');
    return travel.snapshot();
  }
}

/** A short rendering of a bad value for a message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  return Array.isArray(value) ? `an array of ${value.length}` : typeof value;
}

/** A call refused at the worker's door, naming its field. */
export function refuse(path: string, message: string): Refused {
  return { ok: false, errors: [{ path, message }] };
}

/** Why `value` is not an index into `count` things named `path` (null when it is one). */
export function indexProblem(path: string, value: unknown, count: number, what: string): Refused | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < count) return null;
  return refuse(path, count === 0 ? `there is no ${what}, got ${describeValue(value)}` : `must be ${what} index from 0 to ${count - 1}, got ${describeValue(value)}`);
}
