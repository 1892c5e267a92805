import { describe, expect, it } from 'vitest';
import { parseAnyScenario } from '../../../scenario/parse';
import { SERVING_PRESETS } from '../presets';
import { rankOf, rewardCheck, spearman } from './rewardCheck';
import type { ServingScenario } from '../schema';
import { buildServingSpec } from './servingRunner';

/** A compressed stationary copy of the default serving scenario: the six models at 30 rps each, 120 s. */
function stationary(assumptions: Record<string, unknown>): ServingScenario {
  const base = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  base.serving.durationS = 120;
  base.serving.assumptions = { ...base.serving.assumptions, ...assumptions } as ServingScenario['serving']['assumptions'];
  const parsed = parseAnyScenario(base);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  return parsed.scenario as ServingScenario;
}

describe('the learner’s reward ranks held actions as the scored utility does (ARCHITECTURE §3)', () => {
  // The statistic: Spearman's ρ between the mean reward and the summary's utility over the
  // held actions of REWARD_CHECK_ACTIONS, and where the reward ranks the metric's best action.
  it('under credit "governed" and Eq. 1’s slots: ρ ≥ 0.75 and the metric’s best action is the reward’s best', () => {
    const check = rewardCheck(buildServingSpec(stationary({}), {}, 1));
    expect(check.spearman).toBeGreaterThanOrEqual(0.75);
    expect(check.bestByMetricRankByReward).toBe(1);
    expect(check.rows.every((r) => r.stallPct < 0.5)).toBe(true);
  }, 60_000);

  it('under credit "governed" and the fixed slot the reward is the metric within 0.01 for every held action', () => {
    const check = rewardCheck(buildServingSpec(stationary({ slot: 'fixed' }), {}, 1));
    expect(check.spearman).toBeGreaterThanOrEqual(0.9);
    expect(check.bestByMetricRankByReward).toBe(1);
    for (const r of check.rows) expect(Math.abs(r.rewardMean - r.utilityMean)).toBeLessThan(0.01);
  }, 60_000);

  it('the earlier credit ("slot", late requests kept) under Eq. 1 ranks them otherwise: the failure the reading mends', () => {
    const check = rewardCheck(buildServingSpec(stationary({ credit: 'slot', lateRequests: 'keep' }), {}, 1));
    expect(check.spearman).toBeLessThan(0.5);
    expect(check.bestByMetricRankByReward).toBeGreaterThan(1);
    expect(check.rows.some((r) => r.stallPct > 1)).toBe(true);
  }, 60_000);
});

describe('rank statistics', () => {
  it('ranks the largest first and shares ties', () => {
    expect(rankOf([3, 1, 3, 2])).toEqual([1.5, 4, 1.5, 3]);
  });
  it('gives ρ = 1 for the same order and −1 for the reverse', () => {
    expect(spearman([1, 2, 3, 4], [1, 2, 3, 4])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });
});
