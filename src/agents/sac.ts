import type { Scalar, Tensor, Tensor2D, Variable } from '@tensorflow/tfjs';
import type { Rng } from '../engine/rng';
import type { AgentFile, Learner, LearnerStats, Transition } from './learner';
import { Mlp, stopGradient } from './nn';
import { createReplayBatch, ReplayBuffer, type ReplayBatch } from './replay';
import { argmaxRow, sampleRow } from './sampling';
import type { Tf } from './tf';
import { checkAgentFile, loadNetworks } from './agentFile';

/**
 * BCEdge's scheduler brain (§IV-B2, Algorithm 1): discrete soft actor-critic [Christodoulou
 * 2019, as BCEdge's ref. 36]. Twin soft Q networks with target networks (the minimum of
 * the two against over-estimation), a policy network, and the temperature α tuned
 * automatically (Eq. 12). With `entropy: false` the same code is TAC, the paper's
 * "actor-critic without entropy" baseline (§V-B1): α = 0 and no temperature update, so
 * the two differ in the entropy alone.
 *
 * Losses (discrete actions let every expectation over a be an exact sum):
 * - critic, Eq. 9: ½·E[(Q_i(s,a) − y)²], y = r + γ·Σ_a' π(a'|s')·(min_i Q̄_i(s',a') − α·log π(a'|s'))  (Eq. 7–8);
 * - policy, Eq. 11: E_s[Σ_a π(a|s)·(α·log π(a|s) − min_i Q_i(s,a))], Q held constant;
 * - temperature, Eq. 12: E_s[−log α · Σ_a π(a|s)·(log π(a|s) + H̄(s))], π held constant.
 *   We learn log α (as SAC's authors do) so α stays positive.
 *
 * Target entropy H̄(s) = ratio · ln |A_allowed(s)|: a share of the largest entropy the
 * masked action set allows (with 64 actions and nothing masked, ln 64 = 4.16 nats). The
 * literature's 0.98 (Christodoulou) keeps the policy nearly uniform; CleanRL found 0.89
 * more stable. A serving scheduler acts on live traffic while it learns, so every
 * exploratory action costs utility: the lab's default ratio is lower (see the registry's
 * `targetEntropyRatio`, measured in the closing note of issue 6); it is a parameter.
 *
 * Speed: one `tidy` per update; the target computed outside the gradient tape (it is a
 * constant); one `variableGrads` pass for critic, policy and temperature together (their
 * variables are disjoint and the cross terms are cut with `stopGradient`); no read-back
 * in the update (losses are kept as one tensor and read only when the page asks).
 */
export interface SacConfig {
  readonly hidden: readonly number[];
  readonly learningRate: number;
  /** γ of Eq. 5 and 7. */
  readonly gamma: number;
  /** Soft target update rate τ (θ̄ ← τθ + (1 − τ)θ̄ after every update). */
  readonly tau: number;
  readonly batchSize: number;
  readonly bufferCapacity: number;
  /** Transitions collected before the first update. */
  readonly warmup: number;
  /** Gradient updates per `train` call (one call per scheduling slot). */
  readonly updatesPerStep: number;
  readonly targetEntropyRatio: number;
  readonly initialTemperature: number;
  /** False: TAC (α = 0, no temperature update). */
  readonly entropy: boolean;
}

export const DEFAULT_SAC_CONFIG: SacConfig = {
  hidden: [128, 64],
  learningRate: 1e-3,
  gamma: 0.9,
  tau: 0.005,
  batchSize: 64,
  bufferCapacity: 100_000,
  warmup: 256,
  updatesPerStep: 2,
  targetEntropyRatio: 0.3,
  initialTemperature: 0.1,
  entropy: true,
};

export class DiscreteSac implements Learner {
  readonly kind: 'bcedge' | 'tac';
  readonly actor: Mlp;
  readonly q1: Mlp;
  readonly q2: Mlp;
  readonly q1Target: Mlp;
  readonly q2Target: Mlp;
  readonly logAlpha: Variable;
  readonly replay: ReplayBuffer;
  private readonly optimizer;
  private readonly batch: ReplayBatch;
  private readonly oneHot: Float32Array;
  private readonly targetEntropy: Float32Array;
  private readonly stop: (x: Tensor) => Tensor;
  private updates = 0;
  /** [critic loss, policy loss, temperature loss, mean entropy] of the last update. */
  private lastLosses: Tensor | null = null;

