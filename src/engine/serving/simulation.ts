import { NumberEventQueue, type NumberEventQueueSnapshot } from '../eventQueue';
import { createRng, type Rng } from '../rng';
import {
  contendedMs,
  emptyDeviceLoad,
  fitsInMemory,
  usedMemoryMb,
  type DeviceLoad,
} from './contention';
import {
  laneSummary,
  LatencySamples,
  SlotSeries,
  type LatencySamplesSnapshot,
  type ModelTally,
  type SlotSeriesSnapshot,
  slotUtility,
  throughputTermRps,
  type ServingModelSummary,
  type ServingSummary,
  type SlotModelRecord,
  type SlotRecord,
} from './metrics';
import { rateProcess, scheduleBoundariesMs, validateRateSchedule, type RateProcess, type RateSchedule } from './load';
import { batchActivationMb, compileModel, gpuDemand, isolatedBatchMs, isolatedGpuMs, MODEL_IDS, MODELS, type CompiledModel, type ModelId } from './models';
import { PLATFORMS, type Platform, type PlatformId } from './platforms';
import {
  BATCH_SIZES,
  isValidAction,
  MAX_BATCH_SIZE,
  type AdmissionView,
  type ModelAction,
  type ModelObservation,
  type ModelSlotStats,
  type ServingAction,
  type ServingObservation,
  type ServingScheduler,
} from './scheduler';
import { LogHistogram, type LogHistogramSnapshot, type PercentileOptions } from '../quantiles';

/** What the run needs of a percentile estimator. */
interface PercentileSketch {
  add(value: number): void;
  quantile(p: number): number;
  snapshot(): LatencySamplesSnapshot | LogHistogramSnapshot;
  restore(s: LatencySamplesSnapshot | LogHistogramSnapshot): void;
}

/** A model served in a run and its share of the requests. */
export interface ServingModelSpec {
  readonly model: ModelId;
  /** Relative share of the total request rate (weights are normalized). */
  readonly weight: number;
  /** Overrides Table IV's SLO, ms. */
  readonly sloMs?: number;
  /**
   * The model's own request rate over time (load.ts); without one the model gets its weight's
   * share of `rateRps`, constant. Setting it (or `classes`, or a service window) on any model
   * switches the run to per-model arrival streams (see `ServingRun`).
   */
  readonly rate?: RateSchedule;
  /** When the model's service starts, ms (default 0): before it no instance is loaded and no request is sent. */
  readonly serviceFromMs?: number;
  /** When the model's service stops, ms (null or absent: never): its instances unload, its queued requests are dropped. */
  readonly serviceToMs?: number | null;
  /** Input-shape classes of its requests (e.g. camera resolutions); absent = one class of scale 1. */
  readonly classes?: readonly RequestClass[];
}

/**
 * A class of requests of one model that differ in input shape (BCEdge §III-A1: requests
 * carry their own input shape d_s; §IV-B1 (II) puts it in the state), e.g. a camera's
 * resolution. `scale` is its input size relative to the model's Table IV shape.
 *
 * Choice (the paper gives no model): a class of scale s multiplies the bytes sent and
 * serialized, the per-sample CPU time (decode, resize), the GPU phase and the per-sample
 * activation memory by s; the GPU occupancy is unchanged. A batch is one tensor, so a batch
 * mixing classes is padded to its largest member: it runs as if every member had the
 * largest scale in it (TensorRT's dynamic shapes take one shape per batch).
 */
export interface RequestClass {
  readonly label: string;
  /** Input size relative to Table IV's shape (1 = 224×224 for the vision models). */
  readonly scale: number;
  /** Relative share of the model's requests. */
  readonly weight: number;
}

/**
 * A co-located workload on the GPU from `fromMs` to `toMs` (null: to the end): it takes
 * `intensity` of the GPU (1 = all of it) and holds `memoryMb` of memory.
 */
export interface BackgroundInterference {
  readonly fromMs: number;
  readonly toMs: number | null;
  readonly intensity: number;
  readonly memoryMb?: number;
}

// The modelling choices and their defaults are in assumptions.ts (presets read them without the engine).
export { DEFAULT_SERVING_ASSUMPTIONS, type ServingAssumptions } from './assumptions';
import type { ServingAssumptions } from './assumptions';
import { DecisionCredit, type DecisionCreditSnapshot } from './credit';

/** One request of an explicit trace (tests, replays): sent at `sentMs` for model index `model`. */
export interface TracedRequest {
  readonly sentMs: number;
  readonly model: number;
  /** Overrides the model's SLO for this request, ms. */
  readonly sloMs?: number;
  /** Index into the model's `classes` (default 0). */
  readonly shapeClass?: number;
}

/**
 * The requests an open-loop run sends, drawn once for a spec (`drawServingArrivals`): in send
 * order, each request's send time, model index, SLO and shape class. They depend on the spec
 * alone (seed, rates, classes, service windows), never on the scheduler, so every run of a
 * spec sends these very requests; a reference search runs its spec hundreds of times and draws
 * them once (issue 38: the draws were about a fifth of a run).
 */
export interface ServingArrivals {
  readonly sentMs: Float64Array;
  readonly model: Int32Array;
  readonly sloMs: Float64Array;
  readonly shapeClass: Int32Array;
}

/** What became of one request, for the live views and the tests. */
export interface RequestRecord {
  /** Send order, from 0. */
  readonly id: number;
  readonly model: number;
  readonly sentMs: number;
  readonly sloMs: number;
  readonly deadlineMs: number;
  /** When it left the queue (its batch started, failed, or it was dropped at the edge). */
  readonly dispatchMs: number;
  /** When its result reached the device (served), or when it was lost. */
  readonly completionMs: number;
  /** Requests in its batch (0 when dropped). */
  readonly batchSize: number;
  readonly outcome: 'served' | 'failed' | 'dropped';
}

/** Everything one lane needs; lanes of a scenario differ only in their scheduler. */
export interface ServingRunSpec {
  readonly platform: PlatformId;
  readonly models: readonly ServingModelSpec[];
  /** Total Poisson arrival rate over all models (BCEdge §V-A: 30 rps). */
  readonly rateRps: number;
  /** Requests are sent during [0, durationMs); the run ends at durationMs. */
  readonly durationMs: number;
  readonly seed: number;
  readonly background: readonly BackgroundInterference[];
  readonly assumptions: ServingAssumptions;
  /** Replaces the Poisson arrivals by these requests (sorted by `sentMs`); `rateRps` is then unused. */
  readonly trace?: readonly TracedRequest[];
  /** Latency samples kept per model for percentiles (default 65 536). */
  readonly latencySampleCap?: number;
  /**
   * How percentiles are computed: `streaming` (log-bucket histograms, within the relative
   * error; scenarios' default) or `exact`. Absent: the capped sample of `latencySampleCap`.
   */
  readonly percentiles?: PercentileOptions;
  /** Slot records kept in the series (default 4096). */
  readonly seriesCap?: number;
  /**
   * Closed-loop (saturated) clients instead of open arrivals (BCEdge Fig. 1 measures a
   * configuration at load): each model keeps `outstanding` requests in flight; all are sent
   * at 0 and each request served or lost is replaced by a new one at that moment. `rateRps`,
   * the models' rates and a trace are then unused. The requests draw nothing at random.
   */
  readonly closedLoop?: { readonly outstanding: number };
}

/** RNG stream of the arrival process (send times, models, SLO jitter). */
export const SERVING_ARRIVAL_STREAM = 1;
/** RNG stream handed to a scheduler that needs randomness (GA). */
export const SERVING_SCHEDULER_STREAM = 2;
/** RNG stream of the interference noise (one normal draw per batch when the noise is on). */
export const SERVING_NOISE_STREAM = 3;
/** Per-model arrival streams: model `id` draws from `SERVING_MODEL_STREAM + MODEL_IDS.indexOf(id)` (adding a model never shifts another's). */
export const SERVING_MODEL_STREAM = 16;
/** Per-model MMPP switch streams, likewise offset by the model's index in MODEL_IDS. */
export const SERVING_SWITCH_STREAM = 32;

// Event kinds (low 3 bits of the payload) and their priorities among equal times:
// completions free instances and memory first, then recoveries, background changes,
// arrivals, and the slot boundary last, so that everything at a boundary counts in the
// slot it closes.
const DONE = 0;
const RECOVERED = 1;
const BACKGROUND = 2;
const ARRIVAL = 3;
const SLOT = 4;
const SERVICE = 5;
/** A forming batch's deadline to start (batching `form`). */
const FLUSH = 6;
/** The end of one model's own scheduling slot (slot `eq1`, readings.ts). */
const MODEL_SLOT = 7;
/** Priorities among equal times (the kinds above, but a flush after arrivals and before the slot's end). */
const FLUSH_PRIORITY = 4;
const SLOT_PRIORITY = 5;
/** A model's slot ends after everything else at its time, the reporting interval's end included. */
const MODEL_SLOT_PRIORITY = 6;

/** Per-model counters for the run. */
interface ModelTotals {
  requests: number;
  completed: number;
  late: number;
  failed: number;
  dropped: number;
  oomBatches: number;
  batches: number;
  batchedRequests: number;
  latencySum: number;
  transmissionSum: number;
  serializationSum: number;
  queueingSum: number;
  inferenceSum: number;
  returnSum: number;
  utilitySum: number;
  utilityCount: number;
}

/** Per-model counters for the current slot. */
interface SlotCounters {
  arrivals: number;
  completed: number;
  latencySum: number;
  violations: number;
  /** Completed after their deadline (part of `violations`). */
  late: number;
  batchSloSum: number;
  batches: number;
  /** Instance-busy time of the completed batches (t_s + t_m), ms. */
  busyMs: number;
  oomBatches: number;
  /** Work was queued or running when the slot began. */
  busyAtStart: boolean;
}

const zeroTotals = (): ModelTotals => ({
  requests: 0,
  completed: 0,
  late: 0,
  failed: 0,
  dropped: 0,
  oomBatches: 0,
  batches: 0,
  batchedRequests: 0,
  latencySum: 0,
  transmissionSum: 0,
  serializationSum: 0,
  queueingSum: 0,
  inferenceSum: 0,
  returnSum: 0,
  utilitySum: 0,
  utilityCount: 0,
});

/** Starts a slot's counters afresh. */
function resetCounters(c: SlotCounters, busyAtStart: boolean): void {
  c.arrivals = 0;
  c.completed = 0;
  c.latencySum = 0;
  c.violations = 0;
  c.late = 0;
  c.batchSloSum = 0;
  c.batches = 0;
  c.busyMs = 0;
  c.oomBatches = 0;
  c.busyAtStart = busyAtStart;
}

const zeroSlot = (): SlotCounters => ({
  arrivals: 0,
  completed: 0,
  latencySum: 0,
  violations: 0,
  late: 0,
  batchSloSum: 0,
  batches: 0,
  busyMs: 0,
  oomBatches: 0,
  busyAtStart: false,
});

/**
 * A checkpoint of one `ServingRun` (see `ServingRun.snapshot`): the growing stores as typed
 * arrays, the counters and sketches, every random stream's state. Events, slot records and
 * background changes are immutable and shared with the run.
 */
