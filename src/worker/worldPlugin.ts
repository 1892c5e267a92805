/**
 * The world plugin (ARCHITECTURE §1): what a world (the pipeline of ODIN, the serving
 * device of BCEdge, a third one) gives the generic `LiveSession`. The session owns pacing,
 * frames, the edit log, checkpoints and time travel; the world owns its scenario, its lanes
 * and what they show.
 */
import type { FieldError } from '../scenario/schema';
import type { CheckpointBudget, PacedWorld, PlaybackStatus, SessionHost, Speed } from './liveLoop';
import type { LiveFrame } from './liveProtocol';
import type { SessionTypes } from '../kit/worldTypes';

/** The world's own frame fields (the shared ones are the session's). */
export type FrameExtra<F> = Omit<F, keyof LiveFrame<unknown, unknown>>;
/** A frame's lane data. */
export type FrameLane<F> = F extends LiveFrame<infer Lane, unknown> ? Lane : never;
/** A frame's summaries. */
export type FrameSummary<F> = F extends LiveFrame<unknown, infer Summary> ? Summary : never;

/** What the session tells its world as it builds a frame. */
export interface FrameContext {
  /** The frame must go out (a pause, a step, a seek, the end). */
  readonly force: boolean;
  /** Wall-clock time, ms. */
  readonly nowMs: number;
  readonly status: PlaybackStatus;
  /** How far the run has been (the time line's extent), in position units. */
  readonly furthest: number;
  /** Buffers the frame may move to the page (the world adds its typed arrays). */
  readonly transfer: ArrayBuffer[];
}

/**
 * What the world may ask of its session. `schedule` runs the world's own work between the
 * loop's ticks (the serving world's reference lanes search in slices); `report` then sends a
 * frame for what that work changed: when one is due, or at once with `force` (with the
 * summaries, unless the run plays).
 */
export interface SessionContext<T extends SessionTypes> extends Pick<SessionHost<T['frame']>, 'now' | 'schedule' | 'background'> {
  readonly report: (force: boolean) => void;
  readonly generation: () => number;
  readonly status: () => PlaybackStatus;
  /** How far the run has been, in position units. */
  readonly furthest: () => number;
  /** Every live edit of the run, in position order (those the lanes have not reached included). */
  readonly edits: () => readonly T['edit'][];
}

/**
 * How a world goes back in time, and the calls that need: by checkpoints of its lanes, one
 * every `every` position units at first and at most `max` of them (the spacing doubles past
 * it, and past `budget` bytes held when the world states one: its checkpoints are large),
 * taken by `snapshot` (every lane and the world's own state now) and put back by `restore`;
 * or by replaying from the start with the live edits at their positions (`replay`: nothing
 * kept but the edits, `rebuild` gives the lanes of the run as it started, at position 0, and
 * a seek back costs the run up to the target).
 */
export type TimeTravel<C> =
  | {
      readonly by: 'checkpoints';
      readonly every: number;
      readonly max: number;
      readonly budget?: CheckpointBudget<C>;
      snapshot(): C;
      restore(checkpoint: C): void;
    }
  | { readonly by: 'replay'; rebuild(): void };

/** A world plugged into `LiveSession`: positions, pacing and lanes (`PacedWorld`) and the rest. */
export interface WorldPlugin<T extends SessionTypes> extends PacedWorld {
  readonly timeTravel: TimeTravel<T['checkpoint']>;
  /** The speed a fresh session plays at, and the bounds `setSpeed` accepts. */
  readonly initialSpeed: Speed;
  readonly speedLimits: { readonly min: number; readonly max: number };
  /** The seek door's field (`query`, `timeMs`) and how its rule reads ("an integer", "a number of simulated ms"). */
  readonly positionField: string;
  readonly positionRule: string;
  /** Where a scenario that parses but cannot be built is blamed (e.g. `serving.lanes`). */
  readonly buildErrorPath: string;

  /** Called once by the session. */
  attach(session: SessionContext<T>): void;
  /** Validates a scenario at the door. */
  parse(input: unknown): { readonly ok: true; readonly scenario: T['scenario'] } | { readonly ok: false; readonly errors: readonly FieldError[] };
  /** A fresh run of `scenario` at position 0; throws when it cannot be built (the session keeps the last good one). */
  start(scenario: T['scenario']): void;
  /** Applies a live edit to the lanes (made now, or reached again by a replay). */
  applyEdit(edit: T['edit']): void;
  /** A live edit changed the run from `position` on: the future it had seen is gone (its time-line markers). */
  forgetAfter(position: number): void;
  /** The run jumped (seek, replay): the page drops its series and markers and takes them afresh. */
  jumped(): void;
  /** After a step (a person's, not the loop's). */
  stepped(): void;
  /** What `load` answers besides `ok`. */
  loaded(): T['loaded'];
  /** The scenario as it stands: the run's scenario with the live edits folded in. */
  currentScenario(): T['scenario'];
  /** The lanes' new points and live state for a frame. */
  frameLanes(context: FrameContext): { readonly lanes: readonly FrameLane<T['frame']>[]; readonly replace: boolean; readonly stride: number };
  summaries(): readonly FrameSummary<T['frame']>[];
  /** The world's own frame fields. */
  frameExtra(context: FrameContext): FrameExtra<T['frame']>;
}
