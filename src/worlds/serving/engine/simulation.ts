import { NumberEventQueue, type NumberEventQueueSnapshot } from '../../../engine/eventQueue';
import { createRng, type Rng } from '../../../engine/rng';
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
import type { ServingAssumptions } from './assumptions';
import { batchFigures, BatchPool, scaleCompiled, type BatchFigures, type BatchPoolSnapshot } from './batches';
import { resetCounters, zeroSlot, zeroTotals, type ModelTotals, type SlotCounters } from './counters';
import { ArrivalStream, edgeOrder, type ArrivalStreamSnapshot, type EdgeOrder } from './arrivals';
import { FlushDeadlines, type FlushDeadlinesSnapshot } from './flushes';
import { NormalDraws, standardNormal } from './noise';
import { DecisionCredit, type DecisionCreditSnapshot } from './credit';
import { compileModel, isolatedBatchMs, MODELS, type CompiledModel, type ModelId } from './models';
import { PLATFORMS, type Platform } from './platforms';
import { REQUEST_IN_TRANSIT, REQUEST_QUEUED, REQUEST_RUNNING, RequestPool, type RequestPoolSnapshot } from './requests';
import {
  SERVING_NOISE_STREAM,
  validateSpec,
  type BackgroundInterference,
  type RequestClass,
  type RequestRecord,
  type ServingArrivals,
  type ServingRunSpec,
} from './spec';
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
import { LogHistogram, type LogHistogramSnapshot } from '../../../engine/quantiles';

/** What the run needs of a percentile estimator. */
interface PercentileSketch {
  add(value: number): void;
  quantile(p: number): number;
  snapshot(): LatencySamplesSnapshot | LogHistogramSnapshot;
  restore(s: LatencySamplesSnapshot | LogHistogramSnapshot): void;
}


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
/** The end of one model's own scheduling slot (slot `eq1`, readings.ts). */
const MODEL_SLOT = 7;
/**
 * Priorities among equal times (the kinds above, but a flush after arrivals and before the
 * slot's end). A forming batch's deadline to start (batching `form`, flushes.ts) and the arrival
 * of a request drawn before the run are kept beside the queue, in its order.
 */
const FLUSH_PRIORITY = 4;
/** Where the run's next event comes from: its queue, the requests drawn before it, or a flush. */
const QUEUED = 0;
const EDGE = 1;
const FLUSHED = 2;
const SLOT_PRIORITY = 5;
/** A model's slot ends after everything else at its time, the reporting interval's end included. */
const MODEL_SLOT_PRIORITY = 6;

/**
 * A checkpoint of one `ServingRun` (see `ServingRun.snapshot`): the growing stores as typed
 * arrays, the counters and sketches, every random stream's state. Events, slot records and
 * background changes are immutable and shared with the run.
 */
export interface ServingRunSnapshot extends RequestPoolSnapshot {
  readonly scalars: Float64Array;
  readonly batches: BatchPoolSnapshot;
  readonly events: NumberEventQueueSnapshot;
  readonly load: DeviceLoad;
  readonly action: readonly ModelAction[];
  readonly perModel: {
    readonly busy: Int32Array;
    readonly recovering: Int32Array;
    readonly inService: Uint8Array;
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
  /** The requests still to send and their random streams. */
  readonly arrivals: ArrivalStreamSnapshot;
  /** Requests drawn before the run: the next to reach the edge (its place in `EdgeOrder`) and the slots of those in transit. */
  readonly edge: { readonly next: number; readonly slots: Int32Array } | null;
  /** The forming batches' deadlines to start. */
  readonly flushes: FlushDeadlinesSnapshot;
  /** The interference noise's random stream (null when the noise is off, or drawn before the run: `scalars` then holds how many of its numbers the run took). */
  readonly noise: Uint32Array | null;
}

/** How a run is kept beside its spec (none of it changes its numbers). */
export interface ServingRunOptions {
  /**
   * false: no observation of the run is ever built — its scheduler reads only the time
   * (`ServingScheduler.actionAt`; a reference search's runs). What only an observation reads is
   * then not kept: under Eq. 1's slots, each model's own slot's counters, statistics (`lastSlot`)
   * and reward, a few sums per request and an object per decision. `observe` refuses such a run.
   * Default true.
   */
  readonly observed?: boolean;
}

/**
 * One lane of the serving world (ARCHITECTURE §3) as a discrete-event simulation on NumberEventQueue (eventQueue.ts).
 *
 * Requests: the devices send a Poisson stream at `rateRps`, each request's model drawn by
 * the weights and its SLO jittered, all from one RNG stream drawn in send order (three
 * numbers per request; arrivals.ts), so every lane sees the identical trace whatever its
 * scheduler does.
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
  /** The requests the devices send (arrivals.ts). */
  private readonly arrivals: ArrivalStream;
  /** Per model and class: the compiled model at that class's scale (class 0 of scale 1 is `compiled` itself). */
  private readonly compiledByClass: readonly (readonly CompiledModel[])[];
  private readonly classScale: readonly Float64Array[];
  /** t_t of Eq. 2 per model and class, ms (`transmitOf`). */
  private readonly transmitByClass: readonly Float64Array[];
  /** The noise's random stream, or (requests drawn before the run) its numbers drawn before too, and how many were taken; both null when the noise is off. */
  private readonly noise: Rng | null;
  private readonly noiseDrawn: NormalDraws | null;
  private noiseTaken = 0;
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
  private readonly events = new NumberEventQueue();
  private readonly load: DeviceLoad = emptyDeviceLoad();
  private readonly edf: boolean;
  /** Batching `form`: a free instance waits for its batch (assumptions.ts). */
  private readonly formBatches: boolean;
  /** Per model: the start deadline of its forming batch (flushes.ts). */
  private readonly flushes: FlushDeadlines;
  /**
   * Requests drawn before the run: the order they reach the edge in (arrivals.ts), taken instead
   * of an event each; the next one's place in it, and the slots of those in transit, a ring by
   * send order. Null when the run draws its requests (they arrive through the event queue).
   */
  private readonly edgeOrder: EdgeOrder | null;
  private nextEdge = 0;
  /** When the next one reaches the edge, ms (+∞: none, or not sent yet). */
  private nextEdgeMs = Number.POSITIVE_INFINITY;
  private readonly edgeSlots: Int32Array;
  private readonly closedLoop: number;
  /** Whether the scheduler wants the profiler's batch records. */
  private readonly observesBatches: boolean;
  private nowMs = 0;
  private sequence = 0;

