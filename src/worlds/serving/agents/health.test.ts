import { describe, expect, it } from 'vitest';
import { ACTION_COUNT } from './features';
import { growing, HEALTH_BACKLOG_INTERVALS, HEALTH_REWARD_DROP, HEALTH_REWARD_INTERVALS, LearnerHealth } from './health';

describe('learner health', () => {
  it('flags a collapsed sampling policy (one action, decision after decision)', () => {
    const h = new LearnerHealth();
    for (let k = 0; k < 300; k++) for (let m = 0; m < 3; m++) h.decision(m, 9, ACTION_COUNT);
    const report = h.report(true);
    expect(report.collapsed).toBe(true);
    expect(report.decisionEntropy).toBe(0);
    expect(report.warnings.join(' ')).toContain('policy collapsed');
    expect(report.topActions[0]).toEqual([[9, 100]]);
    // A greedy lane (explore 0) is deterministic by design: no warning.
    expect(h.report(false).collapsed).toBe(false);
  });

  it('does not flag a policy that still varies', () => {
    const h = new LearnerHealth();
    for (let k = 0; k < 300; k++) h.decision(0, k % 4, ACTION_COUNT);
    const report = h.report(true);
    expect(report.collapsed).toBe(false);
    expect(report.decisionEntropy).toBeCloseTo(Math.log(4), 9);
  });

  it('reads the critic: the spread of Q over the allowed actions and the gap to the chosen one', () => {
    const h = new LearnerHealth();
    expect(h.report(true).qSpread).toBeNull();
    const q = Float32Array.from({ length: ACTION_COUNT }, (_, a) => a / 10);
    const allowed = Uint8Array.from({ length: ACTION_COUNT }, (_, a) => (a < 10 ? 1 : 0));
    // Allowed 0…9: Q from 0 to 0.9; the masked actions' higher Q does not count.
    h.critique(q, allowed, 9);
    h.critique(q, allowed, 4);
    const report = h.report(true);
    expect(report.qSpread).toBeCloseTo(0.9, 6);
    expect(report.qGap).toBeCloseTo((0 + 0.5) / 2, 6);
    // A snapshot carries it.
    const copy = new LearnerHealth();
    copy.restore(h.snapshot());
    expect(copy.report(true).qGap).toBeCloseTo(0.25, 6);
  });

  it('counts the stall rewards', () => {
    const h = new LearnerHealth();
    for (let k = 0; k < 100; k++) h.reward(k < 25 ? -10 : 7.5);
    expect(h.report(true).stallSharePct).toBe(25);
    expect(h.report(true).warnings).toEqual([]);
  });

  it('warns when a lane is stalling: over a quarter of its last rewards are the stall', () => {
    const h = new LearnerHealth();
    for (let k = 0; k < 200; k++) h.reward(k % 5 < 2 ? -10 : 7.5);
    expect(h.report(true).stallSharePct).toBe(40);
    expect(h.report(true).warnings.join(' ')).toContain('stalling: 40 % of its last 200 rewards');
    // Too few rewards to judge.
    const early = new LearnerHealth();
    for (let k = 0; k < 20; k++) early.reward(-10);
    expect(early.report(true).warnings).toEqual([]);
  });

  it('keeps the stretches a warning held: a lane lost through a load step and recovered reads healthy now, and its report says what it went through', () => {
    const h = new LearnerHealth();
    // One observation per reporting interval (1 s): the queue holds at 50 for 200 s, grows by 40
    // a second from 200 to 500 s, then drains to 0 by 600 s and holds there to 900 s.
    const queued = (t: number) => (t < 200 ? 50 : t < 500 ? 50 + 40 * (t - 200) : Math.max(0, 12_050 - 120 * (t - 500)));
    const observe = (t: number) => h.backlog({ slot: t, nowMs: t * 1000, models: [{ queueLength: queued(t) }] } as never);
    for (let t = 0; t < 900; t++) {
      observe(t);
      // Stalls while the queue grows, from 300 s on.
      h.reward(t >= 300 && t < 500 ? -10 : 7.5);
    }
    const report = h.report(true);
    expect(report.warnings).toEqual([]);
    expect(report.peakBacklog).toEqual({ requests: 12_050, atS: 500 });
    const backlog = report.episodes.filter((e) => e.kind === 'backlog');
    expect(backlog).toHaveLength(1);
    // Judged over the last 120 s: it reads growing once three quarters of that window have risen.
    expect(backlog[0]!.fromS).toBeGreaterThan(200);
    expect(backlog[0]!.fromS).toBeLessThan(320);
    expect(backlog[0]!.toS).toBeGreaterThan(500);
    expect(backlog[0]!.toS).toBeLessThan(540);
    const stalling = report.episodes.filter((e) => e.kind === 'stalling');
    expect(stalling).toHaveLength(1);
    expect(stalling[0]!.fromS).toBeGreaterThan(300);
    expect(stalling[0]!.toS).toBeGreaterThan(500);
    // A checkpoint carries them; a lane still in a warning has its stretch open.
    const copy = new LearnerHealth();
    copy.restore(h.snapshot());
    expect(copy.report(true).episodes).toEqual(report.episodes);
    const stuck = new LearnerHealth();
    for (let t = 0; t < 300; t++) {
      stuck.backlog({ slot: t, nowMs: t * 1000, models: [{ queueLength: 300 + 40 * t }] } as never);
    }
    expect(stuck.report(true).episodes).toEqual([{ kind: 'backlog', fromS: expect.any(Number) as number, toS: null }]);
    expect(stuck.report(true).warnings.join(' ')).toContain('backlog grows without bound');
  });

  it('tells a backlog that grows without bound from one that holds or drains', () => {
    const q = HEALTH_BACKLOG_INTERVALS;
    expect(growing(Array.from({ length: q }, (_, i) => 100 + 20 * i))).toBe(true);
    expect(growing(Array.from({ length: q }, () => 5000))).toBe(false);
    expect(growing(Array.from({ length: q }, (_, i) => 5000 - 30 * i))).toBe(false);
    expect(growing(Array.from({ length: q - 1 }, (_, i) => 100 + 20 * i))).toBe(false);
    // Growing, but small: a few requests are no congestion.
    expect(growing(Array.from({ length: q }, (_, i) => 1 + i))).toBe(false);
  });
});

