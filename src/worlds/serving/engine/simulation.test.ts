import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { utility } from './metrics';
import { EARLIER_SERVING_READINGS } from './readings';
import { MODEL_IDS, type ModelId } from './models';
import type { ServingAction, ServingScheduler } from './scheduler';
import { ServingRun } from './simulation';
import type { RequestRecord, ServingRunSpec, TracedRequest } from './spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from './assumptions';

// The engine's tests do not import the schedulers layer: tiny schedulers are built here.
const fixed = (batchSize: number, instances: number, count = 1): ServingScheduler => ({
  id: 'fixed',
  decide: () => Array.from({ length: count }, () => ({ batchSize, instances })),
});

function spec(models: readonly ModelId[], overrides: Partial<ServingRunSpec> = {}): ServingRunSpec {
  return {
    platform: 'xavier-nx',
    models: models.map((model) => ({ model, weight: 1 })),
    rateRps: 30,
    durationMs: 10_000,
    seed: 1,
    background: [],
    // The hand-worked cases below were written for the earlier readings (a cap on b, the
    // completed rate as T, U alone, the lab's latencies); the paper's are in readings.test.ts.
    assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, ...EARLIER_SERVING_READINGS },
    ...overrides,
  };
}

function records(run: ServingRun): RequestRecord[] {
  const out: RequestRecord[] = [];
  run.onRequest = (r) => out.push(r);
  run.runToEnd();
  return out;
}

const trace = (...requests: [sentMs: number, model: number, sloMs?: number][]): TracedRequest[] =>
  requests.map(([sentMs, model, sloMs]) => (sloMs === undefined ? { sentMs, model } : { sentMs, model, sloMs }));

// Hand-worked timings of ResNet-18 on Xavier NX with the default assumptions (200 Mbit/s,
// 1 ms propagation, 2000 MB/s serialization), alone on the device:
const T_T = 1 + (150_528 * 8) / 200_000; // transmission of a 3×224×224 uint8 image: 7.02112 ms
const T_S = 150_528 / 2_000_000; // serialization per request: 0.075264 ms
const T_O = 1 + (4000 * 8) / 200_000; // return of 1000 float scores: 1.16 ms
const RES_B1 = 16; // Table: t1 = 16 ms (2.4 ms CPU + 13.6 ms GPU)
const RES_B2 = 2 * 2.4 + 13.6 * (1 + 0.25); // cpu1·b + gpu1·(1 + s·(b − 1)) = 21.8 ms

