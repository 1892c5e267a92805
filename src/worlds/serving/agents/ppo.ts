import type { Scalar, Tensor, Tensor2D, Variable } from '@tensorflow/tfjs';
import type { Rng } from '../../../engine/rng';
import type { ActContext, AgentFile, Learner, LearnerSnapshot, LearnerStats, Transition } from './learner';
import { adamState, restoreAdamState, type AdamState } from './optimizerState';
import { Mlp } from './nn';
import { MASKED_LOGIT } from './replay';
import { argmaxRow, sampleRow } from './sampling';
import { createHostScratch, hostActions, hostDecisionsOn, hostForward, hostSoftmaxTf, maskedLogits } from './hostPolicy';
import type { Tf } from '../../../lib/tf';
import { checkAgentFile, loadNetworks } from './agentFile';
import { DEFAULT_SAC_CONFIG } from './sac';
import { isEarlierTarget, RewardScale, targetRewardTerms, transitionDiscount } from './rewardTerms';

/**
 * The PPO baseline of BCEdge §V-B2 [Schulman 2017, the paper's ref. 44]: on-policy actor-critic
 * with the clipped surrogate objective, on the same state, masked 64-way joint action and
 * utility reward as the SAC scheduler (sac.ts). Separate policy and value networks (no
 * shared trunk, as the paper's SAC keeps its actor and critics apart), both [S, 128, 64, ·].
 *
 * Data: a rollout of `rolloutSize` transitions, collected by the current policy; then
 * `epochs` passes over it in shuffled minibatches of `minibatchSize`; then it is thrown
 * away (on-policy). Transitions arrive interleaved from several independent streams, one
 * per model (`Transition.row`); GAE(γ, λ) runs backwards along each stream's own sequence.
 * The task is continuing (no terminal states): a stream's last transition in the rollout
 * is bootstrapped with V(s'), and so is a transition whose s' is not the state of the
 * stream's next transition (a skipped slot: the λ-trace is cut there).
 *
 * Losses per minibatch (advantages Â normalized over the minibatch, as CleanRL and the
 * baselines do; returns R = Â_raw + V_old(s)):
 * - policy: −E[min(ρ·Â, clip(ρ, 1 − ε, 1 + ε)·Â)], ρ = π(a|s) / π_old(a|s), the mask of s applied;
 * - value: E[(V(s) − R)²] (MSE, weight `valueCoef`). No value clipping: Andrychowicz et
 *   al. 2021 ("What matters in on-policy RL") found it does not help and can hurt;
 * - entropy bonus: −`entropyCoef`·E[H(π(·|s))].
 * Gradients are clipped to `maxGradNorm` per network (global norm, as PPO implementations
 * do); per network rather than jointly, because with separate networks a large value
 * gradient must not shrink the policy's step.
 *
 * Speed, as sac.ts: one `tidy` and one `variableGrads` pass per minibatch, no read-back
 * inside it (the losses stay one kept tensor, read in `stats()`). Per rollout there is one
 * read-back outside the updates: V(s') for the GAE.
 */
export interface PpoConfig {
  readonly hidden: readonly number[];
  readonly learningRate: number;
  readonly gamma: number;
  /** λ of GAE. */
  readonly gaeLambda: number;
  /** ε of the clipped surrogate. */
  readonly clip: number;
  readonly valueCoef: number;
  readonly entropyCoef: number;
  /** Transitions per rollout (all streams together). */
  readonly rolloutSize: number;
  /** Passes over each rollout. */
  readonly epochs: number;
  readonly minibatchSize: number;
  /** Largest global gradient norm per network; 0 = no clipping. */
  readonly maxGradNorm: number;
  /**
   * The discount per second of simulated time (0: `gamma` per decision, the earlier reading);
   * above 0, GAE runs on the semi-Markov terms in reward units (rewardTerms.ts):
   * δ = (1 − γ^Δt)·r + γ^Δt·V(s′) − V(s), and the λ-trace decays by γ^Δt·λ. As SAC's.
   */
  readonly discountPerS: number;
  /** Rewards standardized by their running mean and standard deviation before GAE (rewardTerms.ts). */
  readonly normalizeReward: boolean;
}

