import { describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { LatencySamples, SlotSeries, STALLED_UTILITY, utility, type SlotRecord } from './metrics';

describe('utility (Eq. 3)', () => {
  it('is ln(T · (Σ SLO / m_c) / L) with T in rps and times in ms (hand-worked)', () => {
    // 10 rps; batches of 4 requests with a 100 ms SLO: Σ SLO = 400 ms; 2 instances: t_i = 200 ms;
    // mean latency 50 ms: L / t_i = 0.25, U = ln(10 / 0.25) = ln 40.
    expect(utility(10, 400, 2, 50)).toBeCloseTo(Math.log(40), 12);
    expect(utility(10, 400, 2, 50)).toBeCloseTo(3.688879, 6);
  });

  it('rewards throughput and batch budget, punishes latency and instances', () => {
    const base = utility(10, 400, 2, 50);
    expect(utility(20, 400, 2, 50)).toBeGreaterThan(base);
    expect(utility(10, 800, 2, 50)).toBeGreaterThan(base);
    expect(utility(10, 400, 4, 50)).toBeLessThan(base);
    expect(utility(10, 400, 2, 100)).toBeLessThan(base);
    // Doubling T and L together leaves U unchanged: only their ratio matters.
    expect(utility(20, 400, 2, 100)).toBeCloseTo(base, 12);
    expect(STALLED_UTILITY).toBeLessThan(utility(1, 58, 8, 5000));
  });
});

describe('LatencySamples', () => {
  it('gives exact quantiles under the cap and close ones past it', () => {
    const exact = new LatencySamples(1000);
    for (let i = 1; i <= 100; i++) exact.add(i);
    expect(exact.quantile(0.5)).toBe(50.5);
    expect(exact.quantile(0.99)).toBeCloseTo(99.01, 9);
    // A systematic sample: fine for latencies, which are not periodic in the request index.
    const rng = createRng(4);
    const capped = new LatencySamples(256);
    for (let i = 0; i < 100_000; i++) capped.add(1000 * rng.nextFloat());
    expect(Math.abs(capped.quantile(0.5) - 500)).toBeLessThan(60);
    expect(capped.quantile(0.99)).toBeGreaterThan(950);
  });
});

describe('SlotSeries', () => {
  it('never holds more than its cap and keeps evenly spaced real slots', () => {
    const series = new SlotSeries(10);
    const record = (slot: number): SlotRecord => ({ slot, endMs: (slot + 1) * 1000, utility: slot, throughputRps: 0, latencyMeanMs: 0, perModel: [] });
    for (let s = 0; s < 1000; s++) {
      series.add(record(s));
      expect(series.values.length).toBeLessThanOrEqual(10);
    }
    const slots = series.values.map((r) => r.slot);
    expect(slots[0]).toBe(0);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(series.slotStride);
    expect(series.values.every((r) => r.utility === r.slot)).toBe(true);
  });
});
