/**
 * Cumulative units per stage, for stacked areas: for point `i` and stage `s`, the band of
 * stage `s` spans [out[i·(S+1) + s], out[i·(S+1) + s + 1]). `counts` is row-major, `stages`
 * values per point (the layout of `PipelineSeriesBuffer.counts`).
 */
export function stackCounts(counts: ArrayLike<number>, stages: number, length: number, out?: Float64Array): Float64Array {
  if (!Number.isInteger(stages) || stages < 0) throw new RangeError(`stages must be a non-negative integer, got ${stages}`);
  if (counts.length < length * stages) throw new RangeError(`counts hold ${counts.length} values, need ${length * stages}`);
  const width = stages + 1;
  const result = out !== undefined && out.length >= length * width ? out : new Float64Array(length * width);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    result[i * width] = 0;
    for (let s = 0; s < stages; s++) {
      sum += counts[i * stages + s]!;
      result[i * width + s + 1] = sum;
    }
  }
  return result;
}

/**
 * Which of `n` legend entries to show when there is room for `max`: all of them when they
 * fit, else the first `max` and a count of the rest (shown as "…").
 */
export function compactLegend(n: number, max = 8): { shown: number[]; hidden: number } {
  const count = Math.max(0, Math.min(n, max));
  return { shown: Array.from({ length: count }, (_, i) => i), hidden: Math.max(0, n - count) };
}