  constructor(
    private readonly tf: Tf,
    readonly stateSize: number,
    readonly actionCount: number,
    readonly config: SacConfig,
    private readonly rng: Rng,
  ) {
    this.kind = config.entropy ? 'bcedge' : 'tac';
    const sizes = (out: number) => [stateSize, ...config.hidden, out];
    this.actor = new Mlp(tf, sizes(actionCount), rng);
    this.q1 = new Mlp(tf, sizes(actionCount), rng);
    this.q2 = new Mlp(tf, sizes(actionCount), rng);
    this.q1Target = new Mlp(tf, sizes(actionCount), rng, false);
    this.q2Target = new Mlp(tf, sizes(actionCount), rng, false);
    this.q1Target.copyFrom(this.q1);
    this.q2Target.copyFrom(this.q2);
    this.logAlpha = tf.tidy(() => tf.variable(tf.scalar(Math.log(Math.max(1e-8, config.initialTemperature))), config.entropy));
    this.optimizer = tf.train.adam(config.learningRate);
    this.replay = new ReplayBuffer(config.bufferCapacity, stateSize, actionCount);
    this.batch = createReplayBatch(config.batchSize, stateSize, actionCount);
    this.oneHot = new Float32Array(config.batchSize * actionCount);
    this.targetEntropy = new Float32Array(config.batchSize);
    this.stop = stopGradient(tf);
  }

  /** α now (0 for TAC). */
  get temperature(): number {
    return this.config.entropy ? Math.exp(this.logAlpha.dataSync()[0]!) : 0;
  }

  policy(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    const tf = this.tf;
    return tf.tidy(() => {
      const logits = tf.add(this.actor.apply(tf.tensor2d(states, [rows, this.stateSize])), tf.tensor2d(maskBias, [rows, this.actionCount]));
      return tf.softmax(logits).dataSync() as Float32Array;
    });
  }

  act(states: Float32Array, maskBias: Float32Array, rows: number, explore: boolean): Int32Array {
    const probs = this.policy(states, maskBias, rows);
    const out = new Int32Array(rows);
    for (let r = 0; r < rows; r++) out[r] = explore ? sampleRow(probs, r, this.actionCount, this.rng) : argmaxRow(probs, maskBias, r, this.actionCount);
    return out;
  }

  record(t: Transition): void {
    this.replay.add(t.state, t.mask, t.action, t.reward, t.nextState, t.nextMask);
  }

  train(): number {
    if (this.replay.size < Math.max(this.config.warmup, 1)) return 0;
    for (let k = 0; k < this.config.updatesPerStep; k++) this.update();
    return this.config.updatesPerStep;
  }

  /** One gradient step of critic, policy and temperature (Algorithm 1 lines 16–19) and the soft target update. */
  update(): void {
    this.replay.sample(this.config.batchSize, this.rng, this.batch);
    this.applyUpdate();
  }

  /** The update on the minibatch in `this.batch`. */
  private applyUpdate(): void {
    const tf = this.tf;
    const c = this.config;
    const n = c.batchSize;
    const S = this.stateSize;
    const A = this.actionCount;
    const b = this.batch;
    // One-hot actions and H̄(s) are made here, in plain arrays: cheaper than tensor ops.
    this.oneHot.fill(0);
    for (let k = 0; k < n; k++) {
      this.oneHot[k * A + b.actions[k]!] = 1;
      this.targetEntropy[k] = c.targetEntropyRatio * Math.log(b.allowed[k]!);
    }
    const previous = this.lastLosses;
    this.lastLosses = tf.tidy(() => {
      const s = tf.tensor2d(b.states, [n, S]);
      const s2 = tf.tensor2d(b.nextStates, [n, S]);
      const maskBias = tf.tensor2d(b.maskBias, [n, A]);
      const action = tf.tensor2d(this.oneHot, [n, A]);
      const reward = tf.tensor1d(b.rewards);
      const targetEntropy = tf.tensor1d(this.targetEntropy);
      const alpha = c.entropy ? tf.exp(this.logAlpha) : tf.scalar(0);

      // The soft Q target y (Eq. 7–8), outside the tape: a constant for the update.
      const logp2 = tf.logSoftmax(tf.add(this.actor.apply(s2), tf.tensor2d(b.nextMaskBias, [n, A])));
      const qNext = tf.minimum(this.q1Target.apply(s2), this.q2Target.apply(s2));
      const v2 = tf.sum(tf.mul(tf.exp(logp2), tf.sub(qNext, tf.mul(alpha, logp2))), 1);
      const y = tf.add(reward, tf.mul(v2, c.gamma));

      const variables = [...this.q1.variables(), ...this.q2.variables(), ...this.actor.variables(), ...(c.entropy ? [this.logAlpha] : [])];
      let lossVector: Tensor | null = null;
      const { grads } = tf.variableGrads(() => {
        const q1 = this.q1.apply(s);
        const q2 = this.q2.apply(s);
        const e1 = tf.sub(tf.sum(tf.mul(q1, action), 1), y);
        const e2 = tf.sub(tf.sum(tf.mul(q2, action), 1), y);
        const critic = tf.mul(tf.add(tf.mean(tf.square(e1)), tf.mean(tf.square(e2))), 0.5);
        const logp = tf.logSoftmax(tf.add(this.actor.apply(s), maskBias) as Tensor2D);
        const p = tf.exp(logp);
        const minQ = this.stop(tf.minimum(q1, q2));
        const actor = tf.mean(tf.sum(tf.mul(p, tf.sub(tf.mul(alpha, logp), minQ)), 1));
        const plogp = this.stop(tf.sum(tf.mul(p, logp), 1));
        const entropy = tf.neg(tf.mean(plogp));
        let total = tf.add(critic, actor);
        let temperature: Tensor = tf.scalar(0);
        if (c.entropy) {
          temperature = tf.mul(tf.neg(this.logAlpha), tf.mean(tf.add(plogp, targetEntropy)));
          total = tf.add(total, temperature);
        }
        // Kept: variableGrads disposes what its function made, except the value.
        lossVector = tf.keep(tf.stack([critic, actor, temperature, entropy]));
        return total as Scalar;
      }, variables);
      this.optimizer.applyGradients(grads as unknown as Record<string, Variable>);
      this.q1Target.softUpdateFrom(this.q1, c.tau);
      this.q2Target.softUpdateFrom(this.q2, c.tau);
      return lossVector!;
    });
    previous?.dispose();
    this.updates++;
  }