export const DEFAULT_PPO_CONFIG: PpoConfig = {
  hidden: [128, 64],
  learningRate: 1e-3,
  // The baselines share the discount, so that they differ in the algorithm alone.
  gamma: DEFAULT_SAC_CONFIG.gamma,
  gaeLambda: 0.95,
  clip: 0.2,
  valueCoef: 0.5,
  // 0.01: the discrete-action setting of the PPO paper (Atari) and of CleanRL. With
  // advantages normalized to unit scale it is a small regularizer that keeps the policy
  // from collapsing onto one of 64 actions after a few noisy rollouts, not a maximum-
  // entropy objective (no entropy in the return or in V), so this stays the standard PPO
  // the paper contrasts with its entropy-regularized SAC. Set 0 for "pure" PPO.
  entropyCoef: 0.01,
  rolloutSize: 256,
  epochs: 4,
  minibatchSize: 64,
  maxGradNorm: 0.5,
  discountPerS: 0,
  normalizeReward: false,
};

/** One recorded transition with what the behaviour policy said about it. */
interface RolloutItem {
  readonly row: number;
  readonly state: Float32Array;
  readonly maskBias: Float32Array;
  readonly action: number;
  readonly reward: number;
  readonly nextState: Float32Array;
  /** The discount of s′ (rewardTerms.ts `transitionDiscount`). */
  readonly discount: number;
  /** log π_old(a|s) and V_old(s) from `act`; NaN when `act` did not choose this action (computed in `train`). */
  logp: number;
  value: number;
  /**
   * When `act` decided on the host: its masked logits of s (actions). log π_old(a|s) is their
   * logSoftmax, taken in `train` for the whole rollout in one tfjs call — the numbers `act`'s
   * own per-row call gave before (a row's logSoftmax does not depend on the rows beside it).
   */
  logits?: Float32Array;
}

/** Minibatch buffers, reused between updates. */
interface PpoBatch {
  readonly states: Float32Array;
  readonly maskBias: Float32Array;
  readonly oneHot: Float32Array;
  readonly oldLogp: Float32Array;
  readonly advantages: Float32Array;
  readonly returns: Float32Array;
}

export class Ppo implements Learner {
  readonly kind = 'ppo' as const;
  readonly policyNet: Mlp;
  readonly valueNet: Mlp;
  private readonly scratch = createHostScratch();
  private readonly valueScratch = createHostScratch();
  private readonly optimizer;
  private rollout: RolloutItem[] = [];
  /**
   * Per stream, from its last `act`: log π(·|s) (through tfjs) or the masked logits (on the
   * host, `pendingLogits`), rows × actions, and V(s); `pendingValid` 1 until `record` uses it.
   */
  private pendingLogp = new Float32Array(0);
  private pendingLogits = false;
  private pendingValue = new Float32Array(0);
  private pendingValid = new Uint8Array(0);
  private batch: PpoBatch | null = null;
  private updates = 0;
  /** Running reward statistics (`normalizeReward`). */
  private readonly rewards = new RewardScale();
  /** [policy loss, value loss, mean entropy] of the last minibatch. */
  private lastLosses: Tensor | null = null;

  constructor(
    private readonly tf: Tf,
    readonly stateSize: number,
    readonly actionCount: number,
    readonly config: PpoConfig,
    private readonly rng: Rng,
  ) {
    for (const key of ['rolloutSize', 'epochs', 'minibatchSize'] as const) {
      if (!Number.isInteger(config[key]) || config[key] < 1) throw new RangeError(`PPO ${key} must be a positive integer, got ${config[key]}`);
    }
    if (!(config.clip > 0)) throw new RangeError(`PPO clip must be positive, got ${config.clip}`);
    this.policyNet = new Mlp(tf, [stateSize, ...config.hidden, actionCount], rng);
    this.valueNet = new Mlp(tf, [stateSize, ...config.hidden, 1], rng);
    this.optimizer = tf.train.adam(config.learningRate);
  }

  /** Transitions waiting for the next PPO update. */
  get rolloutLength(): number {
    return this.rollout.length;
  }

