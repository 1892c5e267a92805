import { describe, expect, it } from 'vitest';
import { learnCheck } from './learnCheck';
import { parseAnyScenario } from '../../../scenario/parse';
import { findPreset } from '../../../scenario/presets';
import type { ServingScenario } from '../schema';

/** `learn-sanity` cut to two models and 120 s, the oracle and two fixed configurations (no learner: no tfjs). */
function scenario(): ServingScenario {
  const preset = structuredClone(findPreset('learn-sanity')!.scenario) as ServingScenario;
  preset.serving.models = preset.serving.models.filter((m) => m.model === 'res' || m.model === 'mob');
  preset.serving.durationS = 120;
  preset.serving.lanes = [{ scheduler: 'fixed-hindsight', params: { maxBatch: 4, maxInstances: 2 } }, { scheduler: 'fixed', params: { batchSize: 1, instances: 1 } }, { scheduler: 'fixed', params: { batchSize: 16, instances: 2 } }];
  const parsed = parseAnyScenario(preset);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario as ServingScenario;
}

describe('learnCheck over seeds', () => {
  it('summarizes each lane over the seeds: means of the per-seed gaps and violations with their intervals', () => {
    const check = learnCheck(scenario(), [1, 2, 3], 60, undefined);
    expect(check.lanes).toHaveLength(9);
    expect(check.summary.map((s) => s.scheduler)).toEqual(['fixed-hindsight', 'fixed', 'fixed']);
    const oracle = check.summary[0]!;
    expect(oracle.runGapPct).toEqual({ mean: 0, halfWidth95: 0, seeds: 3 });
    expect(oracle.seedsWithin).toBe(3);
    check.summary.forEach((s, lane) => {
      const runs = check.lanes.filter((_, i) => i % 3 === lane);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(s.lastGapPct.mean).toBeCloseTo(mean(runs.map((r) => r.lastGapPct)), 9);
      expect(s.runGapPct.mean).toBeCloseTo(mean(runs.map((r) => r.runGapPct)), 9);
      expect(s.sloViolationPct.mean).toBeCloseTo(mean(runs.map((r) => r.sloViolationPct)), 9);
      expect(s.sloViolationPct.seeds).toBe(3);
      // Each run's gap is its utility against the oracle's of the same seed.
      for (const r of runs) {
        const o = check.lanes.find((l) => l.seed === r.seed && l.scheduler === 'fixed-hindsight')!;
        expect(r.runGapPct).toBeCloseTo(100 * (Math.exp(r.utilityMean - o.utilityMean) - 1), 9);
      }
    });
    // The large batch is far from the oracle on every seed, with a spread over them.
    expect(check.summary[2]!.runGapPct.mean).toBeLessThan(-5);
    expect(check.summary[2]!.runGapPct.halfWidth95).toBeGreaterThan(0);
  }, 120_000);
});
