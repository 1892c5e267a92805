/**
 * How a run computes latency percentiles, a scenario parameter
 * (`metrics.percentiles`) shared by the page and the CLI:
 * - `streaming` (scenarios' default): a log-bucket histogram, memory flat in the run's
 *   length, every reported percentile within `relativeError` of the exact one;
 * - `exact`: every sample kept and sorted (memory grows with the run: 16 bytes per query per
 *   pipeline lane).
 */
export type PercentileMethod = 'streaming' | 'exact';
export const PERCENTILE_METHODS: readonly PercentileMethod[] = ['streaming', 'exact'];

/** The streaming histogram's default relative error bound: 0.1 % (three significant digits, as HdrHistogram's usual setting). */
export const DEFAULT_PERCENTILE_RELATIVE_ERROR = 0.001;

export interface PercentileOptions {
  readonly method: PercentileMethod;
  /** Bound on |estimate − exact| / exact for `streaming` (default 0.001). */
  readonly relativeError?: number;
}

/** What a histogram accumulated, copied (for checkpoints). */
export interface LogHistogramSnapshot {
  /**
   * The buckets from the first to the last that holds a value (the empty ones around them are
   * left out: a checkpoint of a long run holds kilobytes, not the whole grown array), as 32-bit
   * counts while every count fits.
   */
  readonly counts: Float64Array | Uint32Array;
  /** Bucket index of counts[0]; zeros, count, min, max, the array's length and where `counts` starts in it. */
  readonly scalars: Float64Array;
}

/**
 * A log-bucket histogram of non-negative values (the idea of HdrHistogram and DDSketch,
 * written for this engine): bucket i holds the values in (γ^(i−1), γ^i] with
 * γ = (1 + ε) / (1 − ε), and stands for 2γ^i / (γ + 1), which is within ε of every value of
 * the bucket, relative. Zeros are counted apart and are exact; the minimum and the maximum
 * are kept exactly.
 *
 * `quantile(p)` follows the engine's exact method (type 7: interpolation between the order
 * statistics at ranks ⌊p(n−1)⌋ and ⌈p(n−1)⌉) on the order statistics' estimates. Each
 * estimate is within ε of the true order statistic, and an interpolation of two such values
 * is within ε of the interpolation of the true ones, so every percentile is within ε of the
 * exact type-7 percentile (up to floating-point rounding at bucket edges, ~1e-15). Memory:
 * one double per bucket between the smallest and the largest value, log(max/min)/log γ
 * buckets (about 2,300 for a 0.1 % bound over two decades), whatever the run's length.
 */
export class LogHistogram {
  private readonly logGamma: number;
  private readonly gamma: number;
  private counts = new Float64Array(64);
  /** Bucket index of counts[0] (meaningful once a positive value was added). */
  private offset = 0;
  private used = false;
  private zeros = 0;
  private n = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;

  constructor(readonly relativeError = DEFAULT_PERCENTILE_RELATIVE_ERROR) {
    if (!(relativeError > 0 && relativeError < 1)) throw new RangeError(`relative error must be in (0, 1), got ${relativeError}`);
    this.gamma = (1 + relativeError) / (1 - relativeError);
    this.logGamma = Math.log(this.gamma);
  }

  /** Values added so far. */
  get count(): number {
    return this.n;
  }

  /** Buckets held (memory is 8 bytes each). */
  get buckets(): number {
    return this.counts.length;
  }

  add(value: number): void {
    if (!(value >= 0) || value === Number.POSITIVE_INFINITY) throw new RangeError(`a latency must be finite and ≥ 0, got ${value}`);
    this.n++;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    if (value === 0) {
      this.zeros++;
      return;
    }
    const index = Math.ceil(Math.log(value) / this.logGamma);
    if (!this.used) {
      this.used = true;
      this.offset = index - (this.counts.length >> 1);
    }
    let at = index - this.offset;
    if (at < 0 || at >= this.counts.length) {
      this.fit(index);
      at = index - this.offset;
    }
    this.counts[at]!++;
  }

