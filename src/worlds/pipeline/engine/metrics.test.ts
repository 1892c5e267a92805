import { describe, expect, it } from 'vitest';
import { quantileSorted } from '../../../engine/quantiles';
import { averageSummaries, PipelineMetrics, SLO_LEVELS, sloLevelKey } from './metrics';

describe('pipeline metrics', () => {
  it('interpolates quantiles like NumPy', () => {
    expect(quantileSorted([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([10, 20], 0.99)).toBeCloseTo(19.9, 12);
    expect(quantileSorted([], 0.5)).toBe(0);
  });

  it('has the 20 SLO levels of Figure 9', () => {
    expect(SLO_LEVELS.map(sloLevelKey)).toEqual(['0.05', '0.10', '0.15', '0.20', '0.25', '0.30', '0.35', '0.40', '0.45', '0.50', '0.55', '0.60', '0.65', '0.70', '0.75', '0.80', '0.85', '0.90', '0.95', '1.00']);
  });

  it('computes every figure of a hand-worked run', () => {
    // Peak bottleneck 10 ms (100 q/s). Four queries:
    //  q0: alone-quality, bottleneck 10, optimum 10, latency 30, stage times 10+10+10
    //  q1: bottleneck 20 (T = 50 q/s, 0.5 of peak), optimum 16 (T = 62.5), latency 50
    //  q2: bottleneck 16, optimum 16, latency 40
    //  q3: bottleneck 10, optimum 10, latency 30
    const m = new PipelineMetrics(10, 4);
    m.recordQuery(0, 0, 30, 30, 10, 10);
    m.recordQuery(10, 10, 60, 50, 20, 16);
    m.recordQuery(30, 30, 70, 40, 16, 16);
    m.recordQuery(50, 50, 80, 30, 10, 10);
    m.recordDetection();
    m.recordTrialQuery();
    m.recordTrialQuery();
    m.recordPhaseEnd(8, 3);
    const s = m.summary();
    expect(s.queries).toBe(4);
    expect(s.latencyMeanMs).toBe((30 + 50 + 40 + 30) / 4);
    expect(s.latencyP50Ms).toBe(35);
    expect(s.throughputMeanQps).toBe((1000 * 4) / 80);
    expect(s.configThroughputMeanQps).toBe((100 + 50 + 62.5 + 100) / 4);
    expect(s.configLatencyMeanMs).toBe((30 + 50 + 40 + 30) / 4);
    expect(s.peakThroughputQps).toBe(100);
    expect(s.resourceConstrainedThroughputMeanQps).toBe((100 + 62.5 + 62.5 + 100) / 4);
    expect(s.optimalRatioMean).toBe((1 + 0.8 + 1 + 1) / 4);
    expect(s.rebalancings).toBe(1);
    expect(s.rebalancingQueries).toBe(2);
    expect(s.queriesPerRebalance).toBe(2);
    expect(s.overheadPct).toBe((100 * 8) / 80);
    expect(s.mitigationMeanQueries).toBe(3);
    // q1 runs at 0.5 of peak: not below 0.50, below 0.55 … 1.00. q2 runs at 0.625.
    expect(s.sloViolationPct['0.50']).toBe(0);
    expect(s.sloViolationPct['0.55']).toBe(25);
    expect(s.sloViolationPct['0.65']).toBe(50);
    expect(s.sloViolationPct['1.00']).toBe(50);
    // Against the current optimum only q1 falls short (0.8 of it).
    expect(s.sloViolationPctOfOptimum['0.80']).toBe(0);
    expect(s.sloViolationPctOfOptimum['0.85']).toBe(25);
  });

  it('averages summaries key by key', () => {
    const one = new PipelineMetrics(10, 1);
    one.recordQuery(0, 0, 20, 20, 10, 10);
    const two = new PipelineMetrics(10, 1);
    two.recordQuery(0, 0, 40, 40, 20, 10);
    const mean = averageSummaries([one.summary(), two.summary()]);
    expect(mean.latencyMeanMs).toBe(30);
    expect(mean.configThroughputMeanQps).toBe(75);
    expect(mean.sloViolationPct['1.00']).toBe(50);
    expect(() => averageSummaries([])).toThrow(RangeError);
  });

  it('bounds the latency samples of a long run and keeps a systematic sample', () => {
    const m = new PipelineMetrics(1, 0, 64);
    for (let q = 0; q < 10_000; q++) m.recordQuery(q, q, q + 1 + (q % 100), 1, 1, 1);
    const s = m.summary();
    expect(s.queries).toBe(10_000);
    // Latencies cycle 1…100; the sample keeps every 256th query, so the median is near 50.
    expect(s.latencyP50Ms).toBeGreaterThan(40);
    expect(s.latencyP50Ms).toBeLessThan(60);
    expect(s.latencyMeanMs).toBe(50.5);
    expect((m as unknown as { latencies: Float64Array }).latencies.length).toBeLessThanOrEqual(64);
  });

  describe('trial and normal queries apart (assumptions.latencyQueries)', () => {
    // Latencies: normal 30, trial 10, trial 20, normal 50 (exact percentiles).
    const run = (latencyQueries?: 'all' | 'normal') => {
      const m = new PipelineMetrics(10, 4, Number.POSITIVE_INFINITY, undefined, latencyQueries);
      m.recordQuery(0, 0, 30, 30, 20, 10);
      m.recordQuery(30, 30, 40, 10, 5, 10, true);
      m.recordQuery(40, 40, 60, 20, 10, 10, true);
      m.recordQuery(60, 60, 110, 50, 25, 10);
      return m.summary();
    };
    it('reports both means whatever the reading', () => {
      for (const s of [run(), run('all'), run('normal')]) {
        expect(s.normalLatencyMeanMs).toBe(40);
        expect(s.trialLatencyMeanMs).toBe(15);
      }
    });
    it('all (the default) counts every query in the headline latency', () => {
      expect(run().latencyMeanMs).toBe(27.5);
      expect(run()).toEqual(run('all'));
      expect(run().latencyP50Ms).toBe(25);
    });
    it('normal leaves trial queries out of the headline latency (measured and configuration view), not out of the throughput', () => {
      const s = run('normal');
      expect(s.latencyMeanMs).toBe(40);
      expect(s.latencyP50Ms).toBe(40);
      expect(s.configLatencyMeanMs).toBe(40);
      expect(run().configLatencyMeanMs).toBe(27.5);
      expect(s.throughputMeanQps).toBe(run().throughputMeanQps);
      expect(s.queries).toBe(4);
    });
    it('keeps the counts through a snapshot', () => {
      const m = new PipelineMetrics(10, 4, Number.POSITIVE_INFINITY, undefined, 'normal');
      m.recordQuery(0, 0, 30, 30, 20, 10);
      m.recordQuery(30, 30, 40, 10, 5, 10, true);
      const copy = new PipelineMetrics(10, 4, Number.POSITIVE_INFINITY, undefined, 'normal');
      copy.restore(m.snapshot());
      expect(copy.summary()).toEqual(m.summary());
      expect(copy.summary().trialLatencyMeanMs).toBe(10);
    });
  });
});
