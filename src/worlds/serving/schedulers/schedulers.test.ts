import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { createRng } from '../../../engine/rng';
import { MODEL_IDS, MODELS } from '../engine/models';
import {
  BATCH_SIZES,
  INSTANCE_COUNTS,
  isValidAction,
  type AdmissionView,
  type ServingAction,
  type ServingObservation,
} from '../engine/scheduler';
import { ServingRun } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../engine/assumptions';
import { EARLIER_SERVING_READINGS } from '../engine/readings';
import { admitByEdf, createDeepRt } from './deeprt';
import { createFixed } from './fixed';
import { createGa } from './ga';
import { isLearningScheduler, LEARNING_SCHEDULER_IDS, SERVING_SCHEDULER_IDS, SERVING_SCHEDULERS, servingLaneLabel, servingSchedulerContext } from './registry';

/** A minimal observation for `count` models whose last slot had the given utilities. */
function observation(count: number, utilities: readonly (number | null)[] | null = null): ServingObservation {
  return {
    slot: 0,
    nowMs: 0,
    slotMs: 1000,
    availableMemoryMb: 4000,
    memoryMb: 8192,
    staticMemoryMb: 1536,
    availableCompute: 1,
    runningBatches: 0,
    reward: null,
    models: Array.from({ length: count }, (_, m) => ({
      model: MODEL_IDS[m % MODEL_IDS.length]!,
      profile: MODELS[MODEL_IDS[m % MODEL_IDS.length]!],
      sloMs: 100,
      queueLength: 0,
      oldestSlackMs: 100,
      batchSize: 1,
      instances: 1,
      busyInstances: 0,
      isolatedMsByBatch: [10, 12, 15, 20, 30, 50, 90, 170],
      lastSlot:
        utilities === null
          ? null
          : { arrivals: 1, completed: 1, violations: 0, throughputRps: 1, latencyMeanMs: 10, utility: utilities[m] ?? null, oomBatches: 0 },
    })),
  };
}

const six = (overrides: Partial<ServingRunSpec> = {}): ServingRunSpec => ({
  platform: 'xavier-nx',
  models: MODEL_IDS.map((model) => ({ model, weight: 1 })),
  rateRps: 30,
  durationMs: 30_000,
  seed: 3,
  background: [],
  // The schedulers' mechanics were calibrated on the earlier readings' load (lab latencies, 30 rps in total).
  assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, ...EARLIER_SERVING_READINGS },
  ...overrides,
});

describe('fixed (Triton)', () => {
  it('keeps the configured (b, m_c) for every model, or per model', () => {
    expect(createFixed({ batchSize: 8, instances: 2 }).decide(observation(3))).toEqual([
      { batchSize: 8, instances: 2 },
      { batchSize: 8, instances: 2 },
      { batchSize: 8, instances: 2 },
    ]);
    const perModel = [{ batchSize: 1, instances: 4 }, { batchSize: 32, instances: 1 }];
    expect(createFixed({ batchSize: 8, instances: 2, perModel }).decide(observation(2))).toEqual(perModel);
  });
});

describe('deeprt', () => {
  it('asks the engine for EDF dispatch with one instance per model', () => {
    const s = createDeepRt({ maxBatch: 16, admission: true });
    expect(s.dispatch).toBe('edf');
    expect(s.decide(observation(2))).toEqual([{ batchSize: 16, instances: 1 }, { batchSize: 16, instances: 1 }]);
    expect(s.admit).toBeDefined();
    expect(createDeepRt({ maxBatch: 16, admission: false }).admit).toBeUndefined();
  });

  it('admits a request only if the EDF work ahead of it fits before its deadline (hand-worked)', () => {
    // Now 0; the running batch needs 10 ms more. Model 0 has 2 queued requests due before
    // ours (ours is model 0 too): 3 requests in batches of 2 and 1 (20 + 12 ms). Model 1 has
    // 1 due before ours (15 ms). Return 1 ms. Finish: 10 + 20 + 12 + 15 + 1 = 58 ms.
    const batchMs = [
      [0, 12, 20],
      [0, 15, 25],
    ];
    const view: AdmissionView = {
      nowMs: 0,
      modelCount: 2,
      runningRemainingMs: 10,
      isolatedBatchMs: (m, b) => batchMs[m]![b]!,
      batchSize: () => 2,
      queuedWithDeadlineAtMost: (m) => (m === 0 ? 2 : 1),
      returnMs: () => 1,
    };
    const request = (deadlineMs: number) => ({ model: 0, sentMs: 0, sloMs: deadlineMs, deadlineMs });
    expect(admitByEdf(request(58), view)).toBe(true);
    expect(admitByEdf(request(57.9), view)).toBe(false);
  });

  it('cuts violations of late completions by dropping hopeless requests in the engine', () => {
    const busy = six({ rateRps: 40 });
    const without = new ServingRun(busy, createDeepRt({ maxBatch: 8, admission: false })).runToEnd();
    const withAdmission = new ServingRun(busy, createDeepRt({ maxBatch: 8, admission: true })).runToEnd();
    expect(withAdmission.dropped).toBeGreaterThan(0);
    expect(without.dropped).toBe(0);
    // Admitted requests mostly meet their deadline: far fewer late completions.
    const late = (s: typeof without) => (s.sloViolationPct / 100) * (s.completed + s.dropped + s.failed) - s.dropped - s.failed;
    expect(late(withAdmission)).toBeLessThan(0.5 * late(without));
  });
});

