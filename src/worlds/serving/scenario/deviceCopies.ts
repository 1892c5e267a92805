import { laneSummary, LatencySamples, type LatencySamplesSnapshot, type ServingSummary, type SlotModelRecord, type SlotRecord } from '../engine/metrics';
import { LogHistogram, type LogHistogramSnapshot } from '../../../engine/quantiles';
import type { ModelObservation, ModelSlotStats, ServingAction, ServingObservation, ServingScheduler } from '../engine/scheduler';
import { ServingRun, type ServingRunSnapshot } from '../engine/simulation';
import type { BackgroundInterference, ServingRunSpec } from '../engine/spec';

/**
 * BCEdge §V-D, Figs. 11–12: "We evaluate the scalability of BCEdge using object detection
 * (YOLO-v5), image classification (ResNet-18) and speech recognition (TinyBERT) DNN models,
 * respectively" on Jetson Nano and TX2, beside Xavier NX, the platform of §V-A ("Unless
 * otherwise indicated, all evaluations are reported on a NVIDIA Xavier NX") where the six
 * models run together (Figs. 7–9 stack them on one device). The reading of "respectively"
 * is a scenario field, `serving.assumptions.platformSetting` (ARCHITECTURE §3):
 *
 * - `perModel` (the paper's reading, the default): on the platforms §V-D adds, Nano and TX2,
 *   each model of the scenario is served alone on its own copy of the device; on Xavier NX
 *   the models share it as in §V-A. A run on Nano with three models is three runs of one
 *   model each, which this module adds up into one run's results (summary, per-model
 *   summaries, per-slot series, the live view), so that charts, metrics and claims read it
 *   as they read any run.
 * - `mixed` (the lab's earlier reading): the models share the device on every platform.
 *
 * What a copy is (choices, the paper saying nothing more):
 * - a copy runs the engine's spec with that model alone, on the same platform, seed,
 *   duration, assumptions and tenants (a tenant is on the device, so it is on every copy of
 *   it), and the model's own arrival stream: the per-model stream the engine draws a model's
 *   requests from (`SERVING_MODEL_STREAM` + its index in MODEL_IDS, at its share of the rate
 *   or on its own schedule), so that its requests are those it would be sent in any run with
 *   per-model streams, whatever the other models are, and the copies' traces are independent.
 *   A replayed trace gives each copy the model's own requests. A scenario with one model is
 *   run as it is: alone already.
 * - every lane runs one scheduler per copy, each built as the lane says (the shipped agent,
 *   or from scratch with the cell's seed): BCEdge is deployed on the edge platform (§V-A:
 *   "We then deploy trained algorithm online to edge platform"), so each device runs its own
 *   scheduler, whose state (§IV-B1: the device's memory and compute) is that device's. One
 *   learner observing every copy would see a state that is no device's, and would take the
 *   copies' slots as its own consecutive steps.
 */
export type PlatformSetting = 'perModel' | 'mixed';

// Which runs are copied (Nano and TX2, more than one model) is in readings.ts, which the page's panels and the claims read without the engine.
export { SCALABILITY_PLATFORMS, servedApart } from './servingReadings';

/**
 * The spec of each device copy: model m alone, on its own arrival stream (see the module
 * comment). A model without a rate of its own gets its share of `rateRps` as a constant
 * schedule, which is what the engine gives it on per-model streams.
 */
export function deviceCopySpecs(spec: ServingRunSpec): ServingRunSpec[] {
  const totalWeight = spec.models.reduce((sum, s) => sum + s.weight, 0);
  return spec.models.map((model, m) => {
    const { trace, ...rest } = spec;
    const own = trace?.filter((r) => r.model === m).map((r) => ({ ...r, model: 0 }));
    return {
      ...rest,
      models: [{ ...model, weight: 1, rate: model.rate ?? { kind: 'constant', rateRps: (spec.rateRps * model.weight) / totalWeight } }],
      ...(own === undefined ? {} : { trace: own }),
    };
  });
}

