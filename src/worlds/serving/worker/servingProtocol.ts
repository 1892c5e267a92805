/**
 * What the serving-world worker (BCEdge, ARCHITECTURE §3) and the serving page say to each
 * other: the generic frame and API of `liveProtocol.ts` over the serving lanes' data, plus
 * the serving world's own fields and calls. The pipeline world's counterpart is `pipelineProtocol.ts`.
 */
import type { HealthReport } from '../agents/health';
import type { AgentFile } from '../agents/learner';
import type { SacUpdateExplained } from '../agents/sac';
import type { ServingSummary } from '../engine/metrics';
import type { ModelId } from '../engine/models';
import type { PlatformId } from '../engine/platforms';
import type { FieldError } from '../../../scenario/schema';
import type { ServingScenario } from '../schema';
import type { Answer, LiveApi, LiveFrame, LoadResultOf, SeekResult, Speed } from '../../../worker/liveProtocol';

/** A stretch of a learning lane's run during which a health warning held (worlds/serving/agents/health.ts). */
export type { HealthEpisode } from '../agents/health';

/** One lane as the page shows it. */
export interface ServingLaneInfo {
  readonly index: number;
  /** Registry id: 'fixed', 'deeprt', 'ga', 'bcedge', 'tac', 'ppo', 'ddqn'. */
  readonly scheduler: string;
  /** True for the learning schedulers (their agent can be saved, loaded and retrained). */
  readonly learning: boolean;
  /** e.g. "Triton (fixed) b=8 m_c=2". */
  readonly label: string;
  /** Parameters with defaults filled in; per-model overrides as `batchSize.yolo`. */
  readonly params: Readonly<Record<string, number>>;
  /** True when the page may set its per-model batch size and instances (`setModelConfig`). */
  readonly configurable: boolean;
}

/** A model of the run, in the run's order (every per-model column follows it). */
export interface ServingModelInfo {
  readonly model: ModelId;
  /** Nominal SLO, ms (requests are jittered around it). */
  readonly sloMs: number;
  readonly weight: number;
}

/**
 * New points of one lane's downsampled per-slot series, as columns. Each point summarises
 * `stride` consecutive scheduling slots ending at `endMs`. Per-model columns hold
 * `models` values per point, row-major (point i, model m at i * models + m).
 */
export interface ServingSeriesChunk {
  /** Simulated end of the point's last slot, ms. */
  readonly endMs: Float64Array;
  /** Slots merged into the point. */
  readonly slots: Float64Array;
  /** Requests completed per simulated second over the point. */
  readonly throughputRps: Float64Array;
  /** Mean end-to-end latency of the requests completed in the point, ms (0 when none). */
  readonly latencyMeanMs: Float64Array;
  /** Mean utility (Eq. 3) over the point's slots that had one; NaN when none. */
  readonly utility: Float64Array;
  /**
   * Reporting intervals of the point that had a utility (`utility` is their mean): with it the
   * page adds points up to the run's mean exactly as the summary does (the live scoreboard).
   */
  readonly utilityCount: Float64Array;
  /** Requests that reached the edge during the point. */
  readonly arrivals: Float64Array;
  /** SLO violations (late + failed + dropped) counted during the point. */
  readonly violations: Float64Array;
  /** Batch size in force during the point's last slot. */
  readonly batchSize: Int32Array;
  /** Instances in force during the point's last slot (1 under DeepRT's EDF). */
  readonly instances: Int32Array;
}

/** Queued requests of one model by slack to their deadline, as a fraction of the model's SLO. */
export interface SlackBuckets {
  /** Already past the deadline. */
  readonly late: number;
  /** Less than 25 % of the SLO left. */
  readonly under25: number;
  /** 25 % to 50 % left. */
  readonly under50: number;
  /** 50 % or more left. */
  readonly rest: number;
}

/** One model on the device board right now. */
export interface ServingModelLive {
  /** Instances the action asks for (m_c; 1 under EDF). */
  readonly instances: number;
  /** Instances running a batch now. */
  readonly busyInstances: number;
  readonly batchSize: number;
  readonly queueLength: number;
  /** Slack of the most urgent queued request, ms (the SLO when the queue is empty). */
  readonly oldestSlackMs: number;
  readonly slack: SlackBuckets;
  /**
   * The batch forming now (batching `form`, ARCHITECTURE §3): requests waiting for it (fewer
   * than b) and the time left before it must start for its most urgent request to meet its
   * SLO, ms; null when none forms (a full batch, an empty queue, or the `cap` reading).
   */
  readonly forming: { readonly waiting: number; readonly startInMs: number } | null;
}

/** The device of one lane right now. */
export interface ServingLaneLive {
  readonly memoryUsedMb: number;
  readonly memoryTotalMb: number;
  /** 1 − GPU demand of what runs now (background included), clamped at 0. */
  readonly availableCompute: number;
  readonly runningBatches: number;
  readonly models: readonly ServingModelLive[];
}

