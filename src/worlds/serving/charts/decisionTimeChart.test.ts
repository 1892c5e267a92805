import { describe, expect, it } from 'vitest';
import { DECISION_LOG_SPAN, decisionDomain, formatMicros } from './decisionTimeChart';

describe('decisionDomain', () => {
  it('is linear from 0 with 10 % headroom when the lanes are alike', () => {
    const d = decisionDomain([2, 10, null]);
    expect(d.min).toBe(0);
    expect(d.max).toBeCloseTo(11);
    expect(d.log).toBe(false);
  });

  it('turns logarithmic when rules and networks differ by more than DECISION_LOG_SPAN', () => {
    expect(decisionDomain([1, DECISION_LOG_SPAN * 5])).toEqual({ min: 0.5, max: DECISION_LOG_SPAN * 10, log: true });
  });

  it('skips lanes without decisions and defaults without data', () => {
    expect(decisionDomain([0, null, Number.NaN])).toEqual({ min: 0, max: 1, log: false });
    expect(decisionDomain([])).toEqual({ min: 0, max: 1, log: false });
  });
});

describe('formatMicros', () => {
  it('writes µs below a millisecond, ms below a second, then s', () => {
    expect(formatMicros(0.845)).toBe('0.845 µs');
    expect(formatMicros(412.3)).toBe('412 µs');
    expect(formatMicros(1250)).toBe('1.25 ms');
    expect(formatMicros(2_500_000)).toBe('2.5 s');
    expect(formatMicros(Number.NaN)).toBe('–');
  });
});