/** What a lane's run offers the runner, the live session and the benches: one `ServingRun`, or `DeviceCopiesRun`. */
export interface LaneRun {
  readonly timeMs: number;
  readonly done: boolean;
  readonly currentAction: ServingAction;
  readonly series: { readonly values: readonly SlotRecord[]; readonly slotStride: number };
  advanceTo(targetMs: number): void;
  runToEnd(): ServingSummary;
  summary(): ServingSummary;
  observe(): ServingObservation;
  formingBatch(m: number): { readonly waiting: number; readonly batchSize: number; readonly startInMs: number } | null;
  addBackground(bg: BackgroundInterference): void;
  /** The last reporting interval's numbers per model (under slot `eq1` the models' own scheduling slots differ from it); null before the first. */
  readonly lastIntervalStats: readonly ModelSlotStats[] | null;
  /** A checkpoint of the run (its schedulers apart), and putting one back (ARCHITECTURE §7a). */
  snapshot(): LaneRunSnapshot;
  restore(s: LaneRunSnapshot): void;
}

/** A `LaneRun`'s checkpoint: one run's, or every device copy's and the sketch of all their requests. */
export type LaneRunSnapshot = ServingRunSnapshot | DeviceCopiesSnapshot;

export interface DeviceCopiesSnapshot {
  readonly copies: readonly ServingRunSnapshot[];
  readonly all: LatencySamplesSnapshot | LogHistogramSnapshot;
}

/** A percentile sketch of the served requests' latencies, with its checkpoint. */
interface Sketch {
  add(v: number): void;
  quantile(p: number): number;
  snapshot(): LatencySamplesSnapshot | LogHistogramSnapshot;
  restore(s: LatencySamplesSnapshot | LogHistogramSnapshot): void;
}

/** A percentile sketch of the kind the engine keeps for a spec (simulation.ts). */
function sketchOf(spec: ServingRunSpec): Sketch {
  if (spec.percentiles?.method === 'streaming') return new LogHistogram(spec.percentiles.relativeError) as Sketch;
  return new LatencySamples(spec.percentiles?.method === 'exact' ? Number.POSITIVE_INFINITY : (spec.latencySampleCap ?? 65_536)) as Sketch;
}

/**
 * The device copies of one lane, advanced together and read as one run: the models in the
 * spec's order, each from its copy. Sums and means are taken over every model's requests and
 * slots as one run takes them (`ServingRun.tallies`); the p99 over all requests comes from a
 * sketch of the same kind fed every served request of every copy. The per-slot series and
 * the live view join the copies slot by slot (they run the same slots).
 */
export class DeviceCopiesRun implements LaneRun {
  readonly copies: readonly ServingRun[];
  private readonly all: Sketch;

  /** `specs` from `deviceCopySpecs`, and one scheduler per copy. */
  constructor(
    readonly specs: readonly ServingRunSpec[],
    schedulers: readonly ServingScheduler[],
  ) {
    if (specs.length === 0 || specs.length !== schedulers.length) throw new RangeError(`device copies need one scheduler per copy, got ${schedulers.length} for ${specs.length}`);
    this.all = sketchOf(specs[0]!);
    this.copies = specs.map((spec, i) => {
      const run = new ServingRun(spec, schedulers[i]!);
      run.onRequest = (r) => {
        if (r.outcome === 'served') this.all.add(r.completionMs - r.sentMs);
      };
      return run;
    });
  }

  get timeMs(): number {
    return this.copies[0]!.timeMs;
  }

  get done(): boolean {
    return this.copies.every((c) => c.done);
  }

  get currentAction(): ServingAction {
    return this.copies.map((c) => c.currentAction[0]!);
  }

  /** Each copy's one model, in the spec's order (the copies run the same reporting intervals). */
  get lastIntervalStats(): readonly ModelSlotStats[] | null {
    const parts = this.copies.map((c) => c.lastIntervalStats);
    return parts.some((p) => p === null) ? null : parts.flatMap((p) => p!);
  }

