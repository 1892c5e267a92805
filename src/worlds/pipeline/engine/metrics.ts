import { RunLengthSamples, type RunLengthSnapshot } from '../../../engine/runLengthSamples';
import { LogHistogram, quantileSelect, type LogHistogramSnapshot, type PercentileOptions } from '../../../engine/quantiles';
import type { LatencyQueries } from './assumptions';
import { throughputQps } from './stageTimes';


/** SLO levels of ODIN Figure 9: 5 % … 100 % of a reference throughput. */
export const SLO_LEVELS: readonly number[] = Array.from({ length: 20 }, (_, k) => (k + 1) / 20);

/** Key of an SLO level in results: "0.05" … "1.00". */
export function sloLevelKey(level: number): string {
  return level.toFixed(2);
}

/** One lane's results (ARCHITECTURE §5). Times in ms, throughputs in queries per second. */
export interface PipelineSummary {
  readonly queries: number;
  /**
   * Measured: arrival to completion, queueing included; trial queries included unless the
   * scenario's `latencyQueries` is `normal` (so are P50 and P99).
   */
  readonly latencyMeanMs: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Measured: completed queries per simulated second. */
  readonly throughputMeanQps: number;
  /** Configuration view: mean over queries of T(C) = 1 / max_i t_i (ODIN §3.3). */
  readonly configThroughputMeanQps: number;
  /** Configuration view: mean over queries of Σ_i t_i. */
  readonly configLatencyMeanMs: number;
  readonly configLatencyP99Ms: number;
  /** T of the interference-free optimum. */
  readonly peakThroughputQps: number;
  /** Mean over queries of T of the optimum for that query's modes (resource-constrained). */
  readonly resourceConstrainedThroughputMeanQps: number;
  /** Mean over queries of T(C) / T(optimum for the query's modes). */
  readonly optimalRatioMean: number;
  /** Rebalancing phases started. */
  readonly rebalancings: number;
  /** Queries spent on trial configurations. */
  readonly rebalancingQueries: number;
  /** Trial configurations evaluated at no cost (trial cost `free`). */
  readonly freeTrials: number;
  /** rebalancingQueries / rebalancings (ODIN §4.2: ≈1 for LLS, ≈4 and ≈12 for ODIN α=2, 10). */
  readonly queriesPerRebalance: number;
  /** Share of simulated time from detection to the decision, % (ODIN Figure 8). */
  readonly overheadPct: number;
  /** Mean queries from the detecting query to the first one on the new configuration. */
  readonly mitigationMeanQueries: number;
  /** % of queries whose T(C) is below level × peak, keyed "0.05" … "1.00" (ODIN Figure 9). */
  readonly sloViolationPct: Readonly<Record<string, number>>;
  /** % of queries whose T(C) is below level × the resource-constrained optimum. */
  readonly sloViolationPctOfOptimum: Readonly<Record<string, number>>;
  /** Simulated time from the first admission to the last completion, ms. */
  readonly durationMs: number;
  /** Measured mean latency of the queries served by an installed configuration (in-flight ones included), ms. */
  readonly normalLatencyMeanMs: number;
  /** Measured mean latency of the trial queries of rebalancing phases, ms (0 without any). */
  readonly trialLatencyMeanMs: number;
}

/** Everything `PipelineMetrics` accumulates, copied (see `snapshot`). */
export interface PipelineMetricsSnapshot {
  readonly scalars: Float64Array;
  readonly latencies: Float64Array;
  readonly configLatencies: RunLengthSnapshot;
  readonly belowPeak: Float64Array;
  readonly belowOptimum: Float64Array;
  /** The latency and configuration-latency histograms (streaming percentiles). */
  readonly histograms?: readonly [LogHistogramSnapshot, LogHistogramSnapshot];
}

/**
 * Accumulates one lane's metrics query by query, in O(1) per query. Latency samples are
 * kept for exact percentiles up to `latencySampleCap`; past it, every other sample is
 * dropped and only every 2nd, 4th, … query is kept (a systematic sample), so a long live
 * run has bounded memory and its percentiles become estimates.
 *
 * With `percentiles.method = 'streaming'` no sample is kept: the percentiles come from two
 * log-bucket histograms (../quantiles.ts), within `relativeError` of the exact ones, in
 * memory that does not grow with the run (ARCHITECTURE §7). Without `percentiles` (engine
 * tests, old callers) the samples are exact; scenarios choose `streaming` by default.
 */
