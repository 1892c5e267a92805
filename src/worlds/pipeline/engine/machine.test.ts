import { describe, expect, it } from 'vitest';
import type { PipelineScheduler } from './scheduler';
import { PipelineRun } from './simulation';
import { collect, toySpec } from './testing/fixtures';
import { machineProblem } from './machine';

const createStatic = (): PipelineScheduler => ({ id: 'static' });

describe('the machine beyond the database (pipeline.machine)', () => {
  it('a pipelined factor stretches every stage; the hop occupies the stage but the monitor does not see it', () => {
    const spec = toySpec({ executionPlaces: 2, queries: 5, initialConfiguration: Int32Array.of(4, 4) });
    const records = collect(new PipelineRun({ ...spec, machine: { stageNoiseCv: 0, pipelinedFactor: 1.5, hopMs: 1, moveMs: 0, hogStartMs: 0 } }, createStatic()));
    // 10 ms a stage × 1.5 + a 1 ms hop: 16 ms a stage, the first query done at 32, then one every 16.
    expect(records.map((r) => r.completionMs)).toEqual([32, 48, 64, 80, 96]);
    expect(Array.from(records[0]!.stageTimesMs)).toEqual([15, 15]);
  });

  it('a factor per execution place stretches each stage by its own; the bottleneck stage sets the pace', () => {
    const spec = toySpec({ executionPlaces: 2, queries: 5, initialConfiguration: Int32Array.of(4, 4) });
    const records = collect(new PipelineRun({ ...spec, machine: { stageNoiseCv: 0, pipelinedFactor: 9, stageFactors: [1.2, 1.5], hopMs: 0, moveMs: 0, hogStartMs: 0 } }, createStatic()));
    // 10 ms a stage: 12 ms on EP 0, 15 ms on EP 1 (the shared factor 9 unused); one query every 15 ms.
    expect(Array.from(records[0]!.stageTimesMs)).toEqual([12, 15]);
    expect(records.map((r) => r.completionMs)).toEqual([27, 42, 57, 72, 87]);
  });

  it('seeded noise: the same seed gives the same run, another seed another; its mean stays the database times', () => {
    const machine = { stageNoiseCv: 0.1, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0 };
    const spec = toySpec({ executionPlaces: 2, queries: 4000, initialConfiguration: Int32Array.of(4, 4) });
    const a = collect(new PipelineRun({ ...spec, machine }, createStatic()));
    const b = collect(new PipelineRun({ ...spec, machine }, createStatic()));
    const c = collect(new PipelineRun({ ...spec, seed: 2, machine }, createStatic()));
    expect(b.map((r) => r.completionMs)).toEqual(a.map((r) => r.completionMs));
    expect(c.map((r) => r.completionMs)).not.toEqual(a.map((r) => r.completionMs));
    const mean = a.reduce((s, r) => s + r.stageTimesMs[0]!, 0) / a.length;
    expect(mean).toBeGreaterThan(9.9);
    expect(mean).toBeLessThan(10.1);
  });

  it('spikes: a share of stage times a factor above the typical ones, the mean kept; no spikes is the lognormal alone, bit for bit', () => {
    const lognormal = { stageNoiseCv: 0.03, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0 };
    const spec = toySpec({ executionPlaces: 2, queries: 4000, initialConfiguration: Int32Array.of(4, 4) });
    const plain = collect(new PipelineRun({ ...spec, machine: lognormal }, createStatic()));
    const zero = collect(new PipelineRun({ ...spec, machine: { ...lognormal, stageSpikeShare: 0, stageSpikeFactor: 1.3 } }, createStatic()));
    expect(zero.map((r) => r.completionMs)).toEqual(plain.map((r) => r.completionMs));
    const spiky = collect(new PipelineRun({ ...spec, machine: { ...lognormal, stageSpikeShare: 0.05, stageSpikeFactor: 1.3 } }, createStatic()));
    const times = spiky.map((r) => r.stageTimesMs[0]!);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    expect(mean).toBeGreaterThan(9.9);
    expect(mean).toBeLessThan(10.1);
    // Typical times sit at 10 / 1.015 ms within a few per cent; spikes 1.3 × that: 5 % of queries above 11.5 ms.
    const spikes = times.filter((t) => t > 11.5).length / times.length;
    expect(spikes).toBeGreaterThan(0.04);
    expect(spikes).toBeLessThan(0.06);
  });

  it('core sharing: 4 busy stages on 2 cores take twice as long', () => {
    const spec = toySpec({ executionPlaces: 4, queries: 50, initialConfiguration: Int32Array.of(2, 2, 2, 2) });
    const ideal = new PipelineRun(spec, createStatic()).runToEnd();
    const shared = new PipelineRun({ ...spec, machine: { stageNoiseCv: 0, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0, cores: 2 } }, createStatic()).runToEnd();
    expect(shared.throughputMeanQps / ideal.throughputMeanQps).toBeCloseTo(0.5, 1);
  });

  it('a bad machine field is named', () => {
    expect(machineProblem({ stageNoiseCv: -1, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0 })?.field).toBe('stageNoiseCv');
    expect(machineProblem({ stageNoiseCv: 0, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0, cores: 0 })?.field).toBe('cores');
    expect(machineProblem({ stageNoiseCv: 0, pipelinedFactor: 1, stageFactors: [1, 0], hopMs: 0, moveMs: 0, hogStartMs: 0 })?.field).toBe('stageFactors');
    expect(machineProblem({ stageNoiseCv: 0, stageSpikeShare: 0.1, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0 })?.field).toBe('stageSpikeFactor');
    expect(machineProblem({ stageNoiseCv: 0, stageSpikeShare: 0.6, stageSpikeFactor: 2, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0 })?.field).toBe('stageSpikeShare');
  });
});
