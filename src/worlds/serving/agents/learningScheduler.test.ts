import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { MODEL_IDS } from '../engine/models';
import type { ServingObservation } from '../engine/scheduler';
import { ServingRun } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../engine/assumptions';
import { ACTION_COUNT, actionOf, indexOf, memoryMask } from './features';
import type { Learner, Transition } from './learner';
import { LearningScheduler } from './learningScheduler';
import { DEFAULT_SAC_CONFIG, DiscreteSac } from './sac';
import { STATE_SIZE } from './features';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** Six models on the 4 GB Jetson Nano, loaded: large (b, m_c) overflow its memory. */
const nano = (durationMs = 60_000, slot: 'eq1' | 'fixed' = 'eq1'): ServingRunSpec => ({
  platform: 'nano',
  models: MODEL_IDS.map((model) => ({ model, weight: 1 })),
  rateRps: 40,
  durationMs,
  seed: 3,
  background: [{ fromMs: 0, toMs: null, intensity: 0.2, memoryMb: 512 }],
  assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, slot },
});

/** A learner that acts by `act`, learns nothing and keeps a copy of every transition it is given. */
function recordingLearner(act: Learner['act']): { fake: Learner; recorded: Transition[] } {
  const recorded: Transition[] = [];
  const fake: Learner = {
    kind: 'bcedge',
    act,
    policy: (_s, _b, rows) => new Float32Array(rows * ACTION_COUNT),
    record: (t) => void recorded.push({ ...t, state: t.state.slice(), nextState: t.nextState.slice() }),
    train: () => 0,
    stats: () => ({ updates: 0, temperature: null, entropy: null, losses: {}, epsilon: null }),
    save: () => {
      throw new Error('not needed');
    },
    load: () => undefined,
    dispose: () => undefined,
  };
  return { fake, recorded };
}

/** The models a decision is for (every model under the fixed slot). */
const dueModels = (o: ServingObservation): number[] => o.models.flatMap((m, i) => (m.due === false ? [] : [i]));

/** A predictor that says every batch of 16 or more takes 10 s, and keeps the batch sizes it learns from. */
function slowBigBatchPredictor() {
  const seen: number[] = [];
  const predictor = {
    add: (b: { batchSize: number }) => void seen.push(b.batchSize),
    train: () => undefined,
    ready: true,
    predictActions: (_o: ServingObservation, _m: number, actions: readonly { batchSize: number }[]) => Float32Array.from(actions, (a) => (a.batchSize >= 16 ? 10_000 : 1)),
  };
  return { predictor, seen };
}

/** Runs 30 s of the Xavier NX device under `scheduler` (learning and profiling) and gives every batch size it chose (for the models due). */
function batchSizesChosen(scheduler: LearningScheduler, slot: 'eq1' | 'fixed' = 'fixed'): number[] {
  const chosen: number[] = [];
  new ServingRun({ ...nano(30_000, slot), platform: 'xavier-nx', background: [] }, {
    id: 'probe',
    decide: (o) => {
      const a = scheduler.decide(o);
      for (const m of dueModels(o)) chosen.push(a[m]!.batchSize);
      return a;
    },
    learn: () => scheduler.learn(),
    observeBatch: (b) => scheduler.observeBatch!(b),
  }).runToEnd();
  return chosen;
}

