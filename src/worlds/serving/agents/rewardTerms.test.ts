import { describe, expect, it } from 'vitest';
import { isEarlierTarget, RewardScale, targetRewardTerms, transitionDiscount } from './rewardTerms';

describe('the reward side of the learners’ target', () => {
  const perDecision = { gamma: 0.9, discountPerS: 0, normalizeReward: false };
  const perSecond = { gamma: 0.9, discountPerS: 0.5, normalizeReward: true };

  it('discounts per decision (the earlier reading) or per second of the decision’s length', () => {
    expect(transitionDiscount(perDecision, 2500)).toBe(0.9);
    expect(transitionDiscount(perSecond, 2000)).toBeCloseTo(0.25, 12);
    expect(transitionDiscount(perSecond, 250)).toBeCloseTo(0.5 ** 0.25, 12);
    // A transition that says nothing of its length counts as one second.
    expect(transitionDiscount(perSecond, undefined)).toBe(0.5);
    expect(isEarlierTarget(perDecision)).toBe(true);
    expect(isEarlierTarget({ ...perDecision, normalizeReward: true })).toBe(false);
  });

  it('keeps the running mean and sample standard deviation of the rewards (Welford)', () => {
    const scale = new RewardScale();
    expect(scale.scale).toEqual({ mean: 0, std: 1 });
    const rewards = [7.2, 7.9, -10, 8.1, 7.5];
    for (const r of rewards) scale.add(r);
    const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
    const variance = rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (rewards.length - 1);
    expect(scale.scale.mean).toBeCloseTo(mean, 12);
    expect(scale.scale.std).toBeCloseTo(Math.sqrt(variance), 12);
    // Saved and read back, checked before it is applied.
    const copy = new RewardScale();
    copy.checkScalars(scale.scalars())();
    expect(copy.scale).toEqual(scale.scale);
    expect(() => copy.checkScalars({ rewardCount: 3, rewardMean: Number.NaN, rewardM2: 1 })).toThrow(/agent\.scalars\.rewardMean/);
    const restored = new RewardScale();
    restored.restore(scale.snapshot());
    expect(restored.scale).toEqual(scale.scale);
  });

  it('gives the target’s reward term: raw under the earlier reading, standardized and weighted by 1 − γ^Δt per second', () => {
    const scale = new RewardScale();
    for (const r of [6, 8]) scale.add(r);
    const rewards = Float32Array.of(8, 6);
    const discounts = Float32Array.of(0.5, 0.25);
    expect(Array.from(targetRewardTerms(perDecision, scale, rewards, discounts, 2, new Float32Array(2)))).toEqual([8, 6]);
    // mean 7, std √2: (8 − 7)/√2 · (1 − 0.5) and (6 − 7)/√2 · (1 − 0.25).
    const terms = targetRewardTerms(perSecond, scale, rewards, discounts, 2, new Float32Array(2));
    expect(terms[0]).toBeCloseTo(0.5 / Math.SQRT2, 6);
    expect(terms[1]).toBeCloseTo(-0.75 / Math.SQRT2, 6);
  });
});
