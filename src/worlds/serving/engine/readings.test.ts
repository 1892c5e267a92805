import { describe, expect, it } from 'vitest';
import { STALLED_UTILITY } from './metrics';
import { compileModel, isolatedBatchMs, latencyB1NxMs, MODEL_IDS, MODELS, type ModelId } from './models';
import { PLATFORMS } from './platforms';
import { EARLIER_SERVING_READINGS, PAPER_SERVING_READINGS, type ServingReadings } from './readings';
import type { ServingScheduler } from './scheduler';
import { ServingRun } from './simulation';
import type { RequestRecord, ServingRunSpec, TracedRequest } from './spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from './assumptions';

/**
 * Each reading of BCEdge (readings.ts) changes what it says and nothing else: small cases
 * worked by hand, each reading set alone over the earlier ones.
 */

const fixed = (batchSize: number, instances: number): ServingScheduler => ({ id: 'fixed', decide: () => [{ batchSize, instances }] });
const fixed2 = (batchSize: number, instances: number): ServingScheduler => ({ id: 'fixed', decide: () => [{ batchSize, instances }, { batchSize, instances }] });

function spec(model: ModelId, readings: Partial<ServingReadings>, overrides: Partial<ServingRunSpec> = {}): ServingRunSpec {
  return {
    platform: 'xavier-nx',
    models: [{ model, weight: 1 }],
    rateRps: 30,
    durationMs: 1000,
    seed: 1,
    background: [],
    assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, ...EARLIER_SERVING_READINGS, ...readings },
    ...overrides,
  };
}

function records(run: ServingRun): RequestRecord[] {
  const out: RequestRecord[] = [];
  run.onRequest = (r) => out.push(r);
  run.runToEnd();
  return out.sort((a, b) => a.id - b.id);
}

const trace = (...requests: [sentMs: number, sloMs?: number][]): TracedRequest[] =>
  requests.map(([sentMs, sloMs]) => (sloMs === undefined ? { sentMs, model: 0 } : { sentMs, model: 0, sloMs }));

// ResNet-18 on Xavier NX, lab profile, default link (as in simulation.test.ts).
const T_T = 1 + (150_528 * 8) / 200_000;
const T_S = 150_528 / 2_000_000;
const T_O = 1 + (4000 * 8) / 200_000;
const RES_B2 = 2 * 2.4 + 13.6 * (1 + 0.25);

describe('batching: form', () => {
  it('dispatches a batch of 4 at the 4th arrival, not before', () => {
    const run = new ServingRun(spec('res', { batching: 'form' }, { trace: trace([0], [5], [10], [15]) }), fixed(4, 1));
    const out = records(run);
    expect(out.map((r) => r.batchSize)).toEqual([4, 4, 4, 4]);
    for (const r of out) expect(r.dispatchMs).toBeCloseTo(15 + T_T, 9);
  });

  it('dispatches what waits at the last start that lets the first meet its SLO', () => {
    // Two requests (SLO 58 ms) and b = 4: the batch of 2 starts at 58 − (t_s(2) + t_iso(2) + t_o).
    const run = new ServingRun(spec('res', { batching: 'form' }, { trace: trace([0], [5]) }), fixed(4, 1));
    const out = records(run);
    const startBy = 58 - (2 * T_S + RES_B2 + T_O);
    expect(out.map((r) => r.batchSize)).toEqual([2, 2]);
    for (const r of out) expect(r.dispatchMs).toBeCloseTo(startBy, 9);
    // Alone on the device, the first finishes at its deadline.
    expect(out[0]!.completionMs).toBeCloseTo(58, 9);
  });

  it('under cap, the same trace starts the first request at once and the second after it', () => {
    const out = records(new ServingRun(spec('res', { batching: 'cap' }, { trace: trace([0], [5]) }), fixed(4, 1)));
    expect(out[0]!.dispatchMs).toBeCloseTo(T_T, 9);
    expect(out.map((r) => r.batchSize)).toEqual([1, 1]);
  });

  it('changes nothing at b = 1', () => {
    const a = records(new ServingRun(spec('res', { batching: 'form' }, { rateRps: 40, durationMs: 5000 }), fixed(1, 2)));
    const b = records(new ServingRun(spec('res', { batching: 'cap' }, { rateRps: 40, durationMs: 5000 }), fixed(1, 2)));
    expect(a).toEqual(b);
  });
});

