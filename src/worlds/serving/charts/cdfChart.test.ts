import { describe, expect, it } from 'vitest';
import { CDF_TAIL_RATIO, cdfDomain, cdfPoints } from './cdfChart';

const percentiles = (f: (i: number) => number) => Array.from({ length: 101 }, (_, i) => f(i));

describe('cdfPoints', () => {
  it('puts quantile i of 101 at i %', () => {
    const points = cdfPoints(percentiles((i) => i / 10));
    expect(points).toHaveLength(101);
    expect(points[0]).toEqual({ value: 0, share: 0 });
    expect(points[50]).toEqual({ value: 5, share: 50 });
    expect(points[100]).toEqual({ value: 10, share: 100 });
  });

  it('skips non-finite quantiles and never lets the CDF go back', () => {
    expect(cdfPoints([1, Number.NaN, 0.5])).toEqual([
      { value: 1, share: 0 },
      { value: 1, share: 100 },
    ]);
    expect(cdfPoints([])).toEqual([]);
    expect(cdfPoints([3])).toEqual([{ value: 3, share: 100 }]);
  });
});

describe('cdfDomain', () => {
  it('runs from 0 to the largest value', () => {
    expect(cdfDomain([cdfPoints(percentiles((i) => i)), cdfPoints(percentiles((i) => i / 2))])).toEqual({ x: [0, 100], clipped: false });
  });

  it('cuts a long tail at 1.5 × the largest 95th percentile', () => {
    const tail = percentiles((i) => (i === 100 ? 10 * CDF_TAIL_RATIO * 10 : i / 10));
    const d = cdfDomain([cdfPoints(tail)]);
    expect(d.clipped).toBe(true);
    expect(d.x[0]).toBe(0);
    expect(d.x[1]).toBeCloseTo(1.5 * 9.5);
  });

  it('starts below 0 for negative values and defaults without data', () => {
    expect(cdfDomain([cdfPoints([-2, 0, 2])]).x).toEqual([-2, 2]);
    expect(cdfDomain([])).toEqual({ x: [0, 1], clipped: false });
    expect(cdfDomain([cdfPoints([0, 0])])).toEqual({ x: [0, 1], clipped: false });
  });
});
