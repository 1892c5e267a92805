import { STALLED_UTILITY } from '../engine/metrics';
import type { ServingObservation } from '../engine/scheduler';

/** Decisions per model the action histogram and the decision entropy are taken over. */
export const HEALTH_DECISIONS = 256;
/** Rewards the stall share is taken over. */
export const HEALTH_REWARDS = 1000;
/** Reporting intervals the backlog trend is judged over (four quarters). */
export const HEALTH_BACKLOG_INTERVALS = 120;
/** A backlog below this many requests never counts as growing without bound. */
export const HEALTH_BACKLOG_FLOOR = 200;
/** Critic samples (one per model and reporting interval) the Q spread and the critic's gap are taken over. */
export const HEALTH_CRITIC_SAMPLES = 256;
/**
 * Above this share of stall rewards (%, over at least HEALTH_STALL_MIN_REWARDS) the lane is
 * stalling: its configurations leave models without completions. Measured on `bcedge-dynamic`
 * (3000 s), healthy learning lanes stayed at 0 %; a lane stuck on a joint configuration that
 * stalls read 41 % with no other warning.
 */
export const HEALTH_STALL_WARN_PCT = 25;
export const HEALTH_STALL_MIN_REWARDS = 100;
/** Reporting intervals (1 s each) the reward's recent mean is taken over. */
export const HEALTH_REWARD_INTERVALS = 60;
/** A recent mean over fewer rewards than this is not judged. */
export const HEALTH_REWARD_MIN = 60;
/**
 * The reward has fallen when its mean over the last HEALTH_REWARD_INTERVALS is this far below
 * the best such mean of the run so far (utility units, ln-valued: 1 is a factor e ≈ 2.7).
 * Measured on `bcedge-dynamic` (3000 s, seed 1): the best plan per phase moves by at most 0.4
 * between windows of 100 s as the load steps; BCEdge from scratch at a target entropy of 0.05,
 * lost from the step to 60 rps at 1000 s to 2100 s (−100 % against the oracle, late requests
 * rejected: no stall, no queue), read `reward 1019–2067 s`; at 0.15 the same lane read
 * 1039–1105 and 1116–1182 s, the first 180 s after the step, when it was 67–72 % below.
 */
export const HEALTH_REWARD_DROP = 1;
/** Below this decision entropy (nats, mean over the models) a sampling policy has collapsed. */
export const HEALTH_COLLAPSE_NATS = 0.1;

/** What a learning lane reports of its health (the lane card, the CLI's `learning.health`). */
export interface HealthReport {
  /** Entropy of the actions chosen over each model's last HEALTH_DECISIONS decisions, nats, mean over models. */
  readonly decisionEntropy: number | null;
  /** Share of the last HEALTH_REWARDS rewards that were the stall's −10, %. */
  readonly stallSharePct: number | null;
  /** Per model: its most chosen actions over its last decisions, [action index, share %], at most 3. */
  readonly topActions: readonly (readonly (readonly [number, number])[])[];
  /**
   * The critic's spread, max − min of Q(s, ·) over the allowed actions, mean over the last
   * HEALTH_CRITIC_SAMPLES decisions (null: no critic, PPO, or none yet). A spread near 0 is a
   * critic that cannot tell the actions apart.
   */
  readonly qSpread: number | null;
  /**
   * The gap between the critic's best allowed action and the one chosen, Q(s, best) − Q(s, a),
   * mean over the same decisions (null as above): 0 when the policy follows its critic; large
   * and lasting when the policy ignores it (TAC's collapse of version 6).
   */
  readonly qGap: number | null;
  /** Requests queued over all models at the last decision. */
  readonly backlog: number;
  /** The backlog rose through each quarter of the last HEALTH_BACKLOG_INTERVALS reporting intervals, to above HEALTH_BACKLOG_FLOOR. */
  readonly backlogGrowing: boolean;
  /** A sampling policy whose decisions have stopped varying. */
  readonly collapsed: boolean;
  /** The warnings a lane card shows, in words (empty: healthy). */
  readonly warnings: readonly string[];
  /**
   * The stretches of the run so far during which the lane was stalling or its backlog grew
   * without bound, judged once a reporting interval (the last may still be open: `toS` null).
   * A lane lost through a load step and recovered by the end reads healthy now; this keeps what
   * it went through. At most HEALTH_EPISODES, the earliest kept.
   */
  readonly episodes: readonly HealthEpisode[];
  /** The largest backlog seen at a reporting interval's first decision, and when (simulated s). */
  readonly peakBacklog: { readonly requests: number; readonly atS: number };
  /** The mean reward over the last HEALTH_REWARD_INTERVALS reporting intervals (null: too few rewards yet). */
  readonly rewardMean: number | null;
  /** The best such mean of the run so far, and when it ended (simulated s); null as above. */
  readonly bestRewardMean: { readonly mean: number; readonly atS: number } | null;
  /** The recent mean lies more than HEALTH_REWARD_DROP below the best. */
  readonly rewardFallen: boolean;
}