/** Background interference dropped on the device (or scripted by the scenario). */
export interface BackgroundView {
  readonly id: number;
  readonly intensity: number;
  readonly memoryMb: number;
  readonly fromMs: number;
  readonly toMs: number | null;
}

/** A learning lane's live state (BCEdge, TAC, PPO, DDQN): training progress and the policy. */
export interface LearningLive {
  readonly kind: string;
  readonly slots: number;
  readonly updates: number;
  readonly transitions: number;
  /** Mean reward (utility) of the last slot's transitions. */
  readonly lastReward: number | null;
  /** Mean reward over the last 100 slots with one (`recentSlots` of them so far). */
  readonly recentReward: number | null;
  readonly recentSlots: number;
  /** SAC's α (null for the others). */
  readonly temperature: number | null;
  readonly entropy: number | null;
  /** DDQN's ε (null for the others). */
  readonly epsilon: number | null;
  readonly losses: Readonly<Record<string, number>>;
  /** Actions the interference predictor removed at the last decision. */
  readonly predictorMasked: number;
  /** Mean wall-clock time of a decision in the worker, µs (BCEdge Fig. 16). */
  readonly decisionUs: number;
  /** The learning curve, downsampled: slot index, mean reward (NaN: none), temperature (NaN: none). */
  readonly curve: { readonly slot: Float64Array; readonly reward: Float64Array; readonly temperature: Float64Array };
  /** π(a|s) per model (models × 64, a = i_b · 8 + i_mc), at most 4 times a second; null in between. */
  readonly policy: Float32Array | null;
  /** The masks of the same decision (1 = allowed). */
  readonly masks: Uint8Array | null;
  /** The learner's health (worlds/serving/agents/health.ts): decision entropy, stall share, top actions, backlog, warnings. */
  readonly health: HealthReport;
}

/** A moment worth a mark on the serving time line. */
export interface ServingMarker {
  /** Simulated time, ms. */
  readonly timeMs: number;
  readonly kind: 'tenant-on' | 'tenant-off' | 'config' | 'agent';
  /** The lane it belongs to; -1 for a tenant (the same on every lane). */
  readonly lane: number;
  readonly background?: number;
  readonly model?: ModelId;
  readonly batchSize?: number;
  readonly instances?: number;
}

/**
 * A reference lane (`fixed-hindsight`, `fixed-per-phase`) not drawn yet (ARCHITECTURE §3): it
 * searches on its own trace beside the run — re-running it once per configuration it tries
 * (reference.ts) — then, its plan known, runs from time 0 up to the other lanes, and joins them.
 */
export interface ServingLaneSearch {
  /** Configurations evaluated so far, and the most the search can take (it may stop earlier). */
  readonly done: number;
  readonly total: number;
  /** Once the plan is known: how far the lane has run on its way to the others, simulated ms; null while it searches. */
  readonly replayedMs: number | null;
  /**
   * Present on a learning lane waiting for its learner (TensorFlow.js and its agent load beside
   * the run, ARCHITECTURE §3): `loading`, `ready` (catching up, `replayedMs`) or `failed`
   * (`error` says why; the lane stays out). `done` and `total` are 0.
   */
  readonly learner?: 'loading' | 'ready' | 'failed';
  readonly error?: string;
}

/** One lane in a frame: new points of its series, its device now, and its learner's state. */
export interface ServingLaneFrame {
  readonly points: ServingSeriesChunk;
  /** Null while the lane waits for its plan (`search`). */
  readonly live: ServingLaneLive | null;
  /** Mean wall-clock time of the lane's decisions so far, µs (BCEdge Fig. 16). */
  readonly decisionUs: number | null;
  /** Present for learning lanes. */
  readonly learning?: LearningLive;
  /** Present while a reference lane waits for its plan: it has no points and no device yet. */
  readonly search?: ServingLaneSearch;
}

/**
 * One batch of progress, at most ~60 per second (30 at full speed): the generic frame over the
 * serving lanes. Every lane has its place in `lanes` and `summaries`, in the scenario's order;
 * a reference lane waiting for its plan has no points and a null summary.
 */
export interface ServingFrame extends LiveFrame<ServingLaneFrame, ServingSummary | null> {
  /** Simulated time every lane has reached, ms. */
  readonly timeMs: number;
  readonly durationMs: number;
  /** Models per point in the per-model columns. */
  readonly models: number;
  readonly backgrounds: readonly BackgroundView[];
  /** How far the run has been (the time line's extent), simulated ms: seeking up to it replays what was seen. */
  readonly furthestMs: number;
  /** Present when the time line's markers changed: all of them. */
  readonly timeline?: { readonly markers: readonly ServingMarker[] };
}