describe('ga', () => {
  const params = { population: 6, evaluationSlots: 1, warmupSlots: 0, mutationRate: 0.3, elite: 1 };

  it('proposes valid actions from the grid, deterministically for a seed', () => {
    const run = (seed: number): ServingAction[] => {
      const ga = createGa(params, createRng(seed, 2));
      const out = [ga.decide(observation(4))];
      for (let i = 0; i < 50; i++) out.push(ga.decide(observation(4, [i % 3, 1, -2, null])));
      return out;
    };
    const a = run(7);
    expect(run(7)).toEqual(a);
    expect(run(8)).not.toEqual(a);
    for (const action of a) {
      expect(isValidAction(action, 4)).toBe(true);
      for (const { batchSize, instances } of action) {
        expect(BATCH_SIZES).toContain(batchSize);
        expect(INSTANCE_COUNTS).toContain(instances);
      }
    }
  });

  it('climbs a synthetic utility landscape to its peak, model by model', () => {
    // Utility peaks at b = 16, m_c = 1 for model 0 and at b = 2, m_c = 4 for model 1.
    const peak = [
      { b: 4, mc: 0 },
      { b: 1, mc: 3 },
    ];
    const landscape = (action: ServingAction): number[] =>
      action.map((a, m) => -Math.abs(Math.log2(a.batchSize) - peak[m]!.b) - Math.abs(a.instances - 1 - peak[m]!.mc));
    const ga = createGa({ ...params, population: 10 }, createRng(1, 2));
    let action = ga.decide(observation(2));
    for (let slot = 0; slot < 1500; slot++) action = ga.decide(observation(2, landscape(action)));
    expect(ga.generation).toBeGreaterThan(100);
    expect(ga.bestAction).toEqual([
      { batchSize: 16, instances: 1 },
      { batchSize: 2, instances: 4 },
    ]);
    expect(ga.bestFitness).toBe(0);
  });

  it('under per-model slots counts its window in reporting intervals and credits a model’s slot to the individual its action came from', () => {
    const ga = createGa({ ...params, population: 2, elite: 0 }, createRng(3, 2));
    /** An observation of reporting interval `slot` in which the models of `due` are due, with these utilities. */
    const at = (slot: number, due: Record<number, number>): ServingObservation => {
      const o = observation(2, [due[0] ?? null, due[1] ?? null]);
      return { ...o, slot, models: o.models.map((m, i) => ({ ...m, due: i in due })) };
    };
    const first = ga.decide({ ...at(0, {}), models: observation(2).models.map((m) => ({ ...m, due: true })) });
    // Within interval 0 the window does not move: the same individual.
    expect(ga.decide(at(0, { 0: 5 }))).toEqual(first);
    // Interval 1: model 1's slot (individual 0's gene) ends the window; individual 1 follows.
    const second = ga.decide(at(1, { 1: 3 }));
    // Model 0's slot ended now ran individual 0's gene: not credited to individual 1.
    ga.decide(at(1, { 0: 100 }));
    ga.decide(at(2, { 0: 1, 1: 1 }));
    expect(ga.generation).toBe(1);
    // Individual 0: (5 + 3) / 2 = 4; individual 1: (1 + 1) / 2 = 1 (the 100 went to neither).
    expect(ga.bestFitness).toBe(4);
    expect(ga.bestAction).toEqual(first);
    expect(second).not.toEqual(first);
  });

  it('rejects impossible parameters', () => {
    expect(() => createGa({ ...params, population: 1 }, createRng(1))).toThrow(RangeError);
    expect(() => createGa({ ...params, elite: 6 }, createRng(1))).toThrow(RangeError);
    expect(() => createGa({ ...params, mutationRate: 2 }, createRng(1))).toThrow(RangeError);
  });
});

