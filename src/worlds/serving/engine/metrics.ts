import { quantileSorted } from '../../../engine/quantiles';

/**
 * BCEdge Eq. 3, our reading:
 *
 *   U = ln( T · (Σ_{j=1}^{b} SLO_j / m_c) / L )
 *
 * per model and per scheduling slot, to be maximized (Eq. 6 makes it the reward; the "min."
 * of Eq. 4 is a typo, ARCHITECTURE §3), where
 * - T: the model's throughput in the slot, requests completed in the slot per second (rps);
 * - Σ_{j=1}^{b} SLO_j: the sum of the SLOs of the requests of one batch, ms — averaged over
 *   the model's batches completed in the slot, so it counts the requests a batch really
 *   held, not the configured b (with dynamic batching a batch may hold fewer);
 * - m_c: the model's number of concurrent instances in force during the slot;
 * - Σ SLO_j / m_c is Eq. 1's scheduling slot t_i, ms: the latency budget;
 * - L: the mean end-to-end latency (Eq. 2) of the requests completed in the slot, ms.
 * L / t_i is dimensionless ("∈ (0, 1]" when the budget holds), so U is ln of a rate in
 * rps: its value depends on that unit, its differences do not. ln is the natural log (the
 * paper writes log; only the scale changes).
 *
 * A slot in which the model completes nothing has no T or L: if it had nothing to do
 * (no arrival, nothing queued or running) it has no utility (null, left out of means); if
 * requests were waiting, running or lost, it gets `STALLED_UTILITY` — a choice, so that a
 * scheduler that stalls a model is punished rather than ignored.
 */
export function utility(throughputRps: number, batchSloSumMs: number, instances: number, latencyMs: number): number {
  return Math.log((throughputRps * (batchSloSumMs / instances)) / latencyMs);
}

/** Utility of a slot in which a model with work completed nothing (a choice, see `utility`). */
export const STALLED_UTILITY = -10;

/** What one model did in one slot, as the utility reads it. */
export interface SlotUtilityInput {
  readonly completed: number;
  /** Length of the slot, s. */
  readonly seconds: number;
  /** Instance-busy time (t_s + t_m) of the batches completed in the slot, ms. */
  readonly busyMs: number;
  /** Σ SLO_j of a completed batch, averaged over the slot's batches, ms. */
  readonly batchSloMeanMs: number;
  /** m_c in force during the slot. */
  readonly instances: number;
  readonly latencyMeanMs: number;
  /** Completions after their deadline. */
  readonly late: number;
  /** Late completions + requests lost (OOM, admission, service stop). */
  readonly violations: number;
  /** Requests arrived, waited, ran or were lost in the slot. */
  readonly hadWork: boolean;
}

/** Eq. 3's T for one model's slot under the `throughputTerm` reading, rps (0 when nothing completed). */
export function throughputTermRps(readings: { readonly throughputTerm: 'configuration' | 'completed' }, slot: SlotUtilityInput): number {
  if (slot.completed === 0) return 0;
  if (readings.throughputTerm === 'configuration') return (slot.instances * slot.completed) / (slot.busyMs / 1000);
  return slot.seconds > 0 ? slot.completed / slot.seconds : 0;
}

/**
 * A model's utility in one slot under the scenario's readings (assumptions.ts): T is
 * Eq. 3's throughput of the configuration (`configuration`: m_c × requests per
 * instance-busy second) or the completed rate (`completed`); with `withinSlo`, Eq. 4's
 * constraint enters as ln of the share of the slot's requests that met their SLO, floored
 * at `STALLED_UTILITY`. Null when the model had nothing to do.
 */
export function slotUtility(
  readings: { readonly throughputTerm: 'configuration' | 'completed'; readonly reward: 'withinSlo' | 'utility' },
  slot: SlotUtilityInput,
): number | null {
  if (slot.completed === 0) return slot.hadWork ? STALLED_UTILITY : null;
  const u = utility(throughputTermRps(readings, slot), slot.batchSloMeanMs, slot.instances, slot.latencyMeanMs);
  if (readings.reward === 'utility') return u;
  const lost = slot.violations - slot.late;
  const withinShare = (slot.completed - slot.late) / (slot.completed + lost);
  return withinShare > 0 ? Math.max(STALLED_UTILITY, u + Math.log(withinShare)) : STALLED_UTILITY;
}

