import type { Tensor2D } from '@tensorflow/tfjs';
import type { Rng } from '../../../engine/rng';
import { denseBackward, denseForward, FlatAdam, readGradients, softUpdate, uploadLayers, type DenseLayer, type FlatAdamSnapshot } from './denseNet';
import type { ActingState, AgentFile, Learner, LearnerSnapshot, LearnerStats, Transition } from './learner';
import { decodeMlpWeights, encodeFloat32, initMlpParams, layoutOf, type Layout, type MlpWeights } from './nn';
import { isEarlierTarget, RewardScale, targetRewardTerms, transitionDiscount } from './rewardTerms';
import { createReplayBatch, ReplayBuffer, type ReplayBatch, type ReplaySnapshot } from './replay';
import { argmaxRow, sampleRow } from './sampling';
import { createHostScratch, hostActions, hostDecisionsOn, hostForward, hostSoftmaxTf, maskedLogits } from './hostPolicy';
import type { Tf } from '../../../lib/tf';
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
 * exploratory action costs utility: the lab's default ratio is lower (0.3, the registry's
 * `targetEntropyRatio`); it is a parameter, and the claims read it at 0.3 and 0.6 (ARCHITECTURE §4a).
 *
 * Speed (one update at batch 64 is the cost of a learning lane): no gradient tape. The
 * parameters live in host arrays — actor, Q₁, Q₂ and log α in one flat vector, the targets
 * in another — uploaded layer by layer for each update; the forward passes run one fused
 * kernel per layer; the gradients of Eq. 9, 11 and 12 are written out (`updateOn`) and
 * back-propagated by hand (denseNet.ts); one Adam step over the flat vector and the soft
 * target update are plain loops. `bench/run.ts` (`BENCH_ONLY=sac-update`) measures it
 * against a straightforward autodiff port; sac.test.ts checks it against autodiff.
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
  /**
   * The target entropy annealed over training (0: no annealing, the earlier reading): the
   * ratio goes linearly from `targetEntropyRatio` to `targetEntropyFinalRatio` over the first
   * `targetEntropyAnnealUpdates` updates, then stays. Christodoulou 2019 and CleanRL keep one
   * target; BCEdge §V-A says nothing of it. An agent trained offline at a high target keeps a
   * policy that explores, and a loaded agent acts on that policy online (its first updates
   * wait for `fineTuneAfter` transitions): annealing lets offline training explore early and
   * ship a policy that does not pay for exploring on live traffic.
   */
  readonly targetEntropyAnnealUpdates: number;
  readonly targetEntropyFinalRatio: number;
  readonly initialTemperature: number;
  /** False: TAC (α = 0, no temperature update). */
  readonly entropy: boolean;
  /**
   * The discount per second of simulated time (0: `gamma` per decision, the earlier reading).
   * A decision lasts from 7 ms to 17 s under Eq. 1's slots, so a discount per decision weighs
   * the future by how often a model decides rather than by time. Above 0 the target is the
   * semi-Markov one in reward units: y = (1 − γ^Δt)·r + γ^Δt·V(s′), Δt the decision's length
   * in s — a reward is a rate held for Δt, and V a discounted time-average of the rewards to
   * come, so actions of different lengths compete on what they earn per second, as the
   * summaries score them (each reporting interval weighs the same).
   */
  readonly discountPerS: number;
  /**
   * Rewards standardized by their running mean and standard deviation (Welford, over every
   * reward stored) before they enter the critic's target, so that the temperature and the
   * target entropy mean the same whatever the scale of the utility (≈ 7, floor −10). With
   * the time-average target above a shift of every reward shifts every Q alike, whatever the
   * actions' lengths. False: raw rewards (the earlier reading).
   */
  readonly normalizeReward: boolean;
  /**
   * The temperature's own Adam learning rate (0: log α is a parameter of the networks' Adam,
   * the earlier reading, under which α barely moved while the entropy collapsed).
   */
  readonly temperatureLr: number;
  /**
   * A fresh learner's first `warmup` transitions are collected with uniformly random allowed
   * actions (CleanRL's learning_starts); not a trained one's (its update count above 0).
   */
  readonly randomWarmup: boolean;
  /**
   * Transitions an agent loaded from a file collects before its first update online (0: `warmup`,
   * as a fresh learner; the earlier reading). BCEdge §V-A trains offline and says nothing of
   * learning on after; a loaded agent starts with an empty buffer, and its first updates drew
   * minibatches of 512 from a few hundred transitions of the first load it saw. Measured on
   * `bcedge-dynamic` (3000 s, seeds 1–3, the shipped agent learning on): at 0 it undid its
   * policy at the step to 60 rps on seed 2 (U 4.863, 41 % violated); at 4096 it held
   * 7.541 / 7.497 / 7.499 against the best fixed plan's 7.505 / 7.503 / 7.504, with 3.6 / 4.6 /
   * 4.0 % violated against 3.0 / 4.5 / 4.4 %.
   */
  readonly fineTuneAfter: number;
  /**
   * An agent loaded from a file acts greedily (its policy's most likely action) until its first
   * update online, then samples its policy (false: it samples from the first decision, the
   * earlier reading). Until it learns online its policy is the offline one, and sampling it on
   * live traffic only costs: the shipped agent trained at a target entropy of 0.3·ln|A| lost
   * 6–8 % of the best fixed plan's utility on `learn-sanity` in its first 100 s by sampling
   * (learning on, −10 to −12 %) against greedy (−3 to −4 %) (README, "Training").
   */
  readonly greedyUntilUpdate: boolean;
  /** Minibatches drawn evenly across models (replay.ts `balanced`), not in proportion to how often each decides. */
  readonly balancedReplay: boolean;
  /**
   * TAC's actor (with `entropy: false`): `soft`, SAC's policy loss with α = 0 (the earlier
   * reading: the softmax saturates and the policy stops moving once deterministic), or
   * `advantage`, an actor-critic without entropy whose actor follows the critic's advantage of
   * the stored actions, ∇ = −∇log π(a|s)·(Q(s,a) − Σ π·Q(s,·)), which does not vanish when π is
   * nearly deterministic; it explores by sampling its policy.
   */
  readonly actor: 'soft' | 'advantage';
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
  targetEntropyAnnealUpdates: 0,
  targetEntropyFinalRatio: 0.3,
  initialTemperature: 0.1,
  entropy: true,
  discountPerS: 0,
  normalizeReward: false,
  temperatureLr: 0,
  randomWarmup: false,
  fineTuneAfter: 0,
  greedyUntilUpdate: false,
  balancedReplay: false,
  actor: 'soft',
};

