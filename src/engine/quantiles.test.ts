import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../testing/propertySeed';
import { createRng } from './rng';
import { DEFAULT_PERCENTILE_RELATIVE_ERROR, LogHistogram, quantileSelect, quantileSorted } from './quantiles';

const exact = (values: readonly number[], p: number) => quantileSorted(Float64Array.from(values).sort(), p);
/** Floating-point rounding at bucket edges (log, exp) adds ~1e-15 relative; allow 1e-9. */
const within = (estimate: number, truth: number, relativeError: number) => Math.abs(estimate - truth) <= relativeError * truth * (1 + 1e-9) + 1e-300;

describe('LogHistogram: streaming percentiles within a stated relative error', () => {
  it('stays within the bound of the exact type-7 percentile on random data (property test)', () => {
    const value = fc.oneof(
      { weight: 6, arbitrary: fc.double({ min: 1e-3, max: 1e7, noNaN: true }) },
      { weight: 1, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.double({ min: 1e-6, max: 1e12, noNaN: true }) },
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 400 }),
        fc.constantFrom(0.0005, 0.001, 0.01, 0.05),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 5 }),
        (values, relativeError, ps) => {
          const h = new LogHistogram(relativeError);
          for (const v of values) h.add(v);
          expect(h.count).toBe(values.length);
          for (const p of [0, 0.5, 0.99, 1, ...ps]) {
            const truth = exact(values, p);
            const estimate = h.quantile(p);
            if (!within(estimate, truth, relativeError)) throw new Error(`p=${p}: ${estimate} vs exact ${truth} (ε=${relativeError})`);
          }
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('measures the error on a long-tailed latency sample (lognormal), well within 0.1 %', () => {
    const rng = createRng(7);
    const values: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      const u1 = Math.max(rng.nextFloat(), 1e-12);
      const u2 = rng.nextFloat();
      values.push(40 * Math.exp(0.8 * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)));
    }
    const h = new LogHistogram();
    for (const v of values) h.add(v);
    let worst = 0;
    for (const p of [0.5, 0.9, 0.99, 0.999]) worst = Math.max(worst, Math.abs(h.quantile(p) / exact(values, p) - 1));
    expect(worst).toBeLessThanOrEqual(DEFAULT_PERCENTILE_RELATIVE_ERROR);
    expect(worst).toBeGreaterThan(0); // an estimate, not a copy of the samples
  });

  it('keeps memory flat: the buckets depend on the range of values, not on their number', () => {
    const h = new LogHistogram();
    for (let i = 0; i < 1000; i++) h.add(1 + (i % 100));
    const buckets = h.buckets;
    for (let i = 0; i < 1_000_000; i++) h.add(1 + (i % 100));
    expect(h.buckets).toBe(buckets);
    // log(100) / log(1.002) ≈ 2,300 buckets, in a power-of-two array.
    expect(h.buckets).toBeLessThanOrEqual(4096);
  });

  it('is exact at the ends and for zeros, and 0 when empty', () => {
    const h = new LogHistogram();
    expect(h.quantile(0.5)).toBe(0);
    for (const v of [0, 0, 0, 3.3, 1234.5]) h.add(v);
    expect(h.quantile(0)).toBe(0);
    expect(h.quantile(0.5)).toBe(0);
    expect(h.quantile(1)).toBe(1234.5);
  });

  it('refuses what is not a latency', () => {
    const h = new LogHistogram();
    expect(() => h.add(-1)).toThrow(RangeError);
    expect(() => h.add(Number.NaN)).toThrow(RangeError);
    expect(() => h.add(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => new LogHistogram(0)).toThrow(RangeError);
  });

  it('restores a snapshot bit for bit, and the snapshot does not follow later values', () => {
    const h = new LogHistogram();
    for (let i = 1; i <= 500; i++) h.add(i * 1.5);
    const snap = h.snapshot();
    const p99 = h.quantile(0.99);
    for (let i = 0; i < 500; i++) h.add(1e6 + i);
    const back = new LogHistogram();
    back.restore(snap);
    expect(back.quantile(0.99)).toBe(p99);
    expect(back.count).toBe(500);
  });
});

describe('quantileSelect: exact percentiles without a sort', () => {
  it('equals quantileSorted of the sorted values, bit for bit (property test)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, 2.5)), { minLength: 0, maxLength: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, p) => {
          const sorted = Float64Array.from(values).sort();
          const copy = Float64Array.from(values);
          expect(quantileSelect(copy, p)).toBe(quantileSorted(sorted, p));
          // Asked again of the reordered array (as the summary asks p50, then p99).
          expect(quantileSelect(copy, 0.99)).toBe(quantileSorted(sorted, 0.99));
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('handles the ends, ties and a run of equal latencies (a static pipeline)', () => {
    expect(quantileSelect(new Float64Array(0), 0.5)).toBe(0);
    expect(quantileSelect(Float64Array.of(7), 0.99)).toBe(7);
    expect(quantileSelect(new Float64Array(1000).fill(3.25), 0.99)).toBe(3.25);
    const ramp = Float64Array.from({ length: 101 }, (_, i) => 100 - i);
    expect(quantileSelect(ramp, 0.5)).toBe(50);
    expect(quantileSelect(ramp, 1)).toBe(100);
    expect(quantileSelect(ramp, 0)).toBe(0);
  });
});