describe('the serving registry in the engine', () => {
  it('lists every scheduler with defaults inside their ranges', () => {
    expect(Object.keys(SERVING_SCHEDULERS)).toEqual([...SERVING_SCHEDULER_IDS]);
    for (const id of SERVING_SCHEDULER_IDS) {
      for (const p of SERVING_SCHEDULERS[id].parameters) {
        expect(p.default).toBeGreaterThanOrEqual(p.min);
        expect(p.default).toBeLessThanOrEqual(p.max);
      }
    }
    expect(servingLaneLabel('fixed', {})).toBe('Triton (fixed) b=8 m_c=2');
    // A model set apart by the per-model sliders is named (issue 37: the title said b=8 of yolo at 16).
    expect(servingLaneLabel('fixed', { batchSize: 8, instances: 2, 'batchSize.yolo': 16, 'instances.yolo': 2, 'instances.bert': 3 })).toBe('Triton (fixed) b=8 m_c=2; bert m_c=3; yolo b=16');
  });

  it('says that a learning scheduler needs tfjs when no factory is given', () => {
    for (const id of LEARNING_SCHEDULER_IDS) {
      expect(isLearningScheduler(id)).toBe(true);
      expect(() => SERVING_SCHEDULERS[id].create({}, servingSchedulerContext(3))).toThrow(/TensorFlow\.js/);
    }
    expect(isLearningScheduler('fixed')).toBe(false);
  });

  it('hands a learning lane its parameters with defaults filled in to the factory', () => {
    const calls: [string, Readonly<Record<string, number>>][] = [];
    const fixed = SERVING_SCHEDULERS.fixed.create({}, servingSchedulerContext(3));
    const context = servingSchedulerContext(3, undefined, { create: (id, params) => (calls.push([id, params]), fixed) });
    expect(SERVING_SCHEDULERS.bcedge.create({ gamma: 0.5 }, context)).toBe(fixed);
    expect(calls[0]![0]).toBe('bcedge');
    expect(calls[0]![1]['gamma']).toBe(0.5);
    expect(calls[0]![1]['targetEntropyRatio']).toBe(0.15);
    expect(calls[0]![1]['discountPerS']).toBe(0.5);
    expect(calls[0]![1]['jointMask']).toBe(1);
    expect(servingLaneLabel('bcedge', { predictor: 0 })).toBe('BCEdge (SAC) (no predictor)');
  });

  it('runs every scheduler on the default scenario with valid actions, deterministically', () => {
    for (const id of SERVING_SCHEDULER_IDS.filter((s) => !isLearningScheduler(s))) {
      const lane = () => {
        const inner = SERVING_SCHEDULERS[id].create({}, servingSchedulerContext(3, undefined, undefined, six()));
        const actions: ServingAction[] = [];
        const probe = { ...inner, id: inner.id, decide: (o: ServingObservation) => {
          const a = inner.decide(o);
          actions.push(a);
          return a;
        } };
        const summary = new ServingRun(six(), probe).runToEnd();
        return { summary, actions };
      };
      const one = lane();
      expect(one.actions).toHaveLength(30);
      for (const a of one.actions) expect(isValidAction(a, 6)).toBe(true);
      expect(one.summary.completed).toBeGreaterThan(0.6 * one.summary.requests);
      expect(JSON.stringify(lane().summary)).toBe(JSON.stringify(one.summary));
    }
    // The reference lanes search by re-running the trace (reference.ts): more time.
  }, 60_000);

  it('keeps GA’s actions valid for any seed and parameters (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, population, evaluationSlots, warmupSlots, mutationRate) => {
          const ga = createGa({ population, evaluationSlots, warmupSlots, mutationRate, elite: 1 }, createRng(seed, 2));
          let action = ga.decide(observation(6));
          for (let i = 0; i < 60; i++) {
            expect(isValidAction(action, 6)).toBe(true);
            action = ga.decide(observation(6, action.map((a) => -a.instances + Math.log2(a.batchSize) / 10)));
          }
        },
      ),
      { numRuns: runs(40) },
    );
  });
});
