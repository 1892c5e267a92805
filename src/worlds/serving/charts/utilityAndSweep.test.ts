import { describe, expect, it } from 'vitest';
import { sweepDomains, sweepPoints } from './rpsSweepChart';
import { normalizeToBest, normalizedDomain } from './utilityBarsChart';

describe('normalizeToBest', () => {
  it('divides by the best lane so that it becomes 1', () => {
    expect(normalizeToBest([2, 4, 1])).toEqual([0.5, 1, 0.25]);
  });

  it('keeps null and non-finite values null', () => {
    expect(normalizeToBest([null, 5, Number.NaN])).toEqual([null, 1, null]);
    expect(normalizeToBest([null, null])).toEqual([null, null]);
  });

  it('keeps a negative lane negative under a positive best', () => {
    expect(normalizeToBest([-2, 4])).toEqual([-0.5, 1]);
  });

  it('maps linearly worst → 0, best → 1 when the best is not positive', () => {
    expect(normalizeToBest([-4, -2, -3])).toEqual([0, 1, 0.5]);
    expect(normalizeToBest([0, 0])).toEqual([1, 1]);
  });
});

describe('normalizedDomain', () => {
  it('spans 0 … 1 with headroom, and below 0 for negative bars', () => {
    expect(normalizedDomain([[0.5, 1]])).toEqual([0, 1.08]);
    const [lo, hi] = normalizedDomain([[-0.5, 1]]);
    expect(lo).toBeCloseTo(-0.54);
    expect(hi).toBeCloseTo(1.08);
    expect(normalizedDomain([[null]])).toEqual([0, 1.08]);
  });
});

describe('sweepPoints and sweepDomains', () => {
  it('drops non-finite points and sorts by rate', () => {
    expect(
      sweepPoints([
        { rps: 30, violationPct: 5 },
        { rps: 10, violationPct: 1 },
        { rps: Number.NaN, violationPct: 2 },
      ]),
    ).toEqual([
      { rps: 10, violationPct: 1 },
      { rps: 30, violationPct: 5 },
    ]);
  });

  it('runs x from 0 to the highest rate and y from 0 to at least 10 % and at most 100 %', () => {
    expect(sweepDomains([[{ rps: 10, violationPct: 2 }], [{ rps: 50, violationPct: 4 }]])).toEqual({ x: [0, 50], y: [0, 10] });
    expect(sweepDomains([[{ rps: 20, violationPct: 40 }]]).y[1]).toBeCloseTo(44);
    expect(sweepDomains([[{ rps: 20, violationPct: 99 }]]).y).toEqual([0, 100]);
    expect(sweepDomains([])).toEqual({ x: [0, 1], y: [0, 10] });
  });
});