  /** Quantile p ∈ [0, 1] (type 7 on the estimates), 0 when empty. */
  quantile(p: number): number {
    const n = this.n;
    if (n === 0) return 0;
    const pos = p * (n - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(n - 1, lo + 1);
    const low = this.atRank(lo);
    return low + (this.atRank(hi) - low) * (pos - lo);
  }

  snapshot(): LogHistogramSnapshot {
    const c = this.counts;
    let lo = 0;
    while (lo < c.length && c[lo] === 0) lo++;
    let hi = c.length;
    while (hi > lo && c[hi - 1] === 0) hi--;
    const used = c.subarray(lo, hi);
    const counts = used.every((x) => x <= 0xffffffff) ? Uint32Array.from(used) : used.slice();
    return { counts, scalars: Float64Array.of(this.offset, this.used ? 1 : 0, this.zeros, this.n, this.min, this.max, c.length, lo) };
  }

  restore(s: LogHistogramSnapshot): void {
    const [offset, used, zeros, n, min, max, length, from] = Array.from(s.scalars) as [number, number, number, number, number, number, number, number];
    this.counts = new Float64Array(length);
    this.counts.set(s.counts, from);
    this.offset = offset;
    this.used = used === 1;
    this.zeros = zeros;
    this.n = n;
    this.min = min;
    this.max = max;
  }

  /** The estimate of the order statistic at 0-based `rank`: exact at the ends, else its bucket's value, clamped to [min, max]. */
  private atRank(rank: number): number {
    if (rank <= 0) return this.min;
    if (rank >= this.n - 1) return this.max;
    if (rank < this.zeros) return 0;
    let seen = this.zeros;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen > rank) {
        const value = (2 * Math.exp((i + this.offset) * this.logGamma)) / (this.gamma + 1);
        return Math.min(this.max, Math.max(this.min, value));
      }
    }
    return this.max;
  }

  /** Grows the bucket array (doubling, with room on the side that grew) to hold `index`. */
  private fit(index: number): void {
    const from = Math.min(index, this.offset);
    const to = Math.max(index, this.offset + this.counts.length - 1);
    const span = to - from + 1;
    let size = this.counts.length;
    while (size < span) size *= 2;
    const slack = size - span;
    const offset = index < this.offset ? from - slack : from;
    const counts = new Float64Array(size);
    counts.set(this.counts, this.offset - offset);
    this.counts = counts;
    this.offset = offset;
  }
}

/**
 * Quantile of sorted values with linear interpolation between closest ranks (NumPy's
 * default, type 7): position p·(n−1).
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  const frac = pos - lo;
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * frac;
}

/**
 * The same as `quantileSorted` of the values sorted, without sorting them: the two ranks it
 * reads are found by selection (Wirth's FIND, linear on average), so exact percentiles of a
 * million latencies cost a pass or two instead of a sort. `values` is reordered in place (give
 * it a copy); it must hold no NaN. Several quantiles may be asked of the same array.
 */
export function quantileSelect(values: Float64Array, p: number): number {
  const n = values.length;
  if (n === 0) return 0;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const low = selectRank(values, lo);
  if (lo + 1 >= n) return low + (low - low) * (pos - lo);
  // After selecting rank lo, everything right of it is ≥ it: rank lo+1 is the least of them.
  let high = values[lo + 1]!;
  for (let i = lo + 2; i < n; i++) if (values[i]! < high) high = values[i]!;
  return low + (high - low) * (pos - lo);
}

/** Puts the value of rank `k` (0-based, ascending) at index k, smaller ones left of it and larger ones right; returns it. */
function selectRank(a: Float64Array, k: number): number {
  let left = 0;
  let right = a.length - 1;
  while (left < right) {
    const pivot = a[k]!;
    let i = left;
    let j = right;
    do {
      while (a[i]! < pivot) i++;
      while (pivot < a[j]!) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
  return a[k]!;
}