  /** The policy's masked logits (rows × actions), on the host from the network's mirror (bit for bit as tfjs: hostPolicy.ts). */
  private hostLogits(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    return maskedLogits(hostForward(this.policyNet.hostParams(), 0, this.policyNet.layers, states, rows, this.scratch), maskBias, rows, this.actionCount);
  }

  policy(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    // The logits on the host, tfjs's softmax of them: the same numbers, one kernel instead of the network (hostPolicy.ts).
    if (hostDecisionsOn()) return hostSoftmaxTf(this.tf, this.hostLogits(states, maskBias, rows), rows, this.actionCount);
    const tf = this.tf;
    return tf.tidy(() => {
      const logits = tf.add(this.policyNet.apply(tf.tensor2d(states, [rows, this.stateSize])), tf.tensor2d(maskBias, [rows, this.actionCount]));
      return tf.softmax(logits).dataSync() as Float32Array;
    });
  }

  act(states: Float32Array, maskBias: Float32Array, rows: number, explore: boolean, context?: ActContext): Int32Array {
    const tf = this.tf;
    const A = this.actionCount;
    const host = hostDecisionsOn();
    // On the host: the masked logits and V(s), no tfjs call (log π_old is taken in `train`);
    // through tfjs: log π(·|s) and V(s) in one read-back. Either way rows × (A + 1).
    const out = host
      ? this.hostActOutputs(states, maskBias, rows)
      : tf.tidy(() => {
          const s = tf.tensor2d(states, [rows, this.stateSize]);
          const logp = tf.logSoftmax(tf.add(this.policyNet.apply(s), tf.tensor2d(maskBias, [rows, A])) as Tensor2D);
          return tf.concat([logp, this.valueNet.apply(s)], 1).dataSync() as Float32Array;
        });
    // What each row's stream (model) chose with is kept until its transition arrives: rows are
    // the models, or under per-model slots (`context.models`) the models due now, the others'
    // kept from their own last call.
    const models = context?.models;
    let streams = rows;
    if (models !== undefined) for (const m of models) streams = Math.max(streams, m + 1);
    if (this.pendingValid.length < streams) {
      const logp = new Float32Array(streams * A);
      const value = new Float32Array(streams);
      const valid = new Uint8Array(streams);
      if (models !== undefined) {
        logp.set(this.pendingLogp);
        value.set(this.pendingValue);
        valid.set(this.pendingValid);
      }
      this.pendingLogp = logp;
      this.pendingValue = value;
      this.pendingValid = valid;
    }
    this.pendingLogits = host;
    for (let r = 0; r < rows; r++) {
      const stream = models === undefined ? r : models[r]!;
      this.pendingLogp.set(out.subarray(r * (A + 1), r * (A + 1) + A), stream * A);
      this.pendingValue[stream] = out[r * (A + 1) + A]!;
      this.pendingValid[stream] = 1;
    }
    if (models === undefined) this.pendingValid.fill(0, rows);
    if (host) {
      // The action tfjs's log π would give (hostPolicy.ts `hostActions`): decided from the
      // logits where they leave no doubt, else from exp(log π) of that row through tfjs, as below.
      const z = new Float32Array(rows * A);
      for (let r = 0; r < rows; r++) z.set(out.subarray(r * (A + 1), r * (A + 1) + A), r * A);
      return hostActions(z, maskBias, rows, A, explore, this.rng, (r) => {
        const logp = tf.tidy(() => tf.logSoftmax(tf.tensor2d(z.subarray(r * A, (r + 1) * A), [1, A])).dataSync() as Float32Array);
        return Float32Array.from(logp, (l) => Math.exp(l));
      });
    }
    const probs = new Float32Array(rows * A);
    for (let r = 0; r < rows; r++) for (let a = 0; a < A; a++) probs[r * A + a] = Math.exp(out[r * (A + 1) + a]!);
    const actions = new Int32Array(rows);
    for (let r = 0; r < rows; r++) actions[r] = explore ? sampleRow(probs, r, A, this.rng) : argmaxRow(probs, maskBias, r, A);
    return actions;
  }

