import type { Scalar, Tensor, Tensor1D, Variable } from '@tensorflow/tfjs';
import type { Rng } from '../../../engine/rng';
import type { ActContext, AgentFile, Learner, LearnerSnapshot, LearnerStats, Transition } from './learner';
import { adamState, restoreAdamState, type AdamState } from './optimizerState';
import { Mlp } from './nn';
import { createReplayBatch, ReplayBuffer, type ReplayBatch, type ReplaySnapshot } from './replay';
import { argmaxRow } from './sampling';
import { createHostScratch, hostDecisionsOn, hostForward } from './hostPolicy';
import type { Tf } from '../../../lib/tf';
import { checkAgentFile, loadNetworks } from './agentFile';
import { DEFAULT_SAC_CONFIG } from './sac';
import { isEarlierTarget, RewardScale, targetRewardTerms, transitionDiscount } from './rewardTerms';

/**
 * The DDQN baseline of BCEdge §V-B2 [van Hasselt 2016, the paper's ref. 45]: off-policy
 * Q-learning on the same state, masked 64-way joint action and utility reward as the SAC
 * scheduler (sac.ts), with a replay buffer and a target network. Double DQN decouples the
 * choice of the next action (online network) from its evaluation (target network):
 *
 *   y = r + γ · Q̄(s', argmax_{a' allowed in s'} Q(s', a'))
 *
 * (continuing task: no terminal states). The argmax sees the mask of s': a masked action
 * is never the bootstrap action.
 *
 * Choices:
 * - loss: Huber (δ = `huberDelta`, 1) on Q(s, a) − y, as the Nature DQN (its clipped error
 *   term) and Double DQN papers; the utility reward has heavy tails (a burst of SLO
 *   violations), and an outlier then moves the network with a bounded gradient;
 * - target: hard copy every `targetUpdateEvery` updates (250, close to the 1/τ = 200-update
 *   time constant of SAC's soft update, and the serving registry's default), as in the
 *   Double DQN paper; it also costs one assignment per 250 updates instead of one per update;
 * - ε-greedy: ε falls linearly from `epsilonStart` to `epsilonEnd` over `epsilonDecaySteps`
 *   exploring `act` calls (one per scheduling slot, whatever the number of rows), so the
 *   schedule is in slots of experience like the rest of the lab and does not depend on
 *   the warm-up or on `updatesPerStep`; greedy calls (explore = false) do not advance it.
 *   Under Eq. 1's per-model slots (slot `eq1`) only the first call of each reporting
 *   interval counts (`ActContext.newInterval`), so ε falls at the same pace in simulated time.
 *   A random action is uniform over the actions allowed in s.
 *
 * Speed, as sac.ts: one `tidy` and one `variableGrads` pass per update, the target computed
 * outside the tape, no read-back in the update (the loss stays a kept tensor for `stats()`).
 */
export interface DdqnConfig {
  readonly hidden: readonly number[];
  readonly learningRate: number;
  readonly gamma: number;
  readonly batchSize: number;
  readonly bufferCapacity: number;
  /** Transitions collected before the first update. */
  readonly warmup: number;
  /** Gradient updates per `train` call (one call per scheduling slot). */
  readonly updatesPerStep: number;
  /** Hard target update period, in updates. */
  readonly targetUpdateEvery: number;
  readonly epsilonStart: number;
  readonly epsilonEnd: number;
  /** Exploring `act` calls over which ε falls from start to end. */
  readonly epsilonDecaySteps: number;
  readonly huberDelta: number;
  /**
   * The discount per second of simulated time (0: `gamma` per decision, the earlier reading);
   * above 0 the target is the semi-Markov one in reward units (rewardTerms.ts):
   * y = (1 − γ^Δt)·r + γ^Δt·Q̄(s′, a*). As SAC's (sac.ts `discountPerS`).
   */
  readonly discountPerS: number;
  /** Rewards standardized by their running mean and standard deviation before the target (rewardTerms.ts). */
  readonly normalizeReward: boolean;
  /** Minibatches drawn evenly across models (replay.ts `balanced`). */
  readonly balancedReplay: boolean;
}

