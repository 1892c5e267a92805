import type { AgentFile } from '../agents/learner';
import type { LearningScheduler } from '../agents/learningScheduler';
import { DiscreteSac } from '../agents/sac';
import type { LearningLive } from './servingProtocol';

/** Points a learning curve keeps before neighbours merge (the stride doubles). */
const CURVE_POINTS = 512;

/** A learning lane's curve and recent rewards (see `LearningLane.snapshot`). */
export interface LearningLaneSnapshot {
  readonly curve: readonly [Float64Array, Float64Array, Float64Array, Float64Array];
  readonly scalars: Float64Array;
  readonly pending: { readonly slots: number; readonly reward: number; readonly rewardCount: number; readonly temperature: number; readonly lastSlot: number };
  readonly recent: Float64Array;
}
/** Slots of the running mean reward (the convergence criterion of the bench's Fig. 10). */
export const RECENT_SLOTS = 100;
/** The policy is sent at most this often, wall-clock ms (a softmax over 6 × 64 actions). */
const POLICY_INTERVAL_MS = 250;

/**
 * The worker's side of one learning lane (BCEdge, TAC, PPO, DDQN): its learning curve
 * (mean reward and temperature per slot, downsampled by merging pairs), the policy for the
 * heatmap, and the agent's export and import. Slot records are sums, so merging is exact.
 */
export class LearningLane {
  private slot = new Float64Array(CURVE_POINTS);
  private reward = new Float64Array(CURVE_POINTS);
  private rewardCount = new Float64Array(CURVE_POINTS);
  private temperature = new Float64Array(CURVE_POINTS);
  private length = 0;
  private stride = 1;
  private pending = { slots: 0, reward: 0, rewardCount: 0, temperature: 0, lastSlot: 0 };
  private lastPolicyMs = Number.NEGATIVE_INFINITY;
  /** The rewards of the last RECENT_SLOTS slots (a ring) and their sum. */
  private readonly recent = new Float64Array(RECENT_SLOTS);
  private recentCount = 0;
  private recentNext = 0;
  private recentSum = 0;

  constructor(readonly scheduler: LearningScheduler) {}

  /** Called after every slot (reporting interval): its reward is the mean over the transitions stored in it. */
  recordSlot(slot: number): void {
    const reward = this.scheduler.takeIntervalReward();
    const p = this.pending;
    p.slots++;
    p.lastSlot = slot;
    if (reward !== null) {
      p.reward += reward;
      p.rewardCount++;
      if (this.recentCount === RECENT_SLOTS) this.recentSum -= this.recent[this.recentNext]!;
      else this.recentCount++;
      this.recent[this.recentNext] = reward;
      this.recentSum += reward;
      this.recentNext = (this.recentNext + 1) % RECENT_SLOTS;
    }
    // α only (stats() would read the last losses back from the backend on every slot).
    const learner = this.scheduler.learner;
    p.temperature += learner instanceof DiscreteSac && learner.config.entropy ? learner.temperature : Number.NaN;
    if (p.slots < this.stride) return;
    if (this.length === CURVE_POINTS) this.compact();
    const i = this.length++;
    this.slot[i] = p.lastSlot;
    this.reward[i] = p.reward;
    this.rewardCount[i] = p.rewardCount;
    this.temperature[i] = p.temperature / p.slots;
    this.pending = { slots: 0, reward: 0, rewardCount: 0, temperature: 0, lastSlot: 0 };
  }

  private compact(): void {
    const half = CURVE_POINTS / 2;
    for (let i = 0; i < half; i++) {
      const a = 2 * i;
      const b = 2 * i + 1;
      this.slot[i] = this.slot[b]!;
      this.reward[i] = this.reward[a]! + this.reward[b]!;
      this.rewardCount[i] = this.rewardCount[a]! + this.rewardCount[b]!;
      this.temperature[i] = (this.temperature[a]! + this.temperature[b]!) / 2;
    }
    this.length = half;
    this.stride *= 2;
  }

  /** The lane's live state for a frame; the policy when `force` (a step, a pause) or when it is due. */
  live(nowMs: number, decisionUs: number, force = false): { live: LearningLive; transfer: ArrayBuffer[] } {
    const t = this.scheduler.telemetry();
    const stats = this.scheduler.learner.stats();
    const n = this.length;
    const slot = this.slot.slice(0, n);
    const reward = Float64Array.from({ length: n }, (_, i) => (this.rewardCount[i]! > 0 ? this.reward[i]! / this.rewardCount[i]! : Number.NaN));
    const temperature = this.temperature.slice(0, n);
    let policy: Float32Array | null = null;
    let masks: Uint8Array | null = null;
    if (force || nowMs - this.lastPolicyMs >= POLICY_INTERVAL_MS) {
      this.lastPolicyMs = nowMs;
      policy = this.scheduler.policy();
      masks = this.scheduler.lastMasks().slice();
    }
    const transfer = [slot.buffer, reward.buffer, temperature.buffer, ...(policy ? [policy.buffer as ArrayBuffer] : []), ...(masks ? [masks.buffer as ArrayBuffer] : [])];
    return {
      live: {
        kind: t.kind,
        slots: t.slots,
        updates: t.updates,
        transitions: t.transitions,
        lastReward: t.lastReward,
        recentReward: this.recentCount === 0 ? null : this.recentSum / this.recentCount,
        recentSlots: this.recentCount,
        temperature: stats.temperature,
        entropy: stats.entropy,
        epsilon: stats.epsilon,
        losses: stats.losses,
        predictorMasked: t.predictorMasked,
        decisionUs,
        curve: { slot, reward, temperature },
        policy,
        masks,
        health: this.scheduler.healthReport(),
      },
      transfer,
    };
  }

  /** The curve and the recent rewards, for a checkpoint of the session (the learner is its scheduler's). */
  snapshot(): LearningLaneSnapshot {
    return {
      curve: [this.slot.slice(0, this.length), this.reward.slice(0, this.length), this.rewardCount.slice(0, this.length), this.temperature.slice(0, this.length)],
      scalars: Float64Array.of(this.length, this.stride, this.recentCount, this.recentNext, this.recentSum),
      pending: { ...this.pending },
      recent: this.recent.slice(),
    };
  }

  restore(s: LearningLaneSnapshot): void {
    const [slot, reward, rewardCount, temperature] = s.curve;
    this.slot.set(slot);
    this.reward.set(reward);
    this.rewardCount.set(rewardCount);
    this.temperature.set(temperature);
    [this.length, this.stride, this.recentCount, this.recentNext, this.recentSum] = Array.from(s.scalars) as [number, number, number, number, number];
    this.pending = { ...s.pending };
    this.recent.set(s.recent);
  }

  exportAgent(trainedOn: string): AgentFile {
    return this.scheduler.learner.save(trainedOn);
  }

  /** Loads an agent into the lane's learner; the error names the field when it does not fit. */
  importAgent(file: unknown): { readonly ok: true } | { readonly ok: false; readonly error: string } {
    try {
      this.scheduler.learner.load(file as AgentFile);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
