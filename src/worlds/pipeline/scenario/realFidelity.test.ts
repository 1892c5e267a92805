import { describe, expect, it } from 'vitest';
import { configurationKey } from '../engine/configuration';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import type { PipelineMachine } from '../engine/machine';
import type { RealQuery } from '../measure/realPipeline/pipeline';
import { pipeline } from '../defaultPreset';
import { errorInterval, fidelityReport, simulateOnMachine, type RealLaneRun } from './realFidelity';
import { fidelityMarkdown } from './realRun';

const A = [3, 5, 4, 6, 5, 4, 6, 3];
const DATABASE: LayerTimeDatabase = { model: 'vgg16', layers: A.map((_, i) => `u${i}`), modes: { A, B: A.map((t) => 1.5 * t) } };

/** A "real" run made from the simulation itself (ideal machine, or `machine`): what a perfect simulator would be compared with. */
function asReal(scenario: ReturnType<typeof pipeline>, lane: number, machine?: PipelineMachine): RealLaneRun {
  const sim = simulateOnMachine(scenario, lane, DATABASE, machine, 1);
  const queries: RealQuery[] = sim.served.map((q, i) => ({
    query: q.query,
    kind: sim.kinds[i] === 'trial' ? 'trial' : 'normal',
    admittedMs: q.admittedMs,
    completionMs: q.completionMs,
    stageTimesMs: new Float64Array(2),
    configuration: configurationKey([4, 4]),
    modes: Uint8Array.from(q.modes.split(','), (m) => (m === 'A' ? 0 : 1)),
  }));
  const last = queries.at(-1)!.completionMs;
  return { queries, reconfigurations: [], rebalancings: sim.counts.phases, durationMs: last, overheadMs: { drains: 0, moves: 0, hogStalls: 0 } };
}

describe('fidelity with intervals', () => {
  const scenario = (queries: number, events: boolean) =>
    pipeline('t', {
      executionPlaces: 2,
      queries,
      lanes: [{ scheduler: 'odin', params: { alpha: 3 } }, { scheduler: 'lls' }],
      interference: { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: events ? [{ executionPlace: 1, mode: 'B', fromQuery: Math.round(queries / 3), toQuery: Math.round((2 * queries) / 3) }] : [] },
    });

  it('a simulation compared with itself: zero error, and a verdict can be given', () => {
    const s = scenario(90, true);
    const runs = [0, 1].map((lane) => [asReal(s, lane), asReal(s, lane)]);
    const f = fidelityReport(s, DATABASE, runs, null, null, 20);
    expect(f.tooShort).toBeNull();
    expect(f.repeats).toBe(2);
    for (const l of f.lanes) {
      expect(l.error.ideal.throughputPct.mean).toBeCloseTo(0, 9);
      expect(l.error.ideal.latencyMeanPct.mean).toBeCloseTo(0, 9);
      expect(l.phases.length).toBe(3);
      for (const p of l.phases) expect(p.throughputErrorPct).toBeCloseTo(0, 9);
    }
    expect(f.odinVsLls?.agrees).toBe(true);
  });

  it('a run too short to reach its interference event says so instead of a verdict', () => {
    // Four queries: the event of the scenario starts at query 30 of 90 — here at 1 of 4, but the run is cut before it.
    const long = scenario(90, true);
    const short = { ...long, pipeline: { ...long.pipeline, queries: 4, interference: { ...long.pipeline.interference, events: [{ executionPlace: 1, mode: 'B' as const, fromQuery: 30, toQuery: 60 }] } } };
    const runs = [0, 1].map((lane) => [asReal(short, lane)]);
    const f = fidelityReport(short, DATABASE, runs, null, null, 20);
    expect(f.tooShort).toMatch(/too short to say: no query ran under interference/);
    const text = fidelityMarkdown({ fidelity: f, calibration: null }).join('\n');
    expect(text).toContain('**No verdict:**');
    expect(text).not.toContain('the sign does not agree');
    expect(text).not.toContain('the sign agrees');
  });

  it('the error interval combines both intervals', () => {
    const e = errorInterval({ mean: 11, halfWidth95: 1.1, seeds: 20 }, { mean: 10, halfWidth95: 0.5, seeds: 5 });
    expect(e.mean).toBeCloseTo(10, 9);
    expect(e.halfWidth95).toBeCloseTo(110 * Math.hypot(0.1, 0.05), 9);
  });

  it('a machine that drifts between rounds: each repeat on its own round’s machine gives no error; one calibration for all does not', () => {
    const s = scenario(90, true);
    // A synthetic machine whose speed drifts from round to round (noise-free: one seed says it all).
    const machineAt = (pipelinedFactor: number): PipelineMachine => ({ stageNoiseCv: 0, pipelinedFactor, hopMs: 0.5, moveMs: 2, hogStartMs: 0 });
    const rounds = [1.0, 1.4, 1.3].map(machineAt);
    const runs = [0, 1].map((lane) => rounds.map((m) => asReal(s, lane, m)));
    const paired = fidelityReport(s, DATABASE, runs, rounds[0]!, null, 3, rounds.map((machine) => ({ machine, noSharing: null })));
    const single = fidelityReport(s, DATABASE, runs, rounds[0]!, null, 3);
    for (const [k, l] of paired.lanes.entries()) {
      expect(l.error.machine!.throughputPct.mean).toBeCloseTo(0, 9);
      expect(l.error.machine!.throughputPct.halfWidth95).toBeCloseTo(0, 9);
      expect(l.error.machine!.latencyMeanPct.mean).toBeCloseTo(0, 9);
      // The first round's machine is faster than the mean of the rounds: its simulation over-states throughput.
      const one = single.lanes[k]!.error.machine!;
      expect(one.throughputPct.mean).toBeGreaterThan(5);
      expect(one.throughputPct.halfWidth95).toBeGreaterThan(2);
      // The simulated figures pool every round's machine.
      expect(l.machine!.throughputQps.seeds).toBe(rounds.length * 3);
    }
    expect(paired.odinVsLls?.agrees).toBe(true);
    const text = fidelityMarkdown({ fidelity: paired, calibration: { machine: rounds[0]!, noSharing: null, queriesUsed: 90, movesUsed: 6, wallMs: 1 }, calibrations: rounds.map((machine) => ({ machine, noSharing: null, queriesUsed: 90, movesUsed: 6, wallMs: 1 })), fidelityFirstCalibration: single }).join('\n');
    expect(text).toContain('A calibration before each round of repeats');
    expect(text).toContain('- round 3: ');
    expect(text).toContain("On the first round's machine alone");
  });
});
