import { describe, expect, it } from 'vitest';
import type { Configuration } from '../engine/configuration';
import { llsRebalance, llsSourceAndTarget, llsUtilization } from './lls';

describe('LLS utilization (ODIN §3.3)', () => {
  it('reads the formula literally: w may go negative and υ_i = t_i / t_0', () => {
    // w = [0, −10, 5, −5]; υ = 1 − w/(w+t) = [1, 2, 0.5, 1.5].
    expect(Array.from(llsUtilization([10, 20, 5, 15], 'literal'))).toEqual([1, 2, 0.5, 1.5]);
    expect(llsSourceAndTarget([10, 20, 5, 15], 'literal')).toEqual({ most: 1, least: 2 });
  });

  it('repairs the formula: w clamped at 0, ties broken by stage time', () => {
    // w = [0, 0, 15, 5]; υ = [1, 1, 0.25, 0.75]; stages 0 and 1 tie at 1 → the slower, 1.
    expect(Array.from(llsUtilization([10, 20, 5, 15], 'repaired'))).toEqual([1, 1, 0.25, 0.75]);
    expect(llsSourceAndTarget([10, 20, 5, 15], 'repaired')).toEqual({ most: 1, least: 2 });
  });

  it('breaks literal ties by index', () => {
    expect(llsSourceAndTarget([5, 5, 5], 'literal')).toEqual({ most: 0, least: 0 });
    expect(llsSourceAndTarget([5, 9, 9, 1, 1], 'literal')).toEqual({ most: 1, least: 3 });
  });

  it('defines the 0/0 case of an empty first stage', () => {
    expect(Array.from(llsUtilization([0, 4, 0], 'literal'))).toEqual([0, 1, 0]);
  });
});

describe('LLS rebalancing', () => {
  const context = (configuration: number[], stageTimesMs: number[]) => ({
    configuration: Int32Array.from(configuration) as Configuration,
    stageTimesMs: Float64Array.from(stageTimesMs),
    unitCount: configuration.reduce((a, b) => a + b, 0),
    trigger: 'increase' as const,
  });

  it('moves from most to least utilized while throughput holds, and keeps the last good one', () => {
    const r = llsRebalance(context([3, 3, 3], [6, 12, 3]), 'literal');
    let step = r.next(new Float64Array(0));
    expect(Array.from(step.value as Int32Array)).toEqual([3, 2, 4]); // 1 → 2
    step = r.next(Float64Array.of(6, 8, 5)); // better: 8 < 12
    expect(Array.from(step.value as Int32Array)).toEqual([3, 1, 5]); // still 1 → 2
    step = r.next(Float64Array.of(6, 4, 9)); // worse: 9 > 8 → stop, keep [3, 2, 4]
    expect(step.done).toBe(true);
    expect(Array.from(step.value as Int32Array)).toEqual([3, 2, 4]);
  });

  it('stops after at most L moves when throughput stays equal', () => {
    const r = llsRebalance(context([2, 2], [5, 4]), 'repaired');
    let step = r.next(new Float64Array(0));
    let trials = 0;
    while (!step.done) {
      trials++;
      step = r.next(Float64Array.of(5, 4));
    }
    expect(trials).toBeLessThanOrEqual(4);
  });
});
