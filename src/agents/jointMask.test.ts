import { describe, expect, it } from 'vitest';
import { MODEL_IDS } from '../engine/serving/models';
import type { ServingObservation } from '../engine/serving/scheduler';
import { DEFAULT_SERVING_ASSUMPTIONS, ServingRun, type ServingRunSpec } from '../engine/serving/simulation';
import { ACTION_COUNT, actionOf, instanceMemoryMb } from './features';
import { growing, HEALTH_BACKLOG_INTERVALS, LearnerHealth } from './health';
import type { Learner, LearnerStats } from './learner';
import { LearningScheduler } from './learningScheduler';

/** A learner that always takes the allowed action with the most memory (the largest b × m_c): the greediest neighbour. */
function greedyForMemory(): Learner {
  const stats: LearnerStats = { updates: 0, temperature: null, entropy: null, losses: {}, epsilon: null };
  return {
    kind: 'bcedge',
    act: (_s, maskBias, rows) => {
      const out = new Int32Array(rows);
      for (let r = 0; r < rows; r++) {
        let best = 0;
        let bestNeed = -1;
        for (let a = 0; a < ACTION_COUNT; a++) {
          if (maskBias[r * ACTION_COUNT + a] !== 0) continue;
          const { batchSize, instances } = actionOf(a);
          if (batchSize * instances > bestNeed) {
            bestNeed = batchSize * instances;
            best = a;
          }
        }
        out[r] = best;
      }
      return out;
    },
    policy: (_s, _m, rows) => new Float32Array(rows * ACTION_COUNT),
    record: () => undefined,
    train: () => 0,
    stats: () => stats,
    save: () => {
      throw new Error('not saved');
    },
    load: () => undefined,
    dispose: () => undefined,
  };
}

/** Six models on the 4 GB Nano: each model's largest setting fits alone, not all together. */
const nano: ServingRunSpec = {
  platform: 'nano',
  models: MODEL_IDS.map((model) => ({ model, weight: 1 })),
  rateRps: 30,
  durationMs: 5000,
  seed: 2,
  background: [],
  assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, slot: 'fixed' },
};

/** The memory the chosen actions need (instances and one batch each), MB, at each decision. */
function peakNeed(jointMask: boolean): { need: number; memory: number; oom: number; floor: number } {
  const scheduler = new LearningScheduler({ id: 'bcedge', learner: greedyForMemory(), train: false, explore: false, predictor: null, predictorBudget: 0.8, predictorSteps: 0, jointMask });
  let need = 0;
  let memory = 0;
  // (1, 1) is never masked (features.ts): the most one model at its floor can add past the memory.
  let floor = 0;
  const summary = new ServingRun(nano, {
    id: 'probe',
    decide: (o: ServingObservation) => {
      const a = scheduler.decide(o);
      let total = o.staticMemoryMb;
      o.models.forEach((m, i) => {
        total += a[i]!.instances * (instanceMemoryMb(m) + a[i]!.batchSize * m.profile.activationMbPerSample);
      });
      need = Math.max(need, total);
      for (const m of o.models) floor = Math.max(floor, instanceMemoryMb(m) + m.profile.activationMbPerSample);
      memory = o.memoryMb;
      return a;
    },
  }).runToEnd();
  return { need, memory, oom: summary.oomBatches, floor };
}

describe('the joint mask (registry jointMask)', () => {
  it('refuses a joint overload: the models chosen one after another fit together in memory', () => {
    const joint = peakNeed(true);
    expect(joint.need).toBeLessThanOrEqual(joint.memory + joint.floor);
    expect(joint.oom).toBe(0);
  });

  it('without it (the earlier reading) each model fits alone and together they overflow', () => {
    const alone = peakNeed(false);
    expect(alone.need).toBeGreaterThan(2 * alone.memory);
  });
});

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
