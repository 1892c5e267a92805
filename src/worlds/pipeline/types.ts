import type { WorldTypes } from '../../kit/worldTypes';
import type { PipelineSummary } from './engine/metrics';
import type { PipelineLessonStep } from './lessons';
import type { PipelineScenario } from './schema';
import type { PipelineSeriesBuffer } from './store/pipelineSeriesBuffer';
import type { PipelineFrame, PipelineLaneInfo, PipelineLaneLive, PipelineLoaded, PipelineMarker, PipelineSeriesChunk } from './worker/pipelineProtocol';
import type { PipelineCheckpoint, PipelineEdit } from './worker/pipelineSession';

/** The pipeline world's types (ARCHITECTURE §7b), written once: its session in the worker and its store in the page read them. */
export interface PipelineTypes extends WorldTypes {
  readonly scenario: PipelineScenario;
  readonly loaded: PipelineLoaded;
  readonly frame: PipelineFrame;
  readonly edit: PipelineEdit;
  readonly checkpoint: PipelineCheckpoint;
  readonly view: NonNullable<PipelineScenario['view']>;
  readonly lane: PipelineLaneInfo;
  readonly live: PipelineLaneLive;
  readonly summary: PipelineSummary;
  readonly chunk: PipelineSeriesChunk;
  readonly series: PipelineSeriesBuffer;
  readonly marker: PipelineMarker;
  readonly lessonStep: PipelineLessonStep;
}
