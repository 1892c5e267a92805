import { describe, expect, it } from 'vitest';
import { boxDomain } from './latencyBoxChart';
import { argMax, labelEvery } from './stagesChart';

describe('argMax', () => {
  it('finds the bottleneck stage, the first one on ties', () => {
    expect(argMax(Float64Array.from([3, 9, 2, 9]))).toBe(1);
    expect(argMax(new Float64Array(0))).toBe(-1);
  });
});

describe('labelEvery', () => {
  it('labels every EP when they fit and thins them in round steps when they do not', () => {
    expect(labelEvery(60, 35)).toBe(1);
    expect(labelEvery(25, 35)).toBe(2);
    expect(labelEvery(20, 35)).toBe(4);
    // 64 stages on ~400 px: bands of ~6 px.
    const step = labelEvery(6, 14);
    expect(step).toBe(4);
    expect(labelEvery(0, 14)).toBe(1);
  });
});

describe('boxDomain', () => {
  it('spans the whiskers with room and at least a decade', () => {
    const box = { whiskerLow: 10, q1: 11, median: 12, q3: 13, whiskerHigh: 14, count: 5 };
    const [lo, hi] = boxDomain([box, null]);
    expect(lo).toBeLessThan(10);
    expect(hi).toBeGreaterThan(14);
    expect(hi / lo).toBeGreaterThanOrEqual(10 - 1e-9);
    expect(boxDomain([null])).toEqual([1, 100]);
  });
});