/**
 * TAC's advantage actor stops pushing an action's probability down below this (and up above
 * 1 − this): see `SacConfig.actor`.
 */
export const ADVANTAGE_CLIP = 0.01;

/** A network kept in a host array, as `loadNetworks` sees it. */
class HostNetwork {
  constructor(
    private readonly flat: Float32Array,
    private readonly offset: number,
    private readonly sizes: readonly number[],
    private readonly total: number,
  ) {}

  decodeWeights(weights: MlpWeights, name: string): Float32Array {
    return decodeMlpWeights(weights, this.sizes, name);
  }

  setFlat(values: Float32Array): void {
    this.flat.set(values, this.offset);
  }

  getWeights(): MlpWeights {
    return { sizes: [...this.sizes], float32: encodeFloat32(this.flat.subarray(this.offset, this.offset + this.total)) };
  }
}

export class DiscreteSac implements Learner {
  readonly kind: 'bcedge' | 'tac';
  readonly replay: ReplayBuffer;
  /** The sizes of every network: [state, hidden…, actions]. */
  readonly sizes: readonly number[];
  /**
   * Every trained parameter in one flat vector: actor, Q₁, Q₂ (each in `nn.ts`'s layout),
   * then log α. One Adam step updates it all. Changed only through the learner's methods:
   * `act` decides on a copy of the actor, taken again after each of them.
   */
  readonly online: Float32Array;
  /** The target networks Q̄₁, Q̄₂, same layout. */
  readonly target: Float32Array;
  private readonly layers: readonly Layout[];
  /** Parameters per network. */
  private readonly netSize: number;
  private readonly logAlphaIndex: number;
  private readonly grads: Float32Array;
  private readonly adam: FlatAdam;
  /** log α's own Adam (`temperatureLr` > 0), or null. */
  private readonly alphaAdam: FlatAdam | null;
  /** Running reward statistics (rewardTerms.ts). */
  private readonly rewards = new RewardScale();
  /** The minibatch's rewards and discounts as the target uses them. */
  private readonly targetRewards: Float32Array;
  private readonly batch: ReplayBatch;
  private readonly oneHot: Float32Array;
  private readonly oneHotOverN: Float32Array;
  private readonly targetEntropy: Float32Array;
  /** The minibatch's states transposed (S × n), and s over s′, and both masks stacked. */
  private readonly statesT: Float32Array;
  private readonly stacked: Float32Array;
  private readonly stackedMaskBias: Float32Array;
  /** The actor's layers as tensors for `policy`, uploaded again after an update changed them. */
  private actorLayers: DenseLayer[] | null = null;
  private readonly scratch = createHostScratch();
  /** The masked logits of the last host decision (reused: read only within the call that made them). */
  private logitRows = new Float32Array(0);
  /** Changes whenever `online` does (every call of `dropActorTensors`): the host forward pass copies the actor again. */
  private actorVersion = 0;
  private updates = 0;
  /** Loaded from a file (`load`): its first online update waits for `fineTuneAfter` transitions. */
  private loaded = false;
  /** The update count it was loaded with (`greedyUntilUpdate`: no update online yet while they are equal). */
  private loadedAt = 0;
  /** A mirror's (`mirror`): the transitions the learner it acts for had stored (its own buffer stays empty). */
  private storedElsewhere = 0;
  /** [critic loss, policy loss, temperature loss, mean entropy] of the last update. */
  private lastLosses: readonly [number, number, number, number] | null = null;

