import { describe, expect, it } from 'vitest';
import { STALLED_UTILITY } from './metrics';
import { compileModel, isolatedBatchMs, latencyB1NxMs, MODEL_IDS, MODELS, type ModelId } from './models';
import { PLATFORMS } from './platforms';
import { EARLIER_SERVING_READINGS, PAPER_SERVING_READINGS, type ServingReadings } from './readings';
import type { ServingScheduler } from './scheduler';
import { DEFAULT_SERVING_ASSUMPTIONS, ServingRun, type RequestRecord, type ServingRunSpec, type TracedRequest } from './simulation';

/**
 * Each reading of BCEdge (readings.ts) changes what it says and nothing else: small cases
 * worked by hand, each reading set alone over the earlier ones.
 */

const fixed = (batchSize: number, instances: number): ServingScheduler => ({ id: 'fixed', decide: () => [{ batchSize, instances }] });

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

describe('the readings', () => {
  it('the paper’s and the earlier differ in every reading', () => {
    for (const key of Object.keys(PAPER_SERVING_READINGS) as (keyof ServingReadings)[]) expect(PAPER_SERVING_READINGS[key]).not.toBe(EARLIER_SERVING_READINGS[key]);
  });
});
