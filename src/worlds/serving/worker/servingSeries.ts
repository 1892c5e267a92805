/**
 * A serving lane's per-slot series as the worker keeps it (sums per point, so merging
 * neighbours is exact) and sends it (columns, per model row-major).
 */
import { BoundedSeries } from '../../../worker/boundedSeries';
import type { ServingSeriesChunk } from './servingProtocol';

/** One point of a lane's series (sums, so that merging neighbours is exact). */
interface Point {
  startMs: number;
  endMs: number;
  slots: number;
  completed: Float64Array;
  latencySum: Float64Array;
  utilitySum: Float64Array;
  utilityCount: Float64Array;
  arrivals: Float64Array;
  violations: Float64Array;
  batchSize: Int32Array;
  instances: Int32Array;
}

function emptyPoint(models: number, startMs: number): Point {
  return {
    startMs,
    endMs: startMs,
    slots: 0,
    completed: new Float64Array(models),
    latencySum: new Float64Array(models),
    utilitySum: new Float64Array(models),
    utilityCount: new Float64Array(models),
    arrivals: new Float64Array(models),
    violations: new Float64Array(models),
    batchSize: new Int32Array(models),
    instances: new Int32Array(models),
  };
}

function copyPoint(p: Point): Point {
  return {
    ...p,
    completed: p.completed.slice(),
    latencySum: p.latencySum.slice(),
    utilitySum: p.utilitySum.slice(),
    utilityCount: p.utilityCount.slice(),
    arrivals: p.arrivals.slice(),
    violations: p.violations.slice(),
    batchSize: p.batchSize.slice(),
    instances: p.instances.slice(),
  };
}

/** A `ServingSeries`' checkpoint. */
export interface ServingSeriesSnapshot {
  readonly series: { readonly stride: number; readonly points: readonly Point[] };
  readonly pending: Point | null;
}

/** Two neighbouring points as one (b the later): sums added, b's end and configuration. */
function mergePoints(a: Point, b: Point): Point {
  const sum = (x: Float64Array, y: Float64Array) => x.map((v, m) => v + y[m]!);
  return {
    startMs: a.startMs,
    endMs: b.endMs,
    slots: a.slots + b.slots,
    completed: sum(a.completed, b.completed),
    latencySum: sum(a.latencySum, b.latencySum),
    utilitySum: sum(a.utilitySum, b.utilitySum),
    utilityCount: sum(a.utilityCount, b.utilityCount),
    arrivals: sum(a.arrivals, b.arrivals),
    violations: sum(a.violations, b.violations),
    batchSize: b.batchSize.slice(),
    instances: b.instances.slice(),
  };
}

/** One slot of one model, as the lane collects it. */
export interface SlotSample {
  readonly arrivals: number;
  readonly completed: number;
  readonly latencyMeanMs: number;
  readonly utility: number | null;
  readonly violations: number;
  readonly batchSize: number;
  readonly instances: number;
}

/** A lane's per-slot series, bounded (a `BoundedSeries`): each point sums `stride` slots. */
export class ServingSeries {
  private readonly series = new BoundedSeries<Point>(mergePoints);
  private pending: Point | null = null;

  constructor(private readonly models: number) {}

  /** Slots one point stands for. */
  get stride(): number {
    return this.series.stride;
  }

  /** Adds one slot [startMs, endMs]. */
  add(startMs: number, endMs: number, samples: readonly SlotSample[]): void {
    const p = (this.pending ??= emptyPoint(this.models, startMs));
    p.endMs = endMs;
    p.slots++;
    samples.forEach((s, m) => {
      p.completed[m]! += s.completed;
      p.latencySum[m]! += s.latencyMeanMs * s.completed;
      if (s.utility !== null) {
        p.utilitySum[m]! += s.utility;
        p.utilityCount[m]!++;
      }
      p.arrivals[m]! += s.arrivals;
      p.violations[m]! += s.violations;
      p.batchSize[m] = s.batchSize;
      p.instances[m] = s.instances;
    });
    if (p.slots < this.stride) return;
    this.series.push(p);
    this.pending = null;
  }

  /** The points (shared: never changed once pushed) and the point being filled (copied), for a checkpoint. */
  snapshot(): ServingSeriesSnapshot {
    return { series: this.series.snapshot(), pending: this.pending === null ? null : copyPoint(this.pending) };
  }

  /** Puts back a checkpoint; the next chunk replaces the page's series. */
  restore(s: ServingSeriesSnapshot): void {
    this.series.restore(s.series);
    this.pending = s.pending === null ? null : copyPoint(s.pending);
  }

  /** The next chunk carries every point and replaces the page's series (after a jump). */
  resend(): void {
    this.series.resend();
  }

  /** Closes a partial last point (at the end of the run: it holds fewer than `stride` slots). */
  flush(): void {
    if (this.pending === null) return;
    this.series.push(this.pending);
    this.pending = null;
  }

  /** Points not yet sent (or all of them after a compaction), and whether they replace. */
  takeChunk(): { chunk: ServingSeriesChunk; replace: boolean } {
    const { points: pts, replace } = this.series.take();
    const M = this.models;
    const n = pts.length;
    const perModel = (f: (p: Point, m: number) => number) => {
      const out = new Float64Array(n * M);
      pts.forEach((p, i) => {
        for (let m = 0; m < M; m++) out[i * M + m] = f(p, m);
      });
      return out;
    };
    const ints = (a: (p: Point) => Int32Array) => {
      const out = new Int32Array(n * M);
      pts.forEach((p, i) => out.set(a(p), i * M));
      return out;
    };
    return {
      replace,
      chunk: {
        endMs: Float64Array.from(pts, (p) => p.endMs),
        slots: Float64Array.from(pts, (p) => p.slots),
        throughputRps: perModel((p, m) => (p.endMs > p.startMs ? (1000 * p.completed[m]!) / (p.endMs - p.startMs) : 0)),
        latencyMeanMs: perModel((p, m) => (p.completed[m]! > 0 ? p.latencySum[m]! / p.completed[m]! : 0)),
        utility: perModel((p, m) => (p.utilityCount[m]! > 0 ? p.utilitySum[m]! / p.utilityCount[m]! : Number.NaN)),
        utilityCount: perModel((p, m) => p.utilityCount[m]!),
        arrivals: perModel((p, m) => p.arrivals[m]!),
        violations: perModel((p, m) => p.violations[m]!),
        batchSize: ints((p) => p.batchSize),
        instances: ints((p) => p.instances),
      },
    };
  }
}