/**
 * Latency samples for percentiles with bounded memory: exact up to `cap`, then every other
 * sample is dropped and only every 2nd, 4th, … value is kept (a systematic sample).
 */
export class LatencySamples {
  private values: Float64Array;
  private size = 0;
  private stride = 1;
  private seen = 0;

  constructor(private readonly cap: number) {
    if (!(cap >= 16)) throw new RangeError(`latency sample cap must be ≥ 16, got ${cap}`);
    this.values = new Float64Array(Math.min(cap, 1024));
  }

  add(value: number): void {
    if (this.seen++ % this.stride !== 0) return;
    if (this.size === this.values.length) {
      if (this.size >= this.cap) {
        const half = this.size >> 1;
        for (let j = 0; j < half; j++) this.values[j] = this.values[2 * j]!;
        this.size = half;
        this.stride *= 2;
        // The stride doubled: this value is kept only if it falls on the new grid.
        if ((this.seen - 1) % this.stride !== 0) return;
      } else {
        const bigger = new Float64Array(Math.min(this.cap, this.values.length * 2));
        bigger.set(this.values);
        this.values = bigger;
      }
    }
    this.values[this.size++] = value;
  }

  /** Quantile p ∈ [0, 1] (type 7), 0 when empty. */
  quantile(p: number): number {
    return quantileSorted(this.values.slice(0, this.size).sort(), p);
  }

  /** The samples kept and how they were thinned, for a checkpoint. */
  snapshot(): LatencySamplesSnapshot {
    return { values: this.values.slice(0, this.size), capacity: this.values.length, stride: this.stride, seen: this.seen };
  }

  /** Puts back a state taken by `snapshot`. */
  restore(s: LatencySamplesSnapshot): void {
    this.values = new Float64Array(s.capacity);
    this.values.set(s.values);
    this.size = s.values.length;
    this.stride = s.stride;
    this.seen = s.seen;
  }
}

/** A `LatencySamples`' state (only the samples kept are copied). */
export interface LatencySamplesSnapshot {
  readonly values: Float64Array;
  readonly capacity: number;
  readonly stride: number;
  readonly seen: number;
}

/** One model's results (ARCHITECTURE §5 `perModel`). Times in ms, rates in requests per second. */
export interface ServingModelSummary {
  /** Requests sent by the devices during the run. */
  readonly requests: number;
  readonly completed: number;
  /** Requests of batches that ran out of memory. */
  readonly failed: number;
  /** Requests refused by admission control. */
  readonly dropped: number;
  /** Mean over the slots with a utility. */
  readonly utilityMean: number;
  readonly throughputRps: number;
  readonly latencyMeanMs: number;
  readonly latencyP99Ms: number;
  /** % of judged requests that missed their SLO (late, failed, dropped, or past deadline at the end). */
  readonly sloViolationPct: number;
  readonly oomBatches: number;
  readonly batches: number;
  readonly batchSizeMean: number;
  /** Mean of Eq. 2's terms over completed requests, ms. */
  readonly transmissionMeanMs: number;
  readonly serializationMeanMs: number;
  readonly queueingMeanMs: number;
  readonly inferenceMeanMs: number;
  readonly returnMeanMs: number;
}

/** One lane's results (ARCHITECTURE §5, serving world). */
export interface ServingSummary {
  readonly requests: number;
  readonly utilityMean: number;
  readonly throughputRps: number;
  readonly latencyMeanMs: number;
  readonly latencyP99Ms: number;
  readonly sloViolationPct: number;
  readonly oomBatches: number;
  /** Wall-clock decision time; the engine has no clock, the worker measures it (0 here). */
  readonly decisionMeanUs: number;
  /** A learning lane's statistics (added by the runner and the worker from the scheduler's `report`). */
  readonly learning?: Readonly<Record<string, unknown>>;
  readonly completed: number;
  readonly failed: number;
  readonly dropped: number;
  readonly perModel: Readonly<Record<string, ServingModelSummary>>;
}

/** One model's sums behind a summary (`ServingRun.tallies`): counts and sums, so that runs add up exactly. */
export interface ModelTally {
  /** Σ end-to-end latency of the completed requests, ms. */
  readonly latencySum: number;
  /** Requests that missed their SLO: late, failed, dropped, or unfinished past their deadline. */
  readonly violations: number;
  /** Requests judged against their SLO (the violations' denominator). */
  readonly judged: number;
  /** Σ and number of the slots' utilities (the mean's terms). */
  readonly utilitySum: number;
  readonly utilityCount: number;
}

