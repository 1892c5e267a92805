import { quantileSorted } from '../engine/pipeline/metrics';
import type { BatchObservation, ModelAction, ServingAction, ServingObservation, ServingScheduler } from '../engine/serving/scheduler';
import { ACTION_COUNT, actionOf, encodeState, memoryMask, STATE_SIZE } from './features';
import type { Learner, LearnerKind } from './learner';
import { MASKED_LOGIT } from './replay';

/**
 * What the learning scheduler needs of an interference predictor (§IV-F): it learns from
 * the profiler's batch records and predicts a batch's inference time for candidate actions.
 */
export interface LatencyPredictor {
  add(batch: BatchObservation): void;
  /** Trains on what it has; a no-op until it has enough samples. */
  train(steps: number): void;
  /** Whether it has trained enough to be trusted. */
  readonly ready: boolean;
  /** Predicted inference ms of each candidate (one per action) for model `m` in this observation. */
  predictActions(observation: ServingObservation, m: number, actions: readonly ModelAction[]): Float32Array;
  /** Its online error figures (for the lane's report). */
  report?(): unknown;
  dispose?(): void;
}

export interface LearningSchedulerOptions {
  readonly id: LearnerKind;
  readonly learner: Learner;
  /** Learn online (store transitions and update after every decision). */
  readonly train: boolean;
  /** Sample from the policy (or ε-greedy); false: the greedy action. */
  readonly explore: boolean;
  /**
   * The interference predictor; with it, actions whose predicted inference time exceeds
   * `predictorBudget` × SLO are masked (not penalized: a masked action is never tried,
   * so the SLO violation it would cause never happens; BCEdge §IV-F says the predictor
   * "guides the scheduler to make more robust decisions" without saying how).
   */
  readonly predictor: LatencyPredictor | null;
  /** Share of the SLO a batch's predicted inference may take (the rest is transmission, queueing and return). */
  readonly predictorBudget: number;
  /** Whether the predictions mask actions (absent: they do); off, the predictor only learns. */
  readonly predictorMask?: boolean;
  /** What the predictor judges (engine/serving/readings.ts; absent: `coLocated`). */
  readonly interference?: 'coLocated' | 'ownModel';
  /** Predictor updates after each decision. */
  readonly predictorSteps: number;
}

/** Slots whose violation share is kept for the report (a 3000 s run has 3000). */
const MAX_SLOT_RECORDS = 100_000;

/** The live view of one learning lane (the page's training panel, the CLI's curves). */
export interface LearningTelemetry {
  readonly kind: LearnerKind;
  readonly slots: number;
  readonly updates: number;
  /** Mean reward (utility) of the transitions of the last slot; null when none. */
  readonly lastReward: number | null;
  readonly transitions: number;
  /** Actions removed by the predictor in the last decision (all models). */
  readonly predictorMasked: number;
}

/**
 * A learning scheduler in the serving world (BCEdge Algorithm 1): at each slot boundary it
 * turns the observation into one state per model, stores the transitions of the previous
 * decision with their rewards (each model's utility of the slot, Eq. 6 per model: the
 * decisions are per model, so is the credit), masks actions that would overflow memory
 * (and, with the predictor, those predicted to break the SLO), and acts; `learn` then runs
 * the gradient updates (lines 16–19), outside the timed decision.
 *
 * Memory mask: against the other models' current instances (all models change at once,
 * so a combination can still overflow; the engine then fails the batch, which the reward
 * punishes).
 */
export class LearningScheduler implements ServingScheduler {
  readonly id: LearnerKind;
  readonly observeBatch?: (batch: BatchObservation) => void;
  private states = new Float32Array(0);
  private masks = new Uint8Array(0);
  private maskBias = new Float32Array(0);
  private actions: Int32Array = new Int32Array(0);
  private hasPrevious = false;
  private slots = 0;
  private updates = 0;
  private transitions = 0;
  private lastReward: number | null = null;
  private predictorMasked = 0;
  /** Per-slot SLO violation share, % (for Fig. 14). */
  private readonly slotViolations: number[] = [];

  constructor(private readonly options: LearningSchedulerOptions) {
    this.id = options.id;
    const predictor = options.predictor;
    if (predictor !== null) this.observeBatch = (batch) => predictor.add(batch);
  }

  get learner(): Learner {
    return this.options.learner;
  }