export interface ServingRunSnapshot {
  readonly scalars: Float64Array;
  /**
   * The requests not yet served or lost (their slots in `live`; a free slot's fields are never
   * read), the free list as it stands (its order decides the slots handed out next) and the
   * capacity: a backlog of a burst grows the arrays, a checkpoint holds only what is in flight.
   */
  readonly requests: {
    readonly capacity: number;
    readonly live: Int32Array;
    readonly sent: Float64Array;
    readonly deadline: Float64Array;
    readonly slo: Float64Array;
    readonly edge: Float64Array;
    readonly seq: Float64Array;
    readonly model: Int32Array;
    readonly shapeClass: Int32Array;
    readonly state: Uint8Array;
    readonly free: Int32Array;
  };
  readonly heaps: readonly Int32Array[];
  readonly heapCapacity: Int32Array;
  readonly heapSize: Int32Array;
  readonly batches: {
    readonly model: Int32Array<ArrayBuffer>;
    readonly shapeClass: Int32Array<ArrayBuffer>;
    readonly size: Int32Array<ArrayBuffer>;
    readonly start: Float64Array<ArrayBuffer>;
    readonly serialization: Float64Array<ArrayBuffer>;
    readonly inference: Float64Array<ArrayBuffer>;
    readonly demand: Float64Array<ArrayBuffer>;
    readonly activation: Float64Array<ArrayBuffer>;
    readonly sloSum: Float64Array<ArrayBuffer>;
    readonly freeMemory: Float64Array<ArrayBuffer>;
    readonly freeCompute: Float64Array<ArrayBuffer>;
    readonly running: Int32Array<ArrayBuffer>;
    readonly instances: Int32Array<ArrayBuffer>;
    readonly active: Uint8Array<ArrayBuffer>;
    readonly members: Int32Array<ArrayBuffer>;
    readonly free: Int32Array;
  };
  readonly events: NumberEventQueueSnapshot;
  readonly load: DeviceLoad;
  readonly action: readonly ModelAction[];
  readonly perModel: {
    readonly busy: Int32Array;
    readonly recovering: Int32Array;
    readonly inService: Uint8Array;
    readonly flushAtMs: Float64Array;
    readonly nextModelSendMs: Float64Array;
    readonly modelSlotStartMs: Float64Array;
    readonly due: Uint8Array;
    readonly intervalInstanceMs: Float64Array;
    readonly instancesSinceMs: Float64Array;
    readonly instancesChanged: Uint8Array;
  };
  readonly totals: readonly Readonly<ModelTotals>[];
  readonly slotCounters: readonly Readonly<SlotCounters>[];
  readonly modelSlotCounters: readonly Readonly<SlotCounters>[] | null;
  readonly modelSlotStats: readonly (ModelSlotStats | null)[];
  readonly lastSlotStats: ModelSlotStats[] | null;
  readonly lastRecord: SlotRecord | null;
  readonly samples: readonly (LatencySamplesSnapshot | LogHistogramSnapshot)[];
  readonly allSamples: LatencySamplesSnapshot | LogHistogramSnapshot;
  readonly series: SlotSeriesSnapshot;
  readonly backgroundChanges: readonly { readonly intensity: number; readonly memoryMb: number }[];
  /** Credit `governed`: the open and settled decisions (null under `slot`). */
  readonly credit: DecisionCreditSnapshot | null;
  readonly rngs: {
    readonly arrivals: Uint32Array;
    readonly noise: Uint32Array | null;
    readonly models: readonly Uint32Array[];
    readonly rates: readonly (Float64Array | null)[];
  };
}

/**
 * One lane of the serving world (ARCHITECTURE §3) as a discrete-event simulation on NumberEventQueue (eventQueue.ts).
 *
 * Requests: the devices send a Poisson stream at `rateRps`, each request's model drawn by
 * the weights and its SLO jittered, all from one RNG stream drawn in send order (three
 * numbers per request), so every lane sees the identical trace whatever its scheduler does.
 * A request reaches the edge after t_t (Eq. 2), joins its model's queue ordered by
 * deadline = sent + SLO (§IV-C: shorter SLO first, arrival order on ties), and waits (t_w).
 *
 * Execution (§III-A1, §IV-C, §IV-D): model m runs m_c instances; an idle instance takes up
 * to b requests from the head of its model's queue at once (dynamic batching without a
 * batching delay: Triton's max_queue_delay 0), copies their inputs into one tensor (t_s),
 * and runs the batch (t_m, contention.ts). The result returns to the device (t_o). When
 * the scheduler lowers m_c, busy instances finish their batch before they unload; raising
 * it loads instances at once (no load time — a simplification). Weights of loaded
 * instances and activations of running batches occupy memory; a batch that would exceed
 * the platform's memory fails at once (its requests are SLO violations) and its instance
 * recovers for `oomRecoveryMs`.
 */
export class ServingRun {
  readonly platform: Platform;
  /**
   * Per-model arrival streams (load over time, request classes, service windows): each
   * model sends its own non-homogeneous Poisson stream (load.ts, by thinning) from its own
   * RNG stream, drawn in send order (gap and acceptance per candidate; SLO jitter and class
   * per request), merged by send time (lowest model index first on ties). Without any of
   * those features the run keeps the single stream described above, bit for bit.
   */
  private readonly perModelArrivals: boolean;
  private readonly rateProcesses: RateProcess[] = [];
  private readonly modelRngs: Rng[] = [];
  private readonly nextModelSendMs: Float64Array;
  /** Per model and class: the compiled model at that class's scale (class 0 of scale 1 is `compiled` itself). */
  private readonly compiledByClass: readonly (readonly CompiledModel[])[];
  private readonly classScale: readonly Float64Array[];
  /** t_t of Eq. 2 per model and class, ms (`transmitOf`). */
  private readonly transmitByClass: readonly Float64Array[];
  private readonly classCumulative: readonly Float64Array[];
  private readonly noise: Rng | null;
  private readonly inService: Uint8Array;
  readonly compiled: readonly CompiledModel[];
  readonly modelIds: readonly ModelId[];
  private readonly isolatedMsByBatch: readonly (readonly number[])[];
  /** Per model and class, a batch's figures by its size (`BatchFigures`). */
  private readonly figures: readonly (readonly BatchFigures[])[];
  private readonly spec: ServingRunSpec;
  private readonly a: ServingAssumptions;
  private readonly m: number;
  private readonly sloMs: Float64Array;
  private readonly transmitMs: Float64Array;
  private readonly returnMsOf: Float64Array;
  private readonly serializationMsPerRequest: Float64Array;
  private readonly cumulativeWeight: Float64Array;
  private readonly arrivals: Rng;
  private readonly meanGapMs: number;
  private readonly events = new NumberEventQueue();
  private readonly load: DeviceLoad = emptyDeviceLoad();
  private readonly edf: boolean;
  /** Batching `form`: a free instance waits for its batch (assumptions.ts). */
  private readonly formBatches: boolean;
  /** Per model: the start deadline of its forming batch for which an event is queued, ms (+∞: none). */
  private readonly flushAtMs: Float64Array;
  private readonly closedLoop: number;
  /** Whether the scheduler wants the profiler's batch records. */
  private readonly observesBatches: boolean;
  private nowMs = 0;
  private nextSendMs: number;
  private sequence = 0;

  // Requests (struct of arrays with a free list).
  private reqSent = new Float64Array(1024);
  private reqDeadline = new Float64Array(1024);
  private reqSlo = new Float64Array(1024);
  private reqEdge = new Float64Array(1024);
  private reqSeq = new Float64Array(1024);
  private reqModel = new Int32Array(1024);
  private reqClass = new Int32Array(1024);
  /** The members of a batch being formed (before it is known to fit). */
  private readonly scratch = new Int32Array(MAX_BATCH_SIZE);
  /** 0 free, 1 in transit, 2 queued, 3 running. */
  private reqState = new Uint8Array(1024);
  private freeReq = new Int32Array(1024);
  private freeReqTop = 0;
  private reqCapacity = 0;

  // Per-model deadline heaps of request indices.
  private readonly heaps: Int32Array[];
  private readonly heapSize: Int32Array;

  // Running batches (slots with a free list; members in a flat array).
  private batchModel = new Int32Array(64);
  private batchClass = new Int32Array(64);
  private batchSize = new Int32Array(64);
  private batchStart = new Float64Array(64);
  private batchSerialization = new Float64Array(64);
  private batchInference = new Float64Array(64);
  private batchDemand = new Float64Array(64);
  private batchActivation = new Float64Array(64);
  private batchSloSum = new Float64Array(64);
  /** The profiler's view when each batch started (filled only when the scheduler observes batches). */
  private batchFreeMemory = new Float64Array(64);
  private batchFreeCompute = new Float64Array(64);
  private batchRunning = new Int32Array(64);
  private batchInstances = new Int32Array(64);
  private batchActive = new Uint8Array(64);
  private batchMembers = new Int32Array(64 * MAX_BATCH_SIZE);
  private freeBatch: number[] = [];
  private batchCapacity = 0;

  // Instances and the action in force.
  private readonly action: ModelAction[];
  private readonly busy: Int32Array;
  private readonly recovering: Int32Array;

  // Metrics.
  private readonly totals: ModelTotals[];
  private readonly slotCounters: SlotCounters[];
  private readonly samples: PercentileSketch[];
  private readonly allSamples: PercentileSketch;
  readonly series: SlotSeries;
  private slotIndex = 0;
  private slotStartMs = 0;
  private lastSlotStats: ModelSlotStats[] | null = null;
  private lastRecordValue: SlotRecord | null = null;
  private lastReward: number | null = null;

  // Slot `eq1` (readings.ts): each model's own scheduling slots.
  /** Whether each model has slots of its own (Eq. 1) rather than the one of `slotMs`. */
  private readonly perModelSlots: boolean;
  /** Per model: the counters of its scheduling slot under way (null under `fixed`: the reporting counters are the slot's). */
  private readonly modelSlotCounters: SlotCounters[] | null;
  /** Per model: when its scheduling slot under way started, ms. */
  private readonly modelSlotStartMs: Float64Array;
  /** Per model: what happened in its last scheduling slot (the observation's `lastSlot`). */
  private readonly modelSlotStats: (ModelSlotStats | null)[];
  /** The models whose decision this is (1 = due). */
  private readonly due: Uint8Array;
  /** Per model, over the reporting interval under way: ∫ m_c dt up to `instancesSinceMs` (instance·ms), and whether m_c changed in it. */
  private readonly intervalInstanceMs: Float64Array;
  private readonly instancesSinceMs: Float64Array;
  private readonly instancesChanged: Uint8Array;
  /** Candidates of the best-first walk of a deadline heap (`mostUrgentSloSum`). */
  private readonly candidates = new Int32Array(2 * MAX_BATCH_SIZE + 2);
  private finished = false;
  private traceIndex = 0;
  /** The requests drawn before the run (`drawServingArrivals`), read at `traceIndex`; null: drawn as the run goes. */
  private readonly prepared: ServingArrivals | null;
  /** The last request drawn by `drawNextSend`. */
  private drawnModel = 0;
  private drawnSloMs = 0;
  private drawnClass = 0;
  /** Credit `governed` (readings.ts): each decision's own requests, for its reward; null under `slot`. */
  private readonly credit: DecisionCredit | null;
  /** Lates `reject` (readings.ts): a queued request that can no longer meet its SLO is rejected. */
  private readonly rejectLate: boolean;

  /** Called for every request when it is served or lost (omit on hot paths). */
  onRequest: ((record: RequestRecord) => void) | null = null;

