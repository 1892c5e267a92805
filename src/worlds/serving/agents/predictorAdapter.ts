import type { BatchObservation, ModelAction, ServingObservation } from '../engine/scheduler';
import { quantileSorted } from '../../../engine/quantiles';
import { createRng } from '../../../engine/rng';
import { BATCH_SIZES } from '../engine/scheduler';
import type { ServingSchedulerContext } from '../schedulers/registry';
import { instanceMemoryMb } from './features';
import type { LatencyPredictor } from './learningScheduler';
import { fitLinear, predictLinear, type LinearModel } from './linearRegression';
import { InterferencePredictor, predictorFeatures, type PredictorSnapshot } from './predictor';
import type { Tf } from '../../../lib/tf';

/** The predictor's rng stream (the scheduler's is SERVING_SCHEDULER_STREAM). */
const PREDICTOR_STREAM = 11;

/** Records before the predictor trains, and gradient steps before its masks are trusted. */
export const PREDICTOR_MIN_SAMPLES = 256;
export const PREDICTOR_MIN_UPDATES = 200;

/**
 * The interference predictor as BCEdge's scheduler uses it (§IV-F): it learns online from
 * the profiler's batch records and, at each decision, predicts the inference time of a
 * batch of each candidate (b, m_c). A candidate's inputs are the device as it is now,
 * changed by the action: free memory less the instances it would add, the model's other
 * busy instances replaced by m_c − 1 concurrent ones, the loaded instances of the other
 * models plus m_c, and the profile's isolated time of b.
 *
 * Under the `coLocated` reading (worlds/serving/engine/readings.ts, §IV-F: interference "caused by
 * concurrent inference of multiple models or multiple instances of a single model") the
 * device is the one the joint action in force makes at load: every other model with work
 * runs all its m_c instances (their batches in `runningBatches`, their activations taken
 * from the free memory), not the instant's snapshot, in which a slot boundary often finds
 * the device half idle. Under `ownModel` it is the snapshot, the earlier reading.
 */
export function createLatencyPredictor(tf: Tf, context: ServingSchedulerContext, options: LatencyPredictorOptions = {}): LatencyPredictor {
  const onlineErrors = options.onlineErrors ?? true;
  const modelCount = context.models.length;
  const coLocated = (context.spec?.assumptions.interference ?? 'coLocated') === 'coLocated';
  // Its own stream (seeded from the scheduler's), so its minibatch draws leave the learner's untouched.
  const predictor = new InterferencePredictor(tf, createRng(context.rng.nextInt(0x7fffffff), PREDICTOR_STREAM), { modelCount });
  const errors = new PrequentialErrors(modelCount);
  return {
    add: (batch: BatchObservation) => {
      if (onlineErrors) {
        if (predictor.updateCount >= PREDICTOR_MIN_UPDATES) errors.record(batch, predictor);
        errors.learn(batch);
      }
      predictor.add(batch);
    },
    report: () => errors.report(predictor.size, predictor.updateCount),
    snapshot: (): PredictorAdapterSnapshot => ({ predictor: predictor.snapshot(), errors: errors.snapshot() }),
    restore: (state: unknown) => {
      const s = state as PredictorAdapterSnapshot;
      predictor.restore(s.predictor);
      errors.restore(s.errors);
    },
    train: (steps: number) => {
      if (predictor.size >= PREDICTOR_MIN_SAMPLES) predictor.train(steps);
    },
    get ready() {
      return predictor.updateCount >= PREDICTOR_MIN_UPDATES;
    },
    predictActions: (observation: ServingObservation, m: number, actions: readonly ModelAction[]) => {
      const o = observation.models[m]!;
      let otherInstances = 0;
      // co-located: the batches the other models with work run when all their instances are
      // busy, and the activations those batches hold beyond what is held now.
      let otherRunning = 0;
      let otherActivationMb = 0;
      observation.models.forEach((other, j) => {
        if (j === m) return;
        otherInstances += other.instances;
        if (other.inService === false || (other.queueLength === 0 && other.busyInstances === 0 && (other.lastSlot?.arrivals ?? 0) === 0)) return;
        otherRunning += other.instances;
        otherActivationMb += (other.instances - other.busyInstances) * other.batchSize * other.profile.activationMbPerSample;
      });
      const rows = actions.map((a) => {
        const bi = BATCH_SIZES.indexOf(a.batchSize);
        const freeMb = observation.availableMemoryMb - (a.instances - o.instances) * instanceMemoryMb(o) - (coLocated ? otherActivationMb : 0);
        const record: BatchObservation = {
          model: m,
          batchSize: a.batchSize,
          availableMemory: freeMb / observation.memoryMb,
          availableCompute: observation.availableCompute,
          runningBatches: coLocated ? otherRunning + a.instances - 1 : Math.max(0, observation.runningBatches - o.busyInstances + a.instances - 1),
          concurrentInstances: otherInstances + a.instances,
          isolatedMs: o.isolatedMsByBatch[bi < 0 ? 0 : bi]!,
          inferenceMs: 1,
        };
        return record;
      });
      // One forward pass for all candidates.
      return predictor.predictMs(rows.map((r) => predictorFeatures(r, context.models.length)));
    },
    actingState: () => ({ ...predictor.actingState(), stored: predictor.size }),
    mirror: (state) => predictor.mirror(state.params, state.updates),
    dispose: () => predictor.dispose(),
  };
}