describe('ServingRun on hand-built traces', () => {
  it('follows Eq. 2 for a lone request and gives its Eq. 3 utility (hand-worked)', () => {
    const run = new ServingRun(spec(['res'], { trace: trace([0, 0]), durationMs: 1000 }), fixed(1, 1));
    const [r] = records(run);
    const latency = T_T + T_S + RES_B1 + T_O; // 24.256384 ms
    expect(r!.completionMs - r!.sentMs).toBeCloseTo(latency, 9);
    expect(r!.dispatchMs).toBeCloseTo(T_T, 9);
    // One request completed in a 1 s slot: T = 1 rps, Σ SLO = 58 ms, m_c = 1, L = latency.
    const slot = run.series.values[0]!;
    expect(slot.perModel[0]!.utility).toBeCloseTo(Math.log((1 * 58) / latency), 12);
    expect(slot.perModel[0]!.utility).toBeCloseTo(0.871763, 5);
  });

  it('batches what waits, up to b, in deadline order (hand-worked utility)', () => {
    // r0 runs alone; r1 and r2 arrive while it runs and leave together as a batch of 2.
    const run = new ServingRun(spec(['res'], { trace: trace([0, 0], [1, 0], [1, 0]), durationMs: 1000 }), fixed(2, 1));
    const out = records(run);
    expect(out.map((r) => r.batchSize)).toEqual([1, 2, 2]);
    const firstDone = T_T + T_S + RES_B1;
    const secondDone = firstDone + 2 * T_S + RES_B2;
    expect(out[1]!.dispatchMs).toBeCloseTo(firstDone, 9);
    expect(out[1]!.completionMs).toBeCloseTo(secondDone + T_O, 9);
    const latencies = [firstDone + T_O, secondDone + T_O - 1, secondDone + T_O - 1];
    const l = (latencies[0]! + latencies[1]! + latencies[2]!) / 3;
    // T = 3 rps; batches of Σ SLO 58 and 116 ms: mean 87 ms; m_c = 1.
    const u = run.series.values[0]!.perModel[0]!.utility;
    expect(u).toBeCloseTo(utility(3, 87, 1, l), 12);
    expect(u).toBeCloseTo(Math.log((3 * 87) / 38.223402666666665), 9);
  });

  it('serves the earliest deadline first, arrival order on ties', () => {
    // r0 occupies the only instance; then deadlines 201 (r1), 102 (r2), 102 (r3, later).
    const run = new ServingRun(spec(['res'], { trace: trace([0, 0], [1, 0, 200], [2, 0, 100], [3, 0, 99]) }), fixed(1, 1));
    const order = records(run)
      .sort((a, b) => a.dispatchMs - b.dispatchMs)
      .map((r) => r.id);
    expect(order).toEqual([0, 2, 3, 1]);
  });

  it('keeps at most b requests per batch and m_c batches per model at once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1000 }), (b, mc, seed) => {
        const run = new ServingRun(spec(['mob'], { rateRps: 120, durationMs: 3000, seed }), fixed(b, mc));
        const served = records(run).filter((r) => r.outcome === 'served');
        expect(served.length).toBeGreaterThan(0);
        // Batches as (start, end) intervals; a batch's requests share both.
        const batches = new Map<string, [number, number]>();
        for (const r of served) {
          expect(r.batchSize).toBeLessThanOrEqual(b);
          expect(r.dispatchMs).toBeGreaterThanOrEqual(r.sentMs);
          expect(r.completionMs).toBeGreaterThan(r.dispatchMs);
          batches.set(`${r.dispatchMs}/${r.completionMs}`, [r.dispatchMs, r.completionMs]);
        }
        const edges = [...batches.values()].flatMap(([s, e]) => [
          [s, 1],
          // completion − t_o recovers the batch's end up to rounding.
          [e - T_O - 1e-6, -1],
        ]);
        edges.sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
        let running = 0;
        for (const [, d] of edges) {
          running += d!;
          expect(running).toBeLessThanOrEqual(mc);
        }
      }),
      { numRuns: runs(25) },
    );
  });

  it('fails a batch that overflows memory, counts it, and lets the instance recover', () => {
    // YOLO on Xavier NX with background memory leaving 15 MB free beside one loaded
    // instance: a batch of 1 (10 MB) fits, a batch of 2 (20 MB) does not.
    const free = 15;
    const memoryMb = 8192 - 1536 - (14.4 + 64) - free;
    const run = new ServingRun(
      spec(['yolo'], {
        trace: trace([0, 0], [1, 0], [2, 0], [100, 0]),
        background: [{ fromMs: 0, toMs: null, intensity: 0, memoryMb }],
      }),
      fixed(2, 1),
    );
    const out = records(run);
    const failed = out.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.id)).toEqual([1, 2]);
    const oomAt = failed[0]!.dispatchMs;
    expect(failed[0]!.completionMs).toBe(oomAt);
    expect(failed[0]!.batchSize).toBe(2);
    // r0 ran alone; the OOM happened when it finished; r3 waits for the 50 ms recovery.
    const r0 = out.find((r) => r.id === 0)!;
    expect(oomAt).toBeCloseTo(r0.completionMs - (1 + (2048 * 8) / 200_000), 9);
    const r3 = out.find((r) => r.id === 3)!;
    expect(r3.outcome).toBe('served');
    expect(r3.dispatchMs).toBe(Math.max(oomAt + DEFAULT_SERVING_ASSUMPTIONS.oomRecoveryMs, r3.sentMs + 1 + (150_528 * 8) / 200_000));
    const summary = run.summary();
    expect(summary.oomBatches).toBe(1);
    expect(summary.failed).toBe(2);
    expect(summary.completed).toBe(2);
    expect(summary.sloViolationPct).toBeGreaterThanOrEqual(50);
  });

  it('slows batches under background interference', () => {
    const quiet = new ServingRun(spec(['inc', 'yolo'], { durationMs: 20_000 }), fixed(4, 1, 2)).runToEnd();
    const jammed = new ServingRun(
      spec(['inc', 'yolo'], { durationMs: 20_000, background: [{ fromMs: 0, toMs: null, intensity: 1.5 }] }),
      fixed(4, 1, 2),
    ).runToEnd();
    expect(jammed.latencyMeanMs).toBeGreaterThan(1.5 * quiet.latencyMeanMs);
    expect(jammed.perModel.inc!.inferenceMeanMs).toBeGreaterThan(quiet.perModel.inc!.inferenceMeanMs);
  });

  it('takes background interference dropped on mid-run from then on', () => {
    const make = () => new ServingRun(spec(['inc', 'yolo'], { durationMs: 20_000 }), fixed(4, 1, 2));
    const plain = records(make());
    const live = make();
    live.advanceTo(10_000);
    live.addBackground({ fromMs: 0, toMs: 15_000, intensity: 1.5 });
    const dropped = records(live);
    const inference = (rs: RequestRecord[], from: number, to: number) =>
      rs.filter((r) => r.dispatchMs >= from && r.dispatchMs < to).reduce((s, r) => s + (r.completionMs - r.dispatchMs), 0);
    // Requests resolved before 10 s were recorded before the observer was set: compare after.
    expect(inference(dropped, 10_000, 15_000)).toBeGreaterThan(1.5 * inference(plain, 10_000, 15_000));
    expect(() => live.addBackground({ fromMs: 0, toMs: 5000, intensity: 1 })).toThrow(RangeError);
  });
});

