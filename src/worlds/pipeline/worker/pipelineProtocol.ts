/**
 * What the pipeline world's worker (ODIN, ARCHITECTURE §2) and the pipeline page say to each
 * other: the generic frame and API of `liveProtocol.ts` over the pipeline's lane data, plus
 * its own fields and calls. The serving world's counterpart is `servingProtocol.ts`.
 */
import type { PipelineSummary } from '../engine/metrics';
import type { InterferenceModeId, ModeId } from '../engine/profiles/types';
import type { PipelineScenario } from '../schema';
import type { AlgorithmStep } from '../schedulers/algorithmTrace';
import type { Answer, LiveApi, LiveFrame, LoadResultOf, SeekResult } from '../../../worker/liveProtocol';

/** One lane as the page shows it. */
export interface PipelineLaneInfo {
  readonly index: number;
  /** Registry id: 'odin', 'lls', 'optimal', 'static', 'evict'. */
  readonly scheduler: string;
  /** e.g. "ODIN α=10". */
  readonly label: string;
  readonly params: Readonly<Record<string, number>>;
}

/**
 * New points of one lane's downsampled series, as columns. Each point summarises a bucket
 * of `stride` consecutive queries ending at `query` (0-based index of its last query).
 */
export interface PipelineSeriesChunk {
  readonly query: Float64Array;
  /** Simulated completion time of the bucket's last query, ms. */
  readonly timeMs: Float64Array;
  /** Measured: completed queries per simulated second over the bucket (at least 10 queries). */
  readonly measuredQps: Float64Array;
  /** Configuration view: mean T(C) = 1000 / max t_i over the bucket. */
  readonly configQps: Float64Array;
  /** Mean T of the optimum for each query's modes (the resource-constrained optimum). */
  readonly optimalQps: Float64Array;
  /** Mean measured latency (arrival to completion), ms. */
  readonly latencyMs: Float64Array;
  /** Mean Σ t_i, ms. */
  readonly configLatencyMs: Float64Array;
  /** Units per stage at the bucket's end, `stages` values per point, row-major. */
  readonly counts: Int32Array;
}

/** The state of a lane right now. */
export interface PipelineLaneLive {
  readonly configuration: Int32Array;
  readonly stageTimesMs: Float64Array;
  readonly bottleneckMs: number;
  readonly optimalBottleneckMs: number;
  /** True while a rebalancing phase (drain or trials) is under way. */
  readonly rebalancing: boolean;
  readonly rebalancings: number;
  readonly trialQueries: number;
  /** Latency histogram: counts per bin of `LATENCY_BINS` (log-spaced). */
  readonly latencyHistogram: Float64Array;
}

/** Log-spaced latency bins from 0.1 ms to 100 s: bin b covers [edge(b), edge(b+1)). */
export const PIPELINE_LATENCY_BINS = { count: 240, minMs: 0.1, maxMs: 100_000 } as const;

/** Lower edge of latency bin `b`, ms. */
export function latencyBinEdge(b: number): number {
  const { count, minMs, maxMs } = PIPELINE_LATENCY_BINS;
  return minMs * Math.pow(maxMs / minMs, b / count);
}

/** A moment worth a mark on the time axis. */
export interface PipelineMarker {
  readonly query: number;
  readonly kind: 'interference-on' | 'interference-off' | 'detect' | 'trial' | 'install';
  /** The lane it belongs to; -1 for interference (the same for every lane). */
  readonly lane: number;
  readonly executionPlace?: number;
  readonly mode?: ModeId;
}

/** A placed or scripted interference event, as the board and the events list show it. */
export interface PipelineEventView {
  readonly id: number;
  readonly executionPlace: number;
  readonly mode: InterferenceModeId;
  readonly fromQuery: number;
  readonly toQuery: number | null;
}

export type { Answer, PlaybackStatus, Refused, SeekResult, Speed } from '../../../worker/liveProtocol';

