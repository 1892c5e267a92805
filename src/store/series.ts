import type { Marker, SeriesChunk } from '../worker/protocol';

const COLUMNS = ['query', 'timeMs', 'measuredQps', 'configQps', 'optimalQps', 'latencyMs', 'configLatencyMs'] as const;
export type SeriesColumn = (typeof COLUMNS)[number];

/**
 * A lane's downsampled series on the page: columns of numbers with a length, appended to
 * by frames and replaced when the worker compacts. Bounded by the worker's point budget;
 * charts read it directly (it never enters React state).
 */
export class SeriesBuffer {
  length = 0;
  stages = 0;
  readonly columns: Record<SeriesColumn, Float64Array>;
  counts: Int32Array;

  constructor(private capacity = 4096) {
    this.columns = Object.fromEntries(COLUMNS.map((c) => [c, new Float64Array(capacity)])) as Record<SeriesColumn, Float64Array>;
    this.counts = new Int32Array(0);
  }

  clear(stages: number): void {
    this.length = 0;
    this.stages = stages;
    this.counts = new Int32Array(this.capacity * stages);
  }

  /** Appends a chunk (or replaces everything with it). */
  add(chunk: SeriesChunk, replace: boolean, stages: number): void {
    if (replace || stages !== this.stages) this.clear(stages);
    const n = chunk.query.length;
    if (this.length + n > this.capacity) this.ensure(this.length + n);
    for (const c of COLUMNS) this.columns[c].set(chunk[c], this.length);
    this.counts.set(chunk.counts, this.length * stages);
    this.length += n;
  }

  /** The configuration (units per stage) of point `i`. */
  countsAt(i: number): Int32Array {
    return this.counts.subarray(i * this.stages, (i + 1) * this.stages);
  }

  private ensure(size: number): void {
    let capacity = this.capacity;
    while (capacity < size) capacity *= 2;
    for (const c of COLUMNS) {
      const bigger = new Float64Array(capacity);
      bigger.set(this.columns[c].subarray(0, this.length));
      this.columns[c] = bigger;
    }
    const counts = new Int32Array(capacity * this.stages);
    counts.set(this.counts.subarray(0, this.length * this.stages));
    this.counts = counts;
    this.capacity = capacity;
  }
}

/** The most recent markers, at most `capacity` of them. */
export class MarkerBuffer {
  private items: Marker[] = [];

  constructor(private readonly capacity = 2000) {}

  get all(): readonly Marker[] {
    return this.items;
  }

  clear(): void {
    this.items = [];
  }

  add(markers: readonly Marker[]): void {
    if (markers.length === 0) return;
    this.items = this.items.concat(markers);
    if (this.items.length > this.capacity) this.items = this.items.slice(this.items.length - this.capacity);
  }
}