  constructor(
    spec: ServingRunSpec,
    private readonly scheduler: ServingScheduler,
    arrivals?: ServingArrivals,
  ) {
    validateSpec(spec);
    this.spec = spec;
    this.a = spec.assumptions;
    this.platform = PLATFORMS[spec.platform];
    this.m = spec.models.length;
    this.modelIds = spec.models.map((s) => s.model);
    this.compiled = spec.models.map((s) => compileModel(MODELS[s.model], this.platform, this.a.latencyProfile));
    this.isolatedMsByBatch = this.compiled.map((c) => BATCH_SIZES.map((b) => isolatedBatchMs(c, b)));
    this.sloMs = Float64Array.from(spec.models, (s) => s.sloMs ?? MODELS[s.model].sloMs);
    const bitsPerMs = this.a.linkBandwidthMbps * 1000;
    this.transmitMs = Float64Array.from(spec.models, (s) => this.a.linkLatencyMs + (MODELS[s.model].inputBytes * 8) / bitsPerMs);
    this.returnMsOf = Float64Array.from(spec.models, (s) => this.a.linkLatencyMs + (MODELS[s.model].outputBytes * 8) / bitsPerMs);
    this.serializationMsPerRequest = Float64Array.from(spec.models, (s) => MODELS[s.model].inputBytes / (this.a.serializationMBps * 1000));
    const totalWeight = spec.models.reduce((sum, s) => sum + s.weight, 0);
    let acc = 0;
    this.cumulativeWeight = Float64Array.from(spec.models, (s) => (acc += s.weight / totalWeight));
    this.cumulativeWeight[this.m - 1] = 1;
    this.arrivals = createRng(spec.seed, SERVING_ARRIVAL_STREAM);
    this.meanGapMs = 1000 / spec.rateRps;
    this.compiledByClass = spec.models.map((s, m) =>
      (s.classes ?? [{ label: '', scale: 1, weight: 1 }]).map((c) => (c.scale === 1 ? this.compiled[m]! : scaleCompiled(this.compiled[m]!, c.scale))),
    );
    const ONE_CLASS: readonly RequestClass[] = [{ label: '', scale: 1, weight: 1 }];
    this.classScale = spec.models.map((s) => Float64Array.from(s.classes ?? ONE_CLASS, (c) => c.scale));
    this.figures = this.compiledByClass.map((classes) => classes.map(batchFigures));
    this.transmitByClass = spec.models.map((s, m) =>
      Float64Array.from(this.classScale[m]!, (scale) => this.a.linkLatencyMs + (MODELS[s.model].inputBytes * scale * 8) / (this.a.linkBandwidthMbps * 1000)),
    );
    this.classCumulative = spec.models.map((s) => {
      const classes = s.classes ?? ONE_CLASS;
      const total = classes.reduce((sum, c) => sum + c.weight, 0);
      let c = 0;
      const cum = Float64Array.from(classes, (x) => (c += x.weight / total));
      cum[cum.length - 1] = 1;
      return cum;
    });
    const noise = this.a.interferenceNoise ?? 0;
    this.noise = noise > 0 ? createRng(spec.seed, SERVING_NOISE_STREAM) : null;
    this.inService = Uint8Array.from(spec.models, (s) => ((s.serviceFromMs ?? 0) > 0 ? 0 : 1));
    this.closedLoop = spec.closedLoop?.outstanding ?? 0;
    this.perModelArrivals = this.closedLoop === 0 && spec.trace === undefined && spec.models.some((s) => s.rate !== undefined || s.classes !== undefined || (s.serviceFromMs ?? 0) > 0 || (s.serviceToMs ?? null) !== null);
    this.nextModelSendMs = new Float64Array(this.m);
    if (this.perModelArrivals) {
      spec.models.forEach((s, m) => {
        const index = MODEL_IDS.indexOf(s.model);
        this.modelRngs.push(createRng(spec.seed, SERVING_MODEL_STREAM + index));
        const schedule: RateSchedule = s.rate ?? { kind: 'constant', rateRps: (spec.rateRps * s.weight) / totalWeight };
        this.rateProcesses.push(rateProcess(schedule, createRng(spec.seed, SERVING_SWITCH_STREAM + index)));
        this.nextModelSendMs[m] = this.drawModelSend(m, 0);
      });
      this.nextSendMs = this.earliestModelSend();
    } else if (this.closedLoop > 0) {
      this.nextSendMs = Number.POSITIVE_INFINITY;
    } else {
      this.nextSendMs = spec.trace === undefined ? this.arrivals.exponential(this.meanGapMs) : (spec.trace[0]?.sentMs ?? Number.POSITIVE_INFINITY);
    }
    this.prepared = arrivals ?? null;
    if (this.prepared !== null) {
      if (this.closedLoop > 0 || spec.trace !== undefined) throw new RangeError('arrivals: a closed loop or a trace draws no arrivals to prepare');
      this.nextSendMs = this.prepared.sentMs[0] ?? Number.POSITIVE_INFINITY;
    }
    this.edf = scheduler.dispatch === 'edf';
    this.formBatches = this.a.batching === 'form' && !this.edf;
    this.flushAtMs = new Float64Array(this.m).fill(Number.POSITIVE_INFINITY);
    this.observesBatches = scheduler.observeBatch !== undefined;
    this.heaps = spec.models.map(() => new Int32Array(256));
    this.heapSize = new Int32Array(this.m);
    this.busy = new Int32Array(this.m);
    this.loadedCounts = new Int32Array(this.m);
    this.recovering = new Int32Array(this.m);
    this.totals = spec.models.map(zeroTotals);
    this.slotCounters = spec.models.map(zeroSlot);
    this.perModelSlots = this.a.slot === 'eq1';
    this.credit = (this.a.credit ?? 'slot') === 'governed' ? new DecisionCredit(this.m, this.a, this.a.slotMs) : null;
    // A closed loop measures a configuration at load (Fig. 1, as a load generator does): its
    // requests are all served, whatever the reading.
    this.rejectLate = (this.a.lateRequests ?? 'keep') === 'reject' && this.closedLoop === 0;
    this.modelSlotCounters = this.perModelSlots ? spec.models.map(zeroSlot) : null;
    this.modelSlotStartMs = new Float64Array(this.m);
    this.modelSlotStats = spec.models.map(() => null);
    this.due = new Uint8Array(this.m).fill(1);
    this.intervalInstanceMs = new Float64Array(this.m);
    this.instancesSinceMs = new Float64Array(this.m);
    this.instancesChanged = new Uint8Array(this.m);
    // `exact` keeps every sample; without a method, the capped sample of old.
    const cap = spec.percentiles?.method === 'exact' ? Number.POSITIVE_INFINITY : (spec.latencySampleCap ?? 65_536);
    const sketch = (): PercentileSketch => (spec.percentiles?.method === 'streaming' ? new LogHistogram(spec.percentiles.relativeError) : new LatencySamples(cap)) as PercentileSketch;
    this.samples = spec.models.map(sketch);
    this.allSamples = sketch();
    this.series = new SlotSeries(spec.seriesCap ?? 4096);
    this.growRequests(1024);
    this.growBatches(64);

    for (const bg of spec.background) this.scheduleBackground(bg);
    spec.models.forEach((s, m) => {
      if ((s.serviceFromMs ?? 0) > 0) this.events.push(s.serviceFromMs!, (m * 2) * 8 + SERVICE, BACKGROUND);
      if (s.serviceToMs !== undefined && s.serviceToMs !== null) this.events.push(s.serviceToMs, (m * 2 + 1) * 8 + SERVICE, BACKGROUND);
    });
    this.action = spec.models.map(() => ({ batchSize: 1, instances: 1 }));
    if (this.closedLoop > 0) {
      for (let m = 0; m < this.m; m++) for (let k = 0; k < this.closedLoop; k++) this.sendRequest(0, m, this.sloMs[m]!, 0);
    }
    this.applyAction(this.decideNow());
    this.scheduler.learn?.();
    this.events.push(this.slotEndMs(0), SLOT, SLOT_PRIORITY);
    // Eq. 1: every model's first slot starts with its first action.
    if (this.perModelSlots) for (let m = 0; m < this.m; m++) this.startModelSlot(m);
  }

  /** Simulated time reached, ms. */
  get timeMs(): number {
    return this.nowMs;
  }

  get done(): boolean {
    return this.finished;
  }

  /** The action in force, per model. */
  get currentAction(): ServingAction {
    return this.action.map((a) => ({ ...a }));
  }

  /** Runs until `targetMs` (or the end of the run). */
  advanceTo(targetMs: number): void {
    if (this.finished) return;
    const end = Math.min(targetMs, this.spec.durationMs);
    const duration = this.spec.durationMs;
    const events = this.events;
    for (;;) {
      const topMs = events.peekTime();
      const send = this.nextSendMs;
      if (send < duration && send <= end && send < topMs) {
        this.send(send);
        continue;
      }
      if (topMs > end) break;
      this.nowMs = topMs;
      this.handle(events.pop());
      if (this.finished) return;
    }
    if (end > this.nowMs) this.nowMs = end;
  }

  /** Runs to the end and returns the summary. */
  runToEnd(): ServingSummary {
    this.advanceTo(this.spec.durationMs);
    return this.summary();
  }

  private handle(payload: number): void {
    const kind = payload & 7;
    const index = payload >> 3;
    switch (kind) {
      case DONE:
        this.finishBatch(index);
        break;
      case RECOVERED: {
        if (this.edf) this.recovering[0]!--;
        else this.recovering[index]!--;
        this.updateInstanceMemory();
        this.dispatch(index);
        break;
      }
      case BACKGROUND:
        this.applyBackground(index);
        break;
      case ARRIVAL:
        this.arrive(index);
        break;
      case SLOT:
        this.endSlot();
        break;
      case SERVICE:
        this.changeService(index >> 1, (index & 1) === 0);
        break;
      case FLUSH:
        // A stale deadline (the forming batch changed since) is ignored; dispatch re-checks.
        if (this.flushAtMs[index] === this.nowMs) {
          this.flushAtMs[index] = Number.POSITIVE_INFINITY;
          this.dispatch(index);
        }
        break;
      case MODEL_SLOT:
        this.endModelSlots(index);
        break;
      default:
        throw new RangeError(`unknown event kind ${kind}`);
    }
  }

  // ---- Requests -------------------------------------------------------------------------

  /** A device sends a request at `timeMs`; draws the next send time. */
  private send(timeMs: number): void {
    this.nowMs = timeMs;
    const prepared = this.prepared;
    const trace = this.spec.trace;
    if (prepared !== null) {
      const i = this.traceIndex++;
      this.nextSendMs = i + 1 < prepared.sentMs.length ? prepared.sentMs[i + 1]! : Number.POSITIVE_INFINITY;
      this.sendRequest(timeMs, prepared.model[i]!, prepared.sloMs[i]!, prepared.shapeClass[i]!);
    } else if (trace === undefined) {
      this.drawNextSend(timeMs);
      this.sendRequest(timeMs, this.drawnModel, this.drawnSloMs, this.drawnClass);
    } else {
      const request = trace[this.traceIndex++]!;
      const model = request.model;
      this.nextSendMs = trace[this.traceIndex]?.sentMs ?? Number.POSITIVE_INFINITY;
      this.sendRequest(timeMs, model, request.sloMs ?? this.sloMs[model]!, request.shapeClass ?? 0);
    }
  }

  /**
   * Draws the request sent at `timeMs` (its model, SLO and class, into `drawnModel`, `drawnSloMs`,
   * `drawnClass`) and the next send time, from the random streams (per model, or the one stream).
   */
  private drawNextSend(timeMs: number): void {
    let model = 0;
    let shapeClass = 0;
    let slo: number;
    if (this.perModelArrivals) {
      model = this.earliestModelIndex();
      const rng = this.modelRngs[model]!;
      const uSlo = rng.nextFloat();
      const uClass = rng.nextFloat();
      const cum = this.classCumulative[model]!;
      while (uClass >= cum[shapeClass]!) shapeClass++;
      slo = this.sloMs[model]! * (1 + this.a.sloJitter * (2 * uSlo - 1));
      this.nextModelSendMs[model] = this.drawModelSend(model, timeMs);
      this.nextSendMs = this.earliestModelSend();
    } else {
      const rng = this.arrivals;
      const uModel = rng.nextFloat();
      const uSlo = rng.nextFloat();
      this.nextSendMs = timeMs + rng.exponential(this.meanGapMs);
      while (uModel >= this.cumulativeWeight[model]!) model++;
      slo = this.sloMs[model]! * (1 + this.a.sloJitter * (2 * uSlo - 1));
    }
    this.drawnModel = model;
    this.drawnSloMs = slo;
    this.drawnClass = shapeClass;
  }

  /**
   * The requests this run would send, drawn as the run draws them (`drawServingArrivals`): its
   * random streams go on from where they stand, so call it on a fresh run. Null once more than
   * `limit` requests.
   */
  drawAllSends(limit = Number.POSITIVE_INFINITY): ServingArrivals | null {
    if (this.closedLoop > 0 || this.spec.trace !== undefined || this.prepared !== null) throw new RangeError('arrivals: a closed loop or a trace draws no arrivals to prepare');
    const duration = this.spec.durationMs;
    let sentMs = new Float64Array(1024);
    let model = new Int32Array(1024);
    let sloMs = new Float64Array(1024);
    let shapeClass = new Int32Array(1024);
    let n = 0;
    while (this.nextSendMs < duration) {
      if (n >= limit) return null;
      if (n === sentMs.length) {
        const grow = <A extends Float64Array | Int32Array>(a: A, make: (size: number) => A): A => {
          const b = make(2 * a.length);
          b.set(a);
          return b;
        };
        sentMs = grow(sentMs, (k) => new Float64Array(k));
        model = grow(model, (k) => new Int32Array(k));
        sloMs = grow(sloMs, (k) => new Float64Array(k));
        shapeClass = grow(shapeClass, (k) => new Int32Array(k));
      }
      const t = this.nextSendMs;
      this.drawNextSend(t);
      sentMs[n] = t;
      model[n] = this.drawnModel;
      sloMs[n] = this.drawnSloMs;
      shapeClass[n] = this.drawnClass;
      n++;
    }
    return { sentMs: sentMs.slice(0, n), model: model.slice(0, n), sloMs: sloMs.slice(0, n), shapeClass: shapeClass.slice(0, n) };
  }