  constructor(
    private readonly tf: Tf,
    readonly stateSize: number,
    readonly actionCount: number,
    readonly config: SacConfig,
    private readonly rng: Rng,
  ) {
    this.kind = config.entropy ? 'bcedge' : 'tac';
    this.sizes = [stateSize, ...config.hidden, actionCount];
    const { layers, total } = layoutOf(this.sizes);
    this.layers = layers;
    this.netSize = total;
    this.logAlphaIndex = 3 * total;
    this.online = new Float32Array(3 * total + 1);
    this.target = new Float32Array(2 * total);
    // Drawn in the order the networks have always been drawn (actor, Q₁, Q₂, Q̄₁, Q̄₂), so a
    // seed gives the same learner as before; the targets start as copies of Q₁ and Q₂.
    for (let k = 0; k < 3; k++) initMlpParams(layers, rng, this.online, k * total);
    initMlpParams(layers, rng, this.target, 0);
    initMlpParams(layers, rng, this.target, total);
    this.target.set(this.online.subarray(total, 3 * total));
    this.online[this.logAlphaIndex] = Math.log(Math.max(1e-8, config.initialTemperature));
    this.grads = new Float32Array(this.online.length);
    this.adam = new FlatAdam(this.online.length, config.learningRate);
    this.alphaAdam = config.temperatureLr > 0 ? new FlatAdam(1, config.temperatureLr) : null;
    this.targetRewards = new Float32Array(config.batchSize);
    this.replay = new ReplayBuffer(config.bufferCapacity, stateSize, actionCount);
    this.batch = createReplayBatch(config.batchSize, stateSize, actionCount);
    this.oneHot = new Float32Array(config.batchSize * actionCount);
    this.oneHotOverN = new Float32Array(config.batchSize * actionCount);
    this.targetEntropy = new Float32Array(config.batchSize);
    this.statesT = new Float32Array(config.batchSize * stateSize);
    this.stacked = new Float32Array(2 * config.batchSize * stateSize);
    this.stackedMaskBias = new Float32Array(2 * config.batchSize * actionCount);
  }

  /** α now (0 for TAC). */
  get temperature(): number {
    return this.config.entropy ? Math.exp(this.online[this.logAlphaIndex]!) : 0;
  }

  /** log α as stored (float32). */
  get logAlpha(): number {
    return this.online[this.logAlphaIndex]!;
  }

  /** min(Q₁, Q₂)(s, ·) per row, on the host without the decision path's scratch (Learner.critic). */
  critic(states: Float32Array, rows: number): Float32Array {
    const q1 = hostForward(this.online, this.netSize, this.layers, states, rows);
    const q2 = hostForward(this.online, 2 * this.netSize, this.layers, states, rows);
    for (let i = 0; i < q1.length; i++) q1[i] = Math.min(q1[i]!, q2[i]!);
    return q1;
  }

  private network(name: 'actor' | 'q1' | 'q2' | 'q1Target' | 'q2Target'): HostNetwork {
    const index = { actor: 0, q1: 1, q2: 2, q1Target: 0, q2Target: 1 }[name];
    const flat = name.endsWith('Target') ? this.target : this.online;
    return new HostNetwork(flat, index * this.netSize, this.sizes, this.netSize);
  }

  private actorTensors(): DenseLayer[] {
    this.actorLayers ??= uploadLayers(this.tf, this.online, 0, this.layers, true);
    return this.actorLayers;
  }