/** A stretch during which a warning held (see `HealthReport.episodes`). */
export interface HealthEpisode {
  readonly kind: 'stalling' | 'backlog' | 'reward';
  readonly fromS: number;
  /** Simulated s at which it no longer held; null while it still does. */
  readonly toS: number | null;
}

/** Most episodes a report keeps (a lane that flickers in and out of a warning still reports briefly). */
export const HEALTH_EPISODES = 20;

/**
 * A learner's health, watched as it acts (ARCHITECTURE §3): how varied its decisions still are,
 * how many of its rewards are stalls, and whether the queues it leaves behind grow without
 * bound. Pure bookkeeping over what the learning scheduler sees; it changes no decision.
 */
export class LearnerHealth {
  private readonly actions: Int32Array[] = [];
  private readonly filled: number[] = [];
  private actionCount = 0;
  private readonly rewards = new Float64Array(HEALTH_REWARDS);
  private rewardsSeen = 0;
  /** Stalls among the rewards in the ring (kept as rewards come and go). */
  private stallsKept = 0;
  private episodes: HealthEpisode[] = [];
  private peak = { requests: 0, atS: 0 };
  private readonly backlogs: number[] = [];
  private lastInterval = -1;
  private lastBacklog = 0;
  private readonly spreads = new Float64Array(HEALTH_CRITIC_SAMPLES);
  private readonly gaps = new Float64Array(HEALTH_CRITIC_SAMPLES);
  private critiques = 0;
  /** Rewards of the reporting interval under way: their sum and count. */
  private intervalRewardSum = 0;
  private intervalRewardCount = 0;
  /** Per reporting interval, the last HEALTH_REWARD_INTERVALS: rewards' sum and count. */
  private readonly rewardIntervals: { readonly sum: number; readonly count: number }[] = [];
  private bestReward: { readonly mean: number; readonly atS: number } | null = null;

  /** The critic's Q(s, ·) at a decision, the allowed actions (1) and the action chosen. */
  critique(q: ArrayLike<number>, allowed: ArrayLike<number>, chosen: number): void {
    let best = Number.NEGATIVE_INFINITY;
    let worst = Number.POSITIVE_INFINITY;
    for (let a = 0; a < q.length; a++) {
      if (allowed[a] !== 1) continue;
      best = Math.max(best, q[a]!);
      worst = Math.min(worst, q[a]!);
    }
    if (!Number.isFinite(best)) return;
    const k = this.critiques % HEALTH_CRITIC_SAMPLES;
    this.spreads[k] = best - worst;
    this.gaps[k] = best - q[chosen]!;
    this.critiques++;
  }

  /** Model m chose action a (of `actionCount`). */
  decision(m: number, a: number, actionCount: number): void {
    this.actionCount = actionCount;
    while (this.actions.length <= m) {
      this.actions.push(new Int32Array(HEALTH_DECISIONS));
      this.filled.push(0);
    }
    this.actions[m]![this.filled[m]! % HEALTH_DECISIONS] = a;
    this.filled[m]!++;
  }

  /** A reward was stored. */
  reward(r: number): void {
    const k = this.rewardsSeen % HEALTH_REWARDS;
    if (this.rewardsSeen >= HEALTH_REWARDS && isStall(this.rewards[k]!)) this.stallsKept--;
    if (isStall(r)) this.stallsKept++;
    this.rewards[k] = r;
    this.rewardsSeen++;
    this.intervalRewardSum += r;
    this.intervalRewardCount++;
  }

  /** The mean reward over the last HEALTH_REWARD_INTERVALS reporting intervals, once they are all there with enough rewards. */
  private recentReward(): number | null {
    if (this.rewardIntervals.length < HEALTH_REWARD_INTERVALS) return null;
    let sum = 0;
    let count = 0;
    for (const i of this.rewardIntervals) {
      sum += i.sum;
      count += i.count;
    }
    return count < HEALTH_REWARD_MIN ? null : sum / count;
  }

  /** Whether the recent mean reward lies more than HEALTH_REWARD_DROP below the best of the run so far. */
  private rewardFallen(): boolean {
    const recent = this.recentReward();
    return recent !== null && this.bestReward !== null && this.bestReward.mean - recent > HEALTH_REWARD_DROP;
  }

