import { STALLED_UTILITY } from '../engine/metrics';
import type { ServingAction, ServingObservation, ServingScheduler } from '../engine/scheduler';
import { ServingRun } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';

/** One action held by every model for a whole run: what the learner's reward and the summary's utility made of it. */
export interface RewardCheckRow {
  readonly batchSize: number;
  readonly instances: number;
  /** The mean reward a learner would have stored (each decision's, weighted by its length: the time-average the summaries take). */
  readonly rewardMean: number;
  /** The summary's utility of the run (Eq. 3 per reporting interval and model, ARCHITECTURE §3). */
  readonly utilityMean: number;
  /** Share of the rewards that were the stall's −10, %. */
  readonly stallPct: number;
  readonly rewards: number;
}

/** The verdict of a reward-vs-metric check. */
export interface RewardCheck {
  readonly rows: readonly RewardCheckRow[];
  /** Spearman's rank correlation between the rows' mean rewards and utilities. */
  readonly spearman: number;
  /** The action the metric ranks first, and where the reward ranks it (1 = first too). */
  readonly bestByMetric: string;
  readonly bestByMetricRankByReward: number;
  readonly bestByReward: string;
}

/**
 * The actions a reward-vs-metric check holds by default: BCEdge Fig. 1's grid thinned to the
 * settings a scheduler of six models on one device could sensibly pick.
 */
export const REWARD_CHECK_ACTIONS: readonly { readonly batchSize: number; readonly instances: number }[] = [
  { batchSize: 1, instances: 1 },
  { batchSize: 2, instances: 1 },
  { batchSize: 4, instances: 1 },
  { batchSize: 8, instances: 1 },
  { batchSize: 1, instances: 2 },
  { batchSize: 4, instances: 2 },
  { batchSize: 8, instances: 2 },
  { batchSize: 32, instances: 1 },
  { batchSize: 128, instances: 1 },
];

/**
 * Holds each action for every model for a whole run of `spec` and sets the reward a learner
 * would have been given (the observations' rewards under the spec's `credit` reading: the
 * settled decisions under `governed`, each model's last slot under `slot`) beside the utility
 * the summary scores (ARCHITECTURE §3). A learner can only learn what its reward ranks first:
 * if the two rank the actions differently, the lab's verdict on a learner is about its reward.
 */
export function rewardCheck(spec: ServingRunSpec, actions = REWARD_CHECK_ACTIONS): RewardCheck {
  const rows = actions.map(({ batchSize, instances }) => {
    const collector = new RewardCollector(spec.models.length, { batchSize, instances });
    const summary = new ServingRun(spec, collector).runToEnd();
    return { batchSize, instances, rewardMean: collector.mean, utilityMean: summary.utilityMean, stallPct: collector.stallPct, rewards: collector.count };
  });
  const byReward = rankOf(rows.map((r) => r.rewardMean));
  const byMetric = rankOf(rows.map((r) => r.utilityMean));
  const best = byMetric.indexOf(1);
  const bestReward = byReward.indexOf(1);
  const name = (r: RewardCheckRow) => `b${r.batchSize}m${r.instances}`;
  return {
    rows,
    spearman: spearman(byReward, byMetric),
    bestByMetric: name(rows[best]!),
    bestByMetricRankByReward: byReward[best]!,
    bestByReward: name(rows[bestReward]!),
  };
}

/** A scheduler that holds one action and keeps the rewards it is given, weighted by their decisions' lengths. */
class RewardCollector implements ServingScheduler {
  readonly id = 'reward-check';
  private sum = 0;
  private weight = 0;
  private stalls = 0;
  count = 0;
  private readonly action: ServingAction;

  constructor(models: number, action: { readonly batchSize: number; readonly instances: number }) {
    this.action = Array.from({ length: models }, () => action);
  }

  decide(observation: ServingObservation): ServingAction {
    for (const o of observation.models) {
      if (o.due === false) continue;
      if (o.settled !== undefined) {
        for (const s of o.settled) if (s.utility !== null) this.add(s.utility, s.durationMs);
      } else if (o.lastSlot?.utility !== null && o.lastSlot !== null) {
        // Credit `slot`: the last slot's utility (its length is the reporting interval or Eq. 1's t_i).
        this.add(o.lastSlot.utility, 1);
      }
    }
    return this.action;
  }

  private add(u: number, weight: number): void {
    this.sum += u * weight;
    this.weight += weight;
    this.count++;
    if (u <= STALLED_UTILITY + 1e-9) this.stalls++;
  }

  get mean(): number {
    return this.weight > 0 ? this.sum / this.weight : 0;
  }

  get stallPct(): number {
    return this.count > 0 ? (100 * this.stalls) / this.count : 0;
  }
}

/** Ranks, 1 = largest; ties share their mean rank. */
export function rankOf(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's ρ of two rankings (Pearson's correlation of the ranks). */
export function spearman(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / n;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}