describe('ServingRun hooks for DeepRT', () => {
  it('runs one batch at a time, earliest deadline over all models, under dispatch "edf"', () => {
    const edf: ServingScheduler = { id: 'edf', dispatch: 'edf', decide: () => [{ batchSize: 4, instances: 3 }, { batchSize: 4, instances: 3 }] };
    // yolo r0 runs; yolo r1 (deadline 139) and res r2 (deadline 60) wait: res goes first.
    const run = new ServingRun(spec(['yolo', 'res'], { trace: trace([0, 0], [1, 0], [2, 1]) }), edf);
    const out = records(run).sort((a, b) => a.dispatchMs - b.dispatchMs);
    expect(out.map((r) => r.id)).toEqual([0, 2, 1]);
    expect(run.currentAction.map((a) => a.instances)).toEqual([1, 1]);
    // Never two batches at once: each starts after the previous one ended.
    for (let i = 1; i < out.length; i++) expect(out[i]!.dispatchMs).toBeGreaterThanOrEqual(out[i - 1]!.completionMs - 2);
  });

  it('drops what admission control refuses, as SLO violations', () => {
    const refuseAll: ServingScheduler = { ...fixed(1, 1), admit: () => false };
    const summary = new ServingRun(spec(['res']), refuseAll).runToEnd();
    expect(summary.requests).toBeGreaterThan(200);
    expect(summary.dropped).toBe(summary.requests);
    expect(summary.completed).toBe(0);
    expect(summary.sloViolationPct).toBe(100);
  });
});

describe('ServingRun determinism and metrics', () => {
  const six = MODEL_IDS;

  it('gives identical summaries for the same seed and different arrivals for another', () => {
    const a = new ServingRun(spec(six, { durationMs: 30_000, seed: 5 }), fixed(4, 1, 6)).runToEnd();
    const b = new ServingRun(spec(six, { durationMs: 30_000, seed: 5 }), fixed(4, 1, 6)).runToEnd();
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    const sent = (seed: number): string =>
      records(new ServingRun(spec(six, { durationMs: 5000, seed }), fixed(4, 1, 6)))
        .sort((x, y) => x.id - y.id)
        .map((r) => `${r.model}@${r.sentMs}`)
        .join(' ');
    expect(sent(5)).toBe(sent(5));
    expect(sent(5)).not.toBe(sent(6));
  });

  it('shows every scheduler the identical arrival trace', () => {
    // Requests still waiting at the end have no record, so compare the ids both runs resolved.
    const arrivals = (scheduler: ServingScheduler): Map<number, string> =>
      new Map(
        records(new ServingRun(spec(six, { durationMs: 5000, seed: 9, rateRps: 80 }), scheduler)).map((r) => [
          r.id,
          `${r.model}@${r.sentMs}/${r.sloMs}`,
        ]),
      );
    const edf: ServingScheduler = { id: 'edf', dispatch: 'edf', decide: fixed(8, 1, 6).decide };
    const reference = arrivals(fixed(1, 1, 6));
    for (const other of [arrivals(fixed(8, 4, 6)), arrivals(edf)]) {
      let common = 0;
      for (const [id, value] of other) {
        if (!reference.has(id)) continue;
        common++;
        expect(value).toBe(reference.get(id));
      }
      expect(common).toBeGreaterThan(0.5 * reference.size);
    }
  });

  it('jitters SLOs per request within the configured band', () => {
    const jitter = 0.3;
    const out = records(
      new ServingRun(spec(['res'], { assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, sloJitter: jitter } }), fixed(4, 2)),
    );
    const slos = out.map((r) => r.sloMs);
    expect(Math.min(...slos)).toBeGreaterThanOrEqual(58 * (1 - jitter));
    expect(Math.max(...slos)).toBeLessThanOrEqual(58 * (1 + jitter));
    expect(new Set(slos).size).toBeGreaterThan(out.length / 2);
  });

  it('reports ARCHITECTURE §5’s summary keys, per model too', () => {
    const summary = new ServingRun(spec(six), fixed(4, 1, 6)).runToEnd();
    for (const key of ['requests', 'utilityMean', 'throughputRps', 'latencyMeanMs', 'latencyP99Ms', 'sloViolationPct', 'oomBatches', 'decisionMeanUs', 'perModel']) {
      expect(summary).toHaveProperty(key);
    }
    expect(Object.keys(summary.perModel)).toEqual([...six]);
    expect(summary.throughputRps).toBeGreaterThan(25);
    expect(summary.throughputRps).toBeLessThan(35);
    const perModelRequests = Object.values(summary.perModel).reduce((s, m) => s + m.requests, 0);
    expect(perModelRequests).toBe(summary.requests);
    expect(summary.latencyP99Ms).toBeGreaterThan(summary.latencyMeanMs);
  });

  it('keeps the per-slot series bounded and evenly thinned', () => {
    const run = new ServingRun(spec(['res'], { durationMs: 100_000, seriesCap: 8 }), fixed(2, 1));
    run.runToEnd();
    const slots = run.series.values.map((r) => r.slot);
    expect(slots.length).toBeLessThanOrEqual(8);
    expect(slots[0]).toBe(0);
    for (const s of slots) expect(s % run.series.slotStride).toBe(0);
  });

  it('asks the scheduler at every slot, hands it the last reward, and rejects invalid actions', () => {
    const seen: (number | null)[] = [];
    const probe: ServingScheduler = {
      id: 'probe',
      decide: (o) => {
        seen.push(o.reward);
        expect(o.models).toHaveLength(2);
        return [{ batchSize: 2, instances: 1 }, { batchSize: 2, instances: 1 }];
      },
    };
    new ServingRun(spec(['res', 'mob'], { durationMs: 5000 }), probe).runToEnd();
    // Time 0 and the boundaries at 1, 2, 3, 4 s (not at the end).
    expect(seen).toHaveLength(5);
    expect(seen[0]).toBeNull();
    for (const r of seen.slice(1)) expect(typeof r).toBe('number');
    const bad: ServingScheduler = { id: 'bad', decide: (): ServingAction => [{ batchSize: 0, instances: 1 }] };
    expect(() => new ServingRun(spec(['res']), bad)).toThrow(RangeError);
  });
});