  /** Whether over HEALTH_STALL_WARN_PCT % of the last rewards (at least HEALTH_STALL_MIN_REWARDS) are stalls. */
  private stalling(): boolean {
    const kept = Math.min(this.rewardsSeen, HEALTH_REWARDS);
    return kept >= HEALTH_STALL_MIN_REWARDS && (100 * this.stallsKept) / kept > HEALTH_STALL_WARN_PCT;
  }

  /** Opens or closes the episode of `kind` at `atS` as the warning now holds or not. */
  private track(kind: HealthEpisode['kind'], holds: boolean, atS: number): void {
    let open = -1;
    for (let i = this.episodes.length - 1; i >= 0; i--) {
      if (this.episodes[i]!.kind === kind) {
        if (this.episodes[i]!.toS === null) open = i;
        break;
      }
    }
    if (holds && open < 0 && this.episodes.length < HEALTH_EPISODES) this.episodes.push({ kind, fromS: atS, toS: null });
    if (!holds && open >= 0) this.episodes[open] = { ...this.episodes[open]!, toS: atS };
  }

  /** The queues at a decision; one sample per reporting interval. */
  backlog(observation: ServingObservation): void {
    let queued = 0;
    for (const o of observation.models) queued += o.queueLength;
    this.lastBacklog = queued;
    if (observation.slot === this.lastInterval) return;
    this.lastInterval = observation.slot;
    this.backlogs.push(queued);
    if (this.backlogs.length > HEALTH_BACKLOG_INTERVALS) this.backlogs.shift();
    const atS = observation.nowMs / 1000;
    if (queued > this.peak.requests) this.peak = { requests: queued, atS };
    this.rewardIntervals.push({ sum: this.intervalRewardSum, count: this.intervalRewardCount });
    this.intervalRewardSum = 0;
    this.intervalRewardCount = 0;
    if (this.rewardIntervals.length > HEALTH_REWARD_INTERVALS) this.rewardIntervals.shift();
    const recent = this.recentReward();
    if (recent !== null && (this.bestReward === null || recent > this.bestReward.mean)) this.bestReward = { mean: recent, atS };
    this.track('stalling', this.stalling(), atS);
    this.track('backlog', growing(this.backlogs), atS);
    this.track('reward', this.rewardFallen(), atS);
  }

  report(explore: boolean): HealthReport {
    const entropies: number[] = [];
    const topActions: (readonly [number, number])[][] = [];
    this.actions.forEach((ring, m) => {
      const n = Math.min(this.filled[m]!, HEALTH_DECISIONS);
      const counts = new Map<number, number>();
      for (let i = 0; i < n; i++) counts.set(ring[i]!, (counts.get(ring[i]!) ?? 0) + 1);
      let h = 0;
      for (const c of counts.values()) h -= (c / n) * Math.log(c / n);
      if (n >= 32) entropies.push(h);
      topActions.push(
        Array.from(counts.entries())
          .sort((a, b) => b[1] - a[1] || a[0] - b[0])
          .slice(0, 3)
          .map(([a, c]) => [a, (100 * c) / Math.max(1, n)] as const),
      );
    });
    const decisionEntropy = entropies.length === 0 ? null : entropies.reduce((a, b) => a + b, 0) / entropies.length;
    const kept = Math.min(this.rewardsSeen, HEALTH_REWARDS);
    const stallSharePct = kept === 0 ? null : (100 * this.stallsKept) / kept;
    const sampled = Math.min(this.critiques, HEALTH_CRITIC_SAMPLES);
    const meanOf = (xs: Float64Array) => (sampled === 0 ? null : xs.subarray(0, sampled).reduce((a, b) => a + b, 0) / sampled);
    const qSpread = meanOf(this.spreads);
    const qGap = meanOf(this.gaps);
    const backlogGrowing = growing(this.backlogs);
    const collapsed = explore && decisionEntropy !== null && decisionEntropy < HEALTH_COLLAPSE_NATS && this.actionCount > 1;
    const warnings: string[] = [];
    if (collapsed) warnings.push(`policy collapsed: its last decisions hardly vary (entropy ${decisionEntropy.toFixed(2)} nats), so it no longer explores`);
    if (stallSharePct !== null && kept >= HEALTH_STALL_MIN_REWARDS && stallSharePct > HEALTH_STALL_WARN_PCT) warnings.push(`stalling: ${stallSharePct.toFixed(0)} % of its last ${kept} rewards are the stall's ${STALLED_UTILITY}, its configurations leave models without completions`);
    if (backlogGrowing) warnings.push(`backlog grows without bound: ${this.lastBacklog} requests queued and rising through the last ${this.backlogs.length} s`);
    const rewardMean = this.recentReward();
    const rewardFallen = this.rewardFallen();
    if (rewardFallen) warnings.push(`reward fell: ${rewardMean!.toFixed(2)} on average over the last ${HEALTH_REWARD_INTERVALS} s against ${this.bestReward!.mean.toFixed(2)} at its best (to ${Math.round(this.bestReward!.atS)} s)`);
    return {
      decisionEntropy,
      stallSharePct,
      topActions,
      qSpread,
      qGap,
      backlog: this.lastBacklog,
      backlogGrowing,
      collapsed,
      warnings,
      episodes: this.episodes.slice(),
      peakBacklog: this.peak,
      rewardMean,
      bestRewardMean: this.bestReward,
      rewardFallen,
    };
  }

