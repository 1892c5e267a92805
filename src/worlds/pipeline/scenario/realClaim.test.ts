import { describe, expect, it } from 'vitest';
import { machineClaimRow, REAL_CLAIM_RULE } from './realClaim';
import type { RealReport } from './realRun';

/** A real report with the fields the row reads: lanes of (measured, simulated) throughput. */
function report(lanes: readonly { readonly scheduler: string; readonly measured: number; readonly simulated: number }[], sign: { measuredPct: number; simulatedPct: number; agrees: boolean } | null): RealReport {
  return {
    kind: 'real-pipeline',
    machine: { runtime: 'Node test', cores: 2, mapping: { executionPlaces: 2, cores: 2, coresPerEp: 1, shared: false, peakThreads: 2, text: '2 EPs on 2 cores' }, date: '2026-12-02' },
    scenario: { title: 't', model: 'vgg16', executionPlaces: 2, queries: 10, inputSize: 112, seed: 1, bufferCapacity: 2 },
    database: { source: 'measured', modes: ['A'], measureMs: 1, measurement: null },
    lanes: lanes.map((l) => ({
      scheduler: l.scheduler,
      label: l.scheduler.toUpperCase(),
      measured: { throughputQps: l.measured, reconfigurations: [{}, {}], reconfigurationMeanMs: 30 },
      simulated: { throughputQps: l.simulated },
      error: { throughputQps: (100 * (l.simulated - l.measured)) / l.measured, latencyMeanMs: 1, latencyP99Ms: 2 },
      closestReading: 'serial',
    })) as unknown as RealReport['lanes'],
    closestReading: 'serial',
    mapeByReading: {},
    odinVsLls: sign,
    calibration: null,
    fidelity: { repeats: 1, noiseSeeds: 1, lanes: [], odinVsLls: null, tooShort: null },
  };
}

const provenance = { command: 'c', commit: 'x', durationS: 1 };

describe("the lab's claim that its simulation predicts a real pipeline", () => {
  it(`holds when every lane's throughput is within ${REAL_CLAIM_RULE.tolerancePct} % and ODIN against LLS has the measured sign`, () => {
    const row = machineClaimRow(report([{ scheduler: 'odin', measured: 10, simulated: 11 }, { scheduler: 'lls', measured: 8, simulated: 7 }], { measuredPct: 25, simulatedPct: 57, agrees: true }), provenance);
    expect(row.verdict).toBe('holds');
    // Mean absolute error: (10 % + 12.5 %) / 2.
    expect(row.estimate).toEqual({ mean: 11.25, halfWidth95: 0, seeds: 1 });
    expect(row.lanes.map((l) => l.moves)).toEqual([2, 2]);
    expect(row.reason).toContain('within 20 %');
  });

  it('is partly when one of the two holds, and fails when neither does', () => {
    const off = [{ scheduler: 'odin', measured: 10, simulated: 25 }, { scheduler: 'lls', measured: 8, simulated: 8 }];
    expect(machineClaimRow(report(off, { measuredPct: 25, simulatedPct: 200, agrees: true }), provenance).verdict).toBe('partly');
    const fails = machineClaimRow(report(off, { measuredPct: -5, simulatedPct: 200, agrees: false }), provenance);
    expect(fails.verdict).toBe('fails');
    expect(fails.reason).toContain('ODIN (+150.0 % of the measured)');
    expect(fails.reason).toContain('does not agree');
    const near = [{ scheduler: 'odin', measured: 10, simulated: 10.5 }];
    expect(machineClaimRow(report(near, { measuredPct: 5, simulatedPct: -5, agrees: false }), provenance).verdict).toBe('partly');
  });

  it('without an LLS lane, only the throughput decides', () => {
    expect(machineClaimRow(report([{ scheduler: 'odin', measured: 10, simulated: 10.5 }], null), provenance).verdict).toBe('holds');
    expect(machineClaimRow(report([{ scheduler: 'odin', measured: 10, simulated: 30 }], null), provenance).verdict).toBe('fails');
  });

  it('with repeats, the row carries the intervals of the errors and the calibrated machine; a too-short run gives no verdict', () => {
    const mi = (mean: number, halfWidth95: number) => ({ mean, halfWidth95, seeds: 5 });
    const lane = (scheduler: string, measured: number, simulated: number, err: number) => ({
      scheduler,
      label: scheduler.toUpperCase(),
      measured: { throughputQps: mi(measured, 0.1), latencyMeanMs: mi(300, 5), phases: mi(2, 0.5), trials: mi(12, 2), moves: mi(14, 2) },
      ideal: { throughputQps: mi(2 * measured, 0), latencyMeanMs: mi(150, 0), phases: mi(1, 0), trials: mi(11, 0), moves: mi(12, 0) },
      machine: { throughputQps: mi(simulated, 0.05), latencyMeanMs: mi(310, 3), phases: mi(2, 0.3), trials: mi(12, 1), moves: mi(13, 1) },
      machineNoSharing: null,
      error: { ideal: { throughputPct: { mean: 100, halfWidth95: 4 }, latencyMeanPct: { mean: -50, halfWidth95: 2 } }, machine: { throughputPct: { mean: err, halfWidth95: 3 }, latencyMeanPct: { mean: 3, halfWidth95: 2 } }, machineNoSharing: null },
      phases: [],
      time: { normal: 1, trials: 1, moves: 1, drains: 1, hogStalls: 0 },
      simulatedTrace: [],
    });
    const base = report([{ scheduler: 'odin', measured: 10, simulated: 11 }, { scheduler: 'lls', measured: 8, simulated: 7 }], null);
    const withFidelity = (tooShort: string | null): RealReport => ({
      ...base,
      calibration: { machine: { stageNoiseCv: 0.05, pipelinedFactor: 1.1, hopMs: 0.2, moveMs: 3, hogStartMs: 0 }, noSharing: null, queriesUsed: 50, movesUsed: 3, wallMs: 1000 },
      fidelity: { repeats: 5, noiseSeeds: 20, lanes: [lane('odin', 4, 4.2, 5), lane('lls', 4.5, 4.4, -2)] as unknown as RealReport['fidelity']['lanes'], odinVsLls: { measuredPct: mi(-11, 3), simulatedPct: mi(-4, 1), agrees: true }, tooShort },
    });
    const row = machineClaimRow(withFidelity(null), provenance);
    expect(row.verdict).toBe('holds');
    expect(row.estimate).toEqual({ mean: 3.5, halfWidth95: 3, seeds: 5 });
    expect(row.lanes.map((l) => l.throughputErrorHalfWidth95Pct)).toEqual([3, 3]);
    expect(row.simulatedMachine).toContain('pipelined ×1.100');
    const short = machineClaimRow(withFidelity('the run is too short to say: no query ran under interference'), provenance);
    expect(short.verdict).toBe('noise');
    expect(short.reason).toContain('too short');
  });
});