describe('ServingRun without observations (ServingRunOptions.observed: false)', () => {
  // Eq. 1's slots, batches that form, two classes and SLO jitter: every model decides on its own.
  const world: ServingRunSpec = {
    ...spec(['res', 'mob']),
    models: [
      { model: 'res', weight: 1, classes: [{ label: 'small', scale: 1, weight: 3 }, { label: 'large', scale: 1.65, weight: 1 }] },
      { model: 'mob', weight: 1 },
    ],
    rateRps: 60,
    assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, sloJitter: 0.1, interferenceNoise: 0.1 },
  };
  const early: ServingAction = Object.freeze([Object.freeze({ batchSize: 4, instances: 2 }), Object.freeze({ batchSize: 2, instances: 1 })]);
  const late: ServingAction = Object.freeze([Object.freeze({ batchSize: 1, instances: 1 }), Object.freeze({ batchSize: 8, instances: 2 })]);
  const actionAt = (nowMs: number): ServingAction => (nowMs < 5000 ? early : late);

  it('gives the observed run’s summary and series bit for bit, and refuses what only an observation could give', () => {
    const observed = new ServingRun(world, { id: 'plan', decide: (o) => actionAt(o.nowMs) });
    const timed = new ServingRun(world, { id: 'plan', decide: (o) => actionAt(o.nowMs), actionAt }, undefined, { observed: false });
    expect(timed.runToEnd()).toEqual(observed.runToEnd());
    expect(timed.series.values).toEqual(observed.series.values);
    expect(() => timed.observe()).toThrow(RangeError);
    // A scheduler that needs an observation has no run without one.
    expect(() => new ServingRun(world, fixed(2, 1, 2), undefined, { observed: false })).toThrow(RangeError);
  });

  it('rejects a frozen invalid action as any other', () => {
    const invalid: ServingAction = Object.freeze([Object.freeze({ batchSize: 0, instances: 1 }), Object.freeze({ batchSize: 2, instances: 1 })]);
    expect(() => new ServingRun(world, { id: 'bad', decide: () => invalid, actionAt: () => invalid }, undefined, { observed: false })).toThrow(RangeError);
  });
});