  snapshot(): HealthSnapshot {
    return {
      actions: this.actions.map((a) => a.slice()),
      filled: this.filled.slice(),
      actionCount: this.actionCount,
      rewards: this.rewards.slice(),
      rewardsSeen: this.rewardsSeen,
      stallsKept: this.stallsKept,
      episodes: this.episodes.slice(),
      peak: this.peak,
      backlogs: this.backlogs.slice(),
      lastInterval: this.lastInterval,
      lastBacklog: this.lastBacklog,
      spreads: this.spreads.slice(),
      gaps: this.gaps.slice(),
      critiques: this.critiques,
      intervalReward: { sum: this.intervalRewardSum, count: this.intervalRewardCount },
      rewardIntervals: this.rewardIntervals.slice(),
      bestReward: this.bestReward,
    };
  }

  restore(s: HealthSnapshot): void {
    this.actions.length = 0;
    this.actions.push(...s.actions.map((a) => a.slice()));
    this.filled.length = 0;
    this.filled.push(...s.filled);
    this.actionCount = s.actionCount;
    this.rewards.set(s.rewards);
    this.rewardsSeen = s.rewardsSeen;
    this.stallsKept = s.stallsKept;
    this.episodes = s.episodes.slice();
    this.peak = s.peak;
    this.backlogs.length = 0;
    this.backlogs.push(...s.backlogs);
    this.lastInterval = s.lastInterval;
    this.lastBacklog = s.lastBacklog;
    this.spreads.set(s.spreads);
    this.gaps.set(s.gaps);
    this.critiques = s.critiques;
    this.intervalRewardSum = s.intervalReward.sum;
    this.intervalRewardCount = s.intervalReward.count;
    this.rewardIntervals.length = 0;
    this.rewardIntervals.push(...s.rewardIntervals);
    this.bestReward = s.bestReward;
  }
}

/** A `LearnerHealth`'s state for a checkpoint. */
export interface HealthSnapshot {
  readonly actions: readonly Int32Array[];
  readonly filled: readonly number[];
  readonly actionCount: number;
  readonly rewards: Float64Array;
  readonly rewardsSeen: number;
  readonly stallsKept: number;
  readonly episodes: readonly HealthEpisode[];
  readonly peak: { readonly requests: number; readonly atS: number };
  readonly backlogs: readonly number[];
  readonly lastInterval: number;
  readonly lastBacklog: number;
  readonly spreads: Float64Array;
  readonly gaps: Float64Array;
  readonly critiques: number;
  readonly intervalReward: { readonly sum: number; readonly count: number };
  readonly rewardIntervals: readonly { readonly sum: number; readonly count: number }[];
  readonly bestReward: { readonly mean: number; readonly atS: number } | null;
}

/**
 * Whether a backlog series grows without bound: a full window whose four quarters' means each
 * rise by at least 10 % on the one before, ending above HEALTH_BACKLOG_FLOOR requests. A queue
 * that drains, or holds steady however long, does not.
 */
export function growing(series: readonly number[]): boolean {
  if (series.length < HEALTH_BACKLOG_INTERVALS) return false;
  const q = HEALTH_BACKLOG_INTERVALS / 4;
  const means = [0, 1, 2, 3].map((k) => series.slice(k * q, (k + 1) * q).reduce((a, b) => a + b, 0) / q);
  return means[3]! > HEALTH_BACKLOG_FLOOR && means.every((m, k) => k === 0 || m > 1.1 * means[k - 1]!);
}

/** The stall's −10 (rewards are compared with a little slack: they come through float arithmetic). */
function isStall(r: number): boolean {
  return r <= STALLED_UTILITY + 1e-9;
}