export class PipelineMetrics {
  private count = 0;
  /** Samples kept and the query stride between them. */
  private samples = 0;
  private sampleStride = 1;
  private latencies: Float64Array;
  /** The configuration latencies of the same samples, as runs: a configuration's is the same for every query it serves. */
  private configLatencies: RunLengthSamples;
  private latencySum = 0;
  private configLatencySum = 0;
  private configThroughputSum = 0;
  private optimalThroughputSum = 0;
  private ratioSum = 0;
  private firstAdmissionMs = Number.POSITIVE_INFINITY;
  private lastCompletionMs = 0;
  private detections = 0;
  private trialQueries = 0;
  private freeTrials = 0;
  private phases = 0;
  private phaseTimeMs = 0;
  private mitigationQueries = 0;
  /** violations[k]: queries whose ratio to peak is below SLO_LEVELS[k]. */
  private readonly belowPeak = new Float64Array(SLO_LEVELS.length);
  private readonly belowOptimum = new Float64Array(SLO_LEVELS.length);

  /** Present when the percentiles stream (then no sample is kept). */
  private readonly latencyHistogram: LogHistogram | null;
  private readonly configLatencyHistogram: LogHistogram | null;
  /** Queries counted in the headline latency (all of them unless trials are left out). */
  private latencyCount = 0;
  private headlineLatencySum = 0;
  private headlineConfigLatencySum = 0;
  private trialLatencySum = 0;
  private trialCount = 0;
  /**
   * The per-query terms of the last (bottleneck, optimal bottleneck) pair: a configuration
   * serves many queries in a row, so its throughputs, ratio and SLO levels are computed once
   * for it, not per query (the same numbers, added in the same order).
   */
  private termsBottleneckMs = Number.NaN;
  private termsOptimalMs = Number.NaN;
  private termThroughput = 0;
  private termOptimalThroughput = 0;
  private termRatio = 0;
  /** The first SLO level each query of the pair falls below, to peak and to the optimum (SLO_LEVELS.length: none). */
  private termBelowPeakFrom = 0;
  /**
   * Queries served under the current terms whose SLO counts are not added yet: they are added
   * when the terms change, and before a summary or a snapshot (per query, the 20 levels twice
   * were a third of the engine's time on a static pipeline).
   */
  private termQueries = 0;
  private termBelowOptimumFrom = 0;

  constructor(
    private readonly peakBottleneckMs: number,
    expectedQueries: number,
    private readonly latencySampleCap = Number.POSITIVE_INFINITY,
    percentiles?: PercentileOptions,
    private readonly latencyQueries: LatencyQueries = 'all',
  ) {
    if (!(latencySampleCap >= 16)) throw new RangeError(`latency sample cap must be ≥ 16, got ${latencySampleCap}`);
    const streaming = percentiles?.method === 'streaming';
    this.latencyHistogram = streaming ? new LogHistogram(percentiles.relativeError) : null;
    this.configLatencyHistogram = streaming ? new LogHistogram(percentiles.relativeError) : null;
    const capacity = streaming ? 16 : Math.max(16, Math.min(expectedQueries, 1 << 20, latencySampleCap));
    this.latencies = new Float64Array(capacity);
    this.configLatencies = new RunLengthSamples();
  }

  /** One query: its arrival, admission and completion times, its configuration's latency (Σ t_i, summed in stage order), bottleneck and the optimum's. */
  recordQuery(
    arrivalMs: number,
    admittedMs: number,
    completionMs: number,
    configLatency: number,
    bottleneckMs: number,
    optimalBottleneckMs: number,
    trial = false,
  ): void {
    const latency = completionMs - arrivalMs;
    if (trial) {
      this.trialCount++;
      this.trialLatencySum += latency;
    }
    // With `latencyQueries: 'normal'` a trial query leaves the headline latency (mean and
    // percentiles, measured and configuration view alike); with `all` it counts like any.
    if (!trial || this.latencyQueries === 'all') {
      if (this.latencyHistogram !== null) {
        this.latencyHistogram.add(latency);
        this.configLatencyHistogram!.add(configLatency);
      } else if (this.latencyCount % this.sampleStride === 0) {
        if (this.samples === this.latencies.length) {
          if (this.samples >= this.latencySampleCap) this.decimate();
          else this.grow();
        }
        // Decimating may have doubled the stride: this query may no longer be a sample.
        if (this.latencyCount % this.sampleStride === 0) {
          this.latencies[this.samples] = latency;
          this.configLatencies.push(configLatency);
          this.samples++;
        }
      }
      this.latencyCount++;
      this.headlineLatencySum += latency;
      this.headlineConfigLatencySum += configLatency;
    }
    this.count++;
    this.latencySum += latency;
    this.configLatencySum += configLatency;
    if (bottleneckMs !== this.termsBottleneckMs || optimalBottleneckMs !== this.termsOptimalMs) this.setTerms(bottleneckMs, optimalBottleneckMs);
    this.configThroughputSum += this.termThroughput;
    this.optimalThroughputSum += this.termOptimalThroughput;
    this.ratioSum += this.termRatio;
    if (admittedMs < this.firstAdmissionMs) this.firstAdmissionMs = admittedMs;
    if (arrivalMs < this.firstAdmissionMs) this.firstAdmissionMs = arrivalMs;
    this.lastCompletionMs = completionMs;
    this.termQueries++;
  }