  private dropActorTensors(): void {
    this.actorVersion++;
    for (const l of this.actorLayers ?? []) {
      l.W.dispose();
      l.b.dispose();
    }
    this.actorLayers = null;
  }

  policy(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    // The logits on the host, tfjs's softmax of them: the same numbers, one kernel instead of the network (hostPolicy.ts).
    if (hostDecisionsOn()) return hostSoftmaxTf(this.tf, this.hostLogits(states, maskBias, rows), rows, this.actionCount);
    const tf = this.tf;
    const actor = this.actorTensors();
    return tf.tidy(() => {
      const logits = tf.add(denseForward(tf, tf.tensor2d(states, [rows, this.stateSize]), actor).out, tf.tensor2d(maskBias, [rows, this.actionCount]));
      return tf.softmax(logits).dataSync() as Float32Array;
    });
  }

  /** The actor's masked logits (rows × actions), computed on the host from `online`. */
  private hostLogits(states: Float32Array, maskBias: Float32Array, rows: number): Float32Array {
    if (this.logitRows.length !== rows * this.actionCount) this.logitRows = new Float32Array(rows * this.actionCount);
    return maskedLogits(hostForward(this.online, 0, this.layers, states, rows, this.scratch, this.actorVersion), maskBias, rows, this.actionCount, this.logitRows);
  }

  act(states: Float32Array, maskBias: Float32Array, rows: number, exploring: boolean): Int32Array {
    // A loaded agent that has not learned online yet acts greedily (`greedyUntilUpdate`).
    const explore = exploring && !(this.config.greedyUntilUpdate && this.loaded && this.updates === this.loadedAt);
    // The warm-up is a fresh learner's (CleanRL's learning_starts): an agent that has been
    // trained — loaded from a file, or frozen with nothing stored — acts with its policy.
    if (explore && this.config.randomWarmup && this.updates === 0 && this.replay.size + this.storedElsewhere < this.config.warmup) return this.uniformActions(maskBias, rows);
    if (hostDecisionsOn()) {
      const z = this.hostLogits(states, maskBias, rows);
      const A = this.actionCount;
      // The rows the host cannot decide for sure take tfjs's softmax of the same logits.
      const exactRow = (r: number) => hostSoftmaxTf(this.tf, z.subarray(r * A, (r + 1) * A), 1, A);
      return hostActions(z, maskBias, rows, A, explore, this.rng, exactRow);
    }
    const probs = this.policy(states, maskBias, rows);
    const out = new Int32Array(rows);
    for (let r = 0; r < rows; r++) out[r] = explore ? sampleRow(probs, r, this.actionCount, this.rng) : argmaxRow(probs, maskBias, r, this.actionCount);
    return out;
  }

