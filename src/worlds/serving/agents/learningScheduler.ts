import { quantileSorted } from '../../../engine/quantiles';
import type { BatchObservation, ModelAction, ServingAction, ServingObservation, ServingScheduler } from '../engine/scheduler';
import { ACTION_COUNT, actionOf, encodeState, memoryMask, stateSize } from './features';
import type { ActingState, Learner, LearnerKind, LearnerSnapshot } from './learner';
import { MASKED_LOGIT } from './replay';
import { LearnerHealth, type HealthReport, type HealthSnapshot } from './health';

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
  /** Its whole state for a checkpoint of the run (absent: the lane goes back by replaying). */
  snapshot?(): unknown;
  restore?(state: unknown): void;
  /** Its network's parameters and update count, for a copy that only predicts (`train --threads`). */
  actingState?(): ActingState;
  /** Predicts from now on as the predictor `state` was taken from. */
  mirror?(state: ActingState): void;
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
  /** What the predictor judges (worlds/serving/engine/readings.ts; absent: `coLocated`). */
  readonly interference?: 'coLocated' | 'ownModel';
  /** Predictor updates after each decision. */
  readonly predictorSteps: number;
  /**
   * The training cadence, simulated ms (absent or 0: after every decision, Algorithm 1's one
   * gradient step per slot): `learn` trains at the first decision at or after each multiple
   * of it, at most once a decision. Under the fixed slot of `slotMs` ≥ this every decision
   * trains, as before it was named; under Eq. 1's per-model slots (tens to hundreds of ms a
   * model) it keeps the gradient updates per simulated second what they were (registry
   * `trainEveryMs`, default 1000 = the default slot) while transitions stay one per decision.
   */
  readonly trainEveryMs?: number;
  /**
   * The joint mask (registry `jointMask`): the models due at one decision choose one after
   * another, each masked (memory, and the predictor) against the others' current and
   * just-chosen configurations, so that six models cannot each pick a setting that fits alone
   * and overload the device together. Absent or false: each model against the others'
   * current configurations, all acting at once (the earlier reading).
   */
  readonly jointMask?: boolean;
  /**
   * Credit `governed`: a model keeps the action it chose for at least this long, simulated ms
   * (registry `holdMs`): at its decisions within the hold it answers the same action, and the
   * decisions of one hold are learned from as one transition, rewarded with the utility of the
   * requests they governed (the engine pools a reporting interval's worth, credit.ts). Under
   * Eq. 1 a model decides every few ms at b = 1; a decision of one batch carries too little of
   * the metric to learn from (ARCHITECTURE §3). Absent or 0: every decision is its own.
   */
  readonly holdMs?: number;
  /** The last slot's arrivals in the state per second of the slot, not per slot (registry `stateRates`; features.ts). Absent or false: per slot. */
  readonly stateRates?: boolean;
  /** The model's last slot length in the state (registry `stateSlot`; features.ts): STATE_SIZE + 1 numbers. Absent or false: the 21 of §IV-B1. */
  readonly stateSlot?: boolean;
}

/** A decision waiting for its reward (credit `governed`) or its next state. */
interface PendingTransition {
  readonly state: Float32Array;
  readonly mask: Uint8Array;
  readonly action: number;
  nextState: Float32Array | null;
  nextMask: Uint8Array | null;
  reward: number | null;
  durationMs: number;
  /** Its engine decisions not yet settled (more than one when the action is held, `holdMs`). */
  outstanding: number;
}

/** At most this many decisions of one model wait for their rewards (older ones are dropped). */
const MAX_PENDING = 4096;