  /**
   * `act`'s masked logits and V(s) (rows × (A + 1)), both networks on the host, bit for bit as
   * tfjs computes them (hostPolicy.ts). log π is not taken here: tfjs's expf and logf are not
   * reproduced on the host, and PPO trains on log π_old, so `train` takes it through tfjs for
   * the whole rollout at once (`RolloutItem.logits`).
   */
  private hostActOutputs(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    const A = this.actionCount;
    const z = this.hostLogits(states, maskBias, rows);
    const value = hostForward(this.valueNet.hostParams(), 0, this.valueNet.layers, states, rows, this.valueScratch);
    const out = new Float32Array(rows * (A + 1));
    for (let r = 0; r < rows; r++) {
      out.set(z.subarray(r * A, (r + 1) * A), r * (A + 1));
      out[r * (A + 1) + A] = value[r]!;
    }
    return out;
  }

  record(t: Transition): void {
    const A = this.actionCount;
    const maskBias = new Float32Array(A);
    for (let a = 0; a < A; a++) maskBias[a] = t.mask[a] === 1 ? 0 : MASKED_LOGIT;
    let logp = Number.NaN;
    let value = Number.NaN;
    let logits: Float32Array | undefined;
    if (t.row >= 0 && t.row < this.pendingValid.length && this.pendingValid[t.row] === 1) {
      const l = this.pendingLogp[t.row * A + t.action]!;
      // An action the policy could not have chosen (masked at `act`) gets its log-prob from the
      // recorded mask in `train`. Masked, a logit and its log π are both ≈ MASKED_LOGIT.
      if (l > MASKED_LOGIT / 2) {
        if (this.pendingLogits) logits = this.pendingLogp.slice(t.row * A, (t.row + 1) * A);
        else logp = l;
        value = this.pendingValue[t.row]!;
      }
      this.pendingValid[t.row] = 0;
    }
    this.rollout.push({
      row: t.row,
      state: Float32Array.from(t.state),
      maskBias,
      action: t.action,
      reward: t.reward,
      nextState: Float32Array.from(t.nextState),
      discount: transitionDiscount(this.config, t.durationMs),
      logp,
      value,
      ...(logits === undefined ? {} : { logits }),
    });
    this.rewards.add(t.reward);
  }

  /**
   * Runs the PPO epochs once the rollout holds `rolloutSize` transitions (all of them:
   * a rollout may run over by a few records when the last slot's rows cross the size),
   * then clears it. Returns the number of gradient steps.
   */
  train(): number {
    const c = this.config;
    if (this.rollout.length < c.rolloutSize) return 0;
    const items = this.rollout;
    this.rollout = [];
    const N = items.length;
    const { advantages, returns } = this.estimateAdvantages(items);
    const m = Math.min(c.minibatchSize, N);
    const perEpoch = Math.floor(N / m);
    const order = Int32Array.from({ length: N }, (_, i) => i);
    let steps = 0;
    for (let e = 0; e < c.epochs; e++) {
      // Fisher–Yates on the learner's stream; a remainder of N mod m is left out of this epoch.
      for (let i = N - 1; i > 0; i--) {
        const j = this.rng.nextInt(i + 1);
        const tmp = order[i]!;
        order[i] = order[j]!;
        order[j] = tmp;
      }
      for (let k = 0; k < perEpoch; k++) {
        this.update(items, order.subarray(k * m, (k + 1) * m), advantages, returns);
        steps++;
      }
    }
    return steps;
  }

