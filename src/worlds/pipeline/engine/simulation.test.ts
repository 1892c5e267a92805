import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { createRng } from '../../../engine/rng';
import { UNBOUNDED_BUFFER } from './assumptions';
import { runEventSimulation } from './eventSimulation';
import type { PipelineScheduler } from './scheduler';
import { ARRIVAL_STREAM, PipelineRun } from './simulation';
import { collect, TOY_RANDOM as RANDOM, toySpec } from './testing/fixtures';

/** A scheduler that never rebalances (the engine's tests do not import the schedulers layer). */
const createStatic = (): PipelineScheduler => ({ id: 'static' });


describe('PipelineRun queueing', () => {
  it('serves a balanced 2-stage pipeline at the bottleneck rate (hand-worked)', () => {
    // Units 0–3 on EP 0 (1+2+3+4 = 10 ms), units 4–7 on EP 1 (4+3+2+1 = 10 ms).
    const spec = toySpec({ executionPlaces: 2, queries: 5, initialConfiguration: Int32Array.of(4, 4) });
    const records = collect(new PipelineRun(spec, createStatic()));
    // Saturated: query q enters stage 0 at 10q, leaves it at 10q+10, finishes at 10q+20.
    expect(records.map((r) => r.completionMs)).toEqual([20, 30, 40, 50, 60]);
    expect(records.map((r) => r.arrivalMs)).toEqual([0, 10, 20, 30, 40]);
    const summary = new PipelineRun(spec, createStatic()).runToEnd();
    expect(summary.latencyMeanMs).toBe(20);
    expect(summary.throughputMeanQps).toBeCloseTo((1000 * 5) / 60, 12);
    expect(summary.configThroughputMeanQps).toBe(100);
  });

  it('blocks a fast stage behind a slow one when the buffer is full (hand-worked)', () => {
    // Stage 0 takes 1 ms (unit 0), stage 1 takes 19 ms (units 1–7); no buffer.
    const spec = toySpec({ executionPlaces: 2, queries: 3, initialConfiguration: Int32Array.of(1, 7) }, { bufferCapacity: 0 });
    const records = collect(new PipelineRun(spec, createStatic()));
    // q0: [0,1] then [1,20]; q1: [1,2] on stage 0, blocked until 20, then [20,39];
    // q2 enters stage 0 only when q1 leaves it at 20: [20,21], blocked until 39, [39,58].
    expect(records.map((r) => r.completionMs)).toEqual([20, 39, 58]);
    expect(records.map((r) => r.arrivalMs)).toEqual([0, 1, 20]);
  });

  it('agrees with the event-queue simulation to the bit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(0, 1, 2, 5, UNBOUNDED_BUFFER),
        fc.boolean(),
        fc.integer({ min: 0, max: 1000 }),
        (stages, bufferCapacity, poisson, seed) => {
          // A configuration with every stage non-empty (the reference has no bypass).
          const counts = new Int32Array(stages).fill(1);
          counts[stages - 1] = 8 - (stages - 1);
          const spec = toySpec(
            { executionPlaces: stages, queries: 120, seed, initialConfiguration: counts, random: RANDOM },
            { bufferCapacity, admission: poisson ? { kind: 'poisson', rateQps: 90 } : { kind: 'saturated' } },
          );
          const records = collect(new PipelineRun(spec, createStatic()));
          let arrivalsMs: Float64Array | null = null;
          if (poisson) {
            const rng = createRng(seed, ARRIVAL_STREAM);
            let t = 0;
            arrivalsMs = Float64Array.from(records, () => (t += rng.exponential(1000 / 90)));
          }
          const reference = runEventSimulation({
            stages,
            queries: records.length,
            stageTimeMs: (q, i) => records[q]!.stageTimesMs[i]!,
            bufferCapacity,
            arrivalsMs,
          });
          expect(Array.from(reference.completionMs)).toEqual(records.map((r) => r.completionMs));
        },
      ),
      { numRuns: runs(60) },
    );
  });
});

describe('Poisson admission at a share of the peak', () => {
  it('arrives at share × the interference-free peak throughput: the same arrivals as Poisson at that rate', () => {
    const base = toySpec({ executionPlaces: 2, queries: 200, seed: 7, random: RANDOM });
    const peakQps = new PipelineRun(base, createStatic()).runToEnd().peakThroughputQps;
    const share = collect(new PipelineRun(toySpec({ executionPlaces: 2, queries: 200, seed: 7, random: RANDOM }, { admission: { kind: 'poissonShare', shareOfPeak: 0.5 } }), createStatic()));
    const rate = collect(new PipelineRun(toySpec({ executionPlaces: 2, queries: 200, seed: 7, random: RANDOM }, { admission: { kind: 'poisson', rateQps: 0.5 * peakQps } }), createStatic()));
    expect(share.length).toBe(200);
    share.forEach((r, i) => expect(r.completionMs).toBeCloseTo(rate[i]!.completionMs, 6));
    // Without interference the pipeline serves what arrives: about half its peak.
    const quiet = new PipelineRun(toySpec({ executionPlaces: 2, queries: 2000, seed: 7 }, { admission: { kind: 'poissonShare', shareOfPeak: 0.5 } }), createStatic()).runToEnd();
    expect(quiet.throughputMeanQps / quiet.peakThroughputQps).toBeGreaterThan(0.45);
    expect(quiet.throughputMeanQps / quiet.peakThroughputQps).toBeLessThan(0.55);
  });
});