/** How `createLatencyPredictor` is built. */
export interface LatencyPredictorOptions {
  /**
   * Score every record before learning from it, the MLP's and linear regression's (the lane's
   * report; default). Off, the report has no errors and nothing else changes (the scoring draws
   * no random number and changes no weight): `train`, whose report does not show them, saves
   * the linear fits (about an eighth of a training epoch's work away from the updates).
   */
  readonly onlineErrors?: boolean;
}

/** Records kept for the error distributions (§V-E's 2000). */
const ERROR_WINDOW = 2000;
/** Linear regression is refit on its last ERROR_WINDOW records every this many records. */
const LINEAR_REFIT_EVERY = 200;
/** One record in this many is scored (a forward pass each: kept off the hot path). */
const SCORE_EVERY = 4;

/** Relative-error percentiles of a window of errors. */
export interface ErrorPercentiles {
  readonly samples: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  /** The 101 percentiles 0, 1, …, 100 (the CDF of Fig. 13); empty without samples. */
  readonly quantiles: readonly number[];
}

function percentiles(errors: readonly number[]): ErrorPercentiles {
  const sorted = [...errors].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    // NaN when there is nothing yet (no error to report, rather than an error of 0).
    p50: sorted.length === 0 ? Number.NaN : quantileSorted(sorted, 0.5),
    p90: sorted.length === 0 ? Number.NaN : quantileSorted(sorted, 0.9),
    p95: sorted.length === 0 ? Number.NaN : quantileSorted(sorted, 0.95),
    quantiles: sorted.length === 0 ? [] : Array.from({ length: 101 }, (_, i) => quantileSorted(sorted, i / 100)),
  };
}

/**
 * Online ("prequential") evaluation of the predictor during a run: each scored record is
 * predicted BEFORE the predictor learns from it, so every error is on an unseen record —
 * the online counterpart of §V-E's held-out 400. Linear regression (the paper's baseline,
 * latency in ms from the same inputs) is scored the same way, refit on its last 2000
 * records every 200. The offline protocol itself (2000 records, 1600 / 400) is
 * `runPredictorExperiment` (the CLI's `predictor` command and the bench).
 */
class PrequentialErrors {
  private readonly mlp: number[] = [];
  private readonly linear: number[] = [];
  private readonly X: Float32Array[] = [];
  private readonly y: number[] = [];
  private model: LinearModel | null = null;
  private seen = 0;

  constructor(private readonly modelCount: number) {}

  record(batch: BatchObservation, predictor: InterferencePredictor): void {
    if (this.seen % SCORE_EVERY !== 0) return;
    const predicted = predictor.predictBatchMs(batch);
    push(this.mlp, Math.abs(predicted - batch.inferenceMs) / batch.inferenceMs);
    if (this.model !== null) {
      const linear = predictLinear(this.model, predictorFeatures(batch, this.modelCount));
      push(this.linear, Math.abs(linear - batch.inferenceMs) / batch.inferenceMs);
    }
  }

  learn(batch: BatchObservation): void {
    this.seen++;
    this.X.push(predictorFeatures(batch, this.modelCount));
    this.y.push(batch.inferenceMs);
    if (this.X.length > ERROR_WINDOW) {
      this.X.shift();
      this.y.shift();
    }
    if (this.seen % LINEAR_REFIT_EVERY === 0 && this.X.length >= PREDICTOR_MIN_SAMPLES) this.model = fitLinear(this.X, this.y);
  }

  /** The windows and the linear model, for a checkpoint (the feature rows are never written once made, so they are shared). */
  snapshot(): PrequentialSnapshot {
    return { mlp: this.mlp.slice(), linear: this.linear.slice(), X: this.X.slice(), y: this.y.slice(), model: this.model, seen: this.seen };
  }

  restore(s: PrequentialSnapshot): void {
    const put = <T>(to: T[], from: readonly T[]) => {
      to.length = 0;
      to.push(...from);
    };
    put(this.mlp, s.mlp);
    put(this.linear, s.linear);
    put(this.X, s.X);
    put(this.y, s.y);
    this.model = s.model;
    this.seen = s.seen;
  }

  report(samples: number, updates: number): PredictorReport {
    return { records: this.seen, samples, updates, mlp: percentiles(this.mlp), linear: percentiles(this.linear) };
  }
}

/** What `PrequentialErrors` holds. */
interface PrequentialSnapshot {
  readonly mlp: readonly number[];
  readonly linear: readonly number[];
  readonly X: readonly Float32Array[];
  readonly y: readonly number[];
  readonly model: LinearModel | null;
  readonly seen: number;
}

/** The predictor lane's checkpoint: the network's and the online errors'. */
interface PredictorAdapterSnapshot {
  readonly predictor: PredictorSnapshot;
  readonly errors: PrequentialSnapshot;
}

function push(window: number[], value: number): void {
  window.push(value);
  if (window.length > ERROR_WINDOW) window.shift();
}

/** The predictor's part of a learning lane's report (Fig. 13 online). */
export interface PredictorReport {
  readonly records: number;
  readonly samples: number;
  readonly updates: number;
  /** Relative errors of the MLP on records it had not learned from. */
  readonly mlp: ErrorPercentiles;
  readonly linear: ErrorPercentiles;
}