  /**
   * GAE(γ, λ) per stream, backwards; fills in log π_old and V_old where `act` did not.
   * V(s') of every transition comes from one batched pass (the rollout's one read-back).
   */
  private estimateAdvantages(items: readonly RolloutItem[]): { advantages: Float64Array; returns: Float64Array } {
    const tf = this.tf;
    const c = this.config;
    const N = items.length;
    const S = this.stateSize;
    const A = this.actionCount;
    // log π_old of the actions `act` chose on the host: one logSoftmax over their logits.
    const decided = items.filter((it) => it.logits !== undefined);
    if (decided.length > 0) {
      const z = new Float32Array(decided.length * A);
      decided.forEach((it, i) => z.set(it.logits!, i * A));
      const logp = tf.tidy(() => tf.logSoftmax(tf.tensor2d(z, [decided.length, A])).dataSync() as Float32Array);
      decided.forEach((it, i) => {
        it.logp = logp[i * A + it.action]!;
        delete it.logits;
      });
    }
    const missing = items.some((it) => Number.isNaN(it.logp));
    const nextStates = new Float32Array(N * S);
    items.forEach((it, i) => nextStates.set(it.nextState, i * S));
    const nextValues = tf.tidy(() => this.valueNet.apply(tf.tensor2d(nextStates, [N, S])).dataSync() as Float32Array);
    if (missing) {
      const states = new Float32Array(N * S);
      const maskBias = new Float32Array(N * A);
      items.forEach((it, i) => {
        states.set(it.state, i * S);
        maskBias.set(it.maskBias, i * A);
      });
      const out = tf.tidy(() => {
        const s = tf.tensor2d(states, [N, S]);
        const logp = tf.logSoftmax(tf.add(this.policyNet.apply(s), tf.tensor2d(maskBias, [N, A])) as Tensor2D);
        return tf.concat([logp, this.valueNet.apply(s)], 1).dataSync() as Float32Array;
      });
      items.forEach((it, i) => {
        if (!Number.isNaN(it.logp)) return;
        it.logp = out[i * (A + 1) + it.action]!;
        it.value = out[i * (A + 1) + A]!;
      });
    }
    if (isEarlierTarget(c)) return gaeByStream(items, nextValues, c.gamma, c.gaeLambda);
    // The semi-Markov terms: each transition's own discount, its reward as the target's term.
    const rewards = Float32Array.from(items, (it) => it.reward);
    const discounts = Float32Array.from(items, (it) => it.discount);
    const terms = targetRewardTerms(c, this.rewards, rewards, discounts, N, new Float32Array(N));
    return gaeByStream(
      items.map((it, i) => ({ ...it, reward: terms[i]! })),
      nextValues,
      c.gamma,
      c.gaeLambda,
      discounts,
    );
  }