  advanceTo(targetMs: number): void {
    for (const c of this.copies) c.advanceTo(targetMs);
  }

  runToEnd(): ServingSummary {
    for (const c of this.copies) c.runToEnd();
    return this.summary();
  }

  addBackground(bg: BackgroundInterference): void {
    for (const c of this.copies) c.addBackground(bg);
  }

  snapshot(): DeviceCopiesSnapshot {
    return { copies: this.copies.map((c) => c.snapshot()), all: this.all.snapshot() };
  }

  restore(s: LaneRunSnapshot): void {
    if (!('copies' in s) || s.copies.length !== this.copies.length) throw new RangeError('the checkpoint is not one of these device copies');
    s.copies.forEach((c, i) => this.copies[i]!.restore(c));
    this.all.restore(s.all);
  }

  formingBatch(m: number): ReturnType<ServingRun['formingBatch']> {
    const copy = this.copies[m];
    if (copy === undefined) throw new RangeError(`model ${m} is not a model of the run (${this.copies.length} copies)`);
    return copy.formingBatch(0);
  }

  summary(): ServingSummary {
    const parts = this.copies.map((copy) => {
      const id = copy.modelIds[0]!;
      return { id, summary: copy.summary().perModel[id]!, tally: copy.tallies()[0]! };
    });
    return laneSummary(parts, this.timeMs / 1000, this.all.quantile(0.99));
  }

  /**
   * The per-slot series, slot by slot (every copy keeps the same slots: same slot length, run
   * and cap). Rates add up; the mean latency is weighted by each model's completions (its rate
   * times the common slot length); the utility is the mean over the models with one.
   */
  get series(): { readonly values: readonly SlotRecord[]; readonly slotStride: number } {
    const each = this.copies.map((c) => c.series.values);
    const values = each[0]!.map((first, i): SlotRecord => {
      const perModel: SlotModelRecord[] = each.map((v) => v[i]!.perModel[0]!);
      let throughput = 0;
      let weighted = 0;
      let utilitySum = 0;
      let utilityCount = 0;
      for (const p of perModel) {
        throughput += p.throughputRps;
        weighted += p.throughputRps * p.latencyMeanMs;
        if (p.utility !== null) {
          utilitySum += p.utility;
          utilityCount++;
        }
      }
      return {
        slot: first.slot,
        endMs: first.endMs,
        utility: utilityCount > 0 ? utilitySum / utilityCount : null,
        throughputRps: throughput,
        latencyMeanMs: throughput > 0 ? weighted / throughput : 0,
        perModel,
      };
    });
    return { values, slotStride: this.copies[0]!.series.slotStride };
  }

  /**
   * The live view of the copies as one device board: each model as its copy shows it; memory
   * and running batches add up over the copies (the board's total is the copies' total), the
   * free compute is their mean, and the reward is the mean over the models with one.
   */
  observe(): ServingObservation {
    const each = this.copies.map((c) => c.observe());
    const first = each[0]!;
    const models: ModelObservation[] = each.map((o) => o.models[0]!);
    let rewardSum = 0;
    let rewards = 0;
    for (const o of each) {
      if (o.reward !== null) {
        rewardSum += o.reward;
        rewards++;
      }
    }
    const sum = (f: (o: ServingObservation) => number) => each.reduce((acc, o) => acc + f(o), 0);
    return {
      slot: first.slot,
      nowMs: first.nowMs,
      slotMs: first.slotMs,
      models,
      availableMemoryMb: sum((o) => o.availableMemoryMb),
      memoryMb: sum((o) => o.memoryMb),
      staticMemoryMb: sum((o) => o.staticMemoryMb),
      availableCompute: sum((o) => o.availableCompute) / each.length,
      runningBatches: sum((o) => o.runningBatches),
      reward: rewards > 0 ? rewardSum / rewards : null,
    };
  }
}