export const DEFAULT_DDQN_CONFIG: DdqnConfig = {
  hidden: [128, 64],
  learningRate: 1e-3,
  // The baselines share the discount, so that they differ in the algorithm alone.
  gamma: DEFAULT_SAC_CONFIG.gamma,
  batchSize: 64,
  bufferCapacity: DEFAULT_SAC_CONFIG.bufferCapacity,
  warmup: DEFAULT_SAC_CONFIG.warmup,
  updatesPerStep: DEFAULT_SAC_CONFIG.updatesPerStep,
  targetUpdateEvery: 250,
  epsilonStart: 1,
  epsilonEnd: 0.05,
  // The serving registry's default (one exploring act per slot: 3000 slots).
  epsilonDecaySteps: 3000,
  huberDelta: 1,
  discountPerS: 0,
  normalizeReward: false,
  balancedReplay: false,
};

export class Ddqn implements Learner {
  readonly kind = 'ddqn' as const;
  readonly q: Mlp;
  readonly qTarget: Mlp;
  private readonly scratch = createHostScratch();
  readonly replay: ReplayBuffer;
  private readonly optimizer;
  private readonly batch: ReplayBatch;
  private readonly oneHot: Float32Array;
  private eps: number;
  private updates = 0;
  /** Running reward statistics (`normalizeReward`). */
  private readonly rewards = new RewardScale();
  /** The minibatch's reward terms of the target. */
  private readonly targetRewards: Float32Array;
  /** The Huber loss of the last update. */
  private lastLoss: Tensor | null = null;

  constructor(
    private readonly tf: Tf,
    readonly stateSize: number,
    readonly actionCount: number,
    readonly config: DdqnConfig,
    private readonly rng: Rng,
  ) {
    for (const key of ['batchSize', 'updatesPerStep', 'targetUpdateEvery'] as const) {
      if (!Number.isInteger(config[key]) || config[key] < 1) throw new RangeError(`DDQN ${key} must be a positive integer, got ${config[key]}`);
    }
    if (!(config.epsilonEnd >= 0 && config.epsilonEnd <= config.epsilonStart && config.epsilonStart <= 1)) {
      throw new RangeError(`DDQN needs 0 ≤ epsilonEnd ≤ epsilonStart ≤ 1, got ${config.epsilonEnd} and ${config.epsilonStart}`);
    }
    if (!(config.epsilonDecaySteps >= 0)) throw new RangeError(`DDQN epsilonDecaySteps must be ≥ 0, got ${config.epsilonDecaySteps}`);
    const sizes = [stateSize, ...config.hidden, actionCount];
    this.q = new Mlp(tf, sizes, rng);
    this.qTarget = new Mlp(tf, sizes, rng, false);
    this.qTarget.copyFrom(this.q);
    this.optimizer = tf.train.adam(config.learningRate);
    this.replay = new ReplayBuffer(config.bufferCapacity, stateSize, actionCount);
    this.batch = createReplayBatch(config.batchSize, stateSize, actionCount);
    this.oneHot = new Float32Array(config.batchSize * actionCount);
    this.targetRewards = new Float32Array(config.batchSize);
    this.eps = config.epsilonDecaySteps > 0 ? config.epsilonStart : config.epsilonEnd;
  }

  /** ε now. */
  get epsilon(): number {
    return this.eps;
  }

  /** Q(s, ·) per row (rows × actions), masks not applied. */
  qValues(states: Float32Array, rows: number): Float32Array {
    // On the host from the network's mirror, bit for bit as tfjs computes it (hostPolicy.ts).
    if (hostDecisionsOn()) return hostForward(this.q.hostParams(), 0, this.q.layers, states, rows, this.scratch);
    const tf = this.tf;
    return tf.tidy(() => this.q.apply(tf.tensor2d(states, [rows, this.stateSize])).dataSync() as Float32Array);
  }

  /** Q(s, ·) per row (Learner.critic). */
  critic(states: Float32Array, rows: number): Float32Array {
    return this.qValues(states, rows);
  }

  /** The ε-greedy distribution: 1 − ε on the greedy allowed action, ε spread evenly over the allowed ones. */
  policy(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    const A = this.actionCount;
    const q = this.qValues(states, rows);
    const out = new Float32Array(rows * A);
    for (let r = 0; r < rows; r++) {
      const allowed = allowedCount(maskBias, r, A);
      if (allowed === 0) continue;
      for (let a = 0; a < A; a++) if (maskBias[r * A + a] === 0) out[r * A + a] = this.eps / allowed;
      const best = argmaxRow(q, maskBias, r, A);
      out[r * A + best] = out[r * A + best]! + (1 - this.eps);
    }
    return out;
  }

