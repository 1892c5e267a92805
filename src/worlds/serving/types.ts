import type { WorldTypes } from '../../kit/worldTypes';
import type { ServingSummary } from './engine/metrics';
import type { ServingLessonStep } from './lessons';
import type { ServingScenario } from './schema';
import type { ServingSeriesBuffer } from './store/servingSeriesBuffer';
import type { ServingCheckpoint } from './worker/servingCheckpoints';
import type { ServingEdit } from './worker/servingEdits';
import type { ServingFrame, ServingLaneInfo, ServingLaneLive, ServingLoaded, ServingMarker, ServingSeriesChunk } from './worker/servingProtocol';

/** The serving world's types (ARCHITECTURE §7b), written once: its session in the worker and its store in the page read them. */
export interface ServingTypes extends WorldTypes {
  readonly scenario: ServingScenario;
  readonly loaded: ServingLoaded;
  readonly frame: ServingFrame;
  readonly edit: ServingEdit;
  /** Every lane and the session's own state at a time (see `ServingPlugin`). */
  readonly checkpoint: ServingCheckpoint;
  readonly view: NonNullable<ServingScenario['view']>;
  readonly lane: ServingLaneInfo;
  /** Null while a reference lane waits for its plan. */
  readonly live: ServingLaneLive | null;
  /** Null while a reference lane waits for its plan. */
  readonly summary: ServingSummary | null;
  readonly chunk: ServingSeriesChunk;
  readonly series: ServingSeriesBuffer;
  readonly marker: ServingMarker;
  readonly lessonStep: ServingLessonStep;
}
