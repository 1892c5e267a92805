/** Index of the largest value; ties go to the lowest index. */
export function argMax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/**
 * Whether two bottleneck times are the same configuration throughput: equal to a relative
 * 1e-9, since sums of the same layers computed in another order differ in the last bits.
 */
export function sameBottleneck(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** The largest value of an array (0 for an empty one). */
export function maxValue(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  return m;
}
