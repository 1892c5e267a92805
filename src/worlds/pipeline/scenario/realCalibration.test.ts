import { describe, expect, it } from 'vitest';
import { DEFAULT_PIPELINE_ASSUMPTIONS } from '../engine/assumptions';
import { configurationKey } from '../engine/configuration';
import type { PipelineMachine } from '../engine/machine';
import type { PipelineScheduler } from '../engine/scheduler';
import { PipelineRun, type QueryRecord } from '../engine/simulation';
import { compileDatabase } from '../engine/stageTimes';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import { calibrateMachine, calibrationMoves, type CalibrationTrace } from './realCalibration';

/** Eight units; mode B has the same times (a label only), so the oracle below moves without changing the work. */
const A = [3, 5, 4, 6, 5, 4, 6, 3];
const DATABASE: LayerTimeDatabase = { model: 'synthetic', layers: A.map((_, i) => `u${i}`), modes: { A, B: A } };

/** Moves one unit from EP 0 to EP 1 while EP 1 is "in mode B", and back. */
const mover: PipelineScheduler = { id: 'test-mover', onModesChange: ({ modes }) => (modes[1] === 0 ? Int32Array.of(2, 2, 2, 2) : Int32Array.of(1, 3, 2, 2)) };

/** A synthetic machine's calibration lane: the simulation with `machine`, read as a real run's trace (moves as the gap they leave). */
function syntheticLane(machine: PipelineMachine, seed: number): CalibrationTrace {
  const queries = 600;
  const events = Array.from({ length: 5 }, (_, k) => ({ executionPlace: 1, mode: 1 as const, fromQuery: 60 + 120 * k, toQuery: 120 + 120 * k }));
  const run = new PipelineRun(
    { database: compileDatabase(DATABASE), executionPlaces: 4, queries, seed, events, random: null, assumptions: DEFAULT_PIPELINE_ASSUMPTIONS, initialConfiguration: Int32Array.of(2, 2, 2, 2), machine },
    mover,
  );
  const records: QueryRecord[] = [];
  run.advance(queries, (r) => records.push({ ...r, configuration: r.configuration.slice(), stageTimesMs: r.stageTimesMs.slice(), modes: r.modes.slice() }));
  const reconfigurations: { wallMs: number }[] = [];
  for (let q = 1; q < records.length; q++) {
    if (configurationKey(records[q]!.configuration) !== configurationKey(records[q - 1]!.configuration)) {
      const lastBefore = Math.max(...records.slice(0, q).map((r) => r.completionMs));
      reconfigurations.push({ wallMs: records[q]!.arrivalMs - lastBefore });
    }
  }
  return {
    queries: records.map((r) => ({ query: r.query, kind: 'normal', admittedMs: r.arrivalMs, completionMs: r.completionMs, stageTimesMs: r.stageTimesMs, configuration: configurationKey(r.configuration), modes: r.modes })),
    reconfigurations,
  };
}