  act(states: Float32Array, maskBias: Float32Array, rows: number, explore: boolean, context?: ActContext): Int32Array {
    const A = this.actionCount;
    const out = new Int32Array(rows);
    // Which rows explore, drawn first: while ε is near 1 most slots need no forward pass.
    const random = new Uint8Array(rows);
    let greedyRows = 0;
    if (explore) {
      for (let r = 0; r < rows; r++) {
        random[r] = this.rng.nextFloat() < this.eps ? 1 : 0;
        if (random[r] === 0) greedyRows++;
      }
    } else {
      greedyRows = rows;
    }
    const q = greedyRows > 0 ? this.qValues(states, rows) : null;
    for (let r = 0; r < rows; r++) {
      if (random[r] === 1) {
        // Uniform over the allowed actions: the k-th allowed one.
        let k = this.rng.nextInt(Math.max(1, allowedCount(maskBias, r, A)));
        let chosen = 0;
        for (let a = 0; a < A; a++) {
          if (maskBias[r * A + a] !== 0) continue;
          if (k-- === 0) {
            chosen = a;
            break;
          }
        }
        out[r] = chosen;
      } else {
        out[r] = argmaxRow(q!, maskBias, r, A);
      }
    }
    if (explore && context?.newInterval !== false) this.decayEpsilon();
    return out;
  }

  private decayEpsilon(): void {
    const c = this.config;
    if (c.epsilonDecaySteps <= 0) return;
    this.eps = Math.max(c.epsilonEnd, this.eps - (c.epsilonStart - c.epsilonEnd) / c.epsilonDecaySteps);
  }

  record(t: Transition): void {
    this.replay.add(t.state, t.mask, t.action, t.reward, t.nextState, t.nextMask, transitionDiscount(this.config, t.durationMs), t.row);
    this.rewards.add(t.reward);
  }

  train(): number {
    if (this.replay.size < Math.max(this.config.warmup, 1)) return 0;
    for (let k = 0; k < this.config.updatesPerStep; k++) this.update();
    return this.config.updatesPerStep;
  }

  /** One gradient step on a replayed minibatch, and the target copy when due. */
  update(): void {
    const tf = this.tf;
    const c = this.config;
    const n = c.batchSize;
    const S = this.stateSize;
    const A = this.actionCount;
    this.replay.sample(n, this.rng, this.batch, c.balancedReplay);
    const b = this.batch;
    this.oneHot.fill(0);
    for (let k = 0; k < n; k++) this.oneHot[k * A + b.actions[k]!] = 1;
    const previous = this.lastLoss;
    this.lastLoss = tf.tidy(() => {
      const s = tf.tensor2d(b.states, [n, S]);
      const s2 = tf.tensor2d(b.nextStates, [n, S]);
      const action = tf.tensor2d(this.oneHot, [n, A]);
      const earlier = isEarlierTarget(c);
      const reward = tf.tensor1d(earlier ? b.rewards : targetRewardTerms(c, this.rewards, b.rewards, b.discounts, n, this.targetRewards));

      // The Double DQN target, outside the tape: the online network picks a' among the
      // actions allowed in s', the target network values it.
      const nextBest = tf.argMax(tf.add(this.q.apply(s2), tf.tensor2d(b.nextMaskBias, [n, A])), 1) as Tensor1D;
      const qNext = tf.sum(tf.mul(this.qTarget.apply(s2), tf.oneHot(nextBest, A)), 1);
      const y = tf.add(reward, earlier ? tf.mul(qNext, c.gamma) : tf.mul(qNext, tf.tensor1d(b.discounts)));

      const { value, grads } = tf.variableGrads(() => {
        const error = tf.sub(tf.sum(tf.mul(this.q.apply(s), action), 1), y);
        // Huber: ½e² inside ±δ, δ·(|e| − ½δ) outside.
        const abs = tf.abs(error);
        const quadratic = tf.minimum(abs, c.huberDelta);
        const linear = tf.sub(abs, quadratic);
        return tf.mean(tf.add(tf.mul(tf.square(quadratic), 0.5), tf.mul(linear, c.huberDelta))) as Scalar;
      }, this.q.variables());
      this.optimizer.applyGradients(grads as unknown as Record<string, Variable>);
      // variableGrads hands back the loss; returned from the tidy, it is kept for `stats()`.
      return value;
    });
    previous?.dispose();
    this.updates++;
    if (this.updates % c.targetUpdateEvery === 0) this.qTarget.copyFrom(this.q);
  }

  stats(): LearnerStats {
    const l = this.lastLoss?.dataSync();
    return {
      updates: this.updates,
      temperature: null,
      entropy: null,
      losses: l === undefined ? {} : { q: l[0]! },
      epsilon: this.eps,
    };
  }