/** A `LearningScheduler`'s checkpoint. */
export interface LearningSchedulerSnapshot {
  readonly states: Float32Array;
  readonly masks: Uint8Array;
  readonly maskBias: Float32Array;
  readonly actions: Int32Array;
  readonly decided: Uint8Array;
  readonly scalars: Float64Array;
  readonly slotViolations: Float64Array;
  readonly learner: LearnerSnapshot;
  readonly predictor: unknown;
  readonly pending: readonly (readonly (readonly [number, PendingTransition])[])[];
  readonly lastDecision: readonly number[];
  readonly heldBy: readonly (readonly (readonly [number, number])[])[];
  readonly holdUntilMs: readonly number[];
  readonly health: HealthSnapshot;
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
 * the gradient updates (lines 16–19), outside the timed decision, at the cadence
 * `trainEveryMs`.
 *
 * Under Eq. 1's per-model slots (slot `eq1`) a decision concerns the models that are due
 * (ModelObservation.due): only their states are read, their transitions (s at the model's
 * previous decision, its action, the utility of its own slot, s now) stored and their
 * actions chosen; the others keep theirs. Under the fixed slot every model is due at every
 * decision, as before.
 *
 * Memory mask: against the other models' current instances (all models change at once,
 * so a combination can still overflow; the engine then fails the batch, which the reward
 * punishes).
 */
export class LearningScheduler implements ServingScheduler {
  readonly id: LearnerKind;
  readonly observeBatch?: (batch: BatchObservation) => void;
  /** Numbers in a state (`stateSize`: STATE_SIZE, one more with `stateSlot`). */
  private readonly stateSize: number;
  /** Per model: the state, mask and action of its last decision (rows × stateSize, rows × ACTION_COUNT, rows). */
  private states = new Float32Array(0);
  private masks = new Uint8Array(0);
  private maskBias = new Float32Array(0);
  private actions: Int32Array = new Int32Array(0);
  /** Per model: whether it has decided before (a transition can be stored at its next decision). */
  private decided = new Uint8Array(0);
  private slots = 0;
  /** Simulated time of the last decision, and the first at which `learn` trains again, ms. */
  private nowMs = 0;
  private nextTrainMs = 0;
  /** The reporting interval of the last decision (`ServingObservation.slot`). */
  private interval = -1;
  /** Rewards of the transitions stored since `takeIntervalReward` last read them. */
  private intervalRewardSum = 0;
  private intervalRewardCount = 0;
  /** Under per-model slots: arrivals and violations of the due models' slots in the interval under way (Fig. 14). */
  private pendingArrivals = 0;
  private pendingViolations = 0;
  private updates = 0;
  private transitions = 0;
  private lastReward: number | null = null;
  private predictorMasked = 0;
  /** Per-slot SLO violation share, % (for Fig. 14). */
  private readonly slotViolations: number[] = [];
  /** Credit `governed`: per model, its decisions waiting for their rewards or next states, by decision index. */
  private pending: Map<number, PendingTransition>[] = [];
  /** Credit `governed`: per model, the index of its last decision. */
  private lastDecision: number[] = [];
  /** Per model: the engine decision → the transition (its first decision) it belongs to, and when the hold ends, ms. */
  private heldBy: Map<number, number>[] = [];
  private holdUntilMs: number[] = [];
  /** The learner's health (health.ts). */
  readonly health = new LearnerHealth();

  constructor(private readonly options: LearningSchedulerOptions) {
    this.id = options.id;
    this.stateSize = stateSize(options.stateSlot === true);
    const predictor = options.predictor;
    if (predictor !== null) this.observeBatch = (batch) => predictor.add(batch);
  }

  get learner(): Learner {
    return this.options.learner;
  }