/** What a serving `load` describes besides `ok`. */
export interface ServingLoaded {
  readonly scenario: ServingScenario;
  readonly lanes: readonly ServingLaneInfo[];
  readonly models: readonly ServingModelInfo[];
  readonly platform: PlatformId;
  /** Copies of the device the models are served on: one each on BCEdge §V-D's Nano and TX2 (platformSetting perModel, worlds/serving/scenario/deviceCopies.ts), else 1. */
  readonly deviceCopies: number;
  /** The device's memory, MB (of every copy, added up). */
  readonly memoryMb: number;
  readonly slotMs: number;
  readonly durationMs: number;
  readonly backgrounds: readonly BackgroundView[];
}

/** What `load` answers. */
export type ServingLoadResult = LoadResultOf<ServingLoaded>;

/** Speed: simulated seconds per wall-clock second, or 'max'. */
export type ServingSpeed = Speed;
export const SERVING_SPEED_LIMITS = { min: 0.1, max: 100_000 } as const;

/**
 * The serving worker's API: the generic one (load, play, pause, step simulated ms, seek a
 * time, …) and the serving world's live edits, agents and sweeps.
 */
export interface ServingApi extends LiveApi<ServingFrame, ServingLoadResult, ServingScenario> {
  /** Where the shipped agents are served (the page's `agents/` folder). */
  configure(options: { readonly agentsBaseUrl: string }): Answer;
  /** Validates and loads a scenario; learning lanes load TensorFlow.js (and shipped agents) first. */
  load(scenario: unknown): ServingLoadResult | Promise<ServingLoadResult>;
  /** Sets the requests' arrival rate (the run restarts from time 0); refused by name out of the schema's bounds. */
  setArrivalRate(rateRps: number): Answer;
  /** Sets one model's (b, m_c) on a fixed lane from the next slot; refused by name out of the schema's bounds. */
  setModelConfig(lane: number, model: number, batchSize: number, instances: number): Answer<{ readonly lane: ServingLaneInfo }>;
  /** Drops a tenant on the device from now on; refused by name out of the schema's bounds. */
  addBackground(intensity: number, memoryMb: number): Answer<{ readonly backgrounds: readonly BackgroundView[] }>;
  removeBackground(id: number): Answer<{ readonly backgrounds: readonly BackgroundView[] }>;
  /** Goes to `timeMs` of the run (back by restoring the checkpoint before it and replaying from there, learning lanes included). */
  seek(timeMs: unknown): SeekResult;
  /** A learning lane's agent as a file (refused when the lane does not learn). */
  exportAgent(lane: number): Answer<{ readonly agent: AgentFile }>;
  /** The next SAC update of a BCEdge or TAC lane, applied and explained (null before any transition; refused for other lanes). */
  explainUpdate(lane: number): Answer<{ readonly update: SacUpdateExplained | null }>;
  /** Loads an agent into a learning lane (from a file or the browser's storage). */
  importAgent(lane: number, file: unknown): Answer;
  /**
   * Computes a sweep in slices between the live run's ticks, telling `onProgress` as it goes;
   * a newer request of the same kind cancels this one (it answers `cancelled`).
   */
  sweep(request: ServingSweepRequest, onProgress: (progress: ServingSweepProgress) => void): Promise<ServingSweepResult>;
}


/**
 * A sweep the serving worker computes beside the live run, in slices (ARCHITECTURE §7a′): BCEdge
 * Fig. 1 for one model (every batch size × instances cell) or Fig. 15 (SLO violations
 * against the request rate for every lane of the scenario, learning lanes included).
 */
export type ServingSweepRequest =
  | { readonly kind: 'figure1'; readonly model: ModelId; readonly platform: PlatformId }
  | { readonly kind: 'rps'; readonly scenario: ServingScenario };

/** How far a sweep is, in its own units (cells for Fig. 1, simulated lane-seconds for Fig. 15). */
export interface ServingSweepProgress {
  readonly done: number;
  readonly total: number;
}

/** Fig. 1's two matrices, [batch size][instances]; null where the cell ran out of memory. */
export interface Figure1Cells {
  readonly model: ModelId;
  readonly platform: PlatformId;
  readonly throughput: readonly (readonly (number | null)[])[];
  readonly latency: readonly (readonly (number | null)[])[];
}

/** Fig. 15's lines: per lane (by its index in the scenario), SLO violations at each rate. */
export interface RpsSweepLines {
  /** Simulated seconds each rate ran. */
  readonly secondsPerRate: number;
  readonly lanes: readonly { readonly label: string; readonly index: number; readonly points: readonly { readonly rps: number; readonly violationPct: number }[] }[];
}

/** What `sweep` answers: the result, or why there is none (a newer request of the same kind replaced it). */
export type ServingSweepResult =
  | { readonly ok: true; readonly kind: 'figure1'; readonly figure1: Figure1Cells }
  | { readonly ok: true; readonly kind: 'rps'; readonly rps: RpsSweepLines }
  | { readonly ok: false; readonly cancelled: true }
  | { readonly ok: false; readonly cancelled: false; readonly errors: readonly FieldError[] };