  /** A request of `model` leaves its device at `timeMs` towards the edge. */
  private sendRequest(timeMs: number, model: number, slo: number, shapeClass: number): void {
    const r = this.allocRequest();
    this.reqSent[r] = timeMs;
    this.reqSlo[r] = slo;
    this.reqDeadline[r] = timeMs + slo;
    this.reqModel[r] = model;
    this.reqClass[r] = shapeClass;
    this.reqSeq[r] = this.sequence++;
    this.reqState[r] = 1;
    this.totals[model]!.requests++;
    const edge = timeMs + (shapeClass === 0 && this.classScale[model]![0] === 1 ? this.transmitMs[model]! : this.transmitOf(model, shapeClass));
    this.reqEdge[r] = edge;
    this.events.push(edge, r * 8 + ARRIVAL, ARRIVAL);
  }

  /** Closed loop: a request of `model` was served or lost at `timeMs`; its client sends the next (before the end). */
  private replace(model: number, timeMs: number): void {
    if (this.closedLoop > 0 && timeMs < this.spec.durationMs) this.sendRequest(timeMs, model, this.sloMs[model]!, 0);
  }

  /** A request reaches the edge: admission, then its model's queue. */
  private arrive(r: number): void {
    const model = this.reqModel[r]!;
    const slot = this.slotCounters[model]!;
    const own = this.modelSlotCounters?.[model];
    slot.arrivals++;
    if (own !== undefined) own.arrivals++;
    if (this.inService[model] === 0) {
      // Its service is not running (a traced request outside the model's window): lost at the edge.
      this.totals[model]!.dropped++;
      slot.violations++;
      if (own !== undefined) own.violations++;
      if (this.onRequest !== null) this.record(r, this.nowMs, this.nowMs, 0, 'dropped');
      this.freeRequest(r);
      return;
    }
    if (this.scheduler.admit !== undefined) {
      const admitted = this.scheduler.admit(
        { model, sentMs: this.reqSent[r]!, sloMs: this.reqSlo[r]!, deadlineMs: this.reqDeadline[r]! },
        this.admissionView,
      );
      if (!admitted) {
        this.totals[model]!.dropped++;
        slot.violations++;
        if (own !== undefined) own.violations++;
        this.credit?.lost(model, 1);
        if (this.onRequest !== null) this.record(r, this.nowMs, this.nowMs, 0, 'dropped');
        this.freeRequest(r);
        this.replace(model, this.nowMs);
        return;
      }
    }
    this.reqState[r] = 2;
    this.heapPush(model, r);
    this.dispatch(model);
  }

  // ---- Dispatch -------------------------------------------------------------------------

  /** Starts batches while a model has queued requests and an idle instance (or the EDF executor is idle). */
  private dispatch(model: number): void {
    if (this.edf) {
      if (this.rejectLate) for (let m = 0; m < this.m; m++) this.rejectLateRequests(m);
      while (this.busy[0]! + this.recovering[0]! === 0) {
        const next = this.earliestDeadlineModel();
        if (next < 0) return;
        this.startBatch(next);
      }
      return;
    }
    if (this.inService[model] === 0) return;
    if (this.rejectLate) this.rejectLateRequests(model);
    const instances = this.action[model]!.instances;
    while (this.heapSize[model]! > 0 && this.busy[model]! + this.recovering[model]! < instances) {
      if (this.formBatches && this.heapSize[model]! < this.action[model]!.batchSize) {
        const startBy = this.formingStartByMs(model);
        if (startBy > this.nowMs) {
          if (this.flushAtMs[model] !== startBy) {
            this.flushAtMs[model] = startBy;
            this.events.push(startBy, model * 8 + FLUSH, FLUSH_PRIORITY);
          }
          return;
        }
      }
      this.flushAtMs[model] = Number.POSITIVE_INFINITY;
      this.startBatch(model);
    }
  }

  /**
   * Lates `reject` (readings.ts): rejects the queued requests of `model` that can no longer
   * meet their SLO — whose deadline is earlier than the soonest they could finish, sent to a
   * batch of one now and run alone (t_s + t_iso + t_o at their class's scale). The queue is in
   * deadline order, so they are at its head. Each is an SLO violation (a drop), never served.
   */
  private rejectLateRequests(model: number): void {
    const heap = this.heaps[model]!;
    const now = this.nowMs;
    while (this.heapSize[model]! > 0) {
      const r = heap[0]!;
      const c = this.reqClass[r]!;
      const scale = this.classScale[model]![c]!;
      const soonest = now + this.serializationMsPerRequest[model]! * scale + this.figures[model]![c]!.isolatedMs[1]! + this.returnMsOf[model]!;
      if (this.reqDeadline[r]! >= soonest) return;
      this.heapPop(model);
      this.totals[model]!.dropped++;
      this.slotCounters[model]!.violations++;
      const own = this.modelSlotCounters?.[model];
      if (own !== undefined) own.violations++;
      this.credit?.lost(model, 1);
      if (this.onRequest !== null) this.record(r, now, now, 0, 'dropped');
      this.freeRequest(r);
      this.replace(model, now);
    }
  }

  /**
   * Batching `form`: the latest start of the batch of the k requests that wait now (k < b)
   * that lets its most urgent request meet its deadline, its batch running alone:
   * deadline − (t_s(k) + t_iso(k) + t_o), at the scale of its widest request (assumptions.ts).
   */
  private formingStartByMs(model: number): number {
    const k = this.heapSize[model]!;
    const heap = this.heaps[model]!;
    const scales = this.classScale[model]!;
    let widest = 0;
    if (scales.length > 1) for (let i = 0; i < k; i++) if (scales[this.reqClass[heap[i]!]!]! > scales[widest]!) widest = this.reqClass[heap[i]!]!;
    const serviceMs = k * this.serializationMsPerRequest[model]! * scales[widest]! + this.figures[model]![widest]!.isolatedMs[k]! + this.returnMsOf[model]!;
    return this.reqDeadline[heap[0]!]! - serviceMs;
  }

  /** Requests waiting for model m's forming batch and the time left before it must start, ms (null: nothing forming). */
  formingBatch(m: number): { readonly waiting: number; readonly batchSize: number; readonly startInMs: number } | null {
    if (!this.formBatches || this.heapSize[m] === 0 || this.heapSize[m]! >= this.action[m]!.batchSize) return null;
    return { waiting: this.heapSize[m]!, batchSize: this.action[m]!.batchSize, startInMs: Math.max(0, this.formingStartByMs(m) - this.nowMs) };
  }

  /** EDF over all requests: the model whose queue head has the earliest deadline (then arrival order, then model index). */
  private earliestDeadlineModel(): number {
    let best = -1;
    let bestDeadline = Number.POSITIVE_INFINITY;
    let bestSeq = Number.POSITIVE_INFINITY;
    for (let m = 0; m < this.m; m++) {
      if (this.heapSize[m] === 0) continue;
      const r = this.heaps[m]![0]!;
      const d = this.reqDeadline[r]!;
      const s = this.reqSeq[r]!;
      if (d < bestDeadline || (d === bestDeadline && s < bestSeq)) {
        best = m;
        bestDeadline = d;
        bestSeq = s;
      }
    }
    return best;
  }

  private startBatch(model: number): void {
    const now = this.nowMs;
    const size = Math.min(this.action[model]!.batchSize, this.heapSize[model]!);
    const executor = this.edf ? 0 : model;
    // The batch's members, in deadline order; the batch runs at its largest member's class.
    const members = this.scratch;
    let widest = 0;
    const scales = this.classScale[model]!;
    for (let k = 0; k < size; k++) {
      const r = this.heapPop(model);
      members[k] = r;
      const c = this.reqClass[r]!;
      if (scales[c]! > scales[widest]!) widest = c;
    }
    const figures = this.figures[model]![widest]!;
    const activation = figures.activationMb[size]!;
    if (!fitsInMemory(this.platform, this.load, activation)) {
      // Out of memory: the batch fails at once; its requests are violations.
      const totals = this.totals[model]!;
      const slot = this.slotCounters[model]!;
      for (let k = 0; k < size; k++) {
        const r = members[k]!;
        if (this.onRequest !== null) this.record(r, now, now, size, 'failed');
        this.freeRequest(r);
        this.replace(model, now);
      }
      totals.failed += size;
      totals.oomBatches++;
      this.credit?.lost(model, size);
      slot.violations += size;
      slot.oomBatches++;
      const own = this.modelSlotCounters?.[model];
      if (own !== undefined) {
        own.violations += size;
        own.oomBatches++;
      }
      this.recovering[executor]!++;
      this.events.push(now + this.a.oomRecoveryMs, model * 8 + RECOVERED, RECOVERED);
      return;
    }
    const b = this.allocBatch();
    const base = b * MAX_BATCH_SIZE;
    let sloSum = 0;
    for (let k = 0; k < size; k++) {
      const r = members[k]!;
      this.reqState[r] = 3;
      this.batchMembers[base + k] = r;
      sloSum += this.reqSlo[r]!;
    }
    const serialization = size * this.serializationMsPerRequest[model]! * scales[widest]!;
    const isolatedMs = figures.isolatedMs[size]!;
    const demand = figures.demand[size]!;
    let inference = contendedMs(isolatedMs, figures.isolatedGpuMs[size]!, demand, activation, figures.memoryIntensity, this.platform, this.load, this.a.contention);
    if (this.noise !== null) inference *= this.noiseFactor(inference / isolatedMs);
    if (this.observesBatches) {
      this.batchFreeMemory[b] = 1 - usedMemoryMb(this.platform, this.load) / this.platform.memoryMb;
      this.batchFreeCompute[b] = 1 - this.load.gpuDemand - this.load.backgroundDemand;
      this.batchRunning[b] = this.load.runningBatches;
      let loaded = 0;
      for (let m = 0; m < this.m; m++) loaded += this.loadedInstances(m);
      this.batchInstances[b] = loaded;
    }
    this.batchModel[b] = model;
    this.batchClass[b] = widest;
    this.batchSize[b] = size;
    this.batchStart[b] = now;
    this.batchSerialization[b] = serialization;
    this.batchInference[b] = inference;
    this.batchDemand[b] = demand;
    this.batchActivation[b] = activation;
    this.batchSloSum[b] = sloSum;
    this.batchActive[b] = 1;
    this.load.gpuDemand += demand;
    this.load.activationMb += activation;
    this.load.runningBatches++;
    this.busy[executor]!++;
    this.credit?.batchStarted(model, b);
    this.updateInstanceMemory();
    this.events.push(now + serialization + inference, b * 8 + DONE, DONE);
  }

  /** The noise factor of one batch (see `interferenceNoise`): mean one, spread growing with the slowdown. */
  private noiseFactor(slowdown: number): number {
    const rng = this.noise!;
    const sigma = Math.min(2, (this.a.interferenceNoise ?? 0) * Math.max(1, slowdown));
    // Box–Muller; 1 − u lies in (0, 1], so the log is finite.
    const z = Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
    return Math.exp(sigma * z - (sigma * sigma) / 2);
  }