  decide(observation: ServingObservation): ServingAction {
    const n = observation.models.length;
    if (this.decided.length !== n) {
      this.states = new Float32Array(n * this.stateSize);
      this.masks = new Uint8Array(n * ACTION_COUNT);
      this.maskBias = new Float32Array(n * ACTION_COUNT);
      this.actions = new Int32Array(n);
      this.decided = new Uint8Array(n);
    }
    // The models this decision is for (all of them under the fixed slot).
    let due: number[] = [];
    observation.models.forEach((o, m) => {
      if (o.due !== false) due.push(m);
    });
    const engineDue = due;
    const governed = due.some((m) => observation.models[m]!.decision !== undefined);
    if (governed && this.pending.length !== n) {
      this.pending = Array.from({ length: n }, () => new Map());
      this.lastDecision = new Array<number>(n).fill(-1);
      this.heldBy = Array.from({ length: n }, () => new Map());
      this.holdUntilMs = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
    }
    // A model within its hold (`holdMs`) answers its action again: its decision joins the transition under way.
    if (governed && (this.options.holdMs ?? 0) > 0) {
      due = due.filter((m) => {
        const waiting = this.pending[m]!;
        const entry = waiting.get(this.lastDecision[m]!);
        if (this.decided[m] !== 1 || observation.nowMs >= this.holdUntilMs[m]! || (this.options.train && entry === undefined)) return true;
        if (entry !== undefined) {
          entry.outstanding++;
          this.heldBy[m]!.set(observation.models[m]!.decision!, this.lastDecision[m]!);
        }
        return false;
      });
    }
    const rows = due.length;
    // Under the fixed slot no model says whether it is due: every decision is every model's, as before.
    const allDue = !observation.models.some((o) => o.due !== undefined);
    const joint = this.options.jointMask === true;
    const states = new Float32Array(rows * this.stateSize);
    const masks = new Uint8Array(rows * ACTION_COUNT);
    due.forEach((m, j) => {
      encodeState(observation, m, states, j * this.stateSize, { rates: this.options.stateRates === true, slotLength: this.options.stateSlot === true });
      // The joint mask is made as each model chooses (below).
      if (!joint) memoryMask(observation, m, [], masks, j * ACTION_COUNT);
    });
    // (A decision where every due model holds its action masks nothing new: the count stays the last acting decision's.)
    if (!joint && rows > 0) this.predictorMasked = this.applyPredictor(observation, masks, due);
    const newInterval = observation.slot !== this.interval;
    this.interval = observation.slot;
    this.nowMs = observation.nowMs;

    // Fig. 14: the SLO violation share per slot; under per-model slots, per reporting interval
    // (the due models' slots that ended in it).
    let arrivals = 0;
    let violations = 0;
    for (const m of engineDue) {
      const last = observation.models[m]!.lastSlot;
      arrivals += last?.arrivals ?? 0;
      violations += last?.violations ?? 0;
    }
    if (allDue) {
      this.pushSlotViolations(arrivals, violations);
    } else {
      if (newInterval) {
        this.pushSlotViolations(this.pendingArrivals, this.pendingViolations);
        this.pendingArrivals = 0;
        this.pendingViolations = 0;
      }
      this.pendingArrivals += arrivals;
      this.pendingViolations += violations;
    }

    if (this.options.train && governed) {
      this.recordSettled(observation, engineDue, due, states, masks);
    } else if (this.options.train) {
      let sum = 0;
      let count = 0;
      due.forEach((m, j) => {
        if (this.decided[m] !== 1) return;
        const reward = observation.models[m]!.lastSlot?.utility ?? null;
        if (reward === null) return;
        this.options.learner.record({
          row: m,
          state: this.states.subarray(m * this.stateSize, (m + 1) * this.stateSize),
          mask: this.masks.subarray(m * ACTION_COUNT, (m + 1) * ACTION_COUNT),
          action: this.actions[m]!,
          reward,
          nextState: states.subarray(j * this.stateSize, (j + 1) * this.stateSize),
          nextMask: masks.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT),
        });
        sum += reward;
        count++;
        this.health.reward(reward);
      });
      this.transitions += count;
      this.intervalRewardSum += sum;
      this.intervalRewardCount += count;
      // Under the fixed slot, as before: the last decision's mean (a decision without one keeps none).
      if (allDue || count > 0) this.lastReward = count > 0 ? sum / count : null;
    }