  /** One minibatch step on policy and value networks. */
  private update(items: readonly RolloutItem[], indices: Int32Array, advantages: Float64Array, returns: Float64Array): void {
    const tf = this.tf;
    const c = this.config;
    const n = indices.length;
    const S = this.stateSize;
    const A = this.actionCount;
    if (this.batch === null || this.batch.oldLogp.length !== n) {
      this.batch = {
        states: new Float32Array(n * S),
        maskBias: new Float32Array(n * A),
        oneHot: new Float32Array(n * A),
        oldLogp: new Float32Array(n),
        advantages: new Float32Array(n),
        returns: new Float32Array(n),
      };
    }
    const b = this.batch;
    b.oneHot.fill(0);
    let mean = 0;
    for (let k = 0; k < n; k++) mean += advantages[indices[k]!]!;
    mean /= n;
    let sq = 0;
    for (let k = 0; k < n; k++) sq += (advantages[indices[k]!]! - mean) ** 2;
    const std = n > 1 ? Math.sqrt(sq / (n - 1)) : 1;
    for (let k = 0; k < n; k++) {
      const i = indices[k]!;
      const it = items[i]!;
      b.states.set(it.state, k * S);
      b.maskBias.set(it.maskBias, k * A);
      b.oneHot[k * A + it.action] = 1;
      b.oldLogp[k] = it.logp;
      b.advantages[k] = n > 1 ? (advantages[i]! - mean) / (std + 1e-8) : advantages[i]!;
      b.returns[k] = returns[i]!;
    }
    const previous = this.lastLosses;
    this.lastLosses = tf.tidy(() => {
      const s = tf.tensor2d(b.states, [n, S]);
      const maskBias = tf.tensor2d(b.maskBias, [n, A]);
      const action = tf.tensor2d(b.oneHot, [n, A]);
      const oldLogp = tf.tensor1d(b.oldLogp);
      const adv = tf.tensor1d(b.advantages);
      const ret = tf.tensor1d(b.returns);
      let lossVector: Tensor | null = null;
      const { grads } = tf.variableGrads(() => {
        const logp = tf.logSoftmax(tf.add(this.policyNet.apply(s), maskBias) as Tensor2D);
        const ratio = tf.exp(tf.sub(tf.sum(tf.mul(logp, action), 1), oldLogp));
        const surrogate = tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - c.clip, 1 + c.clip), adv));
        const policyLoss = tf.neg(tf.mean(surrogate));
        // Masked actions: p = 0 exactly, so p·log p = 0 (log p is finite, ≈ MASKED_LOGIT).
        const entropy = tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logp), logp), 1)));
        const v = tf.reshape(this.valueNet.apply(s), [n]);
        const valueLoss = tf.mean(tf.square(tf.sub(v, ret)));
        const total = tf.sub(tf.add(policyLoss, tf.mul(valueLoss, c.valueCoef)), tf.mul(entropy, c.entropyCoef));
        // Kept: variableGrads disposes what its function made, except the value.
        lossVector = tf.keep(tf.stack([policyLoss, valueLoss, entropy]));
        return total as Scalar;
      }, [...this.policyNet.variables(), ...this.valueNet.variables()]);
      if (c.maxGradNorm > 0) {
        // One flat variable per network: clipping each gradient tensor = clipping per network.
        for (const name of Object.keys(grads)) {
          const g = grads[name]!;
          const norm = tf.sqrt(tf.sum(tf.square(g)));
          grads[name] = tf.mul(g, tf.minimum(1, tf.div(c.maxGradNorm, tf.add(norm, 1e-6))));
        }
      }
      this.optimizer.applyGradients(grads as unknown as Record<string, Variable>);
      return lossVector!;
    });
    previous?.dispose();
    this.updates++;
  }

  stats(): LearnerStats {
    const l = this.lastLosses?.dataSync();
    return {
      updates: this.updates,
      temperature: null,
      entropy: l === undefined ? null : l[2]!,
      losses: l === undefined ? {} : { policy: l[0]!, value: l[1]! },
      epsilon: null,
    };
  }

  save(trainedOn?: string): AgentFile {
    return {
      format: 'interference-lab-agent',
      version: 1,
      kind: this.kind,
      stateSize: this.stateSize,
      actionCount: this.actionCount,
      hyper: ppoHyper(this.config),
      networks: { policy: this.policyNet.getWeights(), value: this.valueNet.getWeights() },
      scalars: { updates: this.updates, ...this.rewards.scalars() },
      ...(trainedOn === undefined ? {} : { trainedOn }),
    };
  }

  /** Loads the networks; the rollout in progress was collected by the old policy, so it is dropped. */
  load(file: AgentFile): void {
    checkAgentFile(file, this.kind, this.stateSize, this.actionCount);
    const updates = file.scalars['updates'];
    if (updates !== undefined && !(Number.isFinite(updates) && updates >= 0)) throw new RangeError('agent.scalars.updates: must be a number ≥ 0');
    const applyRewardScale = this.rewards.checkScalars(file.scalars);
    loadNetworks(file, { policy: this.policyNet, value: this.valueNet });
    applyRewardScale();
    this.updates = Math.floor(updates ?? 0);
    this.rollout = [];
    this.pendingValid.fill(0);
  }

  /**
   * Its whole state for a checkpoint (see `Learner.snapshot`): both networks (one Float32Array
   * each), Adam's state, the rollout (its rows are never written once recorded; the log π_old
   * and V_old an item gets in `train` are copied), what the last `act` said per stream (and
   * whether it said it as logits, on the host), the
   * update count, the last losses and the random stream.
   */
  snapshot(): LearnerSnapshot {
    return {
      kind: this.kind,
      policy: (this.policyNet.params.dataSync() as Float32Array).slice(),
      value: (this.valueNet.params.dataSync() as Float32Array).slice(),
      adam: adamState(this.optimizer),
      rollout: this.rollout.map((item) => ({ ...item })),
      pendingLogp: this.pendingLogp.slice(),
      pendingValue: this.pendingValue.slice(),
      pendingValid: this.pendingValid.slice(),
      pendingLogits: this.pendingLogits,
      updates: this.updates,
      rewardStats: this.rewards.snapshot(),
      losses: this.lastLosses === null ? null : (this.lastLosses.dataSync() as Float32Array).slice(),
      lossShape: this.lastLosses?.shape ?? null,
      rng: this.rng.state(),
    };
  }

  restore(state: LearnerSnapshot): void {
    const s = state as unknown as {
      policy: Float32Array;
      value: Float32Array;
      adam: AdamState;
      rollout: RolloutItem[];
      pendingLogp: Float32Array;
      pendingValue: Float32Array;
      pendingValid: Uint8Array;
      pendingLogits?: boolean;
      updates: number;
      rewardStats?: Float64Array;
      losses: Float32Array | null;
      lossShape: number[] | null;
      rng: Uint32Array;
    };
    this.policyNet.setFlat(s.policy);
    this.valueNet.setFlat(s.value);
    restoreAdamState(this.tf, this.optimizer, s.adam);
    this.rollout = s.rollout.map((item) => ({ ...item }));
    this.pendingLogp = s.pendingLogp.slice();
    this.pendingValue = s.pendingValue.slice();
    this.pendingValid = s.pendingValid.slice();
    this.pendingLogits = s.pendingLogits ?? false;
    this.updates = s.updates;
    if (s.rewardStats !== undefined) this.rewards.restore(s.rewardStats);
    this.lastLosses?.dispose();
    this.lastLosses = s.losses === null ? null : this.tf.tensor(s.losses, s.lossShape ?? [s.losses.length]);
    this.rng.setState(s.rng);
  }

  dispose(): void {
    this.policyNet.dispose();
    this.valueNet.dispose();
    this.optimizer.dispose();
    this.lastLosses?.dispose();
    this.lastLosses = null;
    this.rollout = [];
  }
}

