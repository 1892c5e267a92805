import { describe, expect, it } from 'vitest';
import type { PipelineSummary } from '../engine/metrics';
import { sloCurve } from './sloCurve';

function summary(peak: Record<string, number>, optimum: Record<string, number>): PipelineSummary {
  return { sloViolationPct: peak, sloViolationPctOfOptimum: optimum } as unknown as PipelineSummary;
}

describe('sloCurve', () => {
  it('reads the levels 5 … 100 % in order, from the chosen reference', () => {
    const peak = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [((k + 1) / 20).toFixed(2), k * 5]));
    const s = summary(peak, { '0.50': 1, '1.00': 42 });
    const curve = sloCurve(s, 'peak');
    expect(curve).toHaveLength(20);
    expect(curve[0]).toEqual({ levelPct: 5, violationPct: 0 });
    expect(curve.at(-1)).toEqual({ levelPct: 100, violationPct: 95 });
    expect(sloCurve(s, 'optimum')).toEqual([
      { levelPct: 50, violationPct: 1 },
      { levelPct: 100, violationPct: 42 },
    ]);
  });
});
