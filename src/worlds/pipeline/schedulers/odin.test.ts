import { describe, expect, it } from 'vitest';
import type { Configuration } from '../engine/configuration';
import type { Rebalancing } from '../engine/scheduler';
import { odinRebalance, type OdinStep } from './odin';

/** Drives a rebalancing, answering each trial with the next scripted observation. */
function drive(rebalancing: Rebalancing, observations: number[][]): { trials: number[][]; result: number[] } {
  const trials: number[][] = [];
  let step = rebalancing.next(new Float64Array(0));
  let i = 0;
  while (!step.done) {
    trials.push(Array.from(step.value));
    const observed = observations[i++];
    if (observed === undefined) throw new Error(`no observation scripted for trial ${i}`);
    step = rebalancing.next(Float64Array.from(observed));
  }
  return { trials, result: Array.from(step.value) };
}

const context = (configuration: number[], stageTimesMs: number[]) => ({
  configuration: Int32Array.from(configuration) as Configuration,
  stageTimesMs: Float64Array.from(stageTimesMs),
  unitCount: configuration.reduce((a, b) => a + b, 0),
  trigger: 'increase' as const,
});

describe('ODIN Algorithm 1', () => {
  it('with a tolerance ε a trial faster by less than ε does not count as improving', () => {
    // The first trial is 3 % faster than the detecting query's bottleneck (18 → 17.46).
    const observations = [
      [6, 8, 0, 17.46],
      [6, 17.46, 0, 10],
      [6, 17.46, 0, 10],
    ];
    const strict = drive(odinRebalance(context([3, 3, 3, 3], [6, 6, 18, 6]), { alpha: 1 }), observations);
    const tolerant = drive(odinRebalance(context([3, 3, 3, 3], [6, 6, 18, 6]), { alpha: 1, betterTolerance: 0.05 }), observations);
    // Strict: improving, so it explores on and returns the trial; with ε = 5 %: γ = 1 = α ends at once, C_opt stays the input.
    expect(strict.trials.length).toBeGreaterThan(1);
    expect(strict.result).not.toEqual([3, 3, 3, 3]);
    expect(tolerant.trials).toHaveLength(1);
    expect(tolerant.result).toEqual([3, 3, 3, 3]);
  });

  it('follows a hand-worked rebalancing trial by trial', () => {
    const steps: OdinStep[] = [];
    const run = drive(odinRebalance(context([3, 3, 3, 3], [6, 6, 18, 6]), { alpha: 2 }, (s) => steps.push(s)), [
      [6, 8, 0, 10], // improves: 10 < 18
      [6, 8, 12, 6], // worse than 10: γ = 1
      [6, 8, 6, 8], // improves: 8
      [10, 2, 12, 8], // worse: γ = 1
      [10, 2, 6, 10], // worse: γ = 2, stop
    ]);
    expect(run.trials).toEqual([
      // PS_affected = 2; lines 8–9 give one unit to each neighbour, S_left 12 ≥ S_right 6 → right, lightest 3.
      [3, 4, 0, 5],
      // PS_affected = 3 (the last stage): only the left neighbour gets a unit at line 9; the right side
      // is empty, so the direction turns left; the lightest on the left is the empty stage 2.
      [3, 4, 2, 3],
      // γ = 1: no double move; PS_affected = 2, right is lighter (6 < 14), lightest 3.
      [3, 4, 1, 4],
      // PS_affected = 1 (tie 8/8 → lowest index); double move, then left (6 < 14) to stage 0.
      [5, 1, 2, 4],
      [5, 1, 1, 5],
    ]);
    expect(run.result).toEqual([3, 4, 1, 4]);
    const firstIteration = steps.slice(0, 22).map((s) => s.line);
    expect(firstIteration).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 17, 19, 20, 21, 22, 23, 29, 30, 31, 32]);
    const atDirection = steps.find((s) => s.line === 17)!;
    expect(atDirection.affected).toBe(2);
    expect(atDirection.sLeftMs).toBe(12);
    expect(atDirection.sRightMs).toBe(6);
    expect(atDirection.direction).toBe('right');
    expect(atDirection.gamma).toBe(0);
    expect(steps.at(-1)!.line).toBe(35);
    expect(steps.at(-1)!.gamma).toBe(2);
  });

  it('on equal throughput moves one more unit and counts a failure (lines 25–28)', () => {
    const steps: OdinStep[] = [];
    const run = drive(odinRebalance(context([2, 6, 2], [4, 12, 4]), { alpha: 1 }, (s) => steps.push(s)), [[4, 12, 4]]);
    // Lines 8–9: [3, 4, 3]; S_left 4 = S_right 4 → right (not <); lightest 2; line 20–21: [3, 3, 4].
    expect(run.trials).toEqual([[3, 3, 4]]);
    // Equal: lines 26–27 move once more, γ = 1 = α ends; nothing improved so C_opt is the input.
    expect(run.result).toEqual([2, 6, 2]);
    expect(steps.map((s) => s.line)).toContain(26);
    expect(steps.find((s) => s.line === 28)!.configuration).toEqual([3, 2, 5]);
  });

  it('handles a first-stage bottleneck and never empties below zero', () => {
    const run = drive(odinRebalance(context([1, 5, 5], [20, 5, 5]), { alpha: 2 }), [
      [0, 9, 5],
      [0, 9, 6],
      [0, 10, 5],
    ]);
    // PS_affected = 0: only the right neighbour gets a unit (line 8), then stage 0 is empty,
    // direction left has no stage → right; nothing left to move.
    expect(run.trials[0]).toEqual([0, 6, 5]);
    for (const t of run.trials) for (const c of t) expect(c).toBeGreaterThanOrEqual(0);
    for (const t of run.trials) expect(t.reduce((a, b) => a + b, 0)).toBe(11);
    expect(run.result).toEqual([0, 6, 5]);
  });

  it('spends at least α trials and returns the best configuration seen', () => {
    for (const alpha of [1, 2, 5, 10]) {
      const run = drive(
        odinRebalance(context([4, 4, 4, 4], [8, 8, 20, 8]), { alpha }),
        Array.from({ length: 100 }, () => [9, 9, 21, 9]),
      );
      expect(run.trials.length).toBe(alpha);
      expect(run.result).toEqual([4, 4, 4, 4]);
    }
  });
});