describe('ServingRun.snapshot / restore (ARCHITECTURE §7a)', () => {
  /**
   * A scheduler that changes its action every decision from a counter it keeps (so a restore
   * that forgot the scheduler would show), with `snapshot`/`restore` of that counter.
   */
  const cycling = (count: number): ServingScheduler & { n: number; snapshot(): unknown; restore(state: unknown): void } => {
    const s = {
      id: 'cycling',
      n: 0,
      decide: () => {
        s.n++;
        return Array.from({ length: count }, (_, m) => ({ batchSize: [1, 2, 4, 8][(s.n + m) % 4]!, instances: 1 + ((s.n + m) % 3) }));
      },
      snapshot: () => s.n,
      restore: (n: unknown) => {
        s.n = n as number;
      },
    };
    return s;
  };

  it.each([
    ['the fixed slot, one arrival stream, a tenant', { background: [{ fromMs: 3_000, toMs: 9_000, intensity: 0.5, memoryMb: 400 }] }],
    [
      'Eq. 1 slots, per-model streams (an MMPP, steps), request classes, noise and a service window',
      {
        assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, interferenceNoise: 0.2, sloJitter: 0.2 },
        models: [
          { model: 'yolo' as ModelId, weight: 1, rate: { kind: 'mmpp' as const, onRps: 40, offRps: 5, meanOnMs: 2_000, meanOffMs: 3_000, startOn: true } },
          { model: 'res' as ModelId, weight: 1, rate: { kind: 'steps' as const, steps: [{ fromMs: 0, rateRps: 10 }, { fromMs: 6_000, rateRps: 60 }] }, classes: [{ label: 'a', scale: 1, weight: 1 }, { label: 'b', scale: 2, weight: 1 }] },
          { model: 'bert' as ModelId, weight: 1, serviceFromMs: 2_000, serviceToMs: 12_000 },
        ],
      },
    ],
  ] as const)('restored at a checkpoint and run on, gives what the uninterrupted run gave, bit for bit (%s)', (_name, overrides) => {
    const s = spec(['yolo', 'res', 'bert'], { durationMs: 15_000, percentiles: { method: 'streaming' }, ...overrides });
    const straight = new ServingRun(s, cycling(3));
    straight.advanceTo(6_500);
    const end = straight.runToEnd();
    const series = straight.series.values;

    const scheduler = cycling(3);
    const run = new ServingRun(s, scheduler);
    run.advanceTo(6_500);
    const at = run.snapshot();
    const atScheduler = scheduler.snapshot();
    run.addBackground({ fromMs: 7_000, toMs: null, intensity: 0.9, memoryMb: 2_000 });
    run.runToEnd();
    expect(run.summary()).not.toEqual(end);
    run.restore(at);
    scheduler.restore(atScheduler);
    expect(run.timeMs).toBe(6_500);
    expect(run.runToEnd()).toEqual(end);
    expect(run.series.values).toEqual(series);
    // A checkpoint is a copy: running on did not change it, so it restores again.
    run.restore(at);
    scheduler.restore(atScheduler);
    expect(run.runToEnd()).toEqual(end);
  });

  it('adds up the per-model utilities of the reporting intervals ending in a window as a loop over the series would, bit for bit, also from a checkpoint', () => {
    const s = spec(['yolo', 'res', 'bert'], { durationMs: 20_000, assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, interferenceNoise: 0.1, sloJitter: 0.1, slot: 'eq1' } });
    const [fromMs, toMs] = [6_000, 14_000];
    const kept = new ServingRun(s, cycling(3));
    kept.advanceTo(toMs);
    let sum = 0;
    let count = 0;
    for (const record of kept.series.values) {
      if (record.endMs <= fromMs || record.endMs > toMs) continue;
      for (const m of record.perModel) if (m.utility !== null) [sum, count] = [sum + m.utility, count + 1];
    }
    expect(count).toBeGreaterThan(20);
    const watched = new ServingRun({ ...s, seriesCap: 2 }, cycling(3));
    watched.watchUtility(fromMs, toMs);
    watched.advanceTo(toMs + 3_000);
    expect(watched.watchedUtility).toEqual({ sum, count });
    // From a checkpoint just before the window.
    const scheduler = cycling(3);
    const before = new ServingRun({ ...s, seriesCap: 2 }, scheduler);
    before.advanceTo(fromMs - 1);
    const resumedScheduler = cycling(3);
    const resumed = new ServingRun({ ...s, seriesCap: 2 }, resumedScheduler);
    resumed.restore(before.snapshot());
    resumedScheduler.restore(scheduler.snapshot());
    resumed.watchUtility(fromMs, toMs);
    resumed.advanceTo(toMs);
    expect(resumed.watchedUtility).toEqual({ sum, count });
  });
});