describe('calibration recovers a synthetic machine', () => {
  // Stated tolerances: the factor within 2 %, the noise within 20 % of itself, the move cost within 1 %, the hop within 0.3 ms.
  for (const cores of [undefined, 2]) {
    it(`noise 6 %, factor 1.12, hop 0.4 ms, move 35 ms${cores === undefined ? '' : `, 4 EPs sharing ${cores} cores`}`, () => {
      const truth: PipelineMachine = { stageNoiseCv: 0.06, pipelinedFactor: 1.12, hopMs: 0.4, moveMs: 35, hogStartMs: 0, ...(cores === undefined ? {} : { cores }) };
      for (const seed of [1, 2, 3]) {
        const { machine, movesUsed } = calibrateMachine(syntheticLane(truth, seed), compileDatabase(DATABASE), 4, cores);
        // Out and back for each event but the last, which lasts to the end.
        expect(movesUsed).toBe(9);
        expect(Math.abs(machine.pipelinedFactor / truth.pipelinedFactor - 1)).toBeLessThan(0.02);
        expect(Math.abs(machine.stageNoiseCv / truth.stageNoiseCv - 1)).toBeLessThan(0.2);
        expect(Math.abs(machine.moveMs / truth.moveMs - 1)).toBeLessThan(0.01);
        expect(Math.abs(machine.hopMs - truth.hopMs)).toBeLessThan(0.3);
        expect(machine.cores).toBe(cores);
      }
    });
  }

  it('a factor per execution place: each place’s own, within 2 %, and the noise without the drift between places', () => {
    const truth: PipelineMachine = { stageNoiseCv: 0.06, pipelinedFactor: 1.2, stageFactors: [1.35, 1.1, 1.2, 1.05], hopMs: 0.4, moveMs: 35, hogStartMs: 0 };
    for (const seed of [1, 2, 3]) {
      const { machine } = calibrateMachine(syntheticLane(truth, seed), compileDatabase(DATABASE), 4);
      machine.stageFactors!.forEach((f, i) => expect(Math.abs(f / truth.stageFactors![i]! - 1), `EP ${i}`).toBeLessThan(0.02));
      expect(Math.abs(machine.stageNoiseCv / truth.stageNoiseCv - 1)).toBeLessThan(0.2);
    }
  });

  it('reads a slow drift of the machine as drift, not as noise per query (the short-term spread)', () => {
    const truth: PipelineMachine = { stageNoiseCv: 0.04, pipelinedFactor: 1.1, hopMs: 0, moveMs: 0, hogStartMs: 0 };
    const lane = syntheticLane(truth, 1);
    // The machine's speed wanders slowly: ±10 % over a period of 200 queries, on every stage at once.
    const drifted: CalibrationTrace = {
      ...lane,
      queries: lane.queries.map((q) => ({ ...q, stageTimesMs: q.stageTimesMs.map((t) => t * (1 + 0.1 * Math.sin((2 * Math.PI * q.query) / 200))) })),
    };
    const { machine } = calibrateMachine(drifted, compileDatabase(DATABASE), 4);
    expect(Math.abs(machine.stageNoiseCv / truth.stageNoiseCv - 1)).toBeLessThan(0.25);
  });

  it('spikes apart from the typical spread: share, factor and spread each recovered; a machine without spikes has none', () => {
    // Stated tolerances: the spread within 20 % of itself, the share within 35 % of itself, the factor within 5 %.
    const truth: PipelineMachine = { stageNoiseCv: 0.04, stageSpikeShare: 0.04, stageSpikeFactor: 1.3, pipelinedFactor: 1.1, hopMs: 0, moveMs: 0, hogStartMs: 0 };
    for (const seed of [1, 2, 3]) {
      const { machine } = calibrateMachine(syntheticLane(truth, seed), compileDatabase(DATABASE), 4);
      expect(Math.abs(machine.stageNoiseCv / truth.stageNoiseCv - 1), `seed ${seed} spread ${machine.stageNoiseCv}`).toBeLessThan(0.2);
      expect(Math.abs(machine.stageSpikeShare! / truth.stageSpikeShare! - 1), `seed ${seed} share ${machine.stageSpikeShare}`).toBeLessThan(0.35);
      expect(Math.abs(machine.stageSpikeFactor! / truth.stageSpikeFactor! - 1), `seed ${seed} factor ${machine.stageSpikeFactor}`).toBeLessThan(0.05);
      expect(Math.abs(machine.pipelinedFactor / truth.pipelinedFactor - 1)).toBeLessThan(0.02);
    }
    const plain = calibrateMachine(syntheticLane({ ...truth, stageSpikeShare: 0 }, 1), compileDatabase(DATABASE), 4).machine;
    expect(plain.stageSpikeShare ?? 0).toBeLessThan(0.002);
  });

  it('the ideal machine calibrates to itself (factor 1, no noise, no hop, no move)', () => {
    const ideal: PipelineMachine = { stageNoiseCv: 0, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0 };
    const { machine } = calibrateMachine(syntheticLane(ideal, 1), compileDatabase(DATABASE), 4);
    expect(machine.pipelinedFactor).toBeCloseTo(1, 12);
    for (const f of machine.stageFactors!) expect(f).toBeCloseTo(1, 12);
    expect(machine.stageNoiseCv).toBeCloseTo(0, 12);
    expect(machine.hopMs).toBeCloseTo(0, 9);
    expect(machine.moveMs).toBeCloseTo(0, 9);
  });

  it('too short a lane is refused, saying so', () => {
    const trace: CalibrationTrace = { queries: [{ query: 0, kind: 'normal', admittedMs: 0, completionMs: 10, stageTimesMs: Float64Array.of(5, 5), configuration: '4,4' }], reconfigurations: [] };
    expect(() => calibrateMachine(trace, compileDatabase(DATABASE), 2)).toThrow(/steady normal queries/);
  });

  it('scripted moves go out and back', () => {
    expect(calibrationMoves([3, 5], 40, 10).map((m) => [m.beforeQuery, Array.from(m.configuration)])).toEqual([
      [10, [2, 6]],
      [20, [3, 5]],
      [30, [2, 6]],
    ]);
  });
});