  private finishBatch(b: number): void {
    const now = this.nowMs;
    const model = this.batchModel[b]!;
    const size = this.batchSize[b]!;
    const start = this.batchStart[b]!;
    const serialization = this.batchSerialization[b]!;
    const inference = this.batchInference[b]!;
    const back = this.returnMsOf[model]!;
    const transmit = this.transmitMs[model]!;
    const totals = this.totals[model]!;
    const slot = this.slotCounters[model]!;
    const samples = this.samples[model]!;
    const base = b * MAX_BATCH_SIZE;
    const transmitScale = this.classScale[model]!;
    const own = this.modelSlotCounters?.[model];
    let batchLatencySum = 0;
    let batchLate = 0;
    for (let k = 0; k < size; k++) {
      const r = this.batchMembers[base + k]!;
      const completion = now + back;
      const latency = completion - this.reqSent[r]!;
      batchLatencySum += latency;
      if (completion > this.reqDeadline[r]!) {
        batchLate++;
        totals.late++;
        slot.violations++;
        slot.late++;
        if (own !== undefined) {
          own.violations++;
          own.late++;
        }
      }
      if (own !== undefined) own.latencySum += latency;
      totals.latencySum += latency;
      totals.queueingSum += start - this.reqEdge[r]!;
      samples.add(latency);
      this.allSamples.add(latency);
      slot.latencySum += latency;
      if (this.onRequest !== null) this.record(r, start, completion, size, 'served');
      this.freeRequest(r);
      this.replace(model, now);
    }
    totals.completed += size;
    totals.batches++;
    totals.batchedRequests += size;
    if (this.observesBatches) {
      this.scheduler.observeBatch!({
        model,
        batchSize: size,
        availableMemory: this.batchFreeMemory[b]!,
        availableCompute: this.batchFreeCompute[b]!,
        runningBatches: this.batchRunning[b]!,
        concurrentInstances: this.batchInstances[b]!,
        isolatedMs: isolatedBatchMs(this.compiledByClass[model]![this.batchClass[b]!]!, size),
        inferenceMs: inference,
      });
    }
    if (transmitScale.length === 1 && transmitScale[0] === 1) totals.transmissionSum += transmit * size;
    else for (let k = 0; k < size; k++) totals.transmissionSum += this.transmitOf(model, this.reqClass[this.batchMembers[base + k]!]!);
    totals.serializationSum += serialization * size;
    totals.inferenceSum += inference * size;
    totals.returnSum += back * size;
    slot.completed += size;
    slot.batches++;
    slot.busyMs += serialization + inference;
    slot.batchSloSum += this.batchSloSum[b]!;
    if (own !== undefined) {
      own.completed += size;
      own.batches++;
      own.busyMs += serialization + inference;
      own.batchSloSum += this.batchSloSum[b]!;
    }

    this.credit?.batchFinished(b, now, size, batchLatencySum, batchLate, serialization + inference, this.batchSloSum[b]!);
    this.batchActive[b] = 0;
    this.freeBatch.push(b);
    const load = this.load;
    load.runningBatches--;
    if (load.runningBatches === 0) {
      // Reset the sums so that rounding never accumulates over a long run.
      load.gpuDemand = 0;
      load.activationMb = 0;
    } else {
      load.gpuDemand -= this.batchDemand[b]!;
      load.activationMb -= this.batchActivation[b]!;
    }
    this.busy[this.edf ? 0 : model]!--;
    this.updateInstanceMemory();
    this.dispatch(model);
  }

  private record(r: number, dispatchMs: number, completionMs: number, batchSize: number, outcome: RequestRecord['outcome']): void {
    this.onRequest!({
      id: this.reqSeq[r]!,
      model: this.reqModel[r]!,
      sentMs: this.reqSent[r]!,
      sloMs: this.reqSlo[r]!,
      deadlineMs: this.reqDeadline[r]!,
      dispatchMs,
      completionMs,
      batchSize,
      outcome,
    });
  }

  /**
   * Memory of loaded instances: an instance stays loaded while busy or recovering, even after m_c
   * was lowered. The sum is taken again only when a model's count of loaded instances changed
   * since it was last taken (most batches start and end on an instance that stays loaded): the
   * same sum of the same counts, so the same number.
   */
  private updateInstanceMemory(): void {
    const loaded = this.loadedCounts;
    let changed = !this.loadedCountsValid;
    for (let m = 0; m < this.m; m++) {
      const n = this.loadedInstances(m);
      if (loaded[m] !== n) {
        loaded[m] = n;
        changed = true;
      }
    }
    if (!changed) return;
    this.loadedCountsValid = true;
    let mb = 0;
    for (let m = 0; m < this.m; m++) mb += loaded[m]! * this.compiled[m]!.instanceMemoryMb;
    this.load.instanceMb = mb;
  }

  /** Each model's loaded instances when `load.instanceMb` was last summed (valid unless the load was put back by `restore`). */
  private readonly loadedCounts: Int32Array;
  private loadedCountsValid = false;

  /** Instances of model m holding memory now: m_c (one under EDF), or the busy ones past it; none out of service once idle. */
  private loadedInstances(m: number): number {
    if (this.inService[m] === 0) return this.edf ? 0 : this.busy[m]! + this.recovering[m]!;
    return this.edf ? 1 : Math.max(this.action[m]!.instances, this.busy[m]! + this.recovering[m]!);
  }

  // ---- Arrivals per model, service windows -------------------------------------------------

  /** Time to send a request of a class to the edge, ms (t_t of Eq. 2 at the class's input size). */
  private transmitOf(model: number, shapeClass: number): number {
    return this.transmitByClass[model]![shapeClass]!;
  }

  /** The next send time of model m after `fromMs` (thinning; service window respected), or +∞. */
  private drawModelSend(m: number, fromMs: number): number {
    const process = this.rateProcesses[m]!;
    const rng = this.modelRngs[m]!;
    const peak = process.peakRps;
    const spec = this.spec.models[m]!;
    const startMs = spec.serviceFromMs ?? 0;
    const stopMs = Math.min(this.spec.durationMs, spec.serviceToMs ?? Number.POSITIVE_INFINITY);
    if (!(peak > 0)) return Number.POSITIVE_INFINITY;
    const gapMs = 1000 / peak;
    // Poisson streams are memoryless: a stream that starts later starts afresh at its start.
    let t = Math.max(fromMs, startMs);
    for (;;) {
      t += rng.exponential(gapMs);
      if (t >= stopMs) return Number.POSITIVE_INFINITY;
      const u = rng.nextFloat();
      if (u * peak < process.rateAt(t)) return t;
    }
  }

  private earliestModelIndex(): number {
    let best = 0;
    for (let m = 1; m < this.m; m++) if (this.nextModelSendMs[m]! < this.nextModelSendMs[best]!) best = m;
    return best;
  }

  private earliestModelSend(): number {
    return this.nextModelSendMs[this.earliestModelIndex()]!;
  }

  /** A model's service starts (its instances load) or stops (they unload once idle; its queue is dropped). */
  private changeService(m: number, start: boolean): void {
    if (start) {
      this.inService[m] = 1;
      this.updateInstanceMemory();
      this.dispatch(this.edf ? 0 : m);
      return;
    }
    this.inService[m] = 0;
    const totals = this.totals[m]!;
    const slot = this.slotCounters[m]!;
    const own = this.modelSlotCounters?.[m];
    while (this.heapSize[m]! > 0) {
      const r = this.heapPop(m);
      totals.dropped++;
      slot.violations++;
      if (own !== undefined) own.violations++;
      if (this.onRequest !== null) this.record(r, this.nowMs, this.nowMs, 0, 'dropped');
      this.freeRequest(r);
    }
    this.updateInstanceMemory();
  }

  // ---- Background interference ------------------------------------------------------------

  /**
   * Drops background interference onto the device during a run (the lab's drag and drop).
   * A start already in the past applies now; an end in the past is an error.
   */
  addBackground(bg: BackgroundInterference): void {
    if (!(bg.intensity >= 0) || (bg.toMs !== null && !(bg.toMs >= Math.max(bg.fromMs, this.nowMs)))) {
      throw new RangeError(`invalid background interference ${JSON.stringify(bg)} at ${this.nowMs} ms`);
    }
    this.scheduleBackground({ ...bg, fromMs: Math.max(bg.fromMs, this.nowMs) });
  }

  private readonly backgroundChanges: { intensity: number; memoryMb: number }[] = [];

  private scheduleBackground(bg: BackgroundInterference): void {
    const memoryMb = bg.memoryMb ?? 0;
    const start = this.backgroundChanges.length;
    this.backgroundChanges.push({ intensity: bg.intensity, memoryMb });
    this.events.push(bg.fromMs, start * 8 + BACKGROUND, BACKGROUND);
    if (bg.toMs !== null) {
      const stop = this.backgroundChanges.length;
      this.backgroundChanges.push({ intensity: -bg.intensity, memoryMb: -memoryMb });
      this.events.push(bg.toMs, stop * 8 + BACKGROUND, BACKGROUND);
    }
  }

  private applyBackground(index: number): void {
    const change = this.backgroundChanges[index]!;
    this.load.backgroundDemand = Math.max(0, this.load.backgroundDemand + change.intensity);
    this.load.backgroundMemoryMb = Math.max(0, this.load.backgroundMemoryMb + change.memoryMb);
  }

  // ---- Slots ---------------------------------------------------------------------------

  private slotEndMs(slot: number): number {
    return Math.min((slot + 1) * this.a.slotMs, this.spec.durationMs);
  }

  private endSlot(): void {
    const now = this.nowMs;
    const seconds = (now - this.slotStartMs) / 1000;
    const stats: ModelSlotStats[] = [];
    const records: SlotModelRecord[] = [];
    let utilitySum = 0;
    let utilityCount = 0;
    let completed = 0;
    let latencySum = 0;
    for (let m = 0; m < this.m; m++) {
      const c = this.slotCounters[m]!;
      const instances = this.edf ? 1 : this.action[m]!.instances;
      // Eq. 3's m_c over the interval (under `eq1` it may have changed inside it).
      const meanInstances = this.edf ? 1 : this.intervalInstances(m, now);
      const throughputRps = seconds > 0 ? c.completed / seconds : 0;
      const latencyMeanMs = c.completed > 0 ? c.latencySum / c.completed : 0;
      const input = {
        completed: c.completed,
        seconds,
        busyMs: c.busyMs,
        batchSloMeanMs: c.batches > 0 ? c.batchSloSum / c.batches : 0,
        instances: meanInstances,
        latencyMeanMs,
        late: c.late,
        violations: c.violations,
        hadWork: c.busyAtStart || c.arrivals > 0 || c.violations > 0,
      };
      const u = slotUtility(this.a, input);
      if (u !== null) {
        utilitySum += u;
        utilityCount++;
        this.totals[m]!.utilitySum += u;
        this.totals[m]!.utilityCount++;
        if (now > this.watchFromMs && now <= this.watchToMs) {
          this.watchedSum += u;
          this.watchedCount++;
        }
      }
      completed += c.completed;
      latencySum += c.latencySum;
      stats.push({
        arrivals: c.arrivals,
        completed: c.completed,
        violations: c.violations,
        throughputRps,
        latencyMeanMs,
        utility: u,
        oomBatches: c.oomBatches,
        seconds,
      });
      records.push({
        utility: u,
        throughputRps,
        throughputTermRps: throughputTermRps(this.a, input),
        batchSizeMean: c.batches > 0 ? c.completed / c.batches : 0,
        latencyMeanMs,
        batchSize: this.action[m]!.batchSize,
        instances,
        queueLength: this.heapSize[m]!,
        violations: c.violations,
      });
    }
    const record: SlotRecord = {
      slot: this.slotIndex,
      endMs: now,
      utility: utilityCount > 0 ? utilitySum / utilityCount : null,
      throughputRps: seconds > 0 ? completed / seconds : 0,
      latencyMeanMs: completed > 0 ? latencySum / completed : 0,
      perModel: records,
    };
    this.series.add(record);
    this.lastRecordValue = record;
    this.lastSlotStats = stats;
    // Under `eq1` the reward is the due models' own slots' (`endModelSlots`).
    if (!this.perModelSlots) this.lastReward = record.utility;
    this.slotIndex++;
    this.slotStartMs = now;
    for (let m = 0; m < this.m; m++) {
      const c = this.slotCounters[m]!;
      c.arrivals = 0;
      c.completed = 0;
      c.latencySum = 0;
      c.violations = 0;
      c.late = 0;
      c.batchSloSum = 0;
      c.batches = 0;
      c.busyMs = 0;
      c.oomBatches = 0;
      c.busyAtStart = this.heapSize[m]! > 0 || this.busy[this.edf ? 0 : m]! > 0;
    }
    if (now >= this.spec.durationMs) {
      this.finished = true;
      return;
    }
    if (this.perModelSlots) {
      // Eq. 1: the models decide at their own slots' ends; this boundary only reports.
      for (let m = 0; m < this.m; m++) {
        this.intervalInstanceMs[m] = 0;
        this.instancesSinceMs[m] = now;
        this.instancesChanged[m] = 0;
      }
      this.events.push(this.slotEndMs(this.slotIndex), SLOT, SLOT_PRIORITY);
      return;
    }
    if (this.credit !== null) for (let m = 0; m < this.m; m++) this.credit.close(m, now);
    this.applyAction(this.decideNow());
    this.scheduler.learn?.();
    this.events.push(this.slotEndMs(this.slotIndex), SLOT, SLOT_PRIORITY);
  }

  /**
   * m_c of model m over the reporting interval ending now: the one in force, or under `eq1`,
   * where a model's action may change inside an interval, its time-weighted mean over it.
   */
  private intervalInstances(m: number, now: number): number {
    const instances = this.action[m]!.instances;
    if (this.instancesChanged[m] === 0) return instances;
    const length = now - this.slotStartMs;
    return length > 0 ? (this.intervalInstanceMs[m]! + instances * (now - this.instancesSinceMs[m]!)) / length : instances;
  }