  /** The requests and each model's queue (requests.ts). */
  private readonly req: RequestPool;
  /** The members of a batch being formed (before it is known to fit). */
  private readonly scratch = new Int32Array(MAX_BATCH_SIZE);
  /** The running batches (batches.ts). */
  private readonly batches = new BatchPool();

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
  /** Whether observations of the run are built (`ServingRunOptions.observed`). */
  private readonly observed: boolean;
  /** Per model: the counters of its scheduling slot under way (null under `fixed`: the reporting counters are the slot's; null when the run is not observed). */
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
  private finished = false;
  /** Credit `governed` (readings.ts): each decision's own requests, for its reward; null under `slot`. */
  private readonly credit: DecisionCredit | null;
  /** Lates `reject` (readings.ts): a queued request that can no longer meet its SLO is rejected. */
  private readonly rejectLate: boolean;
  /** Per model and class (`classesAtMost` a model): t_s of a request alone at the class's scale, and t_iso of a batch of one, ms. */
  private readonly classesAtMost: number;
  private readonly loneSerializationMs: Float64Array;
  private readonly loneIsolatedMs: Float64Array;

  /** Called for every request when it is served or lost (omit on hot paths). */
  onRequest: ((record: RequestRecord) => void) | null = null;

  constructor(
    spec: ServingRunSpec,
    private readonly scheduler: ServingScheduler,
    arrivals?: ServingArrivals,
    options: ServingRunOptions = {},
  ) {
    validateSpec(spec);
    this.spec = spec;
    this.a = spec.assumptions;
    this.platform = PLATFORMS[spec.platform];
    this.m = spec.models.length;
    this.modelIds = spec.models.map((s) => s.model);
    this.compiled = spec.models.map((s) => compileModel(MODELS[s.model], this.platform, this.a.latencyProfile));
    this.isolatedMsByBatch = this.compiled.map((c) => BATCH_SIZES.map((b) => isolatedBatchMs(c, b)));
    this.sloMs = baseSloMs(spec);
    const bitsPerMs = this.a.linkBandwidthMbps * 1000;
    this.transmitMs = Float64Array.from(spec.models, (s) => this.a.linkLatencyMs + (MODELS[s.model].inputBytes * 8) / bitsPerMs);
    this.returnMsOf = Float64Array.from(spec.models, (s) => this.a.linkLatencyMs + (MODELS[s.model].outputBytes * 8) / bitsPerMs);
    this.serializationMsPerRequest = Float64Array.from(spec.models, (s) => MODELS[s.model].inputBytes / (this.a.serializationMBps * 1000));
    this.compiledByClass = spec.models.map((s, m) =>
      (s.classes ?? [{ label: '', scale: 1, weight: 1 }]).map((c) => (c.scale === 1 ? this.compiled[m]! : scaleCompiled(this.compiled[m]!, c.scale))),
    );
    const ONE_CLASS: readonly RequestClass[] = [{ label: '', scale: 1, weight: 1 }];
    this.classScale = spec.models.map((s) => Float64Array.from(s.classes ?? ONE_CLASS, (c) => c.scale));
    this.figures = this.compiledByClass.map((classes) => classes.map(batchFigures));
    this.classesAtMost = Math.max(...this.classScale.map((c) => c.length));
    this.loneSerializationMs = new Float64Array(this.m * this.classesAtMost);
    this.loneIsolatedMs = new Float64Array(this.m * this.classesAtMost);
    this.classScale.forEach((scales, m) =>
      scales.forEach((scale, c) => {
        this.loneSerializationMs[m * this.classesAtMost + c] = this.serializationMsPerRequest[m]! * scale;
        this.loneIsolatedMs[m * this.classesAtMost + c] = this.figures[m]![c]!.isolatedMs[1]!;
      }),
    );
    this.transmitByClass = spec.models.map((s, m) =>
      Float64Array.from(this.classScale[m]!, (scale) => this.a.linkLatencyMs + (MODELS[s.model].inputBytes * scale * 8) / (this.a.linkBandwidthMbps * 1000)),
    );
    const noise = this.a.interferenceNoise ?? 0;
    this.noiseDrawn = noise > 0 && arrivals !== undefined ? normalDrawsOf(arrivals, spec.seed) : null;
    this.noise = noise > 0 && this.noiseDrawn === null ? createRng(spec.seed, SERVING_NOISE_STREAM) : null;
    this.inService = Uint8Array.from(spec.models, (s) => ((s.serviceFromMs ?? 0) > 0 ? 0 : 1));
    this.closedLoop = spec.closedLoop?.outstanding ?? 0;
    this.arrivals = new ArrivalStream(spec, this.sloMs, arrivals ?? null);
    this.edf = scheduler.dispatch === 'edf';
    this.formBatches = this.a.batching === 'form' && !this.edf;
    this.flushes = new FlushDeadlines(this.m);
    // t_t by model and class as `sendRequest` adds it (the model's own where its class 0 is of scale 1).
    this.edgeOrder =
      arrivals === undefined
        ? null
        : edgeOrder(
            arrivals,
            this.transmitByClass.map((byClass, m) => byClass.map((t, c) => (c === 0 && this.classScale[m]![0] === 1 ? this.transmitMs[m]! : t))),
          );
    this.edgeSlots = new Int32Array(this.edgeOrder === null ? 0 : this.edgeOrder.ringMask + 1);
    this.observesBatches = scheduler.observeBatch !== undefined;
    this.req = new RequestPool(this.m, 1024, this.classScale.map((c) => c.length));
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
    this.observed = options.observed ?? true;
    if (!this.observed && scheduler.actionAt === undefined) throw new RangeError(`a run without observations needs a scheduler that reads only the time (actionAt); ${scheduler.id} has none`);
    this.modelSlotCounters = this.perModelSlots && this.observed ? spec.models.map(zeroSlot) : null;
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
    const flushes = this.flushes;
    for (;;) {
      // The next of the queue's events, the arrivals drawn before the run and the flushes, in the
      // queue's order (time, then priority: each of the three has its own).
      let topMs = events.peekTime();
      let source = QUEUED;
      const edgeMs = this.nextEdgeMs;
      if (edgeMs < topMs || (edgeMs === topMs && edgeMs !== Number.POSITIVE_INFINITY && events.peekPriority() > ARRIVAL)) {
        topMs = edgeMs;
        source = EDGE;
      }
      const flushMs = flushes.nextMs;
      if (flushMs < topMs || (flushMs === topMs && source === QUEUED && events.peekPriority() > FLUSH_PRIORITY)) {
        topMs = flushMs;
        source = FLUSHED;
      }
      const send = this.arrivals.nextSendMs;
      if (send < duration && send <= end && send < topMs) {
        this.send(send);
        continue;
      }
      if (topMs > end) break;
      this.nowMs = topMs;
      if (source === QUEUED) this.handle(events.pop());
      else if (source === EDGE) this.arrive(this.takeEdge());
      else this.dispatch(flushes.fire());
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
        this.updateInstanceMemory(this.edf ? 0 : index);
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
    const a = this.arrivals;
    a.take();
    this.sendRequest(timeMs, a.model, a.sloMs, a.shapeClass);
  }

  /** A request of `model` leaves its device at `timeMs` towards the edge. */
  private sendRequest(timeMs: number, model: number, slo: number, shapeClass: number): void {
    const r = this.req.alloc();
    this.req.sent[r] = timeMs;
    this.req.slo[r] = slo;
    this.req.deadline[r] = timeMs + slo;
    this.req.model[r] = model;
    this.req.shapeClass[r] = shapeClass;
    this.req.seq[r] = this.sequence++;
    this.req.state[r] = REQUEST_IN_TRANSIT;
    this.totals[model]!.requests++;
    const edge = timeMs + (shapeClass === 0 && this.classScale[model]![0] === 1 ? this.transmitMs[model]! : this.transmitOf(model, shapeClass));
    this.req.edge[r] = edge;
    const order = this.edgeOrder;
    if (order !== null) {
      const seq = this.req.seq[r]!;
      this.edgeSlots[seq & order.ringMask] = r;
      // The next to reach the edge is this one: it can now.
      if (order.request[this.nextEdge] === seq) this.nextEdgeMs = order.edgeMs[this.nextEdge]!;
    } else this.events.push(edge, r * 8 + ARRIVAL, ARRIVAL);
  }

  /** The request that reaches the edge now (requests drawn before the run): its slot; the next one's time. */
  private takeEdge(): number {
    const order = this.edgeOrder!;
    const r = this.edgeSlots[order.request[this.nextEdge]! & order.ringMask]!;
    this.nextEdge++;
    this.edgeHead();
    return r;
  }

  /** When the next request drawn before the run reaches the edge, once sent (+∞ before). */
  private edgeHead(): void {
    const order = this.edgeOrder!;
    const p = this.nextEdge;
    this.nextEdgeMs = p < order.request.length && order.request[p]! < this.sequence ? order.edgeMs[p]! : Number.POSITIVE_INFINITY;
  }

  /** Closed loop: a request of `model` was served or lost at `timeMs`; its client sends the next (before the end). */
  private replace(model: number, timeMs: number): void {
    if (this.closedLoop > 0 && timeMs < this.spec.durationMs) this.sendRequest(timeMs, model, this.sloMs[model]!, 0);
  }

  /** A request reaches the edge: admission, then its model's queue. */
  private arrive(r: number): void {
    const model = this.req.model[r]!;
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
      this.req.release(r);
      return;
    }
    if (this.scheduler.admit !== undefined) {
      const admitted = this.scheduler.admit(
        { model, sentMs: this.req.sent[r]!, sloMs: this.req.slo[r]!, deadlineMs: this.req.deadline[r]! },
        this.admissionView,
      );
      if (!admitted) {
        this.totals[model]!.dropped++;
        slot.violations++;
        if (own !== undefined) own.violations++;
        this.credit?.lost(model, 1);
        if (this.onRequest !== null) this.record(r, this.nowMs, this.nowMs, 0, 'dropped');
        this.req.release(r);
        this.replace(model, this.nowMs);
        return;
      }
    }
    this.req.state[r] = REQUEST_QUEUED;
    this.req.push(model, r);
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
    while (this.req.heapSize[model]! > 0 && this.busy[model]! + this.recovering[model]! < instances) {
      if (this.formBatches && this.req.heapSize[model]! < this.action[model]!.batchSize) {
        const startBy = this.formingStartByMs(model);
        if (startBy > this.nowMs) {
          if (this.flushes.atMs[model] !== startBy) this.flushes.set(model, startBy, this.nowMs);
          return;
        }
      }
      this.flushes.clear(model, this.nowMs);
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
    const heap = this.req.heaps[model]!;
    const now = this.nowMs;
    const at = model * this.classesAtMost;
    while (this.req.heapSize[model]! > 0) {
      const r = heap[0]!;
      const c = this.req.shapeClass[r]!;
      // t_s · scale + t_iso(1) + t_o, summed as ever: ((now + t_s · scale) + t_iso) + t_o.
      const soonest = now + this.loneSerializationMs[at + c]! + this.loneIsolatedMs[at + c]! + this.returnMsOf[model]!;
      if (this.req.deadline[r]! >= soonest) return;
      this.req.pop(model);
      this.totals[model]!.dropped++;
      this.slotCounters[model]!.violations++;
      const own = this.modelSlotCounters?.[model];
      if (own !== undefined) own.violations++;
      this.credit?.lost(model, 1);
      if (this.onRequest !== null) this.record(r, now, now, 0, 'dropped');
      this.req.release(r);
      this.replace(model, now);
    }
  }

  /**
   * Batching `form`: the latest start of the batch of the k requests that wait now (k < b)
   * that lets its most urgent request meet its deadline, its batch running alone:
   * deadline − (t_s(k) + t_iso(k) + t_o), at the scale of its widest request (assumptions.ts).
   */
  private formingStartByMs(model: number): number {
    const k = this.req.heapSize[model]!;
    const heap = this.req.heaps[model]!;
    const scales = this.classScale[model]!;
    // The widest class queued (class 0 if none is wider): a class of the same scale has the same figures, so which of them does not matter.
    let widest = 0;
    if (scales.length > 1) {
      const queued = this.req.queuedByClass[model]!;
      for (let c = 1; c < scales.length; c++) if (queued[c]! > 0 && scales[c]! > scales[widest]!) widest = c;
    }
    const serviceMs = k * this.serializationMsPerRequest[model]! * scales[widest]! + this.figures[model]![widest]!.isolatedMs[k]! + this.returnMsOf[model]!;
    return this.req.deadline[heap[0]!]! - serviceMs;
  }

  /** Requests waiting for model m's forming batch and the time left before it must start, ms (null: nothing forming). */
  formingBatch(m: number): { readonly waiting: number; readonly batchSize: number; readonly startInMs: number } | null {
    if (!this.formBatches || this.req.heapSize[m] === 0 || this.req.heapSize[m]! >= this.action[m]!.batchSize) return null;
    return { waiting: this.req.heapSize[m]!, batchSize: this.action[m]!.batchSize, startInMs: Math.max(0, this.formingStartByMs(m) - this.nowMs) };
  }

  /** EDF over all requests: the model whose queue head has the earliest deadline (then arrival order, then model index). */
  private earliestDeadlineModel(): number {
    let best = -1;
    let bestDeadline = Number.POSITIVE_INFINITY;
    let bestSeq = Number.POSITIVE_INFINITY;
    for (let m = 0; m < this.m; m++) {
      if (this.req.heapSize[m] === 0) continue;
      const r = this.req.heaps[m]![0]!;
      const d = this.req.deadline[r]!;
      const s = this.req.seq[r]!;
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
    const size = Math.min(this.action[model]!.batchSize, this.req.heapSize[model]!);
    const executor = this.edf ? 0 : model;
    // The batch's members, in deadline order; the batch runs at its largest member's class.
    const members = this.scratch;
    let widest = 0;
    const scales = this.classScale[model]!;
    for (let k = 0; k < size; k++) {
      const r = this.req.pop(model);
      members[k] = r;
      const c = this.req.shapeClass[r]!;
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
        this.req.release(r);
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
      // Its count is looked at again at the next call (`updateInstanceMemory`).
      this.loadedCountsValid = false;
      this.events.push(now + this.a.oomRecoveryMs, model * 8 + RECOVERED, RECOVERED);
      return;
    }
    const b = this.batches.alloc();
    const base = b * MAX_BATCH_SIZE;
    let sloSum = 0;
    for (let k = 0; k < size; k++) {
      const r = members[k]!;
      this.req.state[r] = REQUEST_RUNNING;
      this.batches.members[base + k] = r;
      sloSum += this.req.slo[r]!;
    }
    const serialization = size * this.serializationMsPerRequest[model]! * scales[widest]!;
    const isolatedMs = figures.isolatedMs[size]!;
    const demand = figures.demand[size]!;
    let inference = contendedMs(isolatedMs, figures.isolatedGpuMs[size]!, demand, activation, figures.memoryIntensity, this.platform, this.load, this.a.contention);
    if (this.noise !== null || this.noiseDrawn !== null) inference *= this.noiseFactor(inference / isolatedMs);
    if (this.observesBatches) {
      this.batches.freeMemory[b] = 1 - usedMemoryMb(this.platform, this.load) / this.platform.memoryMb;
      this.batches.freeCompute[b] = 1 - this.load.gpuDemand - this.load.backgroundDemand;
      this.batches.running[b] = this.load.runningBatches;
      let loaded = 0;
      for (let m = 0; m < this.m; m++) loaded += this.loadedInstances(m);
      this.batches.instances[b] = loaded;
    }
    this.batches.model[b] = model;
    this.batches.shapeClass[b] = widest;
    this.batches.size[b] = size;
    this.batches.start[b] = now;
    this.batches.serialization[b] = serialization;
    this.batches.inference[b] = inference;
    this.batches.demand[b] = demand;
    this.batches.activation[b] = activation;
    this.batches.sloSum[b] = sloSum;
    this.batches.active[b] = 1;
    this.load.gpuDemand += demand;
    this.load.activationMb += activation;
    this.load.runningBatches++;
    this.busy[executor]!++;
    this.credit?.batchStarted(model, b);
    this.updateInstanceMemory(executor);
    this.events.push(now + serialization + inference, b * 8 + DONE, DONE);
  }

  /** The noise factor of one batch (see `interferenceNoise`): mean one, spread growing with the slowdown. */
  private noiseFactor(slowdown: number): number {
    const sigma = Math.min(2, (this.a.interferenceNoise ?? 0) * Math.max(1, slowdown));
    const z = this.noiseDrawn !== null ? this.noiseDrawn.at(this.noiseTaken++) : standardNormal(this.noise!);
    return Math.exp(sigma * z - (sigma * sigma) / 2);
  }

  private finishBatch(b: number): void {
    const now = this.nowMs;
    const model = this.batches.model[b]!;
    const size = this.batches.size[b]!;
    const start = this.batches.start[b]!;
    const serialization = this.batches.serialization[b]!;
    const inference = this.batches.inference[b]!;
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
      const r = this.batches.members[base + k]!;
      const completion = now + back;
      const latency = completion - this.req.sent[r]!;
      batchLatencySum += latency;
      if (completion > this.req.deadline[r]!) {
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
      totals.queueingSum += start - this.req.edge[r]!;
      samples.add(latency);
      this.allSamples.add(latency);
      slot.latencySum += latency;
      if (this.onRequest !== null) this.record(r, start, completion, size, 'served');
      this.req.release(r);
      this.replace(model, now);
    }
    totals.completed += size;
    totals.batches++;
    totals.batchedRequests += size;
    if (this.observesBatches) {
      this.scheduler.observeBatch!({
        model,
        batchSize: size,
        availableMemory: this.batches.freeMemory[b]!,
        availableCompute: this.batches.freeCompute[b]!,
        runningBatches: this.batches.running[b]!,
        concurrentInstances: this.batches.instances[b]!,
        isolatedMs: isolatedBatchMs(this.compiledByClass[model]![this.batches.shapeClass[b]!]!, size),
        inferenceMs: inference,
      });
    }
    if (transmitScale.length === 1 && transmitScale[0] === 1) totals.transmissionSum += transmit * size;
    else for (let k = 0; k < size; k++) totals.transmissionSum += this.transmitOf(model, this.req.shapeClass[this.batches.members[base + k]!]!);
    totals.serializationSum += serialization * size;
    totals.inferenceSum += inference * size;
    totals.returnSum += back * size;
    slot.completed += size;
    slot.batches++;
    slot.busyMs += serialization + inference;
    slot.batchSloSum += this.batches.sloSum[b]!;
    if (own !== undefined) {
      own.completed += size;
      own.batches++;
      own.busyMs += serialization + inference;
      own.batchSloSum += this.batches.sloSum[b]!;
    }

    this.credit?.batchFinished(b, now, size, batchLatencySum, batchLate, serialization + inference, this.batches.sloSum[b]!);
    this.batches.release(b);
    const load = this.load;
    load.runningBatches--;
    if (load.runningBatches === 0) {
      // Reset the sums so that rounding never accumulates over a long run.
      load.gpuDemand = 0;
      load.activationMb = 0;
    } else {
      load.gpuDemand -= this.batches.demand[b]!;
      load.activationMb -= this.batches.activation[b]!;
    }
    this.busy[this.edf ? 0 : model]!--;
    this.updateInstanceMemory(this.edf ? 0 : model);
    this.dispatch(model);
  }

  private record(r: number, dispatchMs: number, completionMs: number, batchSize: number, outcome: RequestRecord['outcome']): void {
    this.onRequest!({
      id: this.req.seq[r]!,
      model: this.req.model[r]!,
      sentMs: this.req.sent[r]!,
      sloMs: this.req.slo[r]!,
      deadlineMs: this.req.deadline[r]!,
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
   * same sum of the same counts, so the same number. `only`: the one executor whose count can
   * have changed since the last call (a batch started or ended, a recovery, a service change);
   * every count is looked at otherwise, and after any change made without a call (an OOM's
   * recovery, a restore: `loadedCountsValid` false).
   */
  private updateInstanceMemory(only = -1): void {
    const loaded = this.loadedCounts;
    let changed = !this.loadedCountsValid;
    if (only >= 0 && !changed) {
      const n = this.loadedInstances(only);
      if (loaded[only] === n) return;
      loaded[only] = n;
      changed = true;
    } else {
      for (let m = 0; m < this.m; m++) {
        const n = this.loadedInstances(m);
        if (loaded[m] !== n) {
          loaded[m] = n;
          changed = true;
        }
      }
    }
    if (!changed) return;
    this.loadedCountsValid = true;
    let mb = 0;
    for (let m = 0; m < this.m; m++) mb += loaded[m]! * this.compiled[m]!.instanceMemoryMb;
    this.load.instanceMb = mb;
  }

  /** The last action found valid that cannot change (frozen, with its entries): not checked again when given again. */
  private validAction: ServingAction | null = null;

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

  /** A model's service starts (its instances load) or stops (they unload once idle; its queue is dropped). */
  private changeService(m: number, start: boolean): void {
    if (start) {
      this.inService[m] = 1;
      this.updateInstanceMemory(m);
      this.dispatch(this.edf ? 0 : m);
      return;
    }
    this.inService[m] = 0;
    const totals = this.totals[m]!;
    const slot = this.slotCounters[m]!;
    const own = this.modelSlotCounters?.[m];
    while (this.req.heapSize[m]! > 0) {
      const r = this.req.pop(m);
      totals.dropped++;
      slot.violations++;
      if (own !== undefined) own.violations++;
      if (this.onRequest !== null) this.record(r, this.nowMs, this.nowMs, 0, 'dropped');
      this.req.release(r);
    }
    this.updateInstanceMemory(m);
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
        queueLength: this.req.heapSize[m]!,
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
    for (let m = 0; m < this.m; m++) resetCounters(this.slotCounters[m]!, this.req.heapSize[m]! > 0 || this.busy[this.edf ? 0 : m]! > 0);
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
    if (this.modelSlotCounters !== null) resetCounters(this.modelSlotCounters[m]!, this.req.heapSize[m]! > 0 || this.busy[this.edf ? 0 : m]! > 0);
    this.modelSlotStartMs[m] = this.nowMs;
    this.events.push(this.nowMs + this.eq1SlotMs(m), m * 8 + MODEL_SLOT, MODEL_SLOT_PRIORITY);
  }

  /** Eq. 1's t_i of model m's slot if it started now, ms (see `startModelSlot`). */
  eq1SlotMs(m: number): number {
    const b = this.action[m]!.batchSize;
    const instances = this.edf ? 1 : this.action[m]!.instances;
    const queued = Math.min(b, this.req.heapSize[m]!);
    const missing = b - queued;
    const sloSum = (queued > 0 ? this.req.mostUrgentSloSum(m, queued) : 0) + (missing > 0 ? missing * this.sloMs[m]! : 0);
    return sloSum / instances;
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
      // (No flush or arrival can come first: they are at a later time, or were taken before this slot's end.)
      if (events.peekTime() !== this.nowMs || (events.peekPayload() & 7) !== MODEL_SLOT) break;
      due[events.pop() >> 3] = 1;
    }
    if (this.observed) {
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
    }
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
    if (action !== this.validAction) {
      if (!isValidAction(action, this.m)) {
        throw new RangeError(`scheduler ${this.scheduler.id} returned an invalid action ${JSON.stringify(action)}`);
      }
      // Frozen, it cannot change: given again (a plan's phase, decision after decision), it is valid still.
      if (Object.isFrozen(action) && action.every((a) => Object.isFrozen(a))) this.validAction = action;
    }
    const now = this.nowMs;
    let instancesChanged = false;
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
      if (current.batchSize !== a.batchSize || current.instances !== instances) {
        if (current.instances !== instances) instancesChanged = true;
        this.action[m] = { batchSize: a.batchSize, instances };
      }
      this.credit?.start(m, now, instances);
    }
    // No m_c changed: every count of loaded instances is as it was (kept up to date after each change, `updateInstanceMemory`).
    if (instancesChanged || !this.loadedCountsValid) this.updateInstanceMemory();
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
    if (!this.observed) throw new RangeError('this run keeps no observation (ServingRunOptions.observed: false)');
    const now = this.nowMs;
    const models: ModelObservation[] = [];
    for (let m = 0; m < this.m; m++) {
      const head = this.req.heapSize[m]! > 0 ? this.req.heaps[m]![0]! : -1;
      const scales = this.classScale[m]!;
      let inputScaleMean = 1;
      if (scales.length > 1 || scales[0] !== 1) {
        let sum = 0;
        const heap = this.req.heaps[m]!;
        for (let i = 0; i < this.req.heapSize[m]!; i++) sum += scales[this.req.shapeClass[heap[i]!]!]!;
        inputScaleMean = this.req.heapSize[m]! > 0 ? sum / this.req.heapSize[m]! : scales[0]!;
      }
      models.push({
        model: this.modelIds[m]!,
        profile: this.compiled[m]!.profile,
        sloMs: this.sloMs[m]!,
        headSloMs: head >= 0 ? this.req.slo[head]! : this.sloMs[m]!,
        inputScaleMean,
        // Always present (undefined under `fixed`), so that every observation has one shape.
        due: this.perModelSlots ? this.due[m] === 1 : undefined,
        inService: this.inService[m] === 1,
        queueLength: this.req.heapSize[m]!,
        oldestSlackMs: head >= 0 ? this.req.deadline[head]! - now : this.sloMs[m]!,
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
    for (let b = 0; b < this.batches.capacity; b++) if (this.batches.active[b] === 1) return this.batches.model[b]!;
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
      const heap = run.req.heaps[model]!;
      let count = 0;
      for (let i = 0; i < run.req.heapSize[model]!; i++) if (run.req.deadline[heap[i]!]! <= deadlineMs) count++;
      return count;
    },
    get runningRemainingMs() {
      let remaining = 0;
      for (let b = 0; b < run.batches.capacity; b++) {
        if (run.batches.active[b] !== 1) continue;
        const model = run.batches.model[b]!;
        const predicted = isolatedBatchMs(run.compiled[model]!, run.batches.size[b]!) + run.batches.serialization[b]!;
        remaining = Math.max(remaining, run.batches.start[b]! + predicted - run.nowMs);
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
    for (let r = 0; r < this.req.capacity; r++) {
      if (this.req.state[r] === 0) continue;
      requests++;
      ageSumMs += this.nowMs - this.req.sent[r]!;
    }
    return { requests, ageSumMs };
  }

  /**
   * The sums behind `summary()`, per model in the run's order: what runs of one model each (the
   * device copies of §V-D, worlds/serving/scenario/deviceCopies.ts) add up to one summary with, exactly as one
   * run would. Reads only; changes nothing.
   */
  tallies(): readonly ModelTally[] {
    const now = this.nowMs;
    const unfinishedLate = new Float64Array(this.m);
    for (let r = 0; r < this.req.capacity; r++) {
      if (this.req.state[r] !== 0 && this.req.deadline[r]! < now) unfinishedLate[this.req.model[r]!]!++;
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
        this.sequence,
        this.req.freeTop,
        this.slotIndex,
        this.slotStartMs,
        this.lastReward ?? Number.NaN,
        this.lastReward === null ? 1 : 0,
        this.finished ? 1 : 0,
        this.noiseTaken,
      ),
      ...this.req.snapshot(),
      batches: this.batches.snapshot(),
      events: this.events.snapshot(),
      load: { ...this.load },
      action: this.action.map((a) => ({ ...a })),
      perModel: {
        busy: this.busy.slice(),
        recovering: this.recovering.slice(),
        inService: this.inService.slice(),
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
      arrivals: this.arrivals.snapshot(),
      edge: this.edgeOrder === null ? null : { next: this.nextEdge, slots: this.edgeSlots.slice() },
      flushes: this.flushes.snapshot(),
      noise: this.noise?.state() ?? null,
    };
  }

  /**
   * Puts the run back to a state taken by `snapshot` on a run of the same spec (its scheduler
   * is the caller's to restore): running on from there gives, bit for bit, what the run gave
   * the first time.
   */
  restore(s: ServingRunSnapshot): void {
    if (s.heapSize.length !== this.m) throw new RangeError(`snapshot has ${s.heapSize.length} models, the run ${this.m}`);
    const [nowMs, sequence, freeReqTop, slotIndex, slotStartMs, lastReward, noReward, finished, noiseTaken] = Array.from(s.scalars) as number[];
    this.noiseTaken = noiseTaken!;
    this.nowMs = nowMs!;
    this.sequence = sequence!;
    this.slotIndex = slotIndex!;
    this.slotStartMs = slotStartMs!;
    this.lastReward = noReward === 1 ? null : lastReward!;
    this.finished = finished === 1;
    this.req.restore(s, freeReqTop!);
    this.batches.restore(s.batches);
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
    this.modelSlotStartMs.set(p.modelSlotStartMs);
    this.due.set(p.due);
    this.intervalInstanceMs.set(p.intervalInstanceMs);
    this.instancesSinceMs.set(p.instancesSinceMs);
    this.instancesChanged.set(p.instancesChanged);
    s.totals.forEach((t, m) => Object.assign(this.totals[m]!, t));
    s.slotCounters.forEach((c, m) => Object.assign(this.slotCounters[m]!, c));
    if (this.modelSlotCounters !== null) {
      if (s.modelSlotCounters === null) throw new RangeError('a checkpoint of a run without observations restores only into such a run');
      s.modelSlotCounters.forEach((c, m) => Object.assign(this.modelSlotCounters![m]!, c));
    }
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
    this.arrivals.restore(s.arrivals);
    if ((s.edge === null) !== (this.edgeOrder === null)) throw new RangeError('a checkpoint of a run given its requests drawn before it restores only into such a run, and one that draws them only into one that does');
    if (s.edge !== null) {
      this.nextEdge = s.edge.next;
      this.edgeSlots.set(s.edge.slots);
      this.edgeHead();
    }
    this.flushes.restore(s.flushes);
    if (s.noise !== null) this.noise?.setState(s.noise);
  }
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
  validateSpec(spec);
  return new ArrivalStream(spec, baseSloMs(spec), null).drawAll(limit);
}

/** The noise's numbers for runs given these requests (of one spec, so of one seed), drawn as far as runs took them. */
const normalDraws = new WeakMap<ServingArrivals, NormalDraws>();

function normalDrawsOf(arrivals: ServingArrivals, seed: number): NormalDraws {
  let draws = normalDraws.get(arrivals);
  if (draws === undefined || draws.seed !== seed) {
    draws = new NormalDraws(seed);
    normalDraws.set(arrivals, draws);
  }
  return draws;
}

/** Each model's SLO before jitter, ms: the spec's, else Table IV's. */
function baseSloMs(spec: ServingRunSpec): Float64Array {
  return Float64Array.from(spec.models, (s) => s.sloMs ?? MODELS[s.model].sloMs);
}
