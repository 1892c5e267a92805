import { describe, expect, it } from 'vitest';
import { fitText, headroomMax, pointIndices } from './pointSampling';

describe('pointIndices', () => {
  it('keeps every point under the budget', () => {
    expect(pointIndices(5, 1024)).toEqual([0, 1, 2, 3, 4]);
    expect(pointIndices(0, 1024)).toEqual([]);
  });

  it('stays within the budget, evenly spaced, and ends at the newest point', () => {
    for (const length of [1025, 2000, 4096, 10_001]) {
      const idx = pointIndices(length, 1024);
      expect(idx.length).toBeLessThanOrEqual(1024);
      expect(idx[0]).toBe(0);
      expect(idx.at(-1)).toBe(length - 1);
      for (let k = 1; k < idx.length; k++) expect(idx[k]!).toBeGreaterThan(idx[k - 1]!);
    }
  });
});

describe('headroomMax', () => {
  it('adds headroom to the largest finite value and never returns 0', () => {
    expect(headroomMax([1, 5, Number.NaN, 2], 1.1)).toBeCloseTo(5.5);
    expect(headroomMax([], 1.1, 3)).toBe(3);
    expect(headroomMax([0, Number.POSITIVE_INFINITY], 1.1, 1)).toBe(1);
  });
});

describe('fitText', () => {
  it('shortens with an ellipsis only when the text does not fit', () => {
    expect(fitText('ODIN α=10', 100, 7)).toBe('ODIN α=10');
    expect(fitText('ODIN α=10', 42, 7)).toBe('ODIN …');
    expect(fitText('ODIN', 5, 7)).toBe('');
  });
});
