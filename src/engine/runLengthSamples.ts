import { quantileSelect } from './quantiles';

/** What `RunLengthSamples` holds, for a checkpoint: its arrays shared (see `snapshot`) and its counts. */
export interface RunLengthSnapshot {
  readonly values: Float64Array;
  readonly ends: Float64Array;
  readonly runs: number;
  readonly length: number;
}

/**
 * A sequence of samples kept as runs of equal values (value, end index): a configuration's
 * latency (Σ t_i) is the same for every query it serves, so a static run of a million queries
 * keeps one run instead of a million numbers. Exact: `quantile` gives what `quantileSelect`
 * gives on the samples written out, bit for bit, and `decimate` keeps the samples of even
 * index, as the metrics' systematic sample does. Appending only ever writes past the runs a
 * snapshot holds, or moves the end of its last run, which `restore` puts back.
 */
export class RunLengthSamples {
  private values: Float64Array;
  private ends: Float64Array;
  private runs = 0;
  /** Samples held. */
  length = 0;

  constructor(capacity = 16) {
    this.values = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
  }

  /** Runs held (what the samples cost). */
  get runCount(): number {
    return this.runs;
  }

  push(value: number): void {
    const last = this.runs - 1;
    if (last >= 0 && this.values[last] === value) {
      this.ends[last] = ++this.length;
      return;
    }
    if (this.runs === this.values.length) this.grow();
    this.values[this.runs] = value;
    this.ends[this.runs] = ++this.length;
    this.runs++;
  }

  /**
   * Keeps ⌊n/2⌋ samples, those of index 0, 2, 4, … (an odd last one is dropped), as the
   * metrics' systematic sample does when it doubles its stride.
   */
  decimate(): void {
    const limit = 2 * Math.floor(this.length / 2);
    const values = new Float64Array(this.values.length);
    const ends = new Float64Array(this.ends.length);
    let runs = 0;
    let start = 0;
    for (let r = 0; r < this.runs; r++) {
      const end = Math.min(this.ends[r]!, limit);
      // Even indices in [start, end) become [ceil(start / 2), ceil(end / 2)).
      const keptEnd = Math.ceil(end / 2);
      if (keptEnd > Math.ceil(start / 2)) {
        if (runs > 0 && values[runs - 1] === this.values[r]) ends[runs - 1] = keptEnd;
        else {
          values[runs] = this.values[r]!;
          ends[runs] = keptEnd;
          runs++;
        }
      }
      start = end;
      if (start >= limit) break;
    }
    this.values = values;
    this.ends = ends;
    this.runs = runs;
    this.length = limit / 2;
  }

  /**
   * The p-quantile of the samples, exactly as `quantileSelect` of them written out: the values
   * of ranks ⌊p(n−1)⌋ and the next, interpolated linearly. Runs that do not compress (more than
   * an eighth of the samples) are written out and selected.
   */
  quantile(p: number): number {
    const n = this.length;
    if (n === 0) return 0;
    if (this.runs * 8 > n) return quantileSelect(this.expand(), p);
    const order = Array.from({ length: this.runs }, (_, r) => r).sort((a, b) => this.values[a]! - this.values[b]!);
    const counts = new Float64Array(this.runs);
    let start = 0;
    for (let r = 0; r < this.runs; r++) {
      counts[r] = this.ends[r]! - start;
      start = this.ends[r]!;
    }
    const rank = (k: number): number => {
      let seen = 0;
      for (const r of order) {
        seen += counts[r]!;
        if (k < seen) return this.values[r]!;
      }
      throw new RangeError(`rank ${k} of ${n} samples`);
    };
    const pos = p * (n - 1);
    const lo = Math.floor(pos);
    const low = rank(lo);
    if (lo + 1 >= n) return low + (low - low) * (pos - lo);
    const high = rank(lo + 1);
    return low + (high - low) * (pos - lo);
  }

  /** The samples written out, in order. */
  expand(): Float64Array {
    const out = new Float64Array(this.length);
    let start = 0;
    for (let r = 0; r < this.runs; r++) {
      const end = this.ends[r]!;
      out.fill(this.values[r]!, start, end);
      start = end;
    }
    return out;
  }

  /** The state for a checkpoint: the arrays are shared, not copied (see the class). */
  snapshot(): RunLengthSnapshot {
    return { values: this.values, ends: this.ends, runs: this.runs, length: this.length };
  }

  restore(s: RunLengthSnapshot): void {
    this.values = s.values.slice();
    this.ends = s.ends.slice();
    this.runs = s.runs;
    this.length = s.length;
    // Appending after the snapshot may have moved its last run's end on: it ended where the samples did.
    if (s.runs > 0) this.ends[s.runs - 1] = s.length;
  }

  private grow(): void {
    const values = new Float64Array(this.values.length * 2);
    values.set(this.values);
    const ends = new Float64Array(this.ends.length * 2);
    ends.set(this.ends);
    this.values = values;
    this.ends = ends;
  }
}
