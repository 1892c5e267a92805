import type { PipelineMarker, PipelineSeriesChunk } from '../worker/pipelineProtocol';
import type { ServingSeriesChunk } from '../worker/servingProtocol';
import { SERIES_MAX_POINTS } from '../worker/liveLoop';

/** The array a column with `width` values per point (row-major) is kept in. */
type WideArray = Float64Array | Int32Array;

/** Allocates a wide column's array (its element type is the column's). */
type Allocator = (length: number) => WideArray;

const float64: Allocator = (n) => new Float64Array(n);
const int32: Allocator = (n) => new Int32Array(n);

/**
 * One lane's downsampled series on the page, for either world: columns of numbers with a
 * length, appended to by frames and replaced when the worker compacts or replays. `P` are
 * the point columns (one number per point); `W` the columns with `width` values per point,
 * row-major (point i, item k at i · width + k): the pipeline's units per stage, the serving
 * world's per-model columns. Bounded by the worker's point budget (`SERIES_MAX_POINTS`);
 * charts read it directly (it never enters React state).
 */
export class ColumnBuffer<P extends string, W extends string> {
  length = 0;
  /** Values per point of the wide columns (stages, models). */
  width = 0;
  readonly columns: Record<P, Float64Array>;
  readonly wideColumns: Record<W, WideArray>;
  private readonly wideNames: readonly W[];

  constructor(
    private readonly pointNames: readonly P[],
    /** The wide columns, each with the allocator of its array type. */
    private readonly allocate: Readonly<Record<W, Allocator>>,
    private capacity: number = SERIES_MAX_POINTS,
  ) {
    this.wideNames = Object.keys(allocate) as W[];
    this.columns = Object.fromEntries(pointNames.map((c) => [c, new Float64Array(capacity)])) as Record<P, Float64Array>;
    this.wideColumns = Object.fromEntries(this.wideNames.map((c) => [c, allocate[c](0)])) as Record<W, WideArray>;
  }

  /** Empties the buffer for points of `width` values in the wide columns. */
  clear(width: number): void {
    this.length = 0;
    this.width = width;
    for (const c of this.wideNames) this.wideColumns[c] = this.allocate[c](this.capacity * width);
  }

  /** Appends a chunk (or replaces everything with it); `width` is the chunk's values per point. */
  add(chunk: { readonly [K in P | W]: ArrayLike<number> }, replace: boolean, width: number): void {
    if (replace || width !== this.width) this.clear(width);
    const n = chunk[this.pointNames[0]!].length;
    if (this.length + n > this.capacity) this.ensure(this.length + n);
    for (const c of this.pointNames) this.columns[c].set(chunk[c], this.length);
    for (const c of this.wideNames) this.wideColumns[c].set(chunk[c], this.length * width);
    this.length += n;
  }

  /** Value of a wide column at point `i` for item `k` (a stage, a model). */
  at(column: W, i: number, k: number): number {
    return this.wideColumns[column][i * this.width + k]!;
  }

  /** The `width` values of a wide column at point `i`. */
  row(column: W, i: number): WideArray {
    return this.wideColumns[column].subarray(i * this.width, (i + 1) * this.width);
  }

  private ensure(size: number): void {
    let capacity = this.capacity;
    while (capacity < size) capacity *= 2;
    for (const c of this.pointNames) {
      const bigger = new Float64Array(capacity);
      bigger.set(this.columns[c].subarray(0, this.length));
      this.columns[c] = bigger;
    }
    const used = this.length * this.width;
    for (const c of this.wideNames) {
      const bigger = this.allocate[c](capacity * this.width);
      bigger.set(this.wideColumns[c].subarray(0, used));
      this.wideColumns[c] = bigger;
    }
    this.capacity = capacity;
  }
}

const PIPELINE_COLUMNS = ['query', 'timeMs', 'measuredQps', 'configQps', 'optimalQps', 'latencyMs', 'configLatencyMs'] as const satisfies readonly (keyof PipelineSeriesChunk)[];
export type PipelineSeriesColumn = (typeof PIPELINE_COLUMNS)[number];

/** A pipeline lane's series: one point per bucket of queries, and the units per stage (`stages` per point). */
export class PipelineSeriesBuffer extends ColumnBuffer<PipelineSeriesColumn, 'counts'> {
  constructor(capacity?: number) {
    super(PIPELINE_COLUMNS, { counts: int32 }, capacity);
  }

  /** Stages per point of `counts`. */
  get stages(): number {
    return this.width;
  }

  /** Units per stage, `stages` values per point, row-major. */
  get counts(): Int32Array {
    return this.wideColumns.counts as Int32Array;
  }

  /** The configuration (units per stage) of point `i`. */
  countsAt(i: number): Int32Array {
    return this.row('counts', i) as Int32Array;
  }
}

/** Scalar columns of the serving series: one value per point. */
const SERVING_POINT_COLUMNS = ['endMs', 'slots'] as const satisfies readonly (keyof ServingSeriesChunk)[];
export type ServingPointColumn = (typeof SERVING_POINT_COLUMNS)[number];
/** Per-model columns: `models` values per point, row-major (point i, model m at i · models + m). */
const SERVING_MODEL_COLUMNS = { throughputRps: float64, latencyMeanMs: float64, utility: float64, arrivals: float64, violations: float64 } as const;
export type ServingModelColumn = keyof typeof SERVING_MODEL_COLUMNS;
/** Per-model integer columns, row-major as the per-model columns. */
const SERVING_MODEL_INT_COLUMNS = { batchSize: int32, instances: int32 } as const;
export type ServingModelIntColumn = keyof typeof SERVING_MODEL_INT_COLUMNS;

/** A serving lane's per-slot series: one point per `stride` slots, and the per-model columns (`models` per point). */
export class ServingSeriesBuffer extends ColumnBuffer<ServingPointColumn, ServingModelColumn | ServingModelIntColumn> {
  constructor(capacity?: number) {
    super(SERVING_POINT_COLUMNS, { ...SERVING_MODEL_COLUMNS, ...SERVING_MODEL_INT_COLUMNS }, capacity);
  }

  /** Models per point of the per-model columns. */
  get models(): number {
    return this.width;
  }

  /** The per-model columns of floats. */
  get modelColumns(): Readonly<Record<ServingModelColumn, Float64Array>> {
    return this.wideColumns as Record<ServingModelColumn, Float64Array>;
  }

  /** The per-model columns of integers. */
  get intColumns(): Readonly<Record<ServingModelIntColumn, Int32Array>> {
    return this.wideColumns as Record<ServingModelIntColumn, Int32Array>;
  }
}

/** The most recent markers, at most `capacity` of them. */
export class MarkerBuffer {
  private items: PipelineMarker[] = [];

  constructor(private readonly capacity = 2000) {}

  get all(): readonly PipelineMarker[] {
    return this.items;
  }

  clear(): void {
    this.items = [];
  }

  add(markers: readonly PipelineMarker[]): void {
    if (markers.length === 0) return;
    this.items = this.items.concat(markers);
    if (this.items.length > this.capacity) this.items = this.items.slice(this.items.length - this.capacity);
  }
}
