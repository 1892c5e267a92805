import type { Rng } from '../../../engine/rng';

/** Draws an index from row `row` of a rows × n matrix of probabilities (inverse CDF on the scheduler's stream). */
export function sampleRow(probs: ArrayLike<number>, row: number, n: number, rng: Rng): number {
  return sampleRowAt(probs, row, n, rng.nextFloat());
}

/** `sampleRow` with the uniform draw `u` given. */
export function sampleRowAt(probs: ArrayLike<number>, row: number, n: number, u: number): number {
  let acc = 0;
  let last = -1;
  for (let a = 0; a < n; a++) {
    const p = probs[row * n + a]!;
    if (p <= 0) continue;
    last = a;
    acc += p;
    if (u < acc) return a;
  }
  // Rounding left u above the total: the last action with mass.
  return last < 0 ? 0 : last;
}

/** The largest allowed entry of a row (the first on ties); `maskBias` 0 = allowed. */
export function argmaxRow(values: ArrayLike<number>, maskBias: ArrayLike<number>, row: number, n: number): number {
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < n; a++) {
    if (maskBias[row * n + a] !== 0) continue;
    const v = values[row * n + a]!;
    if (best < 0 || v > bestValue) {
      best = a;
      bestValue = v;
    }
  }
  return best < 0 ? 0 : best;
}
