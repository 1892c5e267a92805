import { SERIES_MAX_POINTS } from '../worker/liveLoop';

/** The array a column with `width` values per point (row-major) is kept in. */
type WideArray = Float64Array | Int32Array;

/** Allocates a wide column's array (its element type is the column's). */
export type Allocator = (length: number) => WideArray;

/** A wide column of floats. */
export const float64: Allocator = (n) => new Float64Array(n);
/** A wide column of integers. */
export const int32: Allocator = (n) => new Int32Array(n);

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

/** The most recent markers of a world's time line, at most `capacity` of them. */
export class MarkerBuffer<M> {
  private items: M[] = [];

  constructor(private readonly capacity = 2000) {}

  get all(): readonly M[] {
    return this.items;
  }

  clear(): void {
    this.items = [];
  }

  add(markers: readonly M[]): void {
    if (markers.length === 0) return;
    this.items = this.items.concat(markers);
    if (this.items.length > this.capacity) this.items = this.items.slice(this.items.length - this.capacity);
  }
}
