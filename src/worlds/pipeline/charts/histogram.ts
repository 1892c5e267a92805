import { latencyBinEdge } from '../worker/pipelineProtocol';

/**
 * Quantiles of a histogram of counts per bin, bin `b` covering [edge(b), edge(b + 1)).
 *
 * Within the bin where the cumulative count crosses `p · total`, the value is interpolated
 * geometrically (linearly in log space), because the latency bins are log-spaced: a linear
 * interpolation would bias every quantile towards the bin's upper edge.
 *
 * @param counts counts per bin (non-negative).
 * @param probabilities each in [0, 1].
 * @param edge lower edge of a bin; `edge(b + 1)` is its upper edge. Defaults to the latency bins.
 * @returns one value per probability, or NaN for all of them when the histogram is empty.
 */
export function histogramQuantiles(
  counts: ArrayLike<number>,
  probabilities: readonly number[],
  edge: (bin: number) => number = latencyBinEdge,
): number[] {
  for (const p of probabilities) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile probability must be in [0, 1], got ${p}`);
  }
  let total = 0;
  for (let b = 0; b < counts.length; b++) {
    const c = counts[b]!;
    if (!(c >= 0)) throw new RangeError(`histogram count must be ≥ 0, got ${c} in bin ${b}`);
    total += c;
  }
  if (total === 0) return probabilities.map(() => Number.NaN);
  return probabilities.map((p) => {
    const target = p * total;
    let cumulative = 0;
    let last = -1;
    for (let b = 0; b < counts.length; b++) {
      const c = counts[b]!;
      if (c === 0) continue;
      last = b;
      if (cumulative + c >= target) {
        const fraction = Math.min(1, Math.max(0, (target - cumulative) / c));
        const lo = edge(b);
        const hi = edge(b + 1);
        return lo > 0 && hi > 0 ? lo * Math.pow(hi / lo, fraction) : lo + (hi - lo) * fraction;
      }
      cumulative += c;
    }
    // Only reached through rounding when p = 1: the upper edge of the last non-empty bin.
    return edge(last + 1);
  });
}

/** The five numbers of a box plot, ms, and how many queries they summarise. */
export interface BoxStats {
  readonly whiskerLow: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly whiskerHigh: number;
  readonly count: number;
}

/** Whiskers at the 1st and 99th percentiles (the summaries report p99 too). */
export const BOX_WHISKERS = { low: 0.01, high: 0.99, label: 'p1–p99' } as const;

/** Box-plot numbers of a latency histogram, or null when it is empty. */
export function boxStats(counts: ArrayLike<number>, edge: (bin: number) => number = latencyBinEdge): BoxStats | null {
  const [whiskerLow, q1, median, q3, whiskerHigh] = histogramQuantiles(counts, [BOX_WHISKERS.low, 0.25, 0.5, 0.75, BOX_WHISKERS.high], edge);
  if (whiskerLow === undefined || Number.isNaN(whiskerLow)) return null;
  let count = 0;
  for (let b = 0; b < counts.length; b++) count += counts[b]!;
  return { whiskerLow, q1: q1!, median: median!, q3: q3!, whiskerHigh: whiskerHigh!, count };
}
