import { describe, expect, it } from 'vitest';
import type { BatchObservation, ServingScheduler } from './scheduler';
import { ServingRun } from './simulation';
import type { ServingRunSpec, TracedRequest } from './spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from './assumptions';

const fixedScheduler = (batchSize: number, instances: number, count: number, observeBatch?: (b: BatchObservation) => void): ServingScheduler => ({
  id: 'fixed',
  decide: () => Array.from({ length: count }, () => ({ batchSize, instances })),
  ...(observeBatch === undefined ? {} : { observeBatch }),
});

/** The profiler's record of every batch of a fixed (b, m_c) run, with the time it finished. */
function runBatches(s: ServingRunSpec, batchSize = 1, instances = 1): (BatchObservation & { endMs: number })[] {
  const batches: (BatchObservation & { endMs: number })[] = [];
  let run: ServingRun | null = null;
  run = new ServingRun(s, fixedScheduler(batchSize, instances, s.models.length, (b) => batches.push({ ...b, endMs: run!.timeMs })));
  run.runToEnd();
  return batches;
}

/** The probes below read the state at the fixed slot's boundaries. */
const FIXED_SLOT = { ...DEFAULT_SERVING_ASSUMPTIONS, slot: 'fixed' } as const;

const base = (overrides: Partial<ServingRunSpec> = {}): ServingRunSpec => ({
  platform: 'xavier-nx',
  models: [{ model: 'yolo', weight: 1 }],
  rateRps: 30,
  durationMs: 60_000,
  seed: 3,
  background: [],
  assumptions: DEFAULT_SERVING_ASSUMPTIONS,
  ...overrides,
});

/** One request every 500 ms: every batch runs alone, so its time is a function of the device alone. */
const sparse = (durationMs: number): TracedRequest[] => Array.from({ length: durationMs / 500 }, (_, i) => ({ sentMs: i * 500, model: 0 }));

describe('tenants on a schedule', () => {
  it('change contention only while present', () => {
    const quiet = runBatches(base({ trace: sparse(60_000) }));
    const tenant = runBatches(base({ trace: sparse(60_000), background: [{ fromMs: 20_000, toMs: 40_000, intensity: 0.6, memoryMb: 3000 }] }));
    expect(tenant.length).toBe(quiet.length);
    let inside = 0;
    tenant.forEach((b, i) => {
      const start = b.endMs - b.inferenceMs;
      const present = start >= 20_000 && start < 40_000;
      if (present) {
        inside++;
        expect(b.inferenceMs).toBeGreaterThan(quiet[i]!.inferenceMs * 1.05);
      } else {
        expect(b.inferenceMs).toBe(quiet[i]!.inferenceMs);
      }
    });
    expect(inside).toBe(40);
  });
});

describe('noisy interference', () => {
  it('noise 0 is bit-identical to a run without the parameter (the deterministic model)', () => {
    const { interferenceNoise: _unused, ...without } = DEFAULT_SERVING_ASSUMPTIONS;
    void _unused;
    const a = new ServingRun(base({ assumptions: without, models: [{ model: 'yolo', weight: 1 }, { model: 'res', weight: 2 }] }), fixedScheduler(4, 2, 2)).runToEnd();
    const b = new ServingRun(
      base({ assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, interferenceNoise: 0 }, models: [{ model: 'yolo', weight: 1 }, { model: 'res', weight: 2 }] }),
      fixedScheduler(4, 2, 2),
    ).runToEnd();
    expect(b).toEqual(a);
  });

  it('is mean one, seeded, and its spread grows with contention', () => {
    const noisy = { ...DEFAULT_SERVING_ASSUMPTIONS, interferenceNoise: 0.1 };
    const logRatios = (background: ServingRunSpec['background']): number[] => {
      const clean = runBatches(base({ trace: sparse(200_000), durationMs: 200_000, background }));
      const noise = runBatches(base({ trace: sparse(200_000), durationMs: 200_000, background, assumptions: noisy }));
      return noise.map((b, i) => Math.log(b.inferenceMs / clean[i]!.inferenceMs));
    };
    const stats = (xs: readonly number[]): { mean: number; sd: number; ratioMean: number } => {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      return {
        mean,
        sd: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length),
        ratioMean: xs.reduce((a, b) => a + Math.exp(b), 0) / xs.length,
      };
    };
    const alone = stats(logRatios([]));
    const crowded = stats(logRatios([{ fromMs: 0, toMs: null, intensity: 1.5, memoryMb: 5000 }]));
    // 400 batches: the sample sd of a normal is within ±15 % of σ, the mean ratio within 3 %.
    expect(alone.sd).toBeGreaterThan(0.1 * 0.85);
    expect(alone.sd).toBeLessThan(0.1 * 1.15);
    expect(Math.abs(alone.ratioMean - 1)).toBeLessThan(0.03);
    expect(crowded.sd).toBeGreaterThan(2 * alone.sd);
    // Seeded: the same run twice gives the same times.
    const again = runBatches(base({ trace: sparse(10_000), durationMs: 10_000, assumptions: noisy }));
    expect(runBatches(base({ trace: sparse(10_000), durationMs: 10_000, assumptions: noisy }))).toEqual(again);
  });
});