/** What GAE reads of a transition. */
export interface GaeItem {
  /** The stream (model) it belongs to. */
  readonly row: number;
  readonly state: ArrayLike<number>;
  readonly nextState: ArrayLike<number>;
  readonly reward: number;
  /** V(s) when it was collected. */
  readonly value: number;
}

/**
 * GAE(γ, λ) [Schulman 2016] along each stream's own sequence (the items of one `row`, in
 * their order), backwards: Â_t = δ_t + γλ·Â_{t+1}, δ_t = r_t + γ·V(s'_t) − V(s_t), with
 * `nextValues[i]` = V(s'_i). Continuing task: no terminal states, so the last transition
 * of a stream is bootstrapped with V(s') alone (Â_{t+1} = 0), as is one whose s' is not the
 * state its stream's next transition starts from (the trace is cut). Returns Â and the
 * value targets R = Â + V(s).
 */
export function gaeByStream(items: readonly GaeItem[], nextValues: ArrayLike<number>, gamma: number, lambda: number, discounts?: ArrayLike<number>): { advantages: Float64Array; returns: Float64Array } {
  const N = items.length;
  const advantages = new Float64Array(N);
  const returns = new Float64Array(N);
  const streams = new Map<number, number[]>();
  items.forEach((it, i) => {
    const list = streams.get(it.row);
    if (list === undefined) streams.set(it.row, [i]);
    else list.push(i);
  });
  for (const list of streams.values()) {
    let gae = 0;
    for (let k = list.length - 1; k >= 0; k--) {
      const i = list[k]!;
      const it = items[i]!;
      const next = k + 1 < list.length ? items[list[k + 1]!]! : null;
      if (next === null || !sameState(it.nextState, next.state)) gae = 0;
      // Per transition under a discount per second (`discounts`), else γ per decision.
      const g = discounts === undefined ? gamma : discounts[i]!;
      const delta = it.reward + g * nextValues[i]! - it.value;
      gae = delta + g * lambda * gae;
      advantages[i] = gae;
      returns[i] = gae + it.value;
    }
  }
  return { advantages, returns };
}

function sameState(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The numeric hyperparameters, for the saved file. */
export function ppoHyper(c: PpoConfig): Record<string, number> {
  return {
    learningRate: c.learningRate,
    gamma: c.gamma,
    gaeLambda: c.gaeLambda,
    clip: c.clip,
    valueCoef: c.valueCoef,
    entropyCoef: c.entropyCoef,
    rolloutSize: c.rolloutSize,
    epochs: c.epochs,
    minibatchSize: c.minibatchSize,
    maxGradNorm: c.maxGradNorm,
    discountPerS: c.discountPerS,
    normalizeReward: c.normalizeReward ? 1 : 0,
    ...Object.fromEntries(c.hidden.map((h, i) => [`hidden${i}`, h])),
  };
}
