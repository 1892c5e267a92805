import { describe, expect, it } from 'vitest';
import { compactLegend, stackCounts } from './stack';

describe('stackCounts', () => {
  it('gives each stage the band between the running sums', () => {
    // Two points of three stages: [2, 3, 1] and [0, 4, 2].
    const out = stackCounts(Int32Array.from([2, 3, 1, 0, 4, 2]), 3, 2);
    expect(Array.from(out)).toEqual([0, 2, 5, 6, 0, 0, 4, 6]);
  });

  it('reuses a large enough output buffer and ignores points past length', () => {
    const buffer = new Float64Array(16);
    const out = stackCounts(Int32Array.from([1, 1, 9, 9]), 2, 1, buffer);
    expect(out).toBe(buffer);
    expect(Array.from(out.subarray(0, 3))).toEqual([0, 1, 2]);
  });

  it('throws when the counts are too short for the points', () => {
    expect(() => stackCounts(Int32Array.from([1, 2]), 2, 2)).toThrow(RangeError);
    expect(() => stackCounts(Int32Array.from([1, 2]), -1, 1)).toThrow(RangeError);
  });
});

describe('compactLegend', () => {
  it('shows every stage when they fit', () => {
    expect(compactLegend(4, 8)).toEqual({ shown: [0, 1, 2, 3], hidden: 0 });
  });

  it('shows the first eight of 64 stages and counts the rest', () => {
    const { shown, hidden } = compactLegend(64);
    expect(shown).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(hidden).toBe(56);
  });
});
