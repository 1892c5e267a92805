import { describe, expect, it } from 'vitest';
import { getDatabase } from '../engine/profiles/databases';
import { MODE_IDS } from '../engine/profiles/types';
import type { RealQuery } from '../measure/realPipeline/pipeline';
import { findPreset } from '../../../scenario/presets';
import { compareLane, coreMapping, figuresOf, modesNeeded, peakHogThreads, phasesOf, realComparisonScenario, realRunRefusal, signedErrorPct, simulateLane } from './realPipeline';
import type { PipelineScenario } from '../schema';

const scenario = (): PipelineScenario => {
  const s = structuredClone(findPreset('default')!.scenario) as PipelineScenario;
  return { ...s, pipeline: { ...s.pipeline, queries: 200 } };
};

describe('a real run beside its simulation: the figures', () => {
  it('throughput over the span from the first admission to the last completion, latency mean and p99', () => {
    const q = (query: number, admittedMs: number, completionMs: number) => ({ query, admittedMs, completionMs, modes: 'A' });
    const f = figuresOf([q(0, 0, 10), q(1, 10, 30), q(2, 30, 40), q(3, 40, 50)]);
    expect(f.throughputQps).toBeCloseTo(80, 9);
    expect(f.latencyMeanMs).toBeCloseTo(12.5, 9);
    expect(f.latencyP99Ms).toBeGreaterThan(10);
    expect(f.latencyP99Ms).toBeLessThanOrEqual(20);
    expect(figuresOf([])).toEqual({ queries: 0, throughputQps: 0, latencyMeanMs: 0, latencyP99Ms: 0 });
  });

  it('phases are maximal runs of queries under the same modes', () => {
    const modes = ['A,A', 'A,A', 'A,B', 'A,B', 'A,A'];
    const phases = phasesOf(modes.map((m, i) => ({ query: i, admittedMs: i, completionMs: i + 1, modes: m })));
    expect(phases.map((p) => [p.fromQuery, p.toQuery, p.modes])).toEqual([
      [0, 2, 'A,A'],
      [2, 4, 'A,B'],
      [4, 5, 'A,A'],
    ]);
  });

  it('signed error is (simulated − measured) / measured', () => {
    expect(signedErrorPct(110, 100)).toBeCloseTo(10, 9);
    expect(signedErrorPct(90, 100)).toBeCloseTo(-10, 9);
    expect(signedErrorPct(0, 0)).toBe(0);
  });

  it('maps execution places onto cores and says when they share', () => {
    expect(coreMapping(2, 2)).toMatchObject({ coresPerEp: 1, shared: false });
    expect(coreMapping(4, 2)).toMatchObject({ coresPerEp: 1, shared: true });
    expect(coreMapping(4, 2).text).toContain('share cores');
    expect(coreMapping(4, 16)).toMatchObject({ coresPerEp: 4, shared: false });
  });

  it('counts the hogs that can run at once: 2 EPs on 2 cores share them while a memBW hog runs', () => {
    const withHog = realComparisonScenario(2, 90);
    expect(peakHogThreads(withHog, 1)).toBe(1);
    expect(coreMapping(2, 2, withHog)).toMatchObject({ shared: true, peakThreads: 3 });
    expect(coreMapping(2, 2, withHog).text).toContain('up to 3 busy threads share the 2 cores');
    // Enough cores for the stages and the hog: nothing shared.
    expect(coreMapping(2, 4, withHog)).toMatchObject({ shared: false, peakThreads: 3 });
    // Events that do not overlap add no threads; two that overlap add both.
    const p = withHog.pipeline;
    const apart = { ...withHog, pipeline: { ...p, interference: { ...p.interference, events: [{ executionPlace: 0, mode: 'B' as const, fromQuery: 0, toQuery: 10 }, { executionPlace: 1, mode: 'B' as const, fromQuery: 10, toQuery: 20 }] } } };
    expect(peakHogThreads(apart, 1)).toBe(1);
    const together = { ...apart, pipeline: { ...apart.pipeline, interference: { ...apart.pipeline.interference, events: [{ executionPlace: 0, mode: 'B' as const, fromQuery: 0, toQuery: 10 }, { executionPlace: 1, mode: 'B' as const, fromQuery: 5, toQuery: null }] } } };
    expect(peakHogThreads(together, 1)).toBe(2);
    // No interference: the stages alone.
    const quiet = { ...withHog, pipeline: { ...p, interference: { ...p.interference, events: [] } } };
    expect(coreMapping(2, 2, quiet)).toMatchObject({ shared: false, peakThreads: 2 });
  });

  it('a measurement that is the simulation itself has no error, under the reading it came from', () => {
    const s = scenario();
    const db = getDatabase('vgg16');
    const sim = simulateLane(s, 0, db, 'serial');
    const real: RealQuery[] = sim.queries.map((q) => ({
      query: q.query,
      kind: 'normal',
      admittedMs: q.admittedMs,
      completionMs: q.completionMs,
      stageTimesMs: new Float64Array(4),
      configuration: '',
      modes: Uint8Array.from(q.modes.split(','), (m) => MODE_IDS.indexOf(m as (typeof MODE_IDS)[number])),
    }));
    const c = compareLane(s, 0, db, { queries: real, reconfigurations: [], rebalancings: sim.rebalancings });
    expect(c.error).toEqual({ throughputQps: 0, latencyMeanMs: 0, latencyP99Ms: 0 });
    expect(c.closestReading).toBe('serial');
    expect(c.readings.find((r) => r.trialCost === 'serial')!.mapePct).toBe(0);
    // The default preset's memBW hog (mode E) on EP 2 (index 1) from query 150: two phases within 200 queries.
    expect(c.measured.phases.map((p) => p.modes)).toEqual(['A,A,A,A', 'A,E,A,A']);
  });

  it('refuses Poisson admission and an embedded database, naming the field', () => {
    const s = scenario();
    expect(realRunRefusal(s)).toBeNull();
    expect(realRunRefusal({ ...s, pipeline: { ...s.pipeline, assumptions: { ...s.pipeline.assumptions, admission: { kind: 'poisson', rateQps: 5 } } } })?.field).toBe('pipeline.assumptions.admission');
    expect(modesNeeded(s)).toEqual(['A', ...new Set(s.pipeline.interference.events.map((e) => e.mode))]);
  });
});
