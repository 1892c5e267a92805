import type { ServingAssumptions } from './assumptions';
import { scheduleBoundariesMs, validateRateSchedule, type RateSchedule } from './load';
import { MODELS, type ModelId } from './models';
import type { PlatformId } from './platforms';
import type { PercentileOptions } from '../../../engine/quantiles';

/**
 * What a serving run is given (simulation.ts): its models and their loads, the device, the
 * background workloads and the readings; the random streams it draws from; and the checks a
 * spec passes before a run starts.
 */

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

/** Throws a RangeError naming what is wrong with a spec (a run checks its spec first). */
export function validateSpec(spec: ServingRunSpec): void {
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
