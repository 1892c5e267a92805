import type { AnyScenario } from '../scenario/schema';
import type { HideableControl, VIEW_MODES } from '../scenario/limits';
import type { LiveFrame } from '../worker/liveProtocol';

/**
 * The types a world plugs into the kit's live machinery (ARCHITECTURE §7b), written once by
 * each world (`src/worlds/<id>/types.ts`) and read by both sides: its session in the worker
 * (`WorldPlugin`, `LiveSession`: `SessionTypes`) and its store in the page (`createLiveStore`,
 * `LiveWorld`: `StoreTypes`). Each side asks only for its part, so a test of one side may
 * bring that part alone.
 */

/** How a lab is shown (carried by the link): normal or presentation, the parts a classroom hides. */
export interface LabView {
  readonly mode: (typeof VIEW_MODES)[number];
  readonly hide: readonly HideableControl[];
}

/** A lane's series buffer as the shared slices use it (`series.ts`). */
export interface LaneSeries<Chunk> {
  readonly length: number;
  /** Appends a frame's points (or replaces everything with them); `width` values per point in the wide columns. */
  add(chunk: Chunk, replace: boolean, width: number): void;
}

/** One lane of a frame as the shared slices read it: new points of its series and its state now. */
export interface LaneFrame<Chunk, Live> {
  readonly points: Chunk;
  readonly live: Live;
}

/** What a good `load` tells the store at the least, besides `ok`: the scenario and its lanes. */
export interface LoadedLanes<S, L> {
  readonly scenario: S;
  readonly lanes: readonly L[];
}

/** What the worker's live session reads of a world's types. */
export interface SessionTypes {
  /** The world's whole scenario (validated). */
  readonly scenario: unknown;
  /** What `load` answers on success, besides `ok`. */
  readonly loaded: object;
  /** The world's frame: the generic frame over its lane data, plus its own fields. */
  readonly frame: LiveFrame<unknown, unknown>;
  /** A live edit, replayable: applying it again at its position gives what it gave the first time. */
  readonly edit: unknown;
  /** The world's lanes at a position (worlds that replay from the start have none). */
  readonly checkpoint: unknown;
}

/**
 * What the page's store reads of a world's types: its scenario and view, a lane as `load`
 * describes it, a lane's live state and summary, its series (chunk and buffer), its time-line
 * markers, its frame, what a good `load` answers besides `ok`, and a lesson's step.
 */
export interface StoreTypes {
  readonly scenario: AnyScenario;
  readonly view: LabView;
  readonly lane: { readonly index: number };
  readonly live: unknown;
  readonly summary: unknown;
  readonly chunk: unknown;
  readonly series: LaneSeries<this['chunk']>;
  /** `lane` −1: a marker of every lane (interference, a tenant). */
  readonly marker: { readonly lane: number };
  /** The world's frame: the generic frame of `liveProtocol.ts` over its lanes. */
  readonly frame: LiveFrame<LaneFrame<this['chunk'], this['live']>, this['summary']>;
  readonly loaded: LoadedLanes<this['scenario'], this['lane']>;
  readonly lessonStep: { readonly lane?: number };
}

/** A world's types, both sides: what each world writes once. */
export interface WorldTypes extends SessionTypes, StoreTypes {
  readonly scenario: AnyScenario;
  readonly frame: LiveFrame<LaneFrame<this['chunk'], this['live']>, this['summary']>;
  readonly loaded: LoadedLanes<this['scenario'], this['lane']>;
}
