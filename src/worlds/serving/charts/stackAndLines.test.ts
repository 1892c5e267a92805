import { describe, expect, it } from 'vitest';
import { countFinite } from './perModelLinesChart';
import { stackBands } from './perModelStackChart';

describe('stackBands', () => {
  it('gives each series the band between the running sums', () => {
    const tops = stackBands(
      [
        [1, 2, 3],
        [10, 0, 5],
      ],
      3,
    );
    expect(tops.map((t) => Array.from(t))).toEqual([
      [1, 2, 3],
      [11, 2, 8],
    ]);
  });

  it('counts missing, negative and non-finite samples as 0', () => {
    const tops = stackBands([[Number.NaN, -4], [2]], 2);
    expect(tops.map((t) => Array.from(t))).toEqual([
      [0, 0],
      [2, 0],
    ]);
  });

  it('returns no bands for no series', () => {
    expect(stackBands([], 5)).toEqual([]);
  });
});

describe('countFinite', () => {
  it('counts the finite samples at the drawn indices', () => {
    expect(countFinite([1, Number.NaN, 3, 4], [0, 1, 3, 7])).toBe(2);
  });
});