describe('the reward falling (a lane lost without stalls or a growing queue)', () => {
  /** One observation per reporting interval (1 s) with `perS` rewards of `level(t)` each. */
  function drive(h: LearnerHealth, fromS: number, toS: number, level: (t: number) => number, perS = 3): void {
    for (let t = fromS; t < toS; t++) {
      for (let k = 0; k < perS; k++) h.reward(level(t));
      h.backlog({ slot: t, nowMs: t * 1000, models: [{ queueLength: 5 }] } as never);
    }
  }

  it('warns while the recent mean lies far below the best of the run, and keeps the stretch once it recovers', () => {
    const h = new LearnerHealth();
    // 7.5 for 600 s; 4.5 (rejected late requests, no stall, no queue) from 600 to 1200 s; 7.5 again.
    drive(h, 0, 1200, (t) => (t < 600 ? 7.5 : 4.5));
    const lost = h.report(true);
    expect(lost.rewardFallen).toBe(true);
    expect(lost.rewardMean).toBeCloseTo(4.5, 9);
    expect(lost.bestRewardMean?.mean).toBeCloseTo(7.5, 9);
    expect(lost.warnings.join(' ')).toContain('reward fell: 4.50 on average over the last 60 s against 7.50');
    expect(lost.stallSharePct).toBe(0);
    expect(lost.backlogGrowing).toBe(false);
    drive(h, 1200, 1500, () => 7.5);
    const back = h.report(true);
    expect(back.rewardFallen).toBe(false);
    expect(back.warnings).toEqual([]);
    const fell = back.episodes.filter((e) => e.kind === 'reward');
    expect(fell).toHaveLength(1);
    // The 60 s mean crosses the drop a third of the way into the fall and back a third of the way into the recovery.
    expect(fell[0]!.fromS).toBeGreaterThan(600);
    expect(fell[0]!.fromS).toBeLessThan(600 + HEALTH_REWARD_INTERVALS);
    expect(fell[0]!.toS).toBeGreaterThan(1200);
    expect(fell[0]!.toS).toBeLessThan(1200 + HEALTH_REWARD_INTERVALS);
    // A checkpoint carries the reward's history.
    const copy = new LearnerHealth();
    copy.restore(h.snapshot());
    drive(copy, 1500, 1600, () => 4.5);
    drive(h, 1500, 1600, () => 4.5);
    expect(copy.report(true)).toEqual(h.report(true));
    expect(h.report(true).rewardFallen).toBe(true);
  });

  it('does not warn on a step of the load that moves the reward by less than the drop, nor on a learner that climbs', () => {
    // A load step: the oracle's own utility moves by at most 0.4 between phases of bcedge-dynamic.
    const steps = new LearnerHealth();
    drive(steps, 0, 900, (t) => (t < 300 ? 7.9 : t < 600 ? 7.5 : 7.9));
    expect(7.9 - 7.5).toBeLessThan(HEALTH_REWARD_DROP);
    // A learner from scratch, climbing from 3 to 7.9: its best rises with it.
    const climbing = new LearnerHealth();
    drive(climbing, 0, 600, (t) => Math.min(7.9, 3 + t / 50));
    for (const h of [steps, climbing]) {
      const report = h.report(true);
      expect(report.episodes).toEqual([]);
      expect(report.rewardFallen).toBe(false);
      expect(report.rewardMean).not.toBeNull();
    }
  });

  it('judges nothing before a full window with enough rewards', () => {
    const h = new LearnerHealth();
    drive(h, 0, HEALTH_REWARD_INTERVALS - 1, () => 7);
    expect(h.report(true).rewardMean).toBeNull();
    const sparse = new LearnerHealth();
    drive(sparse, 0, 2 * HEALTH_REWARD_INTERVALS, () => 7, 0);
    expect(sparse.report(true).rewardMean).toBeNull();
    expect(sparse.report(true).bestRewardMean).toBeNull();
  });
});