describe('throughputTerm', () => {
  it('configuration: T of a saturated slot equals the closed-loop rate', () => {
    for (const [b, mc] of [
      [4, 2],
      [8, 1],
      [1, 3],
    ] as const) {
      const run = new ServingRun(spec('res', { throughputTerm: 'configuration' }, { durationMs: 6000, closedLoop: { outstanding: 4 * b * mc } }), fixed(b, mc));
      run.runToEnd();
      const middle = run.series.values.slice(1, -1);
      const term = middle.reduce((sum, r) => sum + r.perModel[0]!.throughputTermRps, 0) / middle.length;
      const completed = middle.reduce((sum, r) => sum + r.perModel[0]!.throughputRps, 0) / middle.length;
      expect(term / completed, `${b} × ${mc}`).toBeGreaterThan(0.98);
      expect(term / completed, `${b} × ${mc}`).toBeLessThan(1.02);
    }
  });

  it('configuration: at a light load T is the configuration’s rate, not the offered load', () => {
    const light = (throughputTerm: ServingReadings['throughputTerm']) => {
      const run = new ServingRun(spec('res', { throughputTerm }, { rateRps: 5, durationMs: 20_000 }), fixed(1, 1));
      run.runToEnd();
      const rows = run.series.values.filter((r) => r.perModel[0]!.throughputRps > 0);
      return rows.reduce((sum, r) => sum + r.perModel[0]!.throughputTermRps, 0) / rows.length;
    };
    // Completed: about the offered 5 rps. Configuration: one request per t_s + t_iso(1) ≈ 62 rps.
    expect(light('completed')).toBeLessThan(10);
    expect(light('configuration')).toBeCloseTo(1000 / (T_S + 16), 6);
  });
});

describe('reward', () => {
  it('withinSlo: U plus ln of the share within the SLO; utility: U alone', () => {
    // Two requests at once, b = 1: the second has a 5 ms SLO and is late.
    const run = (reward: ServingReadings['reward']) => {
      const r = new ServingRun(spec('res', { reward }, { trace: trace([0], [0, 5]) }), fixed(1, 1));
      r.runToEnd();
      return r.series.values[0]!.perModel[0]!.utility!;
    };
    expect(run('withinSlo') - run('utility')).toBeCloseTo(Math.log(1 / 2), 12);
  });

  it('withinSlo: a slot that meets no SLO is worth a stall', () => {
    const r = new ServingRun(spec('res', { reward: 'withinSlo' }, { trace: trace([0, 5]) }), fixed(1, 1));
    r.runToEnd();
    expect(r.series.values[0]!.perModel[0]!.utility).toBe(STALLED_UTILITY);
  });
});

describe('latencyProfile', () => {
  it('changes t1 only: shares, occupancy, batching slope, memory and platform scaling stay', () => {
    for (const id of MODEL_IDS) {
      for (const platform of Object.values(PLATFORMS)) {
        const lab = compileModel(MODELS[id], platform, 'lab');
        const trt = compileModel(MODELS[id], platform, 'tensorrt');
        const ratio = latencyB1NxMs(MODELS[id], 'tensorrt') / latencyB1NxMs(MODELS[id], 'lab');
        expect(trt.cpuMsPerSample / lab.cpuMsPerSample).toBeCloseTo(ratio, 12);
        expect(trt.gpuMsB1 / lab.gpuMsB1).toBeCloseTo(ratio, 12);
        expect(trt.occupancyB1).toBe(lab.occupancyB1);
        expect(trt.sampleShare).toBe(lab.sampleShare);
        expect(trt.instanceMemoryMb).toBe(lab.instanceMemoryMb);
        expect(trt.activationMbPerSample).toBe(lab.activationMbPerSample);
        for (const b of [1, 8, 64]) expect(isolatedBatchMs(trt, b) / isolatedBatchMs(lab, b)).toBeCloseTo(ratio, 12);
      }
      expect(isolatedBatchMs(compileModel(MODELS[id], PLATFORMS['xavier-nx'], 'tensorrt'), 1)).toBeCloseTo(latencyB1NxMs(MODELS[id], 'tensorrt'), 9);
    }
  });
});