  // ---- Eq. 1: each model's own scheduling slots (slot `eq1`, readings.ts) -----------------

  /**
   * Starts model m's next scheduling slot now, its action in force: it lasts Eq. 1's
   * t_i = Σ_{j=1..b} SLO_j / m_c, the SLOs of the b requests its next batch takes (the b most
   * urgent queued, §IV-C's order), the model's nominal SLO for each of the b the queue lacks
   * (so t_i = b · SLO / m_c without SLO jitter); m_c is 1 under DeepRT's EDF executor.
   */
  private startModelSlot(m: number): void {
    resetCounters(this.modelSlotCounters![m]!, this.heapSize[m]! > 0 || this.busy[this.edf ? 0 : m]! > 0);
    this.modelSlotStartMs[m] = this.nowMs;
    this.events.push(this.nowMs + this.eq1SlotMs(m), m * 8 + MODEL_SLOT, MODEL_SLOT_PRIORITY);
  }

  /** Eq. 1's t_i of model m's slot if it started now, ms (see `startModelSlot`). */
  eq1SlotMs(m: number): number {
    const b = this.action[m]!.batchSize;
    const instances = this.edf ? 1 : this.action[m]!.instances;
    const queued = Math.min(b, this.heapSize[m]!);
    const missing = b - queued;
    const sloSum = (queued > 0 ? this.mostUrgentSloSum(m, queued) : 0) + (missing > 0 ? missing * this.sloMs[m]! : 0);
    return sloSum / instances;
  }

  /** Σ SLO of the k most urgent queued requests of model m (a best-first walk of its deadline heap: O(k log k)). */
  private mostUrgentSloSum(m: number, k: number): number {
    const heap = this.heaps[m]!;
    const n = this.heapSize[m]!;
    let sum = 0;
    if (k >= n) {
      for (let i = 0; i < n; i++) sum += this.reqSlo[heap[i]!]!;
      return sum;
    }
    // The k smallest of a binary heap: the root, and each time one is taken its children join the candidates.
    this.candidateCount = 0;
    this.pushCandidate(heap, 0);
    for (let taken = 0; taken < k; taken++) {
      const p = this.popCandidate(heap);
      sum += this.reqSlo[heap[p]!]!;
      const left = 2 * p + 1;
      if (left < n) this.pushCandidate(heap, left);
      if (left + 1 < n) this.pushCandidate(heap, left + 1);
    }
    return sum;
  }

  private candidateCount = 0;