/** One lane in a frame: new points of its series and its state now. */
export interface PipelineLaneFrame {
  readonly points: PipelineSeriesChunk;
  readonly live: PipelineLaneLive;
}

/** One batch of progress, at most ~60 per second: the generic frame over the pipeline's lanes. */
export interface PipelineFrame extends LiveFrame<PipelineLaneFrame, PipelineSummary> {
  /** Queries served by every lane so far. */
  readonly served: number;
  readonly totalQueries: number;
  readonly stages: number;
  /** Per-EP modes of the last query (0 = A). */
  readonly modes: Uint8Array;
  readonly markers: readonly PipelineMarker[];
  /** Present when the teaching view changed. */
  readonly teaching?: PipelineTeachingFrame;
  /** Present when the time line changed. */
  readonly timeline?: PipelineTimelineFrame;
}

/**
 * The teaching view of the traced lane (the selected one): the algorithm steps its scheduler
 * executed while serving the last query, and which of them is shown.
 */
export interface PipelineTeachingFrame {
  readonly lane: number;
  /** ODIN or LLS; null for a lane whose scheduler has no line-by-line trace. */
  readonly algorithm: AlgorithmStep['algorithm'] | null;
  /** Steps executed while query `served − 1` was served (empty when none ran). */
  readonly steps: readonly AlgorithmStep[];
  /** Index of the step shown, −1 when there is none. */
  readonly cursor: number;
  /** The lane is between a detection and the installation of its new configuration. */
  readonly rebalancing: boolean;
}

/** What the time line (scrubber) knows: how far the run has been, and its markers up to there. */
export interface PipelineTimelineFrame {
  /** The furthest query count the run has reached (seeking up to it replays what was seen). */
  readonly furthest: number;
  /** Markers beyond those already sent (all of them when `reset`). */
  readonly markers: readonly PipelineMarker[];
  readonly reset: boolean;
}

/** What a pipeline `load` describes besides `ok`. */
export interface PipelineLoaded {
  readonly scenario: PipelineScenario;
  readonly lanes: readonly PipelineLaneInfo[];
  readonly layers: readonly string[];
  readonly peakQps: number;
  readonly initialConfiguration: Int32Array;
  readonly events: readonly PipelineEventView[];
}

/** What `load` answers. */
export type PipelineLoadResult = LoadResultOf<PipelineLoaded>;

/** Speed: simulated queries per wall-clock second, or 'max'. */
export const PIPELINE_SPEED_LIMITS = { min: 0.25, max: 1_000_000 } as const;

/** The pipeline worker's API: the generic one (load, play, pause, step n queries, seek a query, …) and the pipeline's live edits. */
export interface PipelineApi extends LiveApi<PipelineFrame, PipelineLoadResult, PipelineScenario> {
  load(scenario: unknown): PipelineLoadResult;
  /** Places a workload in `mode` on an EP from the next query on; refused by name where a scenario file's event would be. */
  addEvent(executionPlace: number, mode: InterferenceModeId): Answer<{ readonly events: readonly PipelineEventView[] }>;
  removeEvent(id: number): Answer<{ readonly events: readonly PipelineEventView[] }>;
  /** Changes a lane's parameter (ODIN's α); refused by name out of the range the schema gives it. */
  setLaneParameter(lane: number, name: string, value: number): Answer<{ readonly lane: PipelineLaneInfo }>;
  setDetectionThreshold(threshold: number): Answer;
  /** Goes to `query` queries served (and, within its rebalancing, algorithm step `step`). */
  seek(query: unknown, step?: unknown): SeekResult;
  /** One algorithm step forward or back (one query where no algorithm runs). */
  stepAlgorithm(direction: 1 | -1): Answer;
  /** Which lane's algorithm the teaching view follows. */
  setTraceLane(lane: number): Answer;
}

/** Markers the time line keeps, the newest (the worker's log and the page's copy trim alike). */
export const PIPELINE_TIMELINE_MARKERS = 5_000;