describe('request classes (input shapes)', () => {
  it('a larger class takes longer, pads the batch it joins, and shows in the state', () => {
    const classes = [
      { label: '224p', scale: 1, weight: 1 },
      { label: '448p', scale: 4, weight: 1 },
    ];
    const trace: TracedRequest[] = [
      { sentMs: 0, model: 0, shapeClass: 0 },
      { sentMs: 1000, model: 0, shapeClass: 1 },
      // While a large request (the blocker) runs, a small and a large one queue: one batch of
      // 2 padded to the larger class; later two small ones queue behind another blocker.
      { sentMs: 1500, model: 0, shapeClass: 1 },
      { sentMs: 1540, model: 0, shapeClass: 1 },
      { sentMs: 1550, model: 0, shapeClass: 0 },
      { sentMs: 2500, model: 0, shapeClass: 1 },
      { sentMs: 2540, model: 0, shapeClass: 0 },
      { sentMs: 2550, model: 0, shapeClass: 0 },
    ];
    // Late requests kept: the requests queued behind a blocker are the point here, not their SLO.
    const batches = runBatches(base({ models: [{ model: 'res', weight: 1, classes }], trace, durationMs: 5000, assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, lateRequests: 'keep' } }), 2, 1);
    expect(batches.map((b) => b.batchSize)).toEqual([1, 1, 1, 2, 1, 2]);
    expect(batches[1]!.inferenceMs).toBeGreaterThan(3.5 * batches[0]!.inferenceMs);
    expect(batches[3]!.isolatedMs).toBeCloseTo(4 * batches[5]!.isolatedMs, 9);
    // The state (§IV-B1 (II)): the queued requests' mean scale.
    const seen: number[] = [];
    const probe: ServingScheduler = { id: 'probe', decide: (o) => (seen.push(o.models[0]!.inputScaleMean!), [{ batchSize: 1, instances: 1 }]) };
    const heavy: TracedRequest[] = Array.from({ length: 40 }, (_, i) => ({ sentMs: 900 + i, model: 0, shapeClass: i % 2 }));
    // The probe reads the state at the fixed slot's boundaries (0 and 1 s).
    new ServingRun(base({ models: [{ model: 'res', weight: 1, classes }], trace: heavy, durationMs: 2000, assumptions: { ...FIXED_SLOT, lateRequests: 'keep' } }), probe).runToEnd();
    expect(seen[0]).toBe(1);
    expect(seen[1]).toBeGreaterThan(1.5);
    expect(seen[1]).toBeLessThan(3.5);
  });

  it('jittered SLOs reach the state as the most urgent request’s SLO', () => {
    const seen: number[] = [];
    const probe: ServingScheduler = { id: 'probe', decide: (o) => (seen.push(o.models[0]!.headSloMs!), [{ batchSize: 1, instances: 1 }]) };
    const trace: TracedRequest[] = Array.from({ length: 60 }, (_, i) => ({ sentMs: 990 - i * 0.1, model: 0, sloMs: 40 + i })).reverse();
    new ServingRun(base({ models: [{ model: 'yolo', weight: 1 }], trace, durationMs: 2000, assumptions: FIXED_SLOT }), probe).runToEnd();
    expect(seen[0]).toBe(138);
    expect(seen[1]).not.toBe(138);
  });
});