  /** One uniformly random allowed action per row (the random warm-up). */
  private uniformActions(maskBias: Float32Array, rows: number): Int32Array {
    const A = this.actionCount;
    const out = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      let allowed = 0;
      for (let a = 0; a < A; a++) if (maskBias[r * A + a] === 0) allowed++;
      let pick = this.rng.nextInt(Math.max(1, allowed));
      out[r] = 0;
      for (let a = 0; a < A; a++) {
        if (maskBias[r * A + a] !== 0) continue;
        if (pick-- === 0) {
          out[r] = a;
          break;
        }
      }
    }
    return out;
  }

  record(t: Transition): void {
    const c = this.config;
    // The discount of s′: per decision (the earlier reading), or per second of the decision's length.
    this.replay.add(t.state, t.mask, t.action, t.reward, t.nextState, t.nextMask, transitionDiscount(c, t.durationMs), t.row);
    this.rewards.add(t.reward);
  }

  /** The running mean and standard deviation of the rewards stored (what `normalizeReward` divides by). */
  get rewardScale(): { readonly mean: number; readonly std: number } {
    return this.rewards.scale;
  }

  train(): number {
    const c = this.config;
    if (this.replay.size < Math.max(this.loaded && c.fineTuneAfter > 0 ? c.fineTuneAfter : c.warmup, 1)) return 0;
    for (let k = 0; k < this.config.updatesPerStep; k++) this.update();
    return this.config.updatesPerStep;
  }

  /** One gradient step of critic, policy and temperature (Algorithm 1 lines 16–19) and the soft target update. */
  update(): void {
    this.replay.sample(this.config.batchSize, this.rng, this.batch, this.config.balancedReplay);
    this.updateOn(this.batch);
  }

  /**
   * The update on a given minibatch (`batchSize` transitions), written out without a
   * gradient tape. With e_i = Q_i(s,a) − y, π = softmax(z) over the masked logits z and
   * f = α·log π − min_i Q_i(s,·) (Q and α held constant in the policy loss):
   * - ∂(Eq. 9)/∂Q_i(s,·) = e_i · onehot(a) / n;
   * - ∂(Eq. 11)/∂z = π ⊙ (f − Σ_a π·f) / n  (the softmax's Jacobian applied to ∂/∂π and
   *   ∂/∂log π of Σ_a π·f; the α·Σ_a π terms cancel because Σ_a π = 1); masked actions have
   *   π = 0, so they get no gradient;
   * - ∂(Eq. 12)/∂log α = −mean_s(Σ_a π·log π + H̄(s)).
   * These are back-propagated through each network (`denseBackward`); the gradients land in
   * one flat vector, one Adam step applies them, and the soft target update follows. The
   * test compares it with tfjs autodiff of the losses as written in Eq. 9, 11, 12.
   */
  updateOn(b: ReplayBatch): void {
    const losses = this.gradients(b);
    const c = this.config;
    const size = this.netSize;
    this.lastLosses = losses;
    // TAC: log α is not trained (it is left out of the step); with its own optimizer, it is stepped apart.
    const alphaApart = this.alphaAdam !== null;
    this.adam.step(this.online, this.grads, c.entropy && !alphaApart ? this.online.length : this.logAlphaIndex);
    if (c.entropy && alphaApart) {
      const at = this.logAlphaIndex;
      this.alphaAdam.step(this.online.subarray(at, at + 1), this.grads.subarray(at, at + 1), 1);
    }
    // θ̄ ← τθ + (1 − τ)θ̄ for both critics (they sit side by side in both vectors).
    softUpdate(this.target, this.online, size, 2 * size, c.tau);
    this.dropActorTensors();
    this.updates++;
  }

  /** H̄'s share of ln|A| at this update (`targetEntropyAnnealUpdates`). */
  targetEntropyRatioNow(): number {
    const c = this.config;
    if (c.targetEntropyAnnealUpdates <= 0) return c.targetEntropyRatio;
    const progress = Math.min(1, this.updates / c.targetEntropyAnnealUpdates);
    return c.targetEntropyRatio + (c.targetEntropyFinalRatio - c.targetEntropyRatio) * progress;
  }

  /**
   * The gradient of the three losses on a minibatch with respect to `online`, written into
   * `lastGradients` (valid until the next call); returns [critic, policy, temperature loss,
   * mean entropy]. Changes no parameter.
   */
  gradients(b: ReplayBatch): [number, number, number, number] {
    const tf = this.tf;
    const c = this.config;
    const n = c.batchSize;
    const S = this.stateSize;
    const A = this.actionCount;
    const size = this.netSize;
    // One-hot actions and H̄(s) are made here, in plain arrays: cheaper than tensor ops.
    const ratio = this.targetEntropyRatioNow();
    this.oneHot.fill(0);
    this.oneHotOverN.fill(0);
    for (let k = 0; k < n; k++) {
      this.oneHot[k * A + b.actions[k]!] = 1;
      this.oneHotOverN[k * A + b.actions[k]!] = 1 / n;
      this.targetEntropy[k] = ratio * Math.log(b.allowed[k]!);
      for (let j = 0; j < S; j++) this.statesT[j * n + k] = b.states[k * S + j]!;
    }
    this.stacked.set(b.states, 0);
    this.stacked.set(b.nextStates, n * S);
    this.stackedMaskBias.set(b.maskBias, 0);
    this.stackedMaskBias.set(b.nextMaskBias, n * A);
    const logAlpha = this.online[this.logAlphaIndex]!;
    const alpha = c.entropy ? Math.exp(logAlpha) : 0;
    const read = tf.tidy(() => {
      const [actor, q1, q2] = [0, 1, 2].map((k) => uploadLayers(tf, this.online, k * size, this.layers, false)) as [DenseLayer[], DenseLayer[], DenseLayer[]];
      const [q1Target, q2Target] = [0, 1].map((k) => uploadLayers(tf, this.target, k * size, this.layers, false)) as [DenseLayer[], DenseLayer[]];
      // The actor runs once over s and s′ stacked (2n rows): its logits for the policy loss
      // and for the target come out of one pass; the backward pass takes the rows of s.
      const both = tf.tensor2d(this.stacked, [2 * n, S]);
      const s = tf.tensor2d(b.states, [n, S]);
      const sT = tf.tensor2d(this.statesT, [S, n]);
      const s2 = tf.tensor2d(b.nextStates, [n, S]);
      const passBoth = denseForward(tf, both, actor);
      const [logp, logp2] = tf.split(tf.logSoftmax(tf.add(passBoth.out, tf.tensor2d(this.stackedMaskBias, [2 * n, A]))), 2, 0) as [Tensor2D, Tensor2D];

      // The soft Q target y (Eq. 7–8), a constant for the update.
      const qNext = tf.minimum(denseForward(tf, s2, q1Target).out, denseForward(tf, s2, q2Target).out);
      const v2 = tf.sum(tf.mul(tf.exp(logp2), tf.sub(qNext, tf.mul(logp2, alpha))), 1);
      const y = tf.reshape(this.earlierTarget() ? tf.add(tf.tensor1d(b.rewards), tf.mul(v2, c.gamma)) : tf.add(tf.tensor1d(this.targetTerms(b)), tf.mul(v2, tf.tensor1d(b.discounts))), [n, 1]);

      // Critics (Eq. 9).
      const action = tf.tensor2d(this.oneHot, [n, A]);
      const actionOverN = tf.tensor2d(this.oneHotOverN, [n, A]);
      const pass1 = denseForward(tf, s, q1);
      const pass2 = denseForward(tf, s, q2);
      const e1 = tf.sub(tf.sum(tf.mul(pass1.out, action), 1, true), y);
      const e2 = tf.sub(tf.sum(tf.mul(pass2.out, action), 1, true), y);
      const g1 = denseBackward(tf, tf.mul(actionOverN, e1), pass1, q1, sT);
      const g2 = denseBackward(tf, tf.mul(actionOverN, e2), pass2, q2, sT);

      // Policy (Eq. 11), or TAC's advantage actor.
      const p = tf.exp(logp);
      let perState: Tensor2D;
      let dz: Tensor2D;
      if (!c.entropy && c.actor === 'advantage') {
        // −log π(a|s)·A(s,a) with A = min Q(s,a) − Σ π·min Q(s,·), A held constant: ∂/∂z = (π − onehot(a))·A / n.
        const qMin = tf.minimum(pass1.out, pass2.out);
        // Clipped as PPO clips its ratio: an action already below ADVANTAGE_CLIP is pushed no lower
        // and one above 1 − ADVANTAGE_CLIP no higher, so the logits stay finite and an action the
        // critic comes to prefer can still win the policy back (unclipped, the stored actions'
        // logits run to −∞ within minutes and the policy never moves again).
        const advantage = tf.sub(tf.sum(tf.mul(qMin, action), 1, true), tf.sum(tf.mul(p, qMin), 1, true));
        const pa = tf.sum(tf.mul(p, action), 1, true);
        const open = tf.logicalOr(tf.logicalAnd(tf.less(advantage, 0), tf.greater(pa, ADVANTAGE_CLIP)), tf.logicalAnd(tf.greater(advantage, 0), tf.less(pa, 1 - ADVANTAGE_CLIP)));
        const clipped = tf.mul(advantage, tf.cast(open, 'float32'));
        perState = tf.neg(tf.mul(tf.sum(tf.mul(logp, action), 1, true), clipped));
        dz = tf.mul(tf.mul(tf.sub(p, action), clipped), 1 / n);
      } else {
        const f = tf.sub(tf.mul(logp, alpha), tf.minimum(pass1.out, pass2.out));
        perState = tf.sum(tf.mul(p, f), 1, true);
        dz = tf.mul(tf.mul(p, tf.sub(f, perState)), 1 / n);
      }
      const passA = { out: passBoth.out, inputs: passBoth.inputs.map((h, i) => (i === 0 ? s : tf.slice(h, [0, 0], [n, -1]))) };
      const gA = denseBackward(tf, dz as Tensor2D, passA, actor, sT);
      const plogp = tf.sum(tf.mul(p, logp), 1);

      let at = readGradients(gA, this.grads, 0);
      at = readGradients(g1, this.grads, at);
      readGradients(g2, this.grads, at);
      return {
        e1: e1.dataSync() as Float32Array,
        e2: e2.dataSync() as Float32Array,
        perState: perState.dataSync() as Float32Array,
        plogp: plogp.dataSync() as Float32Array,
      };
    });
    // Temperature (Eq. 12) and the statistics of this update, on the host.
    let critic1 = 0;
    let critic2 = 0;
    let policy = 0;
    let plogpMean = 0;
    let shortfall = 0;
    for (let k = 0; k < n; k++) {
      critic1 += read.e1[k]! ** 2;
      critic2 += read.e2[k]! ** 2;
      policy += read.perState[k]!;
      plogpMean += read.plogp[k]!;
      shortfall += read.plogp[k]! + this.targetEntropy[k]!;
    }
    plogpMean /= n;
    shortfall /= n;
    this.grads[this.logAlphaIndex] = c.entropy ? -shortfall : 0;
    return [(0.5 * (critic1 + critic2)) / n, policy / n, c.entropy ? -logAlpha * shortfall : 0, -plogpMean];
  }

  /** Whether the critic's target is the earlier one, r + γ·V(s′) with raw rewards (bit for bit as before). */
  private earlierTarget(): boolean {
    return isEarlierTarget(this.config);
  }

  /**
   * The reward term of each transition's target: the reward, standardized with `normalizeReward`,
   * weighted by 1 − γ^Δt under `discountPerS` (the time-average target; see SacConfig).
   */
  private targetTerms(b: ReplayBatch): Float32Array {
    return targetRewardTerms(this.config, this.rewards, b.rewards, b.discounts, this.config.batchSize, this.targetRewards);
  }

  /** The gradient vector `gradients` last filled (the layout of `online`). */
  get lastGradients(): Float32Array {
    return this.grads;
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
    const size = this.netSize;
    this.replay.sample(n, this.rng, this.batch, c.balancedReplay);
    const b = this.batch;
    const alphaBefore = this.temperature;
    const numbers = tf.tidy(() => {
      const [actor, q1, q2] = [0, 1, 2].map((k) => uploadLayers(tf, this.online, k * size, this.layers, true)) as [DenseLayer[], DenseLayer[], DenseLayer[]];
      const [q1Target, q2Target] = [0, 1].map((k) => uploadLayers(tf, this.target, k * size, this.layers, true)) as [DenseLayer[], DenseLayer[]];
      const s = tf.tensor2d(b.states, [n, S]);
      const s2 = tf.tensor2d(b.nextStates, [n, S]);
      const alpha = alphaBefore;
      const logp2 = tf.logSoftmax(tf.add(denseForward(tf, s2, actor).out, tf.tensor2d(b.nextMaskBias, [n, A])));
      const qNext = tf.minimum(denseForward(tf, s2, q1Target).out, denseForward(tf, s2, q2Target).out);
      const v2 = tf.sum(tf.mul(tf.exp(logp2), tf.sub(qNext, tf.mul(alpha, logp2))), 1);
      const y = this.earlierTarget() ? tf.add(tf.tensor1d(b.rewards), tf.mul(v2, c.gamma)) : tf.add(tf.tensor1d(this.targetTerms(b)), tf.mul(v2, tf.tensor1d(b.discounts)));
      const qa1 = denseForward(tf, s, q1).out;
      const qa2 = denseForward(tf, s, q2).out;
      const onehot = tf.oneHot(tf.tensor1d(b.actions, 'int32'), A).toFloat();
      const q1a = tf.sum(tf.mul(qa1, onehot), 1);
      const q2a = tf.sum(tf.mul(qa2, onehot), 1);
      const logp = tf.logSoftmax(tf.add(denseForward(tf, s, actor).out, tf.tensor2d(b.maskBias, [n, A])));
      const p = tf.exp(logp);
      const entropy = tf.neg(tf.sum(tf.mul(p, logp), 1));
      const perSamplePolicy = tf.sum(tf.mul(p, tf.sub(tf.mul(alpha, logp), tf.minimum(qa1, qa2))), 1);
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
    const ratio = this.targetEntropyRatioNow();
    const targetEntropy = Array.from(b.allowed, (k) => ratio * Math.log(k));
    const critic = 0.5 * (mean(Array.from(numbers.q1a, (q, i) => (q - numbers.y[i]!) ** 2)) + mean(Array.from(numbers.q2a, (q, i) => (q - numbers.y[i]!) ** 2)));
    const meanEntropy = mean(numbers.entropy);
    const meanTarget = mean(targetEntropy);
    // Apply the update on this very minibatch.
    this.updateOn(b);
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
    const l = this.lastLosses;
    return {
      updates: this.updates,
      temperature: this.config.entropy ? this.temperature : null,
      entropy: l === null ? null : l[3],
      losses: l === null ? {} : { critic: l[0], policy: l[1], ...(this.config.entropy ? { temperature: l[2] } : {}) },
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
        actor: this.network('actor').getWeights(),
        q1: this.network('q1').getWeights(),
        q2: this.network('q2').getWeights(),
        q1Target: this.network('q1Target').getWeights(),
        q2Target: this.network('q2Target').getWeights(),
      },
      scalars: { logAlpha: this.logAlpha, updates: this.updates, ...this.rewards.scalars() },
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
    const applyRewardScale = this.rewards.checkScalars(file.scalars);
    const names = ['actor', 'q1', 'q2', 'q1Target', 'q2Target'] as const;
    loadNetworks(file, Object.fromEntries(names.map((name) => [name, this.network(name)])));
    if (logAlpha !== undefined) this.online[this.logAlphaIndex] = logAlpha;
    this.updates = Math.floor(updates ?? 0);
    this.loaded = true;
    this.loadedAt = this.updates;
    // The reward scale it learned under (normalizeReward), so that its critic keeps its units.
    applyRewardScale();
    this.dropActorTensors();
  }

  /**
   * The learner's whole state (see `Learner.snapshot`): `online` (actor, Q₁, Q₂, log α) and
   * `target` as they live, Adam's moments and step count, the replay buffer (chunks shared
   * between checkpoints), the random stream, the update count and the last losses. The
   * actor's tensors are a cache of `online`, made again after a restore.
   */
  snapshot(): SacSnapshot {
    return {
      kind: this.kind,
      online: this.online.slice(),
      target: this.target.slice(),
      adam: this.adam.snapshot(),
      replay: this.replay.snapshot(),
      rng: this.rng.state(),
      updates: this.updates,
      loaded: this.loaded,
      loadedAt: this.loadedAt,
      lastLosses: this.lastLosses,
      alphaAdam: this.alphaAdam?.snapshot() ?? null,
      rewardStats: this.rewards.snapshot(),
    };
  }

  restore(state: LearnerSnapshot): void {
    const s = state as SacSnapshot;
    if (s.kind !== this.kind || s.online.length !== this.online.length) throw new RangeError(`a ${s.kind} checkpoint of ${s.online.length} parameters does not fit this ${this.kind} learner`);
    this.online.set(s.online);
    this.target.set(s.target);
    this.adam.restore(s.adam);
    this.replay.restore(s.replay);
    this.rng.setState(s.rng);
    this.updates = s.updates;
    this.loaded = s.loaded;
    this.loadedAt = s.loadedAt;
    this.lastLosses = s.lastLosses;
    if (s.alphaAdam !== null) this.alphaAdam?.restore(s.alphaAdam);
    this.rewards.restore(s.rewardStats);
    this.dropActorTensors();
  }

  actingState(): ActingState {
    return { params: this.online.slice(), updates: this.updates, stored: this.replay.size + this.storedElsewhere };
  }

  mirror(state: ActingState): void {
    if (state.params.length !== this.online.length) throw new RangeError(`a ${state.params.length}-parameter learner cannot be mirrored by this ${this.kind} learner of ${this.online.length}`);
    this.online.set(state.params);
    this.updates = state.updates;
    this.storedElsewhere = state.stored;
    this.dropActorTensors();
  }

  dispose(): void {
    this.dropActorTensors();
    this.lastLosses = null;
  }
}

/** A `DiscreteSac`'s checkpoint. */
export interface SacSnapshot extends LearnerSnapshot {
  readonly kind: 'bcedge' | 'tac';
  readonly online: Float32Array;
  readonly target: Float32Array;
  readonly adam: FlatAdamSnapshot;
  readonly replay: ReplaySnapshot;
  readonly rng: Uint32Array;
  readonly updates: number;
  /** Whether it had been loaded from a file (`fineTuneAfter` applies). */
  readonly loaded: boolean;
  readonly loadedAt: number;
  readonly lastLosses: readonly [number, number, number, number] | null;
  readonly alphaAdam: FlatAdamSnapshot | null;
  /** The running reward statistics: count, mean, Σ(r − mean)². */
  readonly rewardStats: Float64Array;
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
    targetEntropyAnnealUpdates: c.targetEntropyAnnealUpdates,
    targetEntropyFinalRatio: c.targetEntropyFinalRatio,
    initialTemperature: c.initialTemperature,
    entropy: c.entropy ? 1 : 0,
    discountPerS: c.discountPerS,
    normalizeReward: c.normalizeReward ? 1 : 0,
    temperatureLr: c.temperatureLr,
    randomWarmup: c.randomWarmup ? 1 : 0,
    balancedReplay: c.balancedReplay ? 1 : 0,
    advantageActor: c.actor === 'advantage' ? 1 : 0,
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
