import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ServingObservation, ServingScheduler } from '../engine/scheduler';
import { ServingRun } from '../engine/simulation';
import { SERVING_PRESETS } from '../presets';
import { EARLIER_SCENARIO_READINGS } from '../scenario/servingReadings';
import type { ServingScenario } from '../schema';
import { buildServingSpec } from '../scenario/servingRunner';
import { ACTION_COUNT, encodeState, memoryMask, STATE_SIZE, stateSize } from './features';

/** Encodes every model's state and mask at each decision of a run and hashes them. */
function hashOfStates(scenario: ServingScenario, onState?: (o: ServingObservation, state: Float32Array) => void): { decisions: number; sha256: string } {
  const spec = buildServingSpec(scenario);
  const hash = createHash('sha256');
  let decisions = 0;
  const probe: ServingScheduler = {
    id: 'probe',
    decide: (o) => {
      const state = new Float32Array(STATE_SIZE * o.models.length);
      const mask = new Uint8Array(ACTION_COUNT * o.models.length);
      for (let m = 0; m < o.models.length; m++) {
        encodeState(o, m, state, m * STATE_SIZE);
        memoryMask(o, m, [], mask, m * ACTION_COUNT);
      }
      onState?.(o, state);
      hash.update(Buffer.from(state.buffer));
      hash.update(Buffer.from(mask.buffer));
      decisions++;
      // A varied deterministic policy, so that the queue and resource parts move.
      return o.models.map((_, m) => ({ batchSize: [1, 4, 16][(o.slot + m) % 3]!, instances: 1 + ((o.slot + 2 * m) % 3) }));
    },
  };
  new ServingRun(spec, probe).runToEnd();
  return { decisions, sha256: hash.digest('hex') };
}

describe('the learners’ state', () => {
  it('is bit-identical to the encoding of before request classes and load schedules on the default scenario (new parts default to the old values)', () => {
    const s = structuredClone(SERVING_PRESETS[0]!.scenario) as ServingScenario;
    s.serving.durationS = 40;
    // The run of then: the earlier readings of BCEdge (the encoding has not changed since).
    s.serving.assumptions = { ...s.serving.assumptions, ...EARLIER_SCENARIO_READINGS };
    // Computed with the state encoding and engine of before request classes and load schedules.
    expect(hashOfStates(s)).toEqual({ decisions: 40, sha256: 'd91d9c70a6e38af4d7ae533ff8d12aeb217e420035d9e3edc6a8db66d13c2ab5' });
  });

  it('gives the last slot’s arrivals per second of the slot with stateRates: the same numbers under the fixed 1 s slot, the load and not the slot’s length under Eq. 1', () => {
    const arrivalsAt = (STATE_SIZE - 6) as number;
    const collect = (slot: 'fixed' | 'eq1') => {
      const s = structuredClone(SERVING_PRESETS[0]!.scenario) as ServingScenario;
      s.serving.durationS = 20;
      s.serving.assumptions = { ...s.serving.assumptions, slot };
      const pairs: { perSlot: Float32Array; perSecond: Float32Array; seconds: number; arrivals: number }[] = [];
      hashOfStates(s, (o) => {
        const model = o.models[0]!;
        if (model.due === false || model.lastSlot === null) return;
        const perSlot = new Float32Array(STATE_SIZE);
        const perSecond = new Float32Array(STATE_SIZE);
        encodeState(o, 0, perSlot, 0);
        encodeState(o, 0, perSecond, 0, { rates: true });
        pairs.push({ perSlot, perSecond, seconds: model.lastSlot.seconds!, arrivals: model.lastSlot.arrivals });
      });
      return pairs;
    };
    const fixed = collect('fixed');
    expect(fixed.length).toBeGreaterThan(10);
    for (const p of fixed) expect(p.perSecond).toEqual(p.perSlot);
    const eq1 = collect('eq1');
    expect(eq1.some((p) => p.seconds < 0.5 && p.arrivals > 0)).toBe(true);
    for (const p of eq1) {
      expect(p.perSecond[arrivalsAt]).toBeCloseTo(Math.log1p(p.arrivals / p.seconds) / 4, 5);
      expect(p.perSlot[arrivalsAt]).toBeCloseTo(Math.log1p(p.arrivals) / 4, 5);
    }
    // 30 requests a second a model: per second, around ln(31)/4 whatever the slot's length.
    const mean = eq1.reduce((sum, p) => sum + p.perSecond[arrivalsAt]!, 0) / eq1.length;
    expect(mean).toBeGreaterThan(0.6);
    expect(mean).toBeLessThan(1.1);
  });

  it('gives the last slot’s length with slotLength, one number after the 21 it leaves as they were: 0.75 under the fixed 1 s slot, the model’s own slot under Eq. 1', () => {
    expect(stateSize(false)).toBe(STATE_SIZE);
    expect(stateSize(true)).toBe(STATE_SIZE + 1);
    const collect = (slot: 'fixed' | 'eq1') => {
      const s = structuredClone(SERVING_PRESETS[0]!.scenario) as ServingScenario;
      s.serving.durationS = 20;
      s.serving.assumptions = { ...s.serving.assumptions, slot };
      const rows: { plain: Float32Array; withSlot: Float32Array; seconds: number | null }[] = [];
      hashOfStates(s, (o) => {
        const model = o.models[0]!;
        if (model.due === false) return;
        const plain = new Float32Array(STATE_SIZE);
        // One number more, and a sentinel after it that encodeState must not touch.
        const withSlot = new Float32Array(STATE_SIZE + 2).fill(-7);
        encodeState(o, 0, plain, 0, { rates: true });
        encodeState(o, 0, withSlot, 0, { rates: true, slotLength: true });
        rows.push({ plain, withSlot, seconds: model.lastSlot?.seconds ?? null });
      });
      return rows;
    };
    for (const slot of ['fixed', 'eq1'] as const) {
      const rows = collect(slot);
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) {
        expect(r.withSlot.subarray(0, STATE_SIZE)).toEqual(r.plain);
        expect(r.withSlot[STATE_SIZE + 1]).toBe(-7);
        const expected = r.seconds === null ? 0 : Math.log10(Math.max(1, r.seconds * 1000)) / 4;
        expect(r.withSlot[STATE_SIZE]).toBeCloseTo(expected, 6);
        if (slot === 'fixed' && r.seconds !== null) expect(r.withSlot[STATE_SIZE]).toBeCloseTo(0.75, 6);
      }
      // Under Eq. 1 the policy above (b of 1, 4, 16 on 1–3 instances) makes slots shorter than the fixed one.
      if (slot === 'eq1') expect(rows.some((r) => r.seconds !== null && r.withSlot[STATE_SIZE]! < 0.7)).toBe(true);
    }
  });
});