  /** Adds the queries served under the current terms to the SLO counts (whole numbers: the same counts as adding each at once). */
  private flushTermQueries(): void {
    const n = this.termQueries;
    if (n === 0) return;
    this.termQueries = 0;
    for (let k = this.termBelowPeakFrom; k < SLO_LEVELS.length; k++) this.belowPeak[k]! += n;
    for (let k = this.termBelowOptimumFrom; k < SLO_LEVELS.length; k++) this.belowOptimum[k]! += n;
  }

  private setTerms(bottleneckMs: number, optimalBottleneckMs: number): void {
    this.flushTermQueries();
    this.termsBottleneckMs = bottleneckMs;
    this.termsOptimalMs = optimalBottleneckMs;
    this.termThroughput = throughputQps(bottleneckMs);
    this.termOptimalThroughput = throughputQps(optimalBottleneckMs);
    this.termRatio = optimalBottleneckMs / bottleneckMs;
    this.termBelowPeakFrom = firstLevelAbove(this.peakBottleneckMs / bottleneckMs);
    this.termBelowOptimumFrom = firstLevelAbove(optimalBottleneckMs / bottleneckMs);
  }

  /** Rebalancing phases started so far (cheap, unlike `summary`). */
  get rebalancingsSoFar(): number {
    return this.detections;
  }

  /** Trial queries served so far. */
  get trialQueriesSoFar(): number {
    return this.trialQueries;
  }

  recordDetection(): void {
    this.detections++;
  }

  recordFreeTrial(): void {
    this.freeTrials++;
  }

  /** A phase ended: `timeMs` from detection to decision, `queries` until the new configuration. */
  recordPhaseEnd(timeMs: number, queries: number): void {
    this.phases++;
    this.phaseTimeMs += timeMs;
    this.mitigationQueries += queries;
  }

  recordTrialQuery(): void {
    this.trialQueries++;
  }

  summary(): PipelineSummary {
    this.flushTermQueries();
    const n = this.count;
    const durationMs = n > 0 ? this.lastCompletionMs - this.firstAdmissionMs : 0;
    // Exact percentiles by selection on copies (the sample arrays are shared with checkpoints).
    const latencies = this.latencyHistogram === null ? this.latencies.slice(0, this.samples) : this.latencies.subarray(0, 0);
    const pct = (below: Float64Array): Record<string, number> => {
      const out: Record<string, number> = {};
      SLO_LEVELS.forEach((level, k) => {
        out[sloLevelKey(level)] = n > 0 ? (100 * below[k]!) / n : 0;
      });
      return out;
    };
    return {
      queries: n,
      latencyMeanMs: this.latencyQueries === 'all' ? (n > 0 ? this.latencySum / n : 0) : this.latencyCount > 0 ? this.headlineLatencySum / this.latencyCount : 0,
      latencyP50Ms: this.latencyHistogram?.quantile(0.5) ?? quantileSelect(latencies, 0.5),
      latencyP99Ms: this.latencyHistogram?.quantile(0.99) ?? quantileSelect(latencies, 0.99),
      throughputMeanQps: durationMs > 0 ? (1000 * n) / durationMs : 0,
      configThroughputMeanQps: n > 0 ? this.configThroughputSum / n : 0,
      configLatencyMeanMs: this.latencyQueries === 'all' ? (n > 0 ? this.configLatencySum / n : 0) : this.latencyCount > 0 ? this.headlineConfigLatencySum / this.latencyCount : 0,
      configLatencyP99Ms: this.configLatencyHistogram?.quantile(0.99) ?? (this.latencyHistogram === null ? this.configLatencies.quantile(0.99) : 0),
      peakThroughputQps: throughputQps(this.peakBottleneckMs),
      resourceConstrainedThroughputMeanQps: n > 0 ? this.optimalThroughputSum / n : 0,
      optimalRatioMean: n > 0 ? this.ratioSum / n : 0,
      rebalancings: this.detections,
      rebalancingQueries: this.trialQueries,
      freeTrials: this.freeTrials,
      queriesPerRebalance: this.detections > 0 ? this.trialQueries / this.detections : 0,
      overheadPct: durationMs > 0 ? (100 * this.phaseTimeMs) / durationMs : 0,
      mitigationMeanQueries: this.phases > 0 ? this.mitigationQueries / this.phases : 0,
      sloViolationPct: pct(this.belowPeak),
      sloViolationPctOfOptimum: pct(this.belowOptimum),
      durationMs,
      normalLatencyMeanMs: n - this.trialCount > 0 ? (this.latencySum - this.trialLatencySum) / (n - this.trialCount) : 0,
      trialLatencyMeanMs: this.trialCount > 0 ? this.trialLatencySum / this.trialCount : 0,
    };
  }

