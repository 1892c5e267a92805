import { describe, expect, it } from 'vitest';
import { combine, judge, type Estimate } from './verdict';

const e = (mean: number, halfWidth95 = 0, seeds = 10): Estimate => ({ mean, halfWidth95, seeds });

describe('judge: a claim of a sign', () => {
  const odinFaster = { kind: 'sign', sign: 1, paperValue: 19, tolerance: 10 } as const;

  it('holds when the interval is on the claimed side and near the paper', () => {
    expect(judge(odinFaster, e(15, 3)).verdict).toBe('holds');
  });
  it('is partly when the sign agrees but the size is off by more than the tolerance', () => {
    const j = judge(odinFaster, e(2.6, 1));
    expect(j.verdict).toBe('partly');
    expect(j.reason).toContain('19');
  });
  it('fails when the interval is on the other side', () => {
    expect(judge(odinFaster, e(-30, 4)).verdict).toBe('fails');
  });
  it('is inside the noise when the interval includes 0', () => {
    const j = judge(odinFaster, e(1, 2, 3));
    expect(j.verdict).toBe('noise');
    expect(j.reason).toContain('3 seeds');
  });
  it('judges a negative claim (lower latency) by its own sign, without a paper number', () => {
    expect(judge({ kind: 'sign', sign: -1 }, e(-5, 1)).verdict).toBe('holds');
    expect(judge({ kind: 'sign', sign: -1 }, e(5, 1)).verdict).toBe('fails');
  });
  it('reads one seed as an exact number', () => {
    expect(judge({ kind: 'sign', sign: 1 }, e(0.1, 0, 1)).verdict).toBe('holds');
  });
});

describe('judge: bounds and targets', () => {
  it('a bound holds only when the whole interval respects it', () => {
    const atMost5 = { kind: 'atMost', bound: 5 } as const;
    expect(judge(atMost5, e(3, 1)).verdict).toBe('holds');
    expect(judge(atMost5, e(4.5, 1)).verdict).toBe('noise');
    expect(judge(atMost5, e(7, 1)).verdict).toBe('fails');
    expect(judge({ kind: 'atLeast', bound: 70 }, e(72, 1)).verdict).toBe('holds');
    expect(judge({ kind: 'atLeast', bound: 70 }, e(60, 1)).verdict).toBe('fails');
  });
  it('a target holds within its tolerance, partly within twice it, else fails', () => {
    const twelve = { kind: 'near', paperValue: 12, tolerance: 3 } as const;
    expect(judge(twelve, e(10)).verdict).toBe('holds');
    expect(judge(twelve, e(17)).verdict).toBe('partly');
    expect(judge(twelve, e(30)).verdict).toBe('fails');
  });
  it('refuses a number that is not one', () => {
    expect(() => judge({ kind: 'sign', sign: 1 }, e(Number.NaN))).toThrow(RangeError);
    expect(() => judge({ kind: 'sign', sign: 1 }, e(1, -1))).toThrow(RangeError);
  });
});

describe('combine: a claim made of parts', () => {
  it('holds, fails or is noise only when every part says so', () => {
    expect(combine(['holds', 'holds'])).toBe('holds');
    expect(combine(['fails', 'fails'])).toBe('fails');
    expect(combine(['noise', 'noise'])).toBe('noise');
  });
  it('is partly when some parts hold and others do not', () => {
    expect(combine(['holds', 'fails', 'fails'])).toBe('partly');
    expect(combine(['holds', 'noise'])).toBe('partly');
    expect(combine(['partly', 'fails'])).toBe('partly');
  });
  it('leans to the majority when no part holds', () => {
    expect(combine(['fails', 'fails', 'noise'])).toBe('fails');
    expect(combine(['fails', 'noise', 'noise'])).toBe('noise');
  });
  it('needs a part', () => {
    expect(() => combine([])).toThrow(RangeError);
  });
});