  /** Adds position `p` of a deadline heap to the candidates (a min-heap of positions by the requests' order). */
  private pushCandidate(heap: Int32Array, p: number): void {
    const cand = this.candidates;
    let i = this.candidateCount++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[p]!, heap[cand[parent]!]!)) break;
      cand[i] = cand[parent]!;
      i = parent;
    }
    cand[i] = p;
  }

  /** Takes the candidate whose request comes first. */
  private popCandidate(heap: Int32Array): number {
    const cand = this.candidates;
    const top = cand[0]!;
    const size = --this.candidateCount;
    if (size === 0) return top;
    const last = cand[size]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(heap[cand[right]!]!, heap[cand[left]!]!) ? right : left;
      if (!this.before(heap[cand[child]!]!, heap[last]!)) break;
      cand[i] = cand[child]!;
      i = child;
    }
    cand[i] = last;
    return top;
  }

  /**
   * Model `first`'s slot ends now, and with it every other model's that ends at this very
   * time: each slot's utility (Eq. 3 under the readings, over the model's own slot) is its
   * reward, the scheduler decides for these models (the others' actions are kept), and each
   * starts its next slot with its new action at once (§III-A2: "starts the next scheduling
   * immediately after finishing the current scheduling").
   */
  private endModelSlots(first: number): void {
    const due = this.due;
    for (let m = 0; m < this.m; m++) due[m] = 0;
    due[first] = 1;
    const events = this.events;
    for (;;) {
      if (events.peekTime() !== this.nowMs || (events.peekPayload() & 7) !== MODEL_SLOT) break;
      due[events.pop() >> 3] = 1;
    }
    let sum = 0;
    let count = 0;
    for (let m = 0; m < this.m; m++) {
      if (due[m] === 0) continue;
      const u = this.closeModelSlot(m);
      if (u !== null) {
        sum += u;
        count++;
      }
    }
    this.lastReward = count > 0 ? sum / count : null;
    if (this.credit !== null) for (let m = 0; m < this.m; m++) if (due[m] === 1) this.credit.close(m, this.nowMs);
    this.applyAction(this.decideNow(due), due);
    this.scheduler.learn?.();
    for (let m = 0; m < this.m; m++) if (due[m] === 1) this.startModelSlot(m);
  }

  /** Model m's scheduling slot ends now: its stats for the next observation; returns its utility. */
  private closeModelSlot(m: number): number | null {
    const c = this.modelSlotCounters![m]!;
    const seconds = (this.nowMs - this.modelSlotStartMs[m]!) / 1000;
    const latencyMeanMs = c.completed > 0 ? c.latencySum / c.completed : 0;
    const u = slotUtility(this.a, {
      completed: c.completed,
      seconds,
      busyMs: c.busyMs,
      batchSloMeanMs: c.batches > 0 ? c.batchSloSum / c.batches : 0,
      instances: this.edf ? 1 : this.action[m]!.instances,
      latencyMeanMs,
      late: c.late,
      violations: c.violations,
      hadWork: c.busyAtStart || c.arrivals > 0 || c.violations > 0,
    });
    this.modelSlotStats[m] = {
      arrivals: c.arrivals,
      completed: c.completed,
      violations: c.violations,
      throughputRps: seconds > 0 ? c.completed / seconds : 0,
      latencyMeanMs,
      utility: u,
      oomBatches: c.oomBatches,
      seconds,
    };
    return u;
  }

  /** Installs the scheduler's action for every model, or (Eq. 1) for the `due` ones only. */
  private applyAction(action: ServingAction, due?: Uint8Array): void {
    if (!isValidAction(action, this.m)) {
      throw new RangeError(`scheduler ${this.scheduler.id} returned an invalid action ${JSON.stringify(action)}`);
    }
    const now = this.nowMs;
    for (let m = 0; m < this.m; m++) {
      if (due !== undefined && due[m] === 0) continue;
      const a = action[m]!;
      const instances = this.edf ? 1 : a.instances;
      const before = this.action[m]!.instances;
      if (this.perModelSlots && instances !== before && now > this.instancesSinceMs[m]!) {
        // m_c changes inside a reporting interval: its time-weighted mean (`intervalInstances`).
        this.intervalInstanceMs[m]! += before * (now - this.instancesSinceMs[m]!);
        this.instancesSinceMs[m] = now;
        this.instancesChanged[m] = 1;
      }
      // Unchanged (a plan's every decision inside a phase), the action in force stays as it is.
      const current = this.action[m]!;
      if (current.batchSize !== a.batchSize || current.instances !== instances) this.action[m] = { batchSize: a.batchSize, instances };
      this.credit?.start(m, now, instances);
    }
    this.updateInstanceMemory();
    if (this.edf) this.dispatch(0);
    // Only a model whose action may have changed can start a batch now (every model under `fixed`).
    else for (let m = 0; m < this.m; m++) if (due === undefined || due[m] === 1) this.dispatch(m);
  }

  /**
   * From now on, adds up the per-model utilities of the reporting intervals that end in
   * (fromMs, toMs] (`watchedUtility`), as a loop over the series' records and their models in
   * order would, without keeping the records (a reference search's phase objective: issue 38).
   * Not part of a checkpoint: a restore leaves it as it is.
   */
  watchUtility(fromMs: number, toMs: number): void {
    this.watchFromMs = fromMs;
    this.watchToMs = toMs;
    this.watchedSum = 0;
    this.watchedCount = 0;
  }

  /** The sum and count of the utilities `watchUtility` asked for, so far. */
  get watchedUtility(): { readonly sum: number; readonly count: number } {
    return { sum: this.watchedSum, count: this.watchedCount };
  }

  private watchFromMs = Number.POSITIVE_INFINITY;
  private watchToMs = Number.NEGATIVE_INFINITY;
  private watchedSum = 0;
  private watchedCount = 0;

  /** The record of the last reporting interval (kept even when the series thins it out); null before the first ended. */
  get lastRecord(): SlotRecord | null {
    return this.lastRecordValue;
  }

  /** What happened to each model in the last reporting interval (under `fixed`, its last slot); null before the first ended. */
  get lastIntervalStats(): readonly ModelSlotStats[] | null {
    return this.lastSlotStats;
  }

  /** The state s_t the scheduler sees now. */
  observe(): ServingObservation {
    const now = this.nowMs;
    const models: ModelObservation[] = [];
    for (let m = 0; m < this.m; m++) {
      const head = this.heapSize[m]! > 0 ? this.heaps[m]![0]! : -1;
      const scales = this.classScale[m]!;
      let inputScaleMean = 1;
      if (scales.length > 1 || scales[0] !== 1) {
        let sum = 0;
        const heap = this.heaps[m]!;
        for (let i = 0; i < this.heapSize[m]!; i++) sum += scales[this.reqClass[heap[i]!]!]!;
        inputScaleMean = this.heapSize[m]! > 0 ? sum / this.heapSize[m]! : scales[0]!;
      }
      models.push({
        model: this.modelIds[m]!,
        profile: this.compiled[m]!.profile,
        sloMs: this.sloMs[m]!,
        headSloMs: head >= 0 ? this.reqSlo[head]! : this.sloMs[m]!,
        inputScaleMean,
        // Always present (undefined under `fixed`), so that every observation has one shape.
        due: this.perModelSlots ? this.due[m] === 1 : undefined,
        inService: this.inService[m] === 1,
        queueLength: this.heapSize[m]!,
        oldestSlackMs: head >= 0 ? this.reqDeadline[head]! - now : this.sloMs[m]!,
        batchSize: this.action[m]!.batchSize,
        instances: this.action[m]!.instances,
        busyInstances: this.edf ? (this.busy[0]! > 0 && this.runningModel() === m ? 1 : 0) : this.busy[m]!,
        lastSlot: this.perModelSlots ? (this.modelSlotStats[m] ?? null) : (this.lastSlotStats?.[m] ?? null),
        isolatedMsByBatch: this.isolatedMsByBatch[m]!,
        // Credit `governed`: the decision this one will be, and (for the models it is for) the earlier ones settled since.
        ...(this.credit === null ? {} : { decision: this.credit.decisionOf(m) + 1, settled: !this.perModelSlots || this.due[m] === 1 ? this.credit.peek(m) : [] }),
      });
    }
    const demand = this.load.gpuDemand + this.load.backgroundDemand;
    return {
      slot: this.slotIndex,
      nowMs: now,
      slotMs: this.a.slotMs,
      models,
      availableMemoryMb: this.platform.memoryMb - usedMemoryMb(this.platform, this.load),
      memoryMb: this.platform.memoryMb,
      staticMemoryMb: this.platform.reservedMemoryMb + this.load.backgroundMemoryMb,
      availableCompute: Math.max(0, 1 - demand),
      runningBatches: this.load.runningBatches,
      reward: this.lastReward,
    };
  }

  /**
   * Asks the scheduler for the action now; under credit `governed` the settled decisions it
   * was shown (those of the models this decision is for) are then taken.
   */
  private decideNow(due?: Uint8Array): ServingAction {
    const action = this.scheduler.actionAt !== undefined ? this.scheduler.actionAt(this.nowMs) : this.scheduler.decide(this.observe());
    if (this.credit !== null) for (let m = 0; m < this.m; m++) if (due === undefined || due[m] === 1) this.credit.take(m);
    return action;
  }

  private runningModel(): number {
    for (let b = 0; b < this.batchCapacity; b++) if (this.batchActive[b] === 1) return this.batchModel[b]!;
    return -1;
  }

  /** Admission control's view (built once; its getters read the live state). */
  private readonly admissionView: AdmissionView = ((run: ServingRun): AdmissionView => ({
    get nowMs() {
      return run.nowMs;
    },
    get modelCount() {
      return run.m;
    },
    isolatedBatchMs: (model, batch) => isolatedBatchMs(run.compiled[model]!, batch) + batch * run.serializationMsPerRequest[model]!,
    batchSize: (model) => run.action[model]!.batchSize,
    queuedWithDeadlineAtMost: (model, deadlineMs) => {
      const heap = run.heaps[model]!;
      let count = 0;
      for (let i = 0; i < run.heapSize[model]!; i++) if (run.reqDeadline[heap[i]!]! <= deadlineMs) count++;
      return count;
    },
    get runningRemainingMs() {
      let remaining = 0;
      for (let b = 0; b < run.batchCapacity; b++) {
        if (run.batchActive[b] !== 1) continue;
        const model = run.batchModel[b]!;
        const predicted = isolatedBatchMs(run.compiled[model]!, run.batchSize[b]!) + run.batchSerialization[b]!;
        remaining = Math.max(remaining, run.batchStart[b]! + predicted - run.nowMs);
      }
      return remaining;
    },
    returnMs: (model) => run.returnMsOf[model]!,
  }))(this);

  // ---- Summary ---------------------------------------------------------------------------

  /** Requests sent but neither served nor lost yet (in transit, queued or running), and the sum of their ages now, ms. */
  backlog(): { readonly requests: number; readonly ageSumMs: number } {
    let requests = 0;
    let ageSumMs = 0;
    for (let r = 0; r < this.reqCapacity; r++) {
      if (this.reqState[r] === 0) continue;
      requests++;
      ageSumMs += this.nowMs - this.reqSent[r]!;
    }
    return { requests, ageSumMs };
  }

  /**
   * The sums behind `summary()`, per model in the run's order: what runs of one model each (the
   * device copies of §V-D, scenario/deviceCopies.ts) add up to one summary with, exactly as one
   * run would. Reads only; changes nothing.
   */
  tallies(): readonly ModelTally[] {
    const now = this.nowMs;
    const unfinishedLate = new Float64Array(this.m);
    for (let r = 0; r < this.reqCapacity; r++) {
      if (this.reqState[r] !== 0 && this.reqDeadline[r]! < now) unfinishedLate[this.reqModel[r]!]!++;
    }
    return this.totals.map((t, m) => {
      const late = unfinishedLate[m]!;
      return {
        latencySum: t.latencySum,
        violations: t.late + t.failed + t.dropped + late,
        judged: t.completed + t.failed + t.dropped + late,
        utilitySum: t.utilitySum,
        utilityCount: t.utilityCount,
      };
    });
  }

  /** The lane's results so far (ARCHITECTURE §5). */
  summary(): ServingSummary {
    const durationS = this.nowMs / 1000;
    const tallies = this.tallies();
    const parts = this.totals.map((t, m) => {
      const tally = tallies[m]!;
      const per = (sum: number): number => (t.completed > 0 ? sum / t.completed : 0);
      const summary: ServingModelSummary = {
        requests: t.requests,
        completed: t.completed,
        failed: t.failed,
        dropped: t.dropped,
        utilityMean: t.utilityCount > 0 ? t.utilitySum / t.utilityCount : 0,
        throughputRps: durationS > 0 ? t.completed / durationS : 0,
        latencyMeanMs: per(t.latencySum),
        latencyP99Ms: this.samples[m]!.quantile(0.99),
        // Requests not finished by now and past their deadline are violations (tallies).
        sloViolationPct: tally.judged > 0 ? (100 * tally.violations) / tally.judged : 0,
        oomBatches: t.oomBatches,
        batches: t.batches,
        batchSizeMean: t.batches > 0 ? t.batchedRequests / t.batches : 0,
        transmissionMeanMs: per(t.transmissionSum),
        serializationMeanMs: per(t.serializationSum),
        queueingMeanMs: per(t.queueingSum),
        inferenceMeanMs: per(t.inferenceSum),
        returnMeanMs: per(t.returnSum),
      };
      return { id: this.modelIds[m]!, summary, tally };
    });
    return laneSummary(parts, durationS, this.allSamples.quantile(0.99));
  }

  // ---- Checkpoints -------------------------------------------------------------------------

  /**
   * Everything the run holds that changes as it runs, copied (ARCHITECTURE §7a): requests,
   * queues, running batches, the event queue, every random stream, metrics and series. Not
   * its scheduler, which the caller checkpoints beside it (`ServingScheduler.snapshot`), nor
   * `onRequest`. Immutable parts (events, slot records) are shared with the run, not copied.
   */
  snapshot(): ServingRunSnapshot {
    const copyCounters = (c: SlotCounters): SlotCounters => ({ ...c });
    return {
      scalars: Float64Array.of(
        this.nowMs,
        this.nextSendMs,
        this.sequence,
        this.freeReqTop,
        this.slotIndex,
        this.slotStartMs,
        this.lastReward ?? Number.NaN,
        this.lastReward === null ? 1 : 0,
        this.finished ? 1 : 0,
        this.traceIndex,
      ),
      requests: this.liveRequests(),
      heaps: this.heaps.map((h, m) => h.slice(0, Math.max(1, this.heapSize[m]!))),
      heapCapacity: Int32Array.from(this.heaps, (h) => h.length),
      heapSize: this.heapSize.slice(),
      batches: {
        model: this.batchModel.slice(),
        shapeClass: this.batchClass.slice(),
        size: this.batchSize.slice(),
        start: this.batchStart.slice(),
        serialization: this.batchSerialization.slice(),
        inference: this.batchInference.slice(),
        demand: this.batchDemand.slice(),
        activation: this.batchActivation.slice(),
        sloSum: this.batchSloSum.slice(),
        freeMemory: this.batchFreeMemory.slice(),
        freeCompute: this.batchFreeCompute.slice(),
        running: this.batchRunning.slice(),
        instances: this.batchInstances.slice(),
        active: this.batchActive.slice(),
        members: this.batchMembers.slice(),
        free: Int32Array.from(this.freeBatch),
      },
      events: this.events.snapshot(),
      load: { ...this.load },
      action: this.action.map((a) => ({ ...a })),
      perModel: {
        busy: this.busy.slice(),
        recovering: this.recovering.slice(),
        inService: this.inService.slice(),
        flushAtMs: this.flushAtMs.slice(),
        nextModelSendMs: this.nextModelSendMs.slice(),
        modelSlotStartMs: this.modelSlotStartMs.slice(),
        due: this.due.slice(),
        intervalInstanceMs: this.intervalInstanceMs.slice(),
        instancesSinceMs: this.instancesSinceMs.slice(),
        instancesChanged: this.instancesChanged.slice(),
      },
      totals: this.totals.map((t) => ({ ...t })),
      slotCounters: this.slotCounters.map(copyCounters),
      modelSlotCounters: this.modelSlotCounters?.map(copyCounters) ?? null,
      modelSlotStats: this.modelSlotStats.slice(),
      lastSlotStats: this.lastSlotStats,
      lastRecord: this.lastRecordValue,
      samples: this.samples.map((x) => x.snapshot()),
      allSamples: this.allSamples.snapshot(),
      series: this.series.snapshot(),
      backgroundChanges: this.backgroundChanges.slice(),
      credit: this.credit?.snapshot() ?? null,
      rngs: {
        arrivals: this.arrivals.state(),
        noise: this.noise?.state() ?? null,
        models: this.modelRngs.map((r) => r.state()),
        rates: this.rateProcesses.map((p) => p.snapshot?.() ?? null),
      },
    };
  }

  /**
   * Puts the run back to a state taken by `snapshot` on a run of the same spec (its scheduler
   * is the caller's to restore): running on from there gives, bit for bit, what the run gave
   * the first time.
   */
  restore(s: ServingRunSnapshot): void {
    if (s.heapSize.length !== this.m) throw new RangeError(`snapshot has ${s.heapSize.length} models, the run ${this.m}`);
    const [nowMs, nextSendMs, sequence, freeReqTop, slotIndex, slotStartMs, lastReward, noReward, finished, traceIndex] = Array.from(s.scalars) as number[];
    this.nowMs = nowMs!;
    this.nextSendMs = nextSendMs!;
    this.sequence = sequence!;
    this.freeReqTop = freeReqTop!;
    this.slotIndex = slotIndex!;
    this.slotStartMs = slotStartMs!;
    this.lastReward = noReward === 1 ? null : lastReward!;
    this.finished = finished === 1;
    this.traceIndex = traceIndex!;
    const r = s.requests;
    const capacity = r.capacity;
    this.reqSent = new Float64Array(capacity);
    this.reqDeadline = new Float64Array(capacity);
    this.reqSlo = new Float64Array(capacity);
    this.reqEdge = new Float64Array(capacity);
    this.reqSeq = new Float64Array(capacity);
    this.reqModel = new Int32Array(capacity);
    this.reqClass = new Int32Array(capacity);
    this.reqState = new Uint8Array(capacity);
    r.live.forEach((at, k) => {
      this.reqSent[at] = r.sent[k]!;
      this.reqDeadline[at] = r.deadline[k]!;
      this.reqSlo[at] = r.slo[k]!;
      this.reqEdge[at] = r.edge[k]!;
      this.reqSeq[at] = r.seq[k]!;
      this.reqModel[at] = r.model[k]!;
      this.reqClass[at] = r.shapeClass[k]!;
      this.reqState[at] = r.state[k]!;
    });
    this.freeReq = new Int32Array(capacity);
    this.freeReq.set(r.free);
    this.reqCapacity = capacity;
    s.heaps.forEach((h, m) => {
      const heap = new Int32Array(s.heapCapacity[m]!);
      heap.set(h);
      this.heaps[m] = heap;
    });
    this.heapSize.set(s.heapSize);
    const b = s.batches;
    this.batchModel = b.model.slice();
    this.batchClass = b.shapeClass.slice();
    this.batchSize = b.size.slice();
    this.batchStart = b.start.slice();
    this.batchSerialization = b.serialization.slice();
    this.batchInference = b.inference.slice();
    this.batchDemand = b.demand.slice();
    this.batchActivation = b.activation.slice();
    this.batchSloSum = b.sloSum.slice();
    this.batchFreeMemory = b.freeMemory.slice();
    this.batchFreeCompute = b.freeCompute.slice();
    this.batchRunning = b.running.slice();
    this.batchInstances = b.instances.slice();
    this.batchActive = b.active.slice();
    this.batchMembers = b.members.slice();
    this.freeBatch = Array.from(b.free);
    this.batchCapacity = b.model.length;
    this.events.restore(s.events);
    Object.assign(this.load, s.load);
    this.loadedCountsValid = false;
    s.action.forEach((a, m) => {
      this.action[m] = { ...a };
    });
    const p = s.perModel;
    this.busy.set(p.busy);
    this.recovering.set(p.recovering);
    this.inService.set(p.inService);
    this.flushAtMs.set(p.flushAtMs);
    this.nextModelSendMs.set(p.nextModelSendMs);
    this.modelSlotStartMs.set(p.modelSlotStartMs);
    this.due.set(p.due);
    this.intervalInstanceMs.set(p.intervalInstanceMs);
    this.instancesSinceMs.set(p.instancesSinceMs);
    this.instancesChanged.set(p.instancesChanged);
    s.totals.forEach((t, m) => Object.assign(this.totals[m]!, t));
    s.slotCounters.forEach((c, m) => Object.assign(this.slotCounters[m]!, c));
    s.modelSlotCounters?.forEach((c, m) => Object.assign(this.modelSlotCounters![m]!, c));
    s.modelSlotStats.forEach((x, m) => {
      this.modelSlotStats[m] = x;
    });
    this.lastSlotStats = s.lastSlotStats;
    this.lastRecordValue = s.lastRecord;
    s.samples.forEach((x, m) => this.samples[m]!.restore(x));
    this.allSamples.restore(s.allSamples);
    this.series.restore(s.series);
    this.backgroundChanges.length = 0;
    this.backgroundChanges.push(...s.backgroundChanges);
    if (s.credit !== null) this.credit?.restore(s.credit);
    this.arrivals.setState(s.rngs.arrivals);
    if (s.rngs.noise !== null) this.noise?.setState(s.rngs.noise);
    s.rngs.models.forEach((state, m) => this.modelRngs[m]!.setState(state));
    s.rngs.rates.forEach((state, m) => {
      if (state !== null) this.rateProcesses[m]!.restore?.(state);
    });
  }

  /** The requests in flight, for a checkpoint (see `ServingRunSnapshot.requests`). */
  private liveRequests(): ServingRunSnapshot['requests'] {
    const live: number[] = [];
    for (let r = 0; r < this.reqCapacity; r++) if (this.reqState[r] !== 0) live.push(r);
    const at = Int32Array.from(live);
    return {
      capacity: this.reqCapacity,
      live: at,
      sent: Float64Array.from(at, (r) => this.reqSent[r]!),
      deadline: Float64Array.from(at, (r) => this.reqDeadline[r]!),
      slo: Float64Array.from(at, (r) => this.reqSlo[r]!),
      edge: Float64Array.from(at, (r) => this.reqEdge[r]!),
      seq: Float64Array.from(at, (r) => this.reqSeq[r]!),
      model: Int32Array.from(at, (r) => this.reqModel[r]!),
      shapeClass: Int32Array.from(at, (r) => this.reqClass[r]!),
      state: Uint8Array.from(at, (r) => this.reqState[r]!),
      free: this.freeReq.slice(0, this.freeReqTop),
    };
  }

  // ---- Storage ---------------------------------------------------------------------------

  private allocRequest(): number {
    if (this.freeReqTop === 0) this.growRequests(this.reqCapacity * 2);
    return this.freeReq[--this.freeReqTop]!;
  }

  private freeRequest(r: number): void {
    this.reqState[r] = 0;
    this.freeReq[this.freeReqTop++] = r;
  }

  private growRequests(capacity: number): void {
    const old = this.reqCapacity;
    const grow64 = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(capacity);
      b.set(a.subarray(0, old));
      return b;
    };
    const grow32 = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(capacity);
      b.set(a.subarray(0, old));
      return b;
    };
    this.reqSent = grow64(this.reqSent);
    this.reqDeadline = grow64(this.reqDeadline);
    this.reqSlo = grow64(this.reqSlo);
    this.reqEdge = grow64(this.reqEdge);
    this.reqSeq = grow64(this.reqSeq);
    this.reqModel = grow32(this.reqModel);
    this.reqClass = grow32(this.reqClass);
    const state = new Uint8Array(capacity);
    state.set(this.reqState.subarray(0, old));
    this.reqState = state;
    const free = new Int32Array(capacity);
    free.set(this.freeReq.subarray(0, this.freeReqTop));
    // New slots are handed out lowest index first.
    for (let r = capacity - 1; r >= old; r--) free[this.freeReqTop++] = r;
    this.freeReq = free;
    this.reqCapacity = capacity;
  }

  private allocBatch(): number {
    if (this.freeBatch.length === 0) this.growBatches(this.batchCapacity * 2);
    return this.freeBatch.pop()!;
  }

  private growBatches(capacity: number): void {
    const old = this.batchCapacity;
    const g64 = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(capacity);
      b.set(a.subarray(0, old));
      return b;
    };
    const g32 = (a: Int32Array, scale = 1): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(capacity * scale);
      b.set(a.subarray(0, old * scale));
      return b;
    };
    this.batchModel = g32(this.batchModel);
    this.batchClass = g32(this.batchClass);
    this.batchSize = g32(this.batchSize);
    this.batchStart = g64(this.batchStart);
    this.batchSerialization = g64(this.batchSerialization);
    this.batchInference = g64(this.batchInference);
    this.batchDemand = g64(this.batchDemand);
    this.batchActivation = g64(this.batchActivation);
    this.batchSloSum = g64(this.batchSloSum);
    this.batchFreeMemory = g64(this.batchFreeMemory);
    this.batchFreeCompute = g64(this.batchFreeCompute);
    this.batchRunning = g32(this.batchRunning);
    this.batchInstances = g32(this.batchInstances);
    const active = new Uint8Array(capacity);
    active.set(this.batchActive.subarray(0, old));
    this.batchActive = active;
    this.batchMembers = g32(this.batchMembers, MAX_BATCH_SIZE);
    for (let b = capacity - 1; b >= old; b--) this.freeBatch.push(b);
    this.batchCapacity = capacity;
  }

  // ---- Deadline heaps: (deadline, sequence) ascending -------------------------------------

  private before(r: number, s: number): boolean {
    const dr = this.reqDeadline[r]!;
    const ds = this.reqDeadline[s]!;
    return dr < ds || (dr === ds && this.reqSeq[r]! < this.reqSeq[s]!);
  }

  private heapPush(model: number, r: number): void {
    let heap = this.heaps[model]!;
    let i = this.heapSize[model]!;
    if (i === heap.length) {
      const bigger = new Int32Array(heap.length * 2);
      bigger.set(heap);
      heap = bigger;
      this.heaps[model] = heap;
    }
    this.heapSize[model] = i + 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!this.before(r, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = r;
  }

  private heapPop(model: number): number {
    const heap = this.heaps[model]!;
    const top = heap[0]!;
    const n = this.heapSize[model]! - 1;
    this.heapSize[model] = n;
    if (n === 0) return top;
    const last = heap[n]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.before(heap[right]!, heap[left]!) ? right : left;
      if (!this.before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function validateSpec(spec: ServingRunSpec): void {
  if (spec.models.length === 0) throw new RangeError('a serving run needs at least one model');
  if (spec.models.length > 1 << 20) throw new RangeError('too many models');
  if (!(spec.rateRps > 0) || !Number.isFinite(spec.rateRps)) throw new RangeError(`rate must be positive, got ${spec.rateRps}`);
  if (!(spec.durationMs > 0) || !Number.isFinite(spec.durationMs)) throw new RangeError(`duration must be positive, got ${spec.durationMs}`);
  for (const s of spec.models) {
    if (!(s.model in MODELS)) throw new RangeError(`unknown model ${s.model}`);
    if (!(s.weight >= 0) || !Number.isFinite(s.weight)) throw new RangeError(`model weight must be ≥ 0, got ${s.weight}`);
    if (s.sloMs !== undefined && !(s.sloMs > 0)) throw new RangeError(`SLO must be positive, got ${s.sloMs}`);
    if (s.rate !== undefined) validateRateSchedule(s.rate);
    if (s.serviceFromMs !== undefined && !(s.serviceFromMs >= 0)) throw new RangeError(`service start must be ≥ 0, got ${s.serviceFromMs}`);
    if (s.serviceToMs !== undefined && s.serviceToMs !== null && !(s.serviceToMs > (s.serviceFromMs ?? 0))) {
      throw new RangeError(`service stop must be after its start, got ${s.serviceToMs}`);
    }
    if (s.classes !== undefined) {
      if (s.classes.length === 0 || !s.classes.some((c) => c.weight > 0)) throw new RangeError('request classes need at least one class of weight > 0');
      for (const c of s.classes) {
        if (!(c.scale > 0) || !Number.isFinite(c.scale) || !(c.weight >= 0)) throw new RangeError(`invalid request class ${JSON.stringify(c)}`);
      }
    }
  }
  if (spec.trace !== undefined) {
    let last = Number.NEGATIVE_INFINITY;
    for (const t of spec.trace) {
      if (!(t.sentMs >= last) || !Number.isInteger(t.model) || t.model < 0 || t.model >= spec.models.length) {
        throw new RangeError(`invalid or unsorted traced request ${JSON.stringify(t)}`);
      }
      if (t.sloMs !== undefined && !(t.sloMs > 0)) throw new RangeError(`traced SLO must be positive, got ${t.sloMs}`);
      const classes = spec.models[t.model]!.classes?.length ?? 1;
      if (t.shapeClass !== undefined && !(Number.isInteger(t.shapeClass) && t.shapeClass >= 0 && t.shapeClass < classes)) {
        throw new RangeError(`traced request class must be an index below ${classes}, got ${t.shapeClass}`);
      }
      last = t.sentMs;
    }
  }
  if (!spec.models.some((s) => s.weight > 0)) throw new RangeError('at least one model weight must be positive');
  const a = spec.assumptions;
  if (!(a.slotMs > 0)) throw new RangeError(`slot must be positive, got ${a.slotMs}`);
  if (a.slot !== 'eq1' && a.slot !== 'fixed') throw new RangeError(`slot must be "eq1" or "fixed", got ${JSON.stringify(a.slot)}`);
  if (!(a.linkBandwidthMbps > 0)) throw new RangeError(`link bandwidth must be positive, got ${a.linkBandwidthMbps}`);
  if (!(a.linkLatencyMs >= 0)) throw new RangeError(`link latency must be ≥ 0, got ${a.linkLatencyMs}`);
  if (!(a.sloJitter >= 0 && a.sloJitter < 1)) throw new RangeError(`SLO jitter must be in [0, 1), got ${a.sloJitter}`);
  if (!(a.serializationMBps > 0)) throw new RangeError(`serialization rate must be positive, got ${a.serializationMBps}`);
  if (!(a.oomRecoveryMs > 0)) throw new RangeError(`OOM recovery must be positive, got ${a.oomRecoveryMs}`);
  if (a.interferenceNoise !== undefined && !(a.interferenceNoise >= 0 && Number.isFinite(a.interferenceNoise))) {
    throw new RangeError(`interference noise must be ≥ 0, got ${a.interferenceNoise}`);
  }
  for (const bg of spec.background) {
    if (!(bg.intensity >= 0) || !(bg.fromMs >= 0) || (bg.toMs !== null && !(bg.toMs >= bg.fromMs))) {
      throw new RangeError(`invalid background interference ${JSON.stringify(bg)}`);
    }
  }
}

/** A model's performance model at an input `scale` (see `RequestClass`). */
function scaleCompiled(c: CompiledModel, scale: number): CompiledModel {
  return { ...c, cpuMsPerSample: c.cpuMsPerSample * scale, gpuMsB1: c.gpuMsB1 * scale, activationMbPerSample: c.activationMbPerSample * scale };
}

/**
 * Times where a run's conditions change on a known schedule, ms, sorted, inside (0, duration):
 * rate steps and ramp corners, tenants arriving and leaving, services starting and stopping.
 * The per-phase reference lane (fixed-per-phase) switches there.
 */
export function phaseBoundariesMs(spec: ServingRunSpec): number[] {
  const times = new Set<number>();
  for (const s of spec.models) {
    if (s.rate !== undefined) for (const t of scheduleBoundariesMs(s.rate)) times.add(t);
    if (s.serviceFromMs !== undefined) times.add(s.serviceFromMs);
    if (s.serviceToMs !== undefined && s.serviceToMs !== null) times.add(s.serviceToMs);
  }
  for (const bg of spec.background) {
    times.add(bg.fromMs);
    if (bg.toMs !== null) times.add(bg.toMs);
  }
  return [...times].filter((t) => t > 0 && t < spec.durationMs).sort((a, b) => a - b);
}

/**
 * The requests every run of `spec` sends (see `ServingArrivals`), drawn once, exactly as a run
 * draws them as it goes; null for a closed loop or a trace (a trace is already drawn), or when
 * there are more than `limit` (18 bytes each). A run given them (`new ServingRun(spec,
 * scheduler, arrivals)`) reads them instead of drawing and gives the same numbers bit for bit;
 * they must be of that very spec.
 */
export function drawServingArrivals(spec: ServingRunSpec, limit = Number.POSITIVE_INFINITY): ServingArrivals | null {
  if ((spec.closedLoop?.outstanding ?? 0) > 0 || spec.trace !== undefined) return null;
  const idle: ServingScheduler = { id: 'arrivals', decide: () => spec.models.map(() => ({ batchSize: 1, instances: 1 })) };
  return new ServingRun(spec, idle).drawAllSends(limit);
}

/** A batch's own figures by its size (index 0 unused, up to `MAX_BATCH_SIZE`), of one model at one class: what `models.ts` computes, looked up. */
interface BatchFigures {
  readonly isolatedMs: Float64Array;
  readonly isolatedGpuMs: Float64Array;
  readonly demand: Float64Array;
  readonly activationMb: Float64Array;
  readonly memoryIntensity: number;
}

function batchFigures(compiled: CompiledModel): BatchFigures {
  const sizes = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, b) => Math.max(1, b));
  return {
    isolatedMs: Float64Array.from(sizes, (b) => isolatedBatchMs(compiled, b)),
    isolatedGpuMs: Float64Array.from(sizes, (b) => isolatedGpuMs(compiled, b)),
    demand: Float64Array.from(sizes, (b) => gpuDemand(compiled, b)),
    activationMb: Float64Array.from(sizes, (b) => batchActivationMb(compiled, b)),
    memoryIntensity: compiled.memoryIntensity,
  };
}
