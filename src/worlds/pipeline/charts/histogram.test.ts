import { describe, expect, it } from 'vitest';
import { PIPELINE_LATENCY_BINS, latencyBinEdge } from '../worker/pipelineProtocol';
import { BOX_WHISKERS, boxStats, histogramQuantiles } from './histogram';

/** Linear unit bins: bin b covers [b, b + 1). */
const unit = (b: number) => b;

/** The bin of a latency, as the worker's series builder files it. */
function binOf(ms: number): number {
  const scale = PIPELINE_LATENCY_BINS.count / Math.log(PIPELINE_LATENCY_BINS.maxMs / PIPELINE_LATENCY_BINS.minMs);
  return Math.min(PIPELINE_LATENCY_BINS.count - 1, Math.max(0, Math.floor(Math.log(Math.max(ms, PIPELINE_LATENCY_BINS.minMs) / PIPELINE_LATENCY_BINS.minMs) * scale)));
}

describe('histogramQuantiles', () => {
  it('returns NaN for every probability of an empty histogram', () => {
    expect(histogramQuantiles(new Float64Array(10), [0.5, 0.99], unit)).toEqual([Number.NaN, Number.NaN]);
  });

  it('interpolates inside a bin (geometrically, which is linear for positive unit-ratio edges near 1)', () => {
    // All 100 samples in bin [10, 11): the median is inside it.
    const counts = new Float64Array(20);
    counts[10] = 100;
    const [lo, median, hi] = histogramQuantiles(counts, [0, 0.5, 1], unit);
    expect(lo).toBe(10);
    expect(hi).toBe(11);
    expect(median).toBeCloseTo(Math.sqrt(10 * 11), 10);
  });

  it('finds the bin where the cumulative count crosses p · total', () => {
    const counts = [0, 10, 0, 30, 60];
    // p = 0.1 → 10 of 100: exactly the end of bin 1.
    expect(histogramQuantiles(counts, [0.1], unit)[0]).toBeCloseTo(2, 12);
    // p = 0.25 → 25: halfway through bin 3's 30 samples (15 of 30).
    expect(histogramQuantiles(counts, [0.25], unit)[0]).toBeCloseTo(3 * Math.sqrt(4 / 3), 12);
    // p = 0.7 → 70: bin 4, 30 of 60 samples in.
    expect(histogramQuantiles(counts, [0.7], unit)[0]).toBeCloseTo(4 * Math.sqrt(5 / 4), 12);
  });

  it('is monotone in p', () => {
    const counts = Array.from({ length: 50 }, (_, b) => (b * 7919) % 13);
    const ps = Array.from({ length: 101 }, (_, k) => k / 100);
    const qs = histogramQuantiles(counts, ps, latencyBinEdge);
    for (let k = 1; k < qs.length; k++) expect(qs[k]!).toBeGreaterThanOrEqual(qs[k - 1]!);
  });

  it('recovers quantiles of real latencies within one log-spaced bin', () => {
    // 1 … 1000 ms, one sample each: true p50 ≈ 500, p99 ≈ 990.
    const counts = new Float64Array(PIPELINE_LATENCY_BINS.count);
    for (let ms = 1; ms <= 1000; ms++) counts[binOf(ms)]!++;
    const binRatio = latencyBinEdge(1) / latencyBinEdge(0);
    const [p50, p99] = histogramQuantiles(counts, [0.5, 0.99]);
    expect(p50! / 500).toBeGreaterThan(1 / binRatio);
    expect(p50! / 500).toBeLessThan(binRatio);
    expect(p99! / 990).toBeGreaterThan(1 / binRatio);
    expect(p99! / 990).toBeLessThan(binRatio);
  });

  it('rejects probabilities outside [0, 1] and negative counts', () => {
    expect(() => histogramQuantiles([1], [1.5], unit)).toThrow(RangeError);
    expect(() => histogramQuantiles([1], [Number.NaN], unit)).toThrow(RangeError);
    expect(() => histogramQuantiles([1, -1], [0.5], unit)).toThrow(RangeError);
  });
});

describe('boxStats', () => {
  it('is null for an empty histogram', () => {
    expect(boxStats(new Float64Array(PIPELINE_LATENCY_BINS.count))).toBeNull();
  });

  it('orders whiskers, quartiles and median and counts the queries', () => {
    const counts = new Float64Array(PIPELINE_LATENCY_BINS.count);
    for (let ms = 1; ms <= 400; ms++) counts[binOf(ms * 0.5)]! += 2;
    const b = boxStats(counts)!;
    expect(b.count).toBe(800);
    expect(b.whiskerLow).toBeLessThanOrEqual(b.q1);
    expect(b.q1).toBeLessThanOrEqual(b.median);
    expect(b.median).toBeLessThanOrEqual(b.q3);
    expect(b.q3).toBeLessThanOrEqual(b.whiskerHigh);
    expect(b.median).toBeGreaterThan(90);
    expect(b.median).toBeLessThan(110);
    expect(BOX_WHISKERS.label).toBe('p1–p99');
  });
});
