import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { isValidConfiguration } from '../engine/configuration';
import { PipelineRun, type QueryRecord } from '../engine/simulation';
import { collect, TOY_RANDOM as RANDOM, toySpec } from '../engine/testing/fixtures';
import { createEvict } from './evict';
import { createLls } from './lls';
import { createOdin } from './odin';
import { createOptimal } from './optimal';
import { createStatic } from './static';

// Whole lanes: every scheduler inside the engine's pipeline, on the toy database.


describe('PipelineRun determinism', () => {
  const schedulers = () => [createOdin({ alpha: 3 }), createLls({ reading: 'literal' }), createOptimal(), createStatic(), createEvict()];

  it('gives identical summaries for the same seed and different traces for another', () => {
    for (const [a, b] of schedulers().map((s, i) => [s, schedulers()[i]!] as const)) {
      const one = new PipelineRun(toySpec({ random: RANDOM, seed: 3 }), a).runToEnd();
      const two = new PipelineRun(toySpec({ random: RANDOM, seed: 3 }), b).runToEnd();
      expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    }
    const modesOf = (seed: number): string =>
      collect(new PipelineRun(toySpec({ random: RANDOM, seed }), createStatic()))
        .map((r) => Array.from(r.modes).join(''))
        .join('|');
    expect(modesOf(3)).toBe(modesOf(3));
    expect(modesOf(3)).not.toBe(modesOf(4));
  });

  it('shows every lane the same interference trace', () => {
    const traces = schedulers().map((s) =>
      collect(new PipelineRun(toySpec({ random: RANDOM, seed: 9 }), s))
        .map((r) => Array.from(r.modes).join(''))
        .join('|'),
    );
    for (const t of traces) expect(t).toBe(traces[0]);
  });
});

describe('PipelineRun invariants', () => {
  const cases = fc.record({
    seed: fc.integer({ min: 0, max: 10_000 }),
    stages: fc.integer({ min: 1, max: 6 }),
    period: fc.integer({ min: 1, max: 20 }),
    duration: fc.integer({ min: 1, max: 20 }),
    trialCost: fc.constantFrom('serial' as const, 'pipelined' as const, 'free' as const),
    reading: fc.constantFrom('literal' as const, 'repaired' as const),
    alpha: fc.integer({ min: 1, max: 12 }),
  });

  it('keeps configurations valid and never beats the optimum', () => {
    fc.assert(
      fc.property(cases, (c) => {
        const spec = toySpec(
          { executionPlaces: c.stages, seed: c.seed, queries: 150, random: { periodQueries: c.period, durationQueries: c.duration, modes: [1, 2] } },
          { trialCost: c.trialCost, llsReading: c.reading },
        );
        for (const s of [createOdin({ alpha: c.alpha }), createLls({ reading: c.reading }), createOptimal(), createStatic(), createEvict()]) {
          new PipelineRun(spec, s).advance(150, (r) => {
            expect(isValidConfiguration(r.configuration, 8)).toBe(true);
            expect(r.configuration.length).toBe(c.stages);
            expect(r.bottleneckMs).toBeGreaterThanOrEqual(r.optimalBottleneckMs * (1 - 1e-12));
          });
        }
      }),
      { numRuns: runs(40) },
    );
  });

  it('does not rebalance without interference, and static never rebalances', () => {
    for (const s of [createOdin({ alpha: 10 }), createLls({ reading: 'literal' }), createLls({ reading: 'repaired' })]) {
      const summary = new PipelineRun(toySpec({ queries: 500 }), s).runToEnd();
      expect(summary.rebalancings).toBe(0);
      expect(summary.rebalancingQueries).toBe(0);
      expect(summary.optimalRatioMean).toBe(1);
    }
    const loaded = new PipelineRun(toySpec({ random: RANDOM, queries: 500 }), createStatic()).runToEnd();
    expect(loaded.rebalancings).toBe(0);
    expect(loaded.rebalancingQueries).toBe(0);
  });

  it('drains the pipeline and serves each serial trial alone', () => {
    const spec = toySpec({ events: [{ executionPlace: 1, mode: 1, fromQuery: 30, toQuery: null }], queries: 80 });
    const records = collect(new PipelineRun(spec, createOdin({ alpha: 2 })));
    const detecting = records.find((r) => r.detected);
    expect(detecting).toBeDefined();
    const trials = records.filter((r) => r.kind === 'trial');
    expect(trials.length).toBeGreaterThanOrEqual(2);
    for (const t of trials) {
      const previous = records[t.query - 1]!;
      const serviceMs = t.stageTimesMs.reduce((x, y) => x + y, 0);
      // Admitted only after the previous query left the pipeline, then never waits.
      expect(t.arrivalMs).toBeGreaterThanOrEqual(previous.completionMs);
      expect(t.completionMs - t.arrivalMs).toBeCloseTo(serviceMs, 9);
    }
    // The queries admitted before the detection finish on the old configuration.
    const inflight = records.filter((r) => r.kind === 'inflight');
    for (const r of inflight) expect(Array.from(r.configuration)).toEqual(Array.from(detecting!.configuration));
  });

  it('costs no queries with free trials and one query per trial otherwise', () => {
    const spec = (trialCost: 'serial' | 'pipelined' | 'free') =>
      toySpec({ events: [{ executionPlace: 2, mode: 2, fromQuery: 40, toQuery: 120 }], queries: 200 }, { trialCost });
    const free = new PipelineRun(spec('free'), createOdin({ alpha: 4 })).runToEnd();
    expect(free.rebalancingQueries).toBe(0);
    expect(free.freeTrials).toBeGreaterThan(0);
    expect(free.overheadPct).toBe(0);
    for (const cost of ['serial', 'pipelined'] as const) {
      const s = new PipelineRun(spec(cost), createOdin({ alpha: 4 })).runToEnd();
      expect(s.rebalancingQueries).toBeGreaterThanOrEqual(4 * s.rebalancings);
      expect(s.freeTrials).toBe(0);
    }
  });

  it('notices a hog leaving a non-bottleneck stage only when it watches every stage', () => {
    const spec = (detectionSignal: 'bottleneck' | 'anyStage') =>
      toySpec({ events: [{ executionPlace: 3, mode: 1, fromQuery: 20, toQuery: 100 }], queries: 300 }, { detectionSignal, trialCost: 'free' });
    const last = (records: QueryRecord[]) => records.at(-1)!;
    const watchAll = collect(new PipelineRun(spec('anyStage'), createOdin({ alpha: 6 })));
    const watchBottleneck = collect(new PipelineRun(spec('bottleneck'), createOdin({ alpha: 6 })));
    // Both react to the arrival at query 20.
    expect(watchAll.find((r) => r.detected)!.query).toBe(20);
    expect(watchBottleneck.find((r) => r.detected)!.query).toBe(20);
    // After the hog leaves, only the all-stage monitor finds the interference-free optimum again.
    expect(watchAll.filter((r) => r.detected).length).toBeGreaterThanOrEqual(2);
    expect(last(watchAll).bottleneckMs).toBe(last(watchAll).optimalBottleneckMs);
    expect(last(watchBottleneck).bottleneckMs).toBeGreaterThan(last(watchBottleneck).optimalBottleneckMs);
  });
});