  /**
   * One update, explained (the teaching panel's SAC walkthrough): draws the minibatch, reads
   * back the numbers of each step for the first `show` transitions — the soft value of s′
   * (Eq. 8), the target y (Eq. 7), both Q(s, a) and their errors (Eq. 9), the policy's
   * entropy and loss (Eq. 11), α and the temperature loss (Eq. 12) — then applies exactly
   * that update (same minibatch) and reports α after it. Slow (read-backs): not for training.
   */
  explainUpdate(show = 4): SacUpdateExplained | null {
    if (this.replay.size === 0) return null;
    const tf = this.tf;
    const c = this.config;
    const n = c.batchSize;
    const S = this.stateSize;
    const A = this.actionCount;
    this.replay.sample(n, this.rng, this.batch);
    const b = this.batch;
    const alphaBefore = this.temperature;
    const numbers = tf.tidy(() => {
      const s = tf.tensor2d(b.states, [n, S]);
      const s2 = tf.tensor2d(b.nextStates, [n, S]);
      const alpha = c.entropy ? tf.exp(this.logAlpha) : tf.scalar(0);
      const logp2 = tf.logSoftmax(tf.add(this.actor.apply(s2), tf.tensor2d(b.nextMaskBias, [n, A])));
      const qNext = tf.minimum(this.q1Target.apply(s2), this.q2Target.apply(s2));
      const v2 = tf.sum(tf.mul(tf.exp(logp2), tf.sub(qNext, tf.mul(alpha, logp2))), 1);
      const y = tf.add(tf.tensor1d(b.rewards), tf.mul(v2, c.gamma));
      const q1 = this.q1.apply(s);
      const q2 = this.q2.apply(s);
      const onehot = tf.oneHot(tf.tensor1d(b.actions, 'int32'), A).toFloat();
      const q1a = tf.sum(tf.mul(q1, onehot), 1);
      const q2a = tf.sum(tf.mul(q2, onehot), 1);
      const logp = tf.logSoftmax(tf.add(this.actor.apply(s), tf.tensor2d(b.maskBias, [n, A])));
      const p = tf.exp(logp);
      const entropy = tf.neg(tf.sum(tf.mul(p, logp), 1));
      const perSamplePolicy = tf.sum(tf.mul(p, tf.sub(tf.mul(alpha, logp), tf.minimum(q1, q2))), 1);
      return {
        v2: v2.dataSync(),
        y: y.dataSync(),
        q1a: q1a.dataSync(),
        q2a: q2a.dataSync(),
        entropy: entropy.dataSync(),
        policy: perSamplePolicy.dataSync(),
        best: tf.argMax(p, 1).dataSync(),
      };
    });
    const mean = (a: ArrayLike<number>) => Array.from(a).reduce((x, v) => x + v, 0) / a.length;
    const targetEntropy = Array.from(b.allowed, (k) => c.targetEntropyRatio * Math.log(k));
    const critic = 0.5 * (mean(Array.from(numbers.q1a, (q, i) => (q - numbers.y[i]!) ** 2)) + mean(Array.from(numbers.q2a, (q, i) => (q - numbers.y[i]!) ** 2)));
    const meanEntropy = mean(numbers.entropy);
    const meanTarget = mean(targetEntropy);
    // Apply the update on this very minibatch.
    this.applyUpdate();
    return {
      batchSize: n,
      gamma: c.gamma,
      entropyOn: c.entropy,
      samples: Array.from({ length: Math.min(show, n) }, (_, i) => ({
        action: b.actions[i]!,
        reward: b.rewards[i]!,
        nextValue: numbers.v2[i]!,
        target: numbers.y[i]!,
        q1: numbers.q1a[i]!,
        q2: numbers.q2a[i]!,
        entropy: numbers.entropy[i]!,
        policyLoss: numbers.policy[i]!,
        bestAction: numbers.best[i]!,
        allowed: b.allowed[i]!,
      })),
      criticLoss: critic,
      policyLoss: mean(numbers.policy),
      entropy: meanEntropy,
      targetEntropy: meanTarget,
      temperatureLoss: c.entropy ? -Math.log(Math.max(1e-30, alphaBefore)) * (-meanEntropy + meanTarget) : 0,
      alphaBefore,
      alphaAfter: this.temperature,
    };
  }

