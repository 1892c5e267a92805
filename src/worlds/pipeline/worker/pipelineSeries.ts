import type { QueryRecord } from '../engine/simulation';
import { BoundedSeries } from '../../../worker/boundedSeries';
import { PIPELINE_LATENCY_BINS, type PipelineSeriesChunk } from './pipelineProtocol';
/** Measured throughput is taken over at least this many completions. */
const MEASURE_WINDOW = 10;

interface Point {
  query: number;
  timeMs: number;
  measuredQps: number;
  configQps: number;
  optimalQps: number;
  latencyMs: number;
  configLatencyMs: number;
  counts: Int32Array;
}

/** A builder's state at a checkpoint (points are never changed once made, so they are shared). */
export interface PipelineSeriesSnapshot {
  readonly stride: number;
  readonly points: readonly Point[];
  readonly sums: Float64Array;
  readonly completions: Float64Array;
  readonly bucketStartMs: number;
  readonly latencyHistogram: Float64Array;
}

/** Two neighbouring points as one (b the later): means of the two, b's query, time and configuration. */
function mergePoints(a: Point, b: Point): Point {
  return {
    query: b.query,
    timeMs: b.timeMs,
    measuredQps: (a.measuredQps + b.measuredQps) / 2,
    configQps: (a.configQps + b.configQps) / 2,
    optimalQps: (a.optimalQps + b.optimalQps) / 2,
    latencyMs: (a.latencyMs + b.latencyMs) / 2,
    configLatencyMs: (a.configLatencyMs + b.configLatencyMs) / 2,
    counts: b.counts,
  };
}

/**
 * Turns one lane's per-query records into a bounded, downsampled series (a `BoundedSeries`):
 * each point is the mean over `stride` queries.
 */
export class PipelineSeriesBuilder {
  private readonly series = new BoundedSeries<Point>(mergePoints);
  private n = 0;
  private configQps = 0;
  private optimalQps = 0;
  private latencyMs = 0;
  private configLatencyMs = 0;
  private readonly completions = new Float64Array(MEASURE_WINDOW + 1);
  private completionCount = 0;
  /** Completion time of the last query of the previous bucket. */
  private bucketStartMs = Number.NaN;
  readonly latencyHistogram = new Float64Array(PIPELINE_LATENCY_BINS.count);
  private static readonly binScale = PIPELINE_LATENCY_BINS.count / Math.log(PIPELINE_LATENCY_BINS.maxMs / PIPELINE_LATENCY_BINS.minMs);

  /** Queries one point stands for. */
  get stride(): number {
    return this.series.stride;
  }

  add(r: QueryRecord): void {
    this.n++;
    this.configQps += 1000 / r.bottleneckMs;
    this.optimalQps += 1000 / r.optimalBottleneckMs;
    const latency = r.completionMs - r.arrivalMs;
    this.latencyMs += latency;
    let sum = 0;
    for (const t of r.stageTimesMs) sum += t;
    this.configLatencyMs += sum;
    this.completions[this.completionCount % this.completions.length] = r.completionMs;
    this.completionCount++;
    const bin = Math.floor(Math.log(Math.max(latency, PIPELINE_LATENCY_BINS.minMs) / PIPELINE_LATENCY_BINS.minMs) * PipelineSeriesBuilder.binScale);
    this.latencyHistogram[Math.min(PIPELINE_LATENCY_BINS.count - 1, Math.max(0, bin))]!++;
    if (this.n < this.stride) return;
    this.series.push({
      query: r.query,
      timeMs: r.completionMs,
      measuredQps: this.measuredQps(r.completionMs),
      configQps: this.configQps / this.n,
      optimalQps: this.optimalQps / this.n,
      latencyMs: this.latencyMs / this.n,
      configLatencyMs: this.configLatencyMs / this.n,
      counts: r.configuration.slice(),
    });
    this.bucketStartMs = r.completionMs;
    this.n = 0;
    this.configQps = this.optimalQps = this.latencyMs = this.configLatencyMs = 0;
  }

  snapshot(): PipelineSeriesSnapshot {
    return {
      ...this.series.snapshot(),
      sums: Float64Array.of(this.n, this.configQps, this.optimalQps, this.latencyMs, this.configLatencyMs, this.completionCount),
      completions: this.completions.slice(),
      bucketStartMs: this.bucketStartMs,
      latencyHistogram: this.latencyHistogram.slice(),
    };
  }

  /** Puts back a checkpoint; the next chunk replaces the page's series with all the points. */
  restore(s: PipelineSeriesSnapshot): void {
    this.series.restore(s);
    [this.n, this.configQps, this.optimalQps, this.latencyMs, this.configLatencyMs, this.completionCount] = Array.from(s.sums) as [number, number, number, number, number, number];
    this.completions.set(s.completions);
    this.bucketStartMs = s.bucketStartMs;
    this.latencyHistogram.set(s.latencyHistogram);
  }

  /** The next chunk sends every point again, replacing the page's series. */
  resend(): void {
    this.series.resend();
  }

  /** Points not yet sent (or all of them after a compaction), and whether they replace. */
  takeChunk(stages: number): { chunk: PipelineSeriesChunk; replace: boolean } {
    const { points: pts, replace } = this.series.take();
    const col = (f: (p: Point) => number) => Float64Array.from(pts, f);
    const counts = new Int32Array(pts.length * stages);
    pts.forEach((p, i) => counts.set(p.counts, i * stages));
    return {
      replace,
      chunk: {
        query: col((p) => p.query),
        timeMs: col((p) => p.timeMs),
        measuredQps: col((p) => p.measuredQps),
        configQps: col((p) => p.configQps),
        optimalQps: col((p) => p.optimalQps),
        latencyMs: col((p) => p.latencyMs),
        configLatencyMs: col((p) => p.configLatencyMs),
        counts,
      },
    };
  }

  /** Completions per simulated second over the bucket, or the last MEASURE_WINDOW queries if longer. */
  private measuredQps(nowMs: number): number {
    if (this.stride >= MEASURE_WINDOW && !Number.isNaN(this.bucketStartMs)) {
      return nowMs > this.bucketStartMs ? (1000 * this.stride) / (nowMs - this.bucketStartMs) : 0;
    }
    const back = Math.min(this.completionCount - 1, MEASURE_WINDOW);
    if (back <= 0) return 0;
    const earlier = this.completions[(this.completionCount - 1 - back) % this.completions.length]!;
    return nowMs > earlier ? (1000 * back) / (nowMs - earlier) : 0;
  }
}