  decide(observation: ServingObservation): ServingAction {
    const n = observation.models.length;
    const states = new Float32Array(n * STATE_SIZE);
    const masks = new Uint8Array(n * ACTION_COUNT);
    for (let m = 0; m < n; m++) {
      encodeState(observation, m, states, m * STATE_SIZE);
      memoryMask(observation, m, [], masks, m * ACTION_COUNT);
    }
    this.predictorMasked = this.applyPredictor(observation, masks);

    let arrivals = 0;
    let violations = 0;
    for (const o of observation.models) {
      arrivals += o.lastSlot?.arrivals ?? 0;
      violations += o.lastSlot?.violations ?? 0;
    }
    if (arrivals > 0 && this.slotViolations.length < MAX_SLOT_RECORDS) this.slotViolations.push((100 * Math.min(violations, arrivals)) / arrivals);

    if (this.options.train && this.hasPrevious && this.states.length === states.length) {
      let sum = 0;
      let count = 0;
      for (let m = 0; m < n; m++) {
        const reward = observation.models[m]!.lastSlot?.utility ?? null;
        if (reward === null) continue;
        this.options.learner.record({
          row: m,
          state: this.states.subarray(m * STATE_SIZE, (m + 1) * STATE_SIZE),
          mask: this.masks.subarray(m * ACTION_COUNT, (m + 1) * ACTION_COUNT),
          action: this.actions[m]!,
          reward,
          nextState: states.subarray(m * STATE_SIZE, (m + 1) * STATE_SIZE),
          nextMask: masks.subarray(m * ACTION_COUNT, (m + 1) * ACTION_COUNT),
        });
        sum += reward;
        count++;
      }
      this.transitions += count;
      this.lastReward = count > 0 ? sum / count : null;
    }

    const maskBias = new Float32Array(n * ACTION_COUNT);
    for (let i = 0; i < maskBias.length; i++) maskBias[i] = masks[i] === 1 ? 0 : MASKED_LOGIT;
    const actions = this.options.learner.act(states, maskBias, n, this.options.explore);
    this.states = states;
    this.masks = masks;
    this.maskBias = maskBias;
    this.actions = actions;
    this.hasPrevious = true;
    this.slots++;
    return Array.from(actions, (a) => actionOf(a));
  }

  dispose(): void {
    this.options.learner.dispose();
    this.options.predictor?.dispose?.();
  }

  learn(): void {
    if (!this.options.train) return;
    this.updates += this.options.learner.train();
    this.options.predictor?.train(this.options.predictorSteps);
  }

  /** Masks the actions the predictor expects to break the SLO; returns how many it removed. */
  private applyPredictor(observation: ServingObservation, masks: Uint8Array): number {
    const predictor = this.options.predictor;
    if (predictor === null || !predictor.ready || this.options.predictorMask === false) return 0;
    const candidates = Array.from({ length: ACTION_COUNT }, (_, a) => actionOf(a));
    let removed = 0;
    observation.models.forEach((o, m) => {
      const predicted = predictor.predictActions(observation, m, candidates);
      const limit = this.options.predictorBudget * o.sloMs;
      // ownModel: (1, 1) is never masked. coLocated: it may be, and when every action is
      // predicted to break the SLO the one predicted fastest stays.
      const spared = this.options.interference === 'ownModel' ? 0 : -1;
      let kept = 0;
      let fastest = 0;
      for (let a = 0; a < ACTION_COUNT; a++) {
        const i = m * ACTION_COUNT + a;
        if (masks[i] === 1 && predicted[a]! < predicted[fastest]!) fastest = a;
        if (masks[i] === 1 && predicted[a]! > limit && a !== spared) {
          masks[i] = 0;
          removed++;
        }
        if (masks[i] === 1) kept++;
      }
      if (kept === 0) {
        const restored = spared === 0 ? 0 : fastest;
        masks[m * ACTION_COUNT + restored] = 1;
        if (restored !== 0 || spared !== 0) removed--;
      }
    });
    return removed;
  }

  /** The lane's learning statistics for its summary (the CLI's `learning` object). */
  report(): Readonly<Record<string, unknown>> {
    const sorted = [...this.slotViolations].sort((a, b) => a - b);
    const at = (q: number) => quantileSorted(sorted, q); // 0 when empty
    return {
      ...this.telemetry(),
      ...this.options.learner.stats(),
      // Fig. 14: the distribution of the per-slot SLO violation share (%), with its 101 percentiles.
      slotViolationPct: {
        p50: at(0.5),
        p90: at(0.9),
        p99: at(0.99),
        max: sorted.at(-1) ?? 0,
        quantiles: sorted.length === 0 ? [] : Array.from({ length: 101 }, (_, i) => at(i / 100)),
      },
      ...(this.options.predictor?.report === undefined ? {} : { predictor: this.options.predictor.report() }),
    };
  }

  /** π(·|s) of the last decision for every model (rows × ACTION_COUNT), for the policy heatmap. */
  policy(): Float32Array {
    const rows = this.actions.length;
    if (rows === 0) return new Float32Array(0);
    return this.options.learner.policy(this.states, this.maskBias, rows);
  }

  /** The last decision's masks (1 = allowed), rows × ACTION_COUNT. */
  lastMasks(): Uint8Array {
    return this.masks;
  }

  telemetry(): LearningTelemetry {
    return {
      kind: this.id,
      slots: this.slots,
      updates: this.updates,
      lastReward: this.lastReward,
      transitions: this.transitions,
      predictorMasked: this.predictorMasked,
    };
  }
}
