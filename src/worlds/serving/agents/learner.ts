import type { MlpWeights } from './nn';

/**
 * One interface for every learning scheduler's brain (SAC, TAC, PPO, DDQN): it sees rows
 * of states (one per model, features.ts) with their action masks, chooses actions, is
 * told what happened, and trains. The serving adapter (scheduler.ts) turns the engine's
 * observations into these calls.
 */
export type LearnerKind = 'bcedge' | 'tac' | 'ppo' | 'ddqn';

/** One transition (s, a, r, s') of one model, with the mask of s' (Algorithm 1 line 12). */
export interface Transition {
  /** Which row of the last `act` call chose `action` (= the model's index). */
  readonly row: number;
  readonly state: Float32Array;
  /** The mask the action was chosen under (1 = allowed in s). */
  readonly mask: Uint8Array;
  readonly action: number;
  readonly reward: number;
  readonly nextState: Float32Array;
  /** 1 = allowed in s'. */
  readonly nextMask: Uint8Array;
  /**
   * How long the action was in force, ms (from s to s'): a learner that discounts per second
   * of simulated time (SAC's `discountPerS`) reads it; absent, the step counts as one decision.
   */
  readonly durationMs?: number;
}

/** What a learner reports for the live views (read at most a few times per second). */
export interface LearnerStats {
  readonly updates: number;
  /** SAC's α; null for learners without a temperature. */
  readonly temperature: number | null;
  /** The policy's mean entropy over the last update's batch, nats (null when not computed). */
  readonly entropy: number | null;
  /** Named losses of the last update. */
  readonly losses: Readonly<Record<string, number>>;
  /** DDQN's ε; null otherwise. */
  readonly epsilon: number | null;
}

/** A saved agent: what `save` writes and `load` reads (files, IndexedDB, public/agents). */
export interface AgentFile {
  readonly format: 'interference-lab-agent';
  readonly version: 1;
  readonly kind: LearnerKind;
  readonly stateSize: number;
  readonly actionCount: number;
  /** The hyperparameters it was built with. */
  readonly hyper: Readonly<Record<string, number>>;
  readonly networks: Readonly<Record<string, MlpWeights>>;
  /** Learned scalars (SAC's log α, DDQN's ε, the update count). */
  readonly scalars: Readonly<Record<string, number>>;
  /** Where it was trained (free text for people: preset, seed, slots). */
  readonly trainedOn?: string;
}

/**
 * What an `act` call's rows are, when not every model decides at once (slot `eq1`: each model
 * at the end of its own slot, BCEdge Eq. 1; the serving adapter, learningScheduler.ts).
 */
export interface ActContext {
  /** The model (transition stream, `Transition.row`) of each row; absent: row r is model r. */
  readonly models?: Int32Array;
  /**
   * Whether this call is the first of a reporting interval (absent: true). Schedules counted
   * in slots of experience (DDQN's ε) advance on these only, so that they run at the same
   * pace in simulated time whatever the number of decisions.
   */
  readonly newInterval?: boolean;
}

export interface Learner {
  readonly kind: LearnerKind;
  /**
   * Chooses an action per row. `maskBias` holds 0 (allowed) or MASKED_LOGIT per row and
   * action. `explore`: sample from the policy (SAC, TAC, PPO) or ε-greedy (DDQN); otherwise
   * the most probable / greedy allowed action.
   */
  act(states: Float32Array, maskBias: Float32Array, rows: number, explore: boolean, context?: ActContext): Int32Array;
  /** π(·|s) per row (rows × actions), masked actions 0; DDQN reports its ε-greedy distribution. */
  policy(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array;
  /**
   * The critic's Q(s, ·) per row (rows × actions), masks not applied, for the learner's health
   * (health.ts: the spread of Q and the gap between the critic's best action and the chosen one);
   * absent for a learner without action values (PPO). It changes no state and draws no random number.
   */
  critic?(states: Float32Array, rows: number): Float32Array;
  record(transition: Transition): void;
  /** Runs the gradient updates due now; returns how many it ran. */
  train(): number;
  stats(): LearnerStats;
  save(trainedOn?: string): AgentFile;
  /** Loads weights and scalars; throws a RangeError naming the field that does not fit. */
  load(file: AgentFile): void;
  /**
   * Everything it has learned and will draw, copied for a checkpoint of the run (ARCHITECTURE
   * §7a): weights as one Float32Array per network, the optimizer's moments, the replay buffer,
   * the random stream, the counters. Absent: a lane with this learner goes back by replaying.
   */
  snapshot?(): LearnerSnapshot;
  /** Puts back a state taken by `snapshot` of a learner built the same way (tensors are assigned, none leaks). */
  restore?(state: LearnerSnapshot): void;
  /**
   * What a copy that only acts needs to act as this learner would now (`train --threads`,
   * cli/trainThreads.ts): its parameters, update count and transitions stored. Absent: the
   * learner cannot be mirrored.
   */
  actingState?(): ActingState;
  /** Acts from now on as the learner `state` was taken from (its own random stream kept); it stores and trains nothing itself. */
  mirror?(state: ActingState): void;
  dispose(): void;
}

/** See `Learner.actingState`. */
export interface ActingState {
  readonly params: Float32Array;
  readonly updates: number;
  readonly stored: number;
}

/** A learner's checkpoint: its own kind of state, opaque to the others. */
export type LearnerSnapshot = { readonly kind: LearnerKind } & Readonly<Record<string, unknown>>;
