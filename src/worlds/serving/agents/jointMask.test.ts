import { describe, expect, it } from 'vitest';
import { MODEL_IDS } from '../engine/models';
import type { ServingObservation } from '../engine/scheduler';
import { ServingRun } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../engine/assumptions';
import { ACTION_COUNT, actionOf, instanceMemoryMb } from './features';
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