  stats(): LearnerStats {
    const l = this.lastLosses?.dataSync();
    return {
      updates: this.updates,
      temperature: this.config.entropy ? this.temperature : null,
      entropy: l === undefined ? null : l[3]!,
      losses: l === undefined ? {} : { critic: l[0]!, policy: l[1]!, ...(this.config.entropy ? { temperature: l[2]! } : {}) },
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
      hyper: sacHyper(this.config),
      networks: {
        actor: this.actor.getWeights(),
        q1: this.q1.getWeights(),
        q2: this.q2.getWeights(),
        q1Target: this.q1Target.getWeights(),
        q2Target: this.q2Target.getWeights(),
      },
      scalars: { logAlpha: this.logAlpha.dataSync()[0]!, updates: this.updates },
      ...(trainedOn === undefined ? {} : { trainedOn }),
    };
  }

  load(file: AgentFile): void {
    checkAgentFile(file, this.kind, this.stateSize, this.actionCount);
    // Everything is checked before anything changes: a bad file leaves the learner as it was.
    const logAlpha = file.scalars['logAlpha'];
    if (logAlpha !== undefined && !Number.isFinite(logAlpha)) throw new RangeError('agent.scalars.logAlpha: must be a finite number');
    const updates = file.scalars['updates'];
    if (updates !== undefined && !(Number.isFinite(updates) && updates >= 0)) throw new RangeError('agent.scalars.updates: must be a number ≥ 0');
    loadNetworks(file, { actor: this.actor, q1: this.q1, q2: this.q2, q1Target: this.q1Target, q2Target: this.q2Target });
    if (logAlpha !== undefined) this.tf.tidy(() => this.logAlpha.assign(this.tf.scalar(logAlpha)));
    this.updates = Math.floor(updates ?? 0);
  }

  dispose(): void {
    for (const net of [this.actor, this.q1, this.q2, this.q1Target, this.q2Target]) net.dispose();
    this.logAlpha.dispose();
    this.optimizer.dispose();
    this.lastLosses?.dispose();
    this.lastLosses = null;
  }
}

/** The numeric hyperparameters, for the saved file. */
export function sacHyper(c: SacConfig): Record<string, number> {
  return {
    learningRate: c.learningRate,
    gamma: c.gamma,
    tau: c.tau,
    batchSize: c.batchSize,
    bufferCapacity: c.bufferCapacity,
    warmup: c.warmup,
    updatesPerStep: c.updatesPerStep,
    targetEntropyRatio: c.targetEntropyRatio,
    initialTemperature: c.initialTemperature,
    entropy: c.entropy ? 1 : 0,
    ...Object.fromEntries(c.hidden.map((h, i) => [`hidden${i}`, h])),
  };
}

/** The numbers of one SAC update, for the walkthrough (`explainUpdate`). */
export interface SacUpdateExplained {
  readonly batchSize: number;
  readonly gamma: number;
  /** False for TAC (α = 0, no temperature step). */
  readonly entropyOn: boolean;
  /** The first transitions of the minibatch: a, r, V(s′), y = r + γV(s′), Q₁(s,a), Q₂(s,a), H(π(·|s)), the policy loss term, argmax π, |A_allowed|. */
  readonly samples: readonly {
    readonly action: number;
    readonly reward: number;
    readonly nextValue: number;
    readonly target: number;
    readonly q1: number;
    readonly q2: number;
    readonly entropy: number;
    readonly policyLoss: number;
    readonly bestAction: number;
    readonly allowed: number;
  }[];
  readonly criticLoss: number;
  readonly policyLoss: number;
  /** Mean entropy of π over the minibatch, nats, and the mean target H̄. */
  readonly entropy: number;
  readonly targetEntropy: number;
  readonly temperatureLoss: number;
  readonly alphaBefore: number;
  readonly alphaAfter: number;
}