describe('the learning scheduler (BCEdge Algorithm 1 in the serving world)', () => {
  for (const slot of ['fixed', 'eq1'] as const) {
    it(`never takes an action the memory mask forbids, while it explores and learns (slot ${slot})`, () => {
      const learner = new DiscreteSac(tf, STATE_SIZE, ACTION_COUNT, { ...DEFAULT_SAC_CONFIG, warmup: 32 }, createRng(1, 2));
      const scheduler = new LearningScheduler({ id: 'bcedge', learner, train: true, explore: true, predictor: null, predictorBudget: 0.8, predictorSteps: 1 });
      let masked = 0;
      let decisions = 0;
      const checked = {
        id: scheduler.id,
        decide: (o: ServingObservation) => {
          const action = scheduler.decide(o);
          // The actions applied: every model's under the fixed slot, the due models' under Eq. 1.
          for (const m of dueModels(o)) {
            const mask = new Uint8Array(ACTION_COUNT);
            memoryMask(o, m, [], mask, 0);
            masked += ACTION_COUNT - mask.reduce((s, v) => s + v, 0);
            expect(mask[indexOf(action[m]!)]).toBe(1);
          }
          decisions++;
          return action;
        },
        learn: () => scheduler.learn(),
      };
      // Under Eq. 1 a model decides every few ms to seconds (a learner that tries b = 1 decides often): 20 s is thousands of decisions.
      new ServingRun(nano(slot === 'fixed' ? 60_000 : 20_000, slot), checked).runToEnd();
      if (slot === 'fixed') expect(decisions).toBe(60); // at time 0 and at the end of each slot but the last
      else expect(decisions).toBeGreaterThan(60); // whenever a model's own slot ends
      expect(masked).toBeGreaterThan(0); // the mask did forbid something on the Nano
      expect(scheduler.telemetry().updates).toBeGreaterThan(0);
      learner.dispose();
    }, 60_000);
  }

  for (const slot of ['fixed', 'eq1'] as const) it(`stores (s, a, r, s′) per model with the model’s utility of the slot as r (slot ${slot})`, () => {
    const { fake, recorded } = recordingLearner((_s, bias, rows) => Int32Array.from({ length: rows }, (_, r) => (bias[r * ACTION_COUNT + 9] === 0 ? 9 : 0)));
    const scheduler = new LearningScheduler({ id: 'bcedge', learner: fake, train: true, explore: true, predictor: null, predictorBudget: 0.8, predictorSteps: 1 });
    // The reward of the slot (credit `slot`, the earlier reading); `governed` is tested below.
    const spec: ServingRunSpec = { ...nano(5000, slot), platform: 'xavier-nx', background: [] };
    const slotCredit: ServingRunSpec = { ...spec, assumptions: { ...spec.assumptions, credit: 'slot' } };
    const observations: ServingObservation[] = [];
    const run = new ServingRun(slotCredit, { id: 'probe', decide: (o) => (observations.push(o), scheduler.decide(o)) });
    run.runToEnd();
    expect(actionOf(9)).toEqual({ batchSize: 2, instances: 2 });
    // Every transition's reward is its model's utility in the slot that followed the action.
    for (const t of recorded) {
      const next = observations.find((o, i) => i > 0 && o.models[t.row]!.due !== false && o.models[t.row]!.lastSlot?.utility === t.reward);
      expect(next).toBeDefined();
      expect(t.action).toBe(9);
    }
    // One transition per due model with a utility at every decision after the first.
    const expected = observations.slice(1).reduce((n, o) => n + o.models.filter((m) => m.due !== false && m.lastSlot?.utility !== null && m.lastSlot !== null).length, 0);
    expect(recorded).toHaveLength(expected);
    if (slot === 'eq1') expect(observations.length).toBeGreaterThan(6);
  });

  it('under credit "governed" stores each decision once its requests have finished, with the reward the engine settled and its length', () => {
    const { fake, recorded } = recordingLearner((_s, _b, rows) => Int32Array.from({ length: rows }, () => 9));
    const scheduler = new LearningScheduler({ id: 'bcedge', learner: fake, train: true, explore: true, predictor: null, predictorBudget: 0.8, predictorSteps: 1 });
    const spec: ServingRunSpec = { ...nano(5000, 'eq1'), platform: 'xavier-nx', background: [] };
    const settled: { row: number; utility: number; durationMs: number; lostAll: boolean }[] = [];
    new ServingRun(spec, {
      id: 'probe',
      decide: (o) => {
        o.models.forEach((m, row) => {
          for (const d of m.settled ?? []) if (d.utility !== null) settled.push({ row, utility: d.utility, durationMs: d.durationMs, lostAll: d.violations === d.requests });
        });
        return scheduler.decide(o);
      },
    }).runToEnd();
    expect(recorded.length).toBeGreaterThan(20);
    // Each stored reward is one the engine settled for that model, with that decision's length (b = 2, m_c = 2: SLO ms).
    for (const t of recorded) {
      const match = settled.find((d) => d.row === t.row && d.utility === t.reward && d.durationMs === t.durationMs);
      expect(match).toBeDefined();
      expect(t.durationMs).toBeGreaterThan(0);
    }
    // The stall's −10 only where every request the decision governed was lost or late, never
    // because its slot ended before its batch did.
    for (const t of recorded) if (t.reward <= -10) expect(settled.some((d) => d.row === t.row && d.durationMs === t.durationMs && d.utility === t.reward && d.lostAll)).toBe(true);
  });

  it('trains at its cadence trainEveryMs: once per simulated second by default, after every decision at 0, every decision under a fixed slot as long', () => {
    const run = (slot: 'eq1' | 'fixed', trainEveryMs: number | undefined) => {
      const trainedAt: number[] = [];
      const decidedAt: number[] = [];
      let now = 0;
      const fake: Learner = {
        kind: 'bcedge',
        act: (_s, _b, rows) => new Int32Array(rows),
        policy: (_s, _b, rows) => new Float32Array(rows * ACTION_COUNT),
        record: () => undefined,
        train: () => (trainedAt.push(now), 1),
        stats: () => ({ updates: 0, temperature: null, entropy: null, losses: {}, epsilon: null }),
        save: () => {
          throw new Error('not needed');
        },
        load: () => undefined,
        dispose: () => undefined,
      };
      const scheduler = new LearningScheduler({ id: 'bcedge', learner: fake, train: true, explore: true, predictor: null, predictorBudget: 0.8, predictorSteps: 1, ...(trainEveryMs === undefined ? {} : { trainEveryMs }) });
      new ServingRun({ ...nano(10_000, slot), platform: 'xavier-nx', background: [] }, {
        id: 'probe',
        decide: (o) => ((now = o.nowMs), decidedAt.push(o.nowMs), scheduler.decide(o)),
        learn: () => scheduler.learn(),
      }).runToEnd();
      return { trainedAt, decidedAt };
    };
    // Eq. 1, (1, 1) for every model: slots of one SLO each, many decisions a second.
    const second = run('eq1', 1000);
    expect(second.decidedAt.length).toBeGreaterThan(100);
    // The first decision at or after each whole second trains, once.
    const expected = [...new Set(second.decidedAt.map((t) => Math.floor(t / 1000)))].map((k) => second.decidedAt.find((t) => t >= k * 1000)!);
    expect(second.trainedAt).toEqual(expected);
    expect(second.trainedAt.length).toBeLessThanOrEqual(10);
    // 0 (and absent): after every decision, Algorithm 1's step per slot.
    for (const every of [0, undefined]) {
      const each = run('eq1', every);
      expect(each.trainedAt).toEqual(each.decidedAt);
    }
    // The fixed slot of 1 s: every decision, as before the cadence was named.
    const fixed = run('fixed', 1000);
    expect(fixed.trainedAt).toEqual(fixed.decidedAt);
    expect(fixed.decidedAt).toHaveLength(10);
  });

  it('decides only for the models due, with only their rows, and keeps the others’ actions', () => {
    const calls: { rows: number; models: number[] | null }[] = [];
    const { fake } = recordingLearner((_s, _b, rows, _e, context) => (calls.push({ rows, models: context?.models === undefined ? null : [...context.models] }), Int32Array.from({ length: rows }, () => 9)));
    const scheduler = new LearningScheduler({ id: 'bcedge', learner: fake, train: true, explore: true, predictor: null, predictorBudget: 0.8, predictorSteps: 1 });
    const observations: ServingObservation[] = [];
    new ServingRun({ ...nano(3000, 'eq1'), platform: 'xavier-nx', background: [] }, { id: 'probe', decide: (o) => (observations.push(o), scheduler.decide(o)) }).runToEnd();
    expect(calls.length).toBe(observations.length);
    observations.forEach((o, i) => {
      const due = dueModels(o);
      expect(calls[i]!.rows).toBe(due.length);
      expect(calls[i]!.models).toEqual(due);
    });
    // After the first decision (every model), most decisions are for one model.
    expect(calls.slice(1).every((c) => c.rows < 6)).toBe(true);
  });

  it('always allows (1, 1), and forbids what cannot fit', () => {
    const observation = { memoryMb: 4096, staticMemoryMb: 4000, models: [] } as unknown as ServingObservation;
    const models = MODEL_IDS.map((model, i) => ({ model, profile: { weightsMb: 50, activationMbPerSample: 10 }, instances: 1, index: i }));
    const o = { ...observation, models } as unknown as ServingObservation;
    const mask = new Uint8Array(ACTION_COUNT);
    memoryMask(o, 0, [], mask, 0);
    expect(mask[0]).toBe(1);
    expect(mask.reduce((s, v) => s + v, 0)).toBe(1);
  });

  it('masks the actions the interference predictor expects to break the SLO (masked, not penalized)', () => {
    const learner = new DiscreteSac(tf, STATE_SIZE, ACTION_COUNT, { ...DEFAULT_SAC_CONFIG, warmup: 32 }, createRng(4, 2));
    const { predictor, seen } = slowBigBatchPredictor();
    const scheduler = new LearningScheduler({ id: 'bcedge', learner, train: true, explore: true, predictor, predictorBudget: 0.8, predictorSteps: 1 });
    const chosen = batchSizesChosen(scheduler);
    expect(chosen.length).toBe(30 * 6);
    expect(Math.max(...chosen)).toBeLessThan(16);
    expect(scheduler.telemetry().predictorMasked).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(0); // the profiler's records reached the predictor
    learner.dispose();
  }, 60_000);

  it('with predictorMask off, the predictor learns from every batch but masks nothing', () => {
    const learner = new DiscreteSac(tf, STATE_SIZE, ACTION_COUNT, { ...DEFAULT_SAC_CONFIG, warmup: 32 }, createRng(4, 2));
    const { predictor, seen } = slowBigBatchPredictor();
    const scheduler = new LearningScheduler({ id: 'bcedge', learner, train: true, explore: true, predictor, predictorBudget: 0.8, predictorSteps: 1, predictorMask: false });
    const chosen = batchSizesChosen(scheduler);
    expect(chosen.length).toBe(30 * 6);
    expect(scheduler.telemetry().predictorMasked).toBe(0);
    expect(seen.length).toBeGreaterThan(0); // the profiler's records reached the predictor
    learner.dispose();
  }, 60_000);
});
