/**
 * A serving lane's per-slot series as the worker keeps it (sums per point, so merging
 * neighbours is exact) and sends it (columns, per model row-major).
 */
import { SERIES_MAX_POINTS } from './liveLoop';
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

/** Adds `b` (later) into `a`. */
function mergeInto(a: Point, b: Point): void {
  a.endMs = b.endMs;
  a.slots += b.slots;
  for (let m = 0; m < a.completed.length; m++) {
    a.completed[m]! += b.completed[m]!;
    a.latencySum[m]! += b.latencySum[m]!;
    a.utilitySum[m]! += b.utilitySum[m]!;
    a.utilityCount[m]! += b.utilityCount[m]!;
    a.arrivals[m]! += b.arrivals[m]!;
    a.violations[m]! += b.violations[m]!;
  }
  a.batchSize.set(b.batchSize);
  a.instances.set(b.instances);
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

/**
 * A lane's per-slot series, bounded: each point sums `stride` slots; when
 * SERIES_MAX_POINTS is reached, neighbours merge and the stride doubles (as seriesBuilder).
 */
export class ServingSeries {
  stride = 1;
  private points: Point[] = [];
  private pending: Point | null = null;
  private sent = 0;
  private compacted = false;

  constructor(private readonly models: number) {}

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
    this.points.push(p);
    this.pending = null;
    if (this.points.length >= SERIES_MAX_POINTS) this.compact();
  }

  /** The next chunk carries every point and replaces the page's series (after a jump). */
  resend(): void {
    this.compacted = true;
  }

  /** Closes a partial last point (at the end of the run: it holds fewer than `stride` slots). */
  flush(): void {
    if (this.pending === null) return;
    this.points.push(this.pending);
    this.pending = null;
  }

  /** Points not yet sent (or all of them after a compaction), and whether they replace. */
  takeChunk(): { chunk: ServingSeriesChunk; replace: boolean } {
    const replace = this.compacted;
    const pts = this.points.slice(replace ? 0 : this.sent);
    this.sent = this.points.length;
    this.compacted = false;
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
        arrivals: perModel((p, m) => p.arrivals[m]!),
        violations: perModel((p, m) => p.violations[m]!),
        batchSize: ints((p) => p.batchSize),
        instances: ints((p) => p.instances),
      },
    };
  }

  private compact(): void {
    const merged: Point[] = [];
    for (let i = 0; i + 1 < this.points.length; i += 2) {
      const a = this.points[i]!;
      mergeInto(a, this.points[i + 1]!);
      merged.push(a);
    }
    if (this.points.length % 2 === 1) merged.push(this.points.at(-1)!);
    this.points = merged;
    this.stride *= 2;
    this.compacted = true;
  }
}