/** A model's summary and its tally, as `laneSummary` adds them up. */
export interface ModelPart {
  readonly id: string;
  readonly summary: ServingModelSummary;
  readonly tally: ModelTally;
}

/**
 * One lane's summary from its models' (ARCHITECTURE §5): counts add up, the violations and the
 * mean latency are taken over the sums, the utility is the mean over every slot utility. One
 * run of several models and the device copies of one model each (worlds/serving/scenario/deviceCopies.ts) add
 * up through this, in the models' order, so that they give the same numbers.
 */
export function laneSummary(parts: readonly ModelPart[], durationS: number, latencyP99Ms: number): ServingSummary {
  const perModel: Record<string, ServingModelSummary> = {};
  let requests = 0;
  let completed = 0;
  let failed = 0;
  let dropped = 0;
  let oomBatches = 0;
  let latencySum = 0;
  let violations = 0;
  let judged = 0;
  let utilitySum = 0;
  let utilityCount = 0;
  for (const { id, summary: s, tally: t } of parts) {
    perModel[id] = s;
    requests += s.requests;
    completed += s.completed;
    failed += s.failed;
    dropped += s.dropped;
    oomBatches += s.oomBatches;
    latencySum += t.latencySum;
    violations += t.violations;
    judged += t.judged;
    utilitySum += t.utilitySum;
    utilityCount += t.utilityCount;
  }
  return {
    requests,
    utilityMean: utilityCount > 0 ? utilitySum / utilityCount : 0,
    throughputRps: durationS > 0 ? completed / durationS : 0,
    latencyMeanMs: completed > 0 ? latencySum / completed : 0,
    latencyP99Ms,
    sloViolationPct: judged > 0 ? (100 * violations) / judged : 0,
    oomBatches,
    decisionMeanUs: 0,
    completed,
    failed,
    dropped,
    perModel,
  };
}

/** One point of the per-slot time series. */
export interface SlotRecord {
  readonly slot: number;
  /** End of the slot, ms. */
  readonly endMs: number;
  /** Mean utility over the models with one (null when none). */
  readonly utility: number | null;
  readonly throughputRps: number;
  readonly latencyMeanMs: number;
  readonly perModel: readonly SlotModelRecord[];
}

export interface SlotModelRecord {
  readonly utility: number | null;
  /** Requests completed in the slot per second. */
  readonly throughputRps: number;
  /** The T of Eq. 3 under the slot's reading (`throughputTerm`), rps; 0 when nothing completed. */
  readonly throughputTermRps: number;
  /** Mean batch size of the batches completed in the slot (0 when none). */
  readonly batchSizeMean: number;
  readonly latencyMeanMs: number;
  readonly batchSize: number;
  readonly instances: number;
  readonly queueLength: number;
  readonly violations: number;
}

/**
 * The per-slot series with bounded memory: up to `cap` records, then every other record is
 * dropped and only every 2nd, 4th, … slot is kept (thinning, not averaging: each kept
 * point is a real slot).
 */
export class SlotSeries {
  private records: SlotRecord[] = [];
  private stride = 1;

  constructor(private readonly cap: number) {
    if (!(cap >= 2)) throw new RangeError(`series cap must be ≥ 2, got ${cap}`);
  }

  add(record: SlotRecord): void {
    if (record.slot % this.stride !== 0) return;
    if (this.records.length >= this.cap) {
      this.stride *= 2;
      this.records = this.records.filter((r) => r.slot % this.stride === 0);
      if (record.slot % this.stride !== 0) return;
    }
    this.records.push(record);
  }

  /** The kept records, oldest first. */
  get values(): readonly SlotRecord[] {
    return this.records;
  }

  /** Slots between two kept records. */
  get slotStride(): number {
    return this.stride;
  }

  /** The records kept (immutable, so shared) and the stride, for a checkpoint. */
  snapshot(): SlotSeriesSnapshot {
    return { records: this.records.slice(), stride: this.stride };
  }

  restore(s: SlotSeriesSnapshot): void {
    this.records = s.records.slice();
    this.stride = s.stride;
  }
}

/** A `SlotSeries`' state. */
export interface SlotSeriesSnapshot {
  readonly records: readonly SlotRecord[];
  readonly stride: number;
}
