/**
 * The reward side of an off-policy learner's target, shared by SAC (sac.ts) and DDQN (ddqn.ts)
 * so that the baselines differ in their algorithm alone (BCEdge §V-B2 compares them on the same
 * state, actions and reward; the paper gives no discount or reward scale, ARCHITECTURE §3):
 *
 * - the discount of a transition's next state, per decision (`gamma`, the earlier reading) or
 *   per second of simulated time (`discountPerS` > 0: γ^Δt, Δt the decision's length);
 * - the rewards standardized by their running mean and standard deviation (Welford, over every
 *   reward recorded) with `normalizeReward`;
 * - the reward term of the semi-Markov target in reward units, y = (1 − γ^Δt)·r + γ^Δt·V(s′),
 *   under `discountPerS` (a reward is a rate held for Δt; V a discounted time-average of the
 *   rewards to come), else y = r + γ·V(s′).
 */
export interface RewardReading {
  readonly gamma: number;
  readonly discountPerS: number;
  readonly normalizeReward: boolean;
}

/** The discount of s′ for a transition that lasted `durationMs` (absent: one decision of 1 s). */
export function transitionDiscount(reading: RewardReading, durationMs: number | undefined): number {
  return reading.discountPerS > 0 ? reading.discountPerS ** ((durationMs ?? 1000) / 1000) : reading.gamma;
}

/** Whether the target is the earlier one, r + γ·V(s′) with raw rewards (kept bit for bit). */
export function isEarlierTarget(reading: RewardReading): boolean {
  return reading.discountPerS === 0 && !reading.normalizeReward;
}

/** The running mean and variance of the rewards recorded (Welford). */
export class RewardScale {
  count = 0;
  mean = 0;
  /** Σ(r − mean)². */
  m2 = 0;

  add(reward: number): void {
    this.count++;
    const delta = reward - this.mean;
    this.mean += delta / this.count;
    this.m2 += delta * (reward - this.mean);
  }

  /** The mean and standard deviation (1 before two rewards; never below 10⁻³). */
  get scale(): { readonly mean: number; readonly std: number } {
    const variance = this.count > 1 ? this.m2 / (this.count - 1) : 1;
    return { mean: this.mean, std: Math.sqrt(Math.max(variance, 1e-6)) };
  }

  /** As a saved agent's scalars (none before the first reward). */
  scalars(): Record<string, number> {
    return this.count > 0 ? { rewardCount: this.count, rewardMean: this.mean, rewardM2: this.m2 } : {};
  }

  /**
   * Reads a saved agent's scalars, checked before anything changes; absent statistics leave the
   * scale as it is. Returns an apply step to run once every other part of the file is checked.
   */
  checkScalars(scalars: Readonly<Record<string, number>>): () => void {
    const stats = ['rewardCount', 'rewardMean', 'rewardM2'].map((k) => scalars[k]);
    if (stats.some((x) => x !== undefined && !Number.isFinite(x))) throw new RangeError('agent.scalars.rewardMean: the reward statistics must be finite numbers');
    return () => {
      if (stats[0] !== undefined && stats[1] !== undefined && stats[2] !== undefined) [this.count, this.mean, this.m2] = stats as [number, number, number];
    };
  }

  snapshot(): Float64Array {
    return Float64Array.of(this.count, this.mean, this.m2);
  }

  restore(s: Float64Array): void {
    [this.count, this.mean, this.m2] = Array.from(s) as [number, number, number];
  }
}

/**
 * Fills `out[0..n)` with each transition's reward term of the target: the reward, standardized
 * under `normalizeReward`, times 1 − γ^Δt under `discountPerS`.
 */
export function targetRewardTerms(reading: RewardReading, scale: RewardScale, rewards: Float32Array, discounts: Float32Array, n: number, out: Float32Array): Float32Array {
  const { mean, std } = reading.normalizeReward ? scale.scale : { mean: 0, std: 1 };
  for (let k = 0; k < n; k++) {
    const r = (rewards[k]! - mean) / std;
    out[k] = reading.discountPerS > 0 ? (1 - discounts[k]!) * r : r;
  }
  return out;
}