  save(trainedOn?: string): AgentFile {
    return {
      format: 'interference-lab-agent',
      version: 1,
      kind: this.kind,
      stateSize: this.stateSize,
      actionCount: this.actionCount,
      hyper: ddqnHyper(this.config),
      networks: { q: this.q.getWeights(), qTarget: this.qTarget.getWeights() },
      scalars: { epsilon: this.eps, updates: this.updates, ...this.rewards.scalars() },
      ...(trainedOn === undefined ? {} : { trainedOn }),
    };
  }

  load(file: AgentFile): void {
    checkAgentFile(file, this.kind, this.stateSize, this.actionCount);
    const epsilon = file.scalars['epsilon'];
    if (epsilon !== undefined && !(epsilon >= 0 && epsilon <= 1)) throw new RangeError(`agent.scalars.epsilon: expected a number in [0, 1], got ${JSON.stringify(epsilon)}`);
    const updates = file.scalars['updates'];
    if (updates !== undefined && !(Number.isFinite(updates) && updates >= 0)) throw new RangeError(`agent.scalars.updates: expected a number ≥ 0, got ${JSON.stringify(updates)}`);
    const applyRewardScale = this.rewards.checkScalars(file.scalars);
    loadNetworks(file, { q: this.q, qTarget: this.qTarget });
    applyRewardScale();
    // The schedule goes on from the saved ε (it falls by the same step per exploring act).
    if (epsilon !== undefined) this.eps = epsilon;
    this.updates = Math.floor(updates ?? 0);
  }

  /**
   * Its whole state for a checkpoint (see `Learner.snapshot`): both networks (one Float32Array
   * each), Adam's state, the replay buffer (chunks shared between checkpoints), ε, the update
   * count, the last loss and the random stream.
   */
  snapshot(): LearnerSnapshot {
    return {
      kind: this.kind,
      q: (this.q.params.dataSync() as Float32Array).slice(),
      qTarget: (this.qTarget.params.dataSync() as Float32Array).slice(),
      adam: adamState(this.optimizer),
      replay: this.replay.snapshot(),
      scalars: Float64Array.of(this.eps, this.updates),
      rewardStats: this.rewards.snapshot(),
      loss: this.lastLoss === null ? null : (this.lastLoss.dataSync() as Float32Array).slice(),
      lossShape: this.lastLoss?.shape ?? null,
      rng: this.rng.state(),
    };
  }

  restore(state: LearnerSnapshot): void {
    const s = state as unknown as { q: Float32Array; qTarget: Float32Array; adam: AdamState; replay: ReplaySnapshot; scalars: Float64Array; loss: Float32Array | null; lossShape: number[] | null; rng: Uint32Array; rewardStats?: Float64Array };
    this.q.setFlat(s.q);
    this.qTarget.setFlat(s.qTarget);
    restoreAdamState(this.tf, this.optimizer, s.adam);
    this.replay.restore(s.replay);
    [this.eps, this.updates] = Array.from(s.scalars) as [number, number];
    if (s.rewardStats !== undefined) this.rewards.restore(s.rewardStats);
    this.lastLoss?.dispose();
    this.lastLoss = s.loss === null ? null : this.tf.tensor(s.loss, s.lossShape ?? [s.loss.length]);
    this.rng.setState(s.rng);
  }

  dispose(): void {
    this.q.dispose();
    this.qTarget.dispose();
    this.optimizer.dispose();
    this.lastLoss?.dispose();
    this.lastLoss = null;
  }
}

function allowedCount(maskBias: ArrayLike<number>, row: number, n: number): number {
  let k = 0;
  for (let a = 0; a < n; a++) if (maskBias[row * n + a] === 0) k++;
  return k;
}

/** The numeric hyperparameters, for the saved file. */
export function ddqnHyper(c: DdqnConfig): Record<string, number> {
  return {
    learningRate: c.learningRate,
    gamma: c.gamma,
    batchSize: c.batchSize,
    bufferCapacity: c.bufferCapacity,
    warmup: c.warmup,
    updatesPerStep: c.updatesPerStep,
    targetUpdateEvery: c.targetUpdateEvery,
    epsilonStart: c.epsilonStart,
    epsilonEnd: c.epsilonEnd,
    epsilonDecaySteps: c.epsilonDecaySteps,
    huberDelta: c.huberDelta,
    discountPerS: c.discountPerS,
    normalizeReward: c.normalizeReward ? 1 : 0,
    balancedReplay: c.balancedReplay ? 1 : 0,
    ...Object.fromEntries(c.hidden.map((h, i) => [`hidden${i}`, h])),
  };
}