    const maskBias = new Float32Array(rows * ACTION_COUNT);
    let acted: Int32Array;
    if (joint) {
      acted = this.actJointly(observation, due, states, masks, maskBias, newInterval);
    } else {
      for (let i = 0; i < maskBias.length; i++) maskBias[i] = masks[i] === 1 ? 0 : MASKED_LOGIT;
      acted = allDue
        ? this.options.learner.act(states, maskBias, rows, this.options.explore)
        : this.options.learner.act(states, maskBias, rows, this.options.explore, { models: Int32Array.from(due), newInterval });
    }
    due.forEach((m, j) => {
      this.states.set(states.subarray(j * this.stateSize, (j + 1) * this.stateSize), m * this.stateSize);
      this.masks.set(masks.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT), m * ACTION_COUNT);
      this.maskBias.set(maskBias.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT), m * ACTION_COUNT);
      this.actions[m] = acted[j]!;
      this.decided[m] = 1;
      this.health.decision(m, acted[j]!, ACTION_COUNT);
      if (governed) {
        const decision = observation.models[m]!.decision!;
        this.holdUntilMs[m] = observation.nowMs + (this.options.holdMs ?? 0);
        this.lastDecision[m] = decision;
        if (this.options.train) {
          const waiting = this.pending[m]!;
          if (waiting.size >= MAX_PENDING) waiting.delete(waiting.keys().next().value!);
          waiting.set(decision, {
            state: states.slice(j * this.stateSize, (j + 1) * this.stateSize),
            mask: masks.slice(j * ACTION_COUNT, (j + 1) * ACTION_COUNT),
            action: acted[j]!,
            nextState: null,
            nextMask: null,
            reward: null,
            durationMs: 0,
            outstanding: 1,
          });
          this.heldBy[m]!.set(decision, decision);
        }
      }
    });
    // The critic's view of the decisions (health.ts), once per reporting interval: a forward of
    // the critic on the host, apart from the decision path (it changes no state, draws nothing).
    if (newInterval && this.options.learner.critic !== undefined) {
      const q = this.options.learner.critic(states, rows);
      due.forEach((m, j) => this.health.critique(q.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT), masks.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT), acted[j]!));
    }
    this.health.backlog(observation);
    this.slots++;
    return Array.from(this.actions, (a) => actionOf(a));
  }

  /**
   * Credit `governed`: each due model's last decision gets its next state (s′ is now), the
   * decisions that settled since get their rewards (a decision that governed no request is
   * dropped: nothing to learn from), and every decision with both is stored, with its length
   * (the learner's per-second discount reads it).
   */
  private recordSettled(observation: ServingObservation, engineDue: readonly number[], fresh: readonly number[], states: Float32Array, masks: Uint8Array): void {
    let sum = 0;
    let count = 0;
    // s′ of a model's transition under way is the state at its next fresh decision (a held one continues it).
    fresh.forEach((m, j) => {
      const last = this.pending[m]!.get(this.lastDecision[m]!);
      if (last !== undefined && last.nextState === null) {
        last.nextState = states.slice(j * this.stateSize, (j + 1) * this.stateSize);
        last.nextMask = masks.slice(j * ACTION_COUNT, (j + 1) * ACTION_COUNT);
      }
    });
    for (const m of engineDue) {
      const waiting = this.pending[m]!;
      const heldBy = this.heldBy[m]!;
      for (const settled of observation.models[m]!.settled ?? []) {
        const key = heldBy.get(settled.decision);
        heldBy.delete(settled.decision);
        const entry = key === undefined ? undefined : waiting.get(key);
        if (entry === undefined) continue;
        entry.outstanding--;
        entry.durationMs += settled.durationMs;
        // The last of its decisions to settle pools the requests of the whole hold (credit.ts).
        if (settled.utility !== null) entry.reward = settled.utility;
      }
      for (const [decision, entry] of waiting) {
        if (entry.outstanding > 0 || entry.nextState === null) continue;
        waiting.delete(decision);
        // A transition whose decisions governed no request: nothing to learn from.
        if (entry.reward === null) continue;
        this.options.learner.record({
          row: m,
          state: entry.state,
          mask: entry.mask,
          action: entry.action,
          reward: entry.reward,
          nextState: entry.nextState,
          nextMask: entry.nextMask!,
          durationMs: entry.durationMs,
        });
        this.health.reward(entry.reward);
        sum += entry.reward;
        count++;
      }
    }
    this.transitions += count;
    this.intervalRewardSum += sum;
    this.intervalRewardCount += count;
    if (count > 0) this.lastReward = sum / count;
  }

  /**
   * The joint mask: the due models choose one after another, each masked against the others'
   * current configurations with those chosen so far in this decision put in (memory, and the
   * predictor's view of the co-located models); fills `masks` and `maskBias` as it goes.
   */
  private actJointly(observation: ServingObservation, due: readonly number[], states: Float32Array, masks: Uint8Array, maskBias: Float32Array, newInterval: boolean): Int32Array {
    const decided: ModelAction[] = [];
    const chosen = new Int32Array(due.length);
    let view = observation;
    if (due.length > 0) this.predictorMasked = 0;
    due.forEach((m, j) => {
      memoryMask(observation, m, decided, masks, j * ACTION_COUNT);
      const row = masks.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT);
      this.predictorMasked += this.applyPredictor(view, row, [m]);
      const bias = maskBias.subarray(j * ACTION_COUNT, (j + 1) * ACTION_COUNT);
      for (let a = 0; a < ACTION_COUNT; a++) bias[a] = row[a] === 1 ? 0 : MASKED_LOGIT;
      const [a] = this.options.learner.act(states.subarray(j * this.stateSize, (j + 1) * this.stateSize), bias, 1, this.options.explore, { models: Int32Array.of(m), newInterval: newInterval && j === 0 });
      chosen[j] = a!;
      const action = actionOf(a!);
      decided[m] = action;
      view = { ...view, models: view.models.map((o, k) => (k === m ? { ...o, batchSize: action.batchSize, instances: action.instances } : o)) };
    });
    return chosen;
  }

  private pushSlotViolations(arrivals: number, violations: number): void {
    if (arrivals > 0 && this.slotViolations.length < MAX_SLOT_RECORDS) this.slotViolations.push((100 * Math.min(violations, arrivals)) / arrivals);
  }

  /**
   * A new episode on a fresh run (the command line's `train --epochs`, BCEdge §V-A's offline
   * epochs): the learner, its replay buffer and the predictor go on; what tied decisions to
   * the last run does not — no transition spans two runs, and the training cadence and the
   * reporting interval start again from the new run's time 0.
   */
  startEpisode(): void {
    this.decided.fill(0);
    // No transition spans two runs: decisions still waiting for rewards are dropped.
    for (const waiting of this.pending) waiting.clear();
    for (const held of this.heldBy) held.clear();
    this.lastDecision.fill(-1);
    this.holdUntilMs.fill(Number.NEGATIVE_INFINITY);
    this.nowMs = 0;
    this.nextTrainMs = 0;
    this.interval = -1;
    this.pendingArrivals = 0;
    this.pendingViolations = 0;
  }

  /**
   * The mean reward of the transitions stored since the last call (null when none), for the
   * learning curves, read once per reporting interval (the worker, the command line's `train`).
   */
  takeIntervalReward(): number | null {
    const mean = this.intervalRewardCount > 0 ? this.intervalRewardSum / this.intervalRewardCount : null;
    this.intervalRewardSum = 0;
    this.intervalRewardCount = 0;
    return mean;
  }

  /**
   * Its state for a checkpoint (ARCHITECTURE §7a): the last decision per model, the counters,
   * the Fig. 14 record, and its learner's and predictor's whole state; undefined when the
   * learner or the predictor cannot be copied (the lane then goes back by replaying).
   */
  snapshot(): LearningSchedulerSnapshot | undefined {
    const learner = this.options.learner;
    const predictor = this.options.predictor;
    if (learner.snapshot === undefined || (predictor !== null && predictor.snapshot === undefined)) return undefined;
    return {
      states: this.states.slice(),
      masks: this.masks.slice(),
      maskBias: this.maskBias.slice(),
      actions: this.actions.slice(),
      decided: this.decided.slice(),
      scalars: Float64Array.of(
        this.slots,
        this.nowMs,
        this.nextTrainMs,
        this.interval,
        this.intervalRewardSum,
        this.intervalRewardCount,
        this.pendingArrivals,
        this.pendingViolations,
        this.updates,
        this.transitions,
        this.lastReward ?? Number.NaN,
        this.lastReward === null ? 1 : 0,
        this.predictorMasked,
      ),
      slotViolations: Float64Array.from(this.slotViolations),
      learner: learner.snapshot(),
      predictor: predictor?.snapshot?.() ?? null,
      pending: this.pending.map((waiting) => Array.from(waiting.entries(), ([d, e]) => [d, { ...e }] as const)),
      lastDecision: this.lastDecision.slice(),
      heldBy: this.heldBy.map((held) => Array.from(held.entries())),
      holdUntilMs: this.holdUntilMs.slice(),
      health: this.health.snapshot(),
    };
  }

  restore(state: unknown): void {
    const s = state as LearningSchedulerSnapshot;
    this.states = s.states.slice();
    this.masks = s.masks.slice();
    this.maskBias = s.maskBias.slice();
    this.actions = s.actions.slice();
    this.decided = s.decided.slice();
    const [slots, nowMs, nextTrainMs, interval, rewardSum, rewardCount, arrivals, violations, updates, transitions, lastReward, noReward, masked] = Array.from(s.scalars) as number[];
    this.slots = slots!;
    this.nowMs = nowMs!;
    this.nextTrainMs = nextTrainMs!;
    this.interval = interval!;
    this.intervalRewardSum = rewardSum!;
    this.intervalRewardCount = rewardCount!;
    this.pendingArrivals = arrivals!;
    this.pendingViolations = violations!;
    this.updates = updates!;
    this.transitions = transitions!;
    this.lastReward = noReward === 1 ? null : lastReward!;
    this.predictorMasked = masked!;
    this.slotViolations.length = 0;
    for (const v of s.slotViolations) this.slotViolations.push(v);
    this.pending = s.pending.map((list) => new Map(list.map(([d, e]) => [d, { ...e }])));
    this.lastDecision = s.lastDecision.slice();
    this.heldBy = s.heldBy.map((list) => new Map(list));
    this.holdUntilMs = s.holdUntilMs.slice();
    this.health.restore(s.health);
    this.options.learner.restore!(s.learner);
    if (s.predictor !== null) this.options.predictor?.restore?.(s.predictor);
  }

  dispose(): void {
    this.options.learner.dispose();
    this.options.predictor?.dispose?.();
  }

  learn(): void {
    if (!this.options.train) return;
    const every = this.options.trainEveryMs ?? 0;
    if (every > 0) {
      if (this.nowMs < this.nextTrainMs) return;
      this.nextTrainMs = (Math.floor(this.nowMs / every) + 1) * every;
    }
    this.updates += this.options.learner.train();
    this.options.predictor?.train(this.options.predictorSteps);
  }

  /** Masks the actions the predictor expects to break the SLO for the `due` models (row j of `masks` is model due[j]); returns how many it removed. */
  private applyPredictor(observation: ServingObservation, masks: Uint8Array, due: readonly number[]): number {
    const predictor = this.options.predictor;
    if (predictor === null || !predictor.ready || this.options.predictorMask === false) return 0;
    const candidates = Array.from({ length: ACTION_COUNT }, (_, a) => actionOf(a));
    let removed = 0;
    due.forEach((model, m) => {
      const o = observation.models[model]!;
      const predicted = predictor.predictActions(observation, model, candidates);
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
      health: this.health.report(this.options.explore),
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

  /** The learner's health now (worlds/serving/agents/health.ts). */
  healthReport(): HealthReport {
    return this.health.report(this.options.explore);
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