describe('slot: eq1 (each model its own slot, Eq. 1)', () => {
  /** A scheduler with one action per model that notes, per model, the times it was due. */
  function noting(actions: readonly { batchSize: number; instances: number }[]) {
    const due: number[][] = actions.map(() => []);
    const scheduler: ServingScheduler = {
      id: 'noting',
      decide: (o) => {
        o.models.forEach((m, i) => {
          if (m.due !== false) due[i]!.push(o.nowMs);
        });
        return actions.map((a) => ({ ...a }));
      },
    };
    return { scheduler, due };
  }

  it('a model with b = 4, m_c = 2 and SLO 100 ms decides every 200 ms', () => {
    const { scheduler, due } = noting([{ batchSize: 4, instances: 2 }]);
    const s = spec('res', { slot: 'eq1' }, { models: [{ model: 'res', weight: 1, sloMs: 100 }], rateRps: 40, durationMs: 3000 });
    new ServingRun(s, scheduler).runToEnd();
    // t_i = Σ of 4 SLOs of 100 ms / 2, whatever waits (no jitter: queued or not, each SLO is 100 ms).
    expect(due[0]).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600, 2800]);
  });

  it('under fixed the same model decides every slotMs', () => {
    const { scheduler, due } = noting([{ batchSize: 4, instances: 2 }]);
    new ServingRun(spec('res', { slot: 'fixed' }, { models: [{ model: 'res', weight: 1, sloMs: 100 }], durationMs: 3000 }), scheduler).runToEnd();
    expect(due[0]).toEqual([0, 1000, 2000]);
  });

  it('the models’ slots are independent: each decides at its own boundaries, and only its own action is applied', () => {
    const decisions: { nowMs: number; due: boolean[] }[] = [];
    const applied: { nowMs: number; actions: { batchSize: number; instances: number }[] }[] = [];
    let run: ServingRun | null = null;
    let k = 0;
    const scheduler: ServingScheduler = {
      id: 'changing',
      decide: (o) => {
        decisions.push({ nowMs: o.nowMs, due: o.models.map((m) => m.due !== false) });
        if (run !== null) applied.push({ nowMs: o.nowMs, actions: run.currentAction.map((a) => ({ ...a })) });
        k++;
        // Model 0 always (4, 2); model 1 (1, 1) at time 0, then a different b every call.
        return [
          { batchSize: 4, instances: 2 },
          { batchSize: k === 1 ? 1 : 1 + (k % 2), instances: 1 },
        ];
      },
    };
    const s = spec('res', { slot: 'eq1' }, {
      models: [
        { model: 'res', weight: 1, sloMs: 100 },
        { model: 'bert', weight: 1, sloMs: 300 },
      ],
      durationMs: 2000,
    });
    run = new ServingRun(s, scheduler);
    run.runToEnd();
    const dueAt = (m: number) => decisions.filter((d) => d.due[m]).map((d) => d.nowMs);
    // Model 0: every 4 · 100 / 2 = 200 ms. Model 1: 300 ms at b = 1, 600 ms at b = 2 (1 + k % 2 after k calls).
    expect(dueAt(0)).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800]);
    const model1 = dueAt(1);
    expect(model1[0]).toBe(0);
    expect(model1[1]).toBe(300);
    for (let i = 2; i < model1.length; i++) expect([300, 600]).toContain(model1[i]! - model1[i - 1]!);
    // At 300 ms only model 1 is due, at 200 ms only model 0.
    expect(decisions.find((d) => d.nowMs === 300)!.due).toEqual([false, true]);
    expect(decisions.find((d) => d.nowMs === 200)!.due).toEqual([true, false]);
    // Model 1's b changes only at its own boundaries, though every call asked for another.
    for (let i = 1; i < applied.length; i++) {
      const before = applied[i - 1]!.actions[1]!.batchSize;
      const now = applied[i]!.actions[1]!.batchSize;
      const wasDue = decisions[i]!.due[1]!;
      if (!wasDue) expect(now, `at ${applied[i]!.nowMs} ms`).toBe(before);
    }
  });

  it('t_i sums the SLOs of the b most urgent queued requests, the model’s SLO for those missing', () => {
    // The one instance fails its first batch for lack of memory and recovers for 10 s: what
    // is sent meanwhile waits. b = 3, m_c = 1, nominal SLO 100 ms: the first slot lasts 300 ms.
    const { scheduler, due } = noting([{ batchSize: 3, instances: 1 }]);
    // Deadlines 910, 520, 730, 640, 850: the three most urgent have SLOs 500, 600, 700.
    const requests = trace([0, 100], [10, 900], [20, 500], [30, 700], [40, 600], [50, 800]);
    const s = spec('res', { slot: 'eq1' }, {
      models: [{ model: 'res', weight: 1, sloMs: 100 }],
      trace: requests,
      durationMs: 5000,
      background: [{ fromMs: 0, toMs: null, intensity: 0, memoryMb: 100_000 }],
      assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, ...EARLIER_SERVING_READINGS, slot: 'eq1', oomRecoveryMs: 10_000 },
    });
    new ServingRun(s, scheduler).runToEnd();
    // At 300 ms five wait: (500 + 600 + 700) / 1 = 1800 ms, and again from 2100 ms.
    expect(due[0]).toEqual([0, 300, 2100, 3900]);
    // With two waiting and b = 3: the two SLOs and one of 100 ms.
    const two = noting([{ batchSize: 3, instances: 1 }]);
    new ServingRun({ ...s, trace: trace([0, 100], [10, 900], [20, 500]) }, two.scheduler).runToEnd();
    expect(two.due[0]).toEqual([0, 300, 1800, 3300, 4800]);
  });

  it('the reward of a model is its utility over its own slot (its lastSlot when due)', () => {
    const seen: { nowMs: number; arrivals: number | null }[] = [];
    const scheduler: ServingScheduler = {
      id: 'probe',
      decide: (o) => {
        if (o.models[0]!.due !== false) seen.push({ nowMs: o.nowMs, arrivals: o.models[0]!.lastSlot?.arrivals ?? null });
        return [{ batchSize: 1, instances: 1 }];
      },
    };
    // SLO 100 ms, (1, 1): slots of 100 ms. Requests reach the edge t_t after they are sent.
    const sent = [10, 20, 150, 160, 170, 420];
    const s = spec('res', { slot: 'eq1' }, { models: [{ model: 'res', weight: 1, sloMs: 100 }], trace: trace(...sent.map((t): [number] => [t])), durationMs: 600 });
    new ServingRun(s, scheduler).runToEnd();
    expect(seen.map((x) => x.nowMs)).toEqual([0, 100, 200, 300, 400, 500]);
    expect(seen.map((x) => x.arrivals)).toEqual([null, 2, 3, 0, 0, 1]);
  });

  it('records, charts and metrics keep the reporting interval slotMs', () => {
    const run = new ServingRun(spec('res', { slot: 'eq1' }, { models: [{ model: 'res', weight: 1, sloMs: 100 }], durationMs: 5000 }), fixed(4, 2));
    run.runToEnd();
    expect(run.series.values.map((r) => r.endMs)).toEqual([1000, 2000, 3000, 4000, 5000]);
  });

  it('a record’s m_c is the time-weighted mean over its interval when a model’s action changed inside it', () => {
    // (1, 1) for the first slot of 100 ms, then (1, 3); T of Eq. 3 (configuration) = m̄_c × completed / busy s.
    let calls = 0;
    const scheduler: ServingScheduler = { id: 'switch', decide: () => [{ batchSize: 1, instances: calls++ === 0 ? 1 : 3 }] };
    const requests = trace(...Array.from({ length: 30 }, (_, i): [number] => [i * 30]));
    const s = spec('res', { slot: 'eq1', throughputTerm: 'configuration' }, { models: [{ model: 'res', weight: 1, sloMs: 100 }], trace: requests, durationMs: 1000 });
    const run = new ServingRun(s, scheduler);
    const out = records(run);
    const record = run.series.values[0]!.perModel[0]!;
    const finishedInSlot = out.filter((r) => r.completionMs - T_O <= 1000);
    const busyS = finishedInSlot.reduce((sum, r) => sum + (r.completionMs - T_O - r.dispatchMs), 0) / 1000;
    const meanInstances = (1 * 100 + 3 * 900) / 1000;
    expect(record.throughputTermRps).toBeCloseTo((meanInstances * finishedInSlot.length) / busyS, 6);
    expect(record.instances).toBe(3);
  });

  it('a scheduler whose action never changes serves every request as under fixed: the extra decisions change nothing else', () => {
    for (const [b, mc] of [
      [1, 1],
      [8, 2],
      [32, 3],
    ] as const) {
      for (const batching of ['form', 'cap'] as const) {
        const base = { models: [{ model: 'res' as const, weight: 1 }, { model: 'yolo' as const, weight: 2 }], rateRps: 60, durationMs: 8000 };
        const a = records(new ServingRun(spec('res', { slot: 'eq1', batching }, base), fixed2(b, mc)));
        const f = records(new ServingRun(spec('res', { slot: 'fixed', batching }, base), fixed2(b, mc)));
        expect(a, `${b} × ${mc}, ${batching}`).toEqual(f);
      }
    }
  });
});

describe('the readings', () => {
  it('the paper’s and the earlier differ in every reading', () => {
    for (const key of Object.keys(PAPER_SERVING_READINGS) as (keyof ServingReadings)[]) expect(PAPER_SERVING_READINGS[key]).not.toBe(EARLIER_SERVING_READINGS[key]);
  });
});
