/**
 * What a live session's worker and the page say to each other, whatever the world
 * (ARCHITECTURE §1): the frame's shared fields and the calls every world's API has. Each
 * world's protocol (`pipelineProtocol.ts` for the pipeline, `servingProtocol.ts` for serving) adds
 * its lane data, its summaries and its own fields and calls. Plain data only: comlink
 * carries these with structured clone, and the typed arrays of a frame are transferred.
 */
import type { FieldError } from '../scenario/schema';
import type { PlaybackStatus, Speed } from './liveLoop';

export type { PlaybackStatus, Speed } from './liveLoop';

/** One batch of progress of any world, at most ~60 per second (30 at full speed). */
export interface LiveFrame<Lane, Summary> {
  /** Increases on every load, reset or jump (seek, replay): frames of an older generation are stale. */
  readonly generation: number;
  readonly status: PlaybackStatus;
  /** Position units (queries, slots) per point of the lanes' series now. */
  readonly stride: number;
  /** True when `lanes[i].points` replace the series (after a compaction or a jump) instead of extending it. */
  readonly replace: boolean;
  /** The world's data of each lane: new points of its series and its live state. */
  readonly lanes: readonly Lane[];
  /** Present when the run has just paused, stepped, jumped or finished: the full summaries. */
  readonly summaries?: readonly Summary[];
  /** Simulation speed measured over the last wall-clock second, in the world's speed unit (not an arrival rate). */
  readonly measuredSpeed: number;
}

/** A call the worker refused at its door: which field, and why. The worker goes on as before. */
export interface Refused {
  readonly ok: false;
  readonly errors: readonly FieldError[];
}

/**
 * What a call of the page answers when it can be refused (ARCHITECTURE §8, errors at the
 * doors): done, with what it describes, or refused with the field named. A live edit goes
 * through the same bounds as a scenario file: the scenario it would make is validated by the
 * schema first, and an edit it refuses changes nothing.
 */
export type Answer<Done extends object = object> = ({ readonly ok: true } & Done) | Refused;

/** What `seek` answers: a bad position is refused with a message naming the field. */
export type SeekResult = Answer;

/** What `load` answers: the world's description of what it loaded, or the scenario's field errors. */
export type LoadResultOf<Loaded> = Answer<Loaded & object>;

/**
 * The calls every world's worker answers (synchronous on the worker side; comlink makes every
 * call a promise). A world's API extends it with its live edits; the page's client is typed
 * from that API (`WorkerClient<Api, Frame>`).
 */
export interface LiveApi<Frame, LoadResult, Scenario> {
  /** Registers the page's frame callback (wrapped with comlink's `proxy` by the page). */
  subscribe(callback: (frame: Frame) => void): Answer;
  /** Answers at once: the page's liveness check (a worker that stops answering is restarted). */
  ping(): true;
  /** Validates a scenario (the worker is a door too) and loads it; the last good one stays on error. */
  load(scenario: unknown): LoadResult | Promise<LoadResult>;
  play(): void;
  pause(): void;
  /** Advances by `amount` position units (queries, simulated ms), then reports. */
  step(amount: number): Answer;
  /** Back to the start of the scenario as it stands now (live edits folded in). */
  reset(): void;
  setSpeed(speed: Speed): Answer;
  /** The scenario as it stands (live edits included). */
  currentScenario(): Scenario | null;
  /** Goes to a position of the run: back by restoring a checkpoint (or from the start) and replaying, forward by running. */
  seek(position: unknown): SeekResult;
}