  /**
   * The accumulated state, for a checkpoint. The sample arrays are shared, not copied: the
   * live arrays are only ever appended to (decimation and growth write into new arrays), so
   * the first `samples` values of a shared array never change afterwards.
   */
  snapshot(): PipelineMetricsSnapshot {
    this.flushTermQueries();
    return {
      scalars: Float64Array.of(
        this.count,
        this.samples,
        this.sampleStride,
        this.latencySum,
        this.configLatencySum,
        this.configThroughputSum,
        this.optimalThroughputSum,
        this.ratioSum,
        this.firstAdmissionMs,
        this.lastCompletionMs,
        this.detections,
        this.trialQueries,
        this.freeTrials,
        this.phases,
        this.phaseTimeMs,
        this.mitigationQueries,
        this.latencyCount,
        this.headlineLatencySum,
        this.headlineConfigLatencySum,
        this.trialLatencySum,
        this.trialCount,
      ),
      latencies: this.latencies,
      configLatencies: this.configLatencies.snapshot(),
      belowPeak: this.belowPeak.slice(),
      belowOptimum: this.belowOptimum.slice(),
      ...(this.latencyHistogram === null ? {} : { histograms: [this.latencyHistogram.snapshot(), this.configLatencyHistogram!.snapshot()] as const }),
    };
  }

  /** Puts back a state taken by `snapshot` (the sample prefix is copied into fresh arrays). */
  restore(s: PipelineMetricsSnapshot): void {
    const v = s.scalars;
    [
      this.count,
      this.samples,
      this.sampleStride,
      this.latencySum,
      this.configLatencySum,
      this.configThroughputSum,
      this.optimalThroughputSum,
      this.ratioSum,
      this.firstAdmissionMs,
      this.lastCompletionMs,
      this.detections,
      this.trialQueries,
      this.freeTrials,
      this.phases,
      this.phaseTimeMs,
      this.mitigationQueries,
      this.latencyCount,
      this.headlineLatencySum,
      this.headlineConfigLatencySum,
      this.trialLatencySum,
      this.trialCount,
    ] = Array.from(v) as [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number];
    this.latencies = s.latencies.slice();
    this.configLatencies.restore(s.configLatencies);
    this.belowPeak.set(s.belowPeak);
    this.belowOptimum.set(s.belowOptimum);
    this.termQueries = 0;
    if (s.histograms !== undefined) {
      this.latencyHistogram?.restore(s.histograms[0]);
      this.configLatencyHistogram?.restore(s.histograms[1]);
    }
  }

  /** Keeps every other sample and doubles the stride (into new arrays: snapshots share the old). */
  private decimate(): void {
    const half = this.samples >> 1;
    const latencies = new Float64Array(this.latencies.length);
    for (let j = 0; j < half; j++) latencies[j] = this.latencies[2 * j]!;
    this.configLatencies.decimate();
    this.latencies = latencies;
    this.samples = half;
    this.sampleStride *= 2;
  }

  private grow(): void {
    const size = Math.min(this.latencies.length * 2, this.latencySampleCap);
    const bigger = (a: Float64Array): Float64Array => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.latencies = bigger(this.latencies);
  }
}

/**
 * Counts a query against every SLO level its throughput ratio falls below. The ratio is
 * T(C) / T_ref = bottleneck_ref / bottleneck; levels are increasing, so stop at the first
 * level the ratio meets.
 */
/**
 * The first SLO level a query at `ratio` of the peak (or the optimum) falls below: it counts as
 * a violation at that level and every higher one (the levels ascend).
 */
function firstLevelAbove(ratio: number): number {
  let k = SLO_LEVELS.length;
  while (k > 0 && ratio < SLO_LEVELS[k - 1]!) k--;
  return k;
}

/**
 * The key-by-key mean of several summaries (grid cells, seeds): every number averaged,
 * SLO curves averaged level by level. `queries` and the counts stay means, not sums.
 */
export function averageSummaries(summaries: readonly PipelineSummary[]): PipelineSummary {
  if (summaries.length === 0) throw new RangeError('cannot average no summaries');
  const n = summaries.length;
  const first = summaries[0]!;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(first) as (keyof PipelineSummary)[]) {
    const value = first[key];
    if (typeof value === 'number') {
      out[key] = summaries.reduce((sum, s) => sum + (s[key] as number), 0) / n;
    } else {
      const levels: Record<string, number> = {};
      for (const level of Object.keys(value)) {
        levels[level] = summaries.reduce((sum, s) => sum + (s[key] as Record<string, number>)[level]!, 0) / n;
      }
      out[key] = levels;
    }
  }
  return out as unknown as PipelineSummary;
}
