import type { Configuration } from './configuration';
import { stageTimeMs, type CompiledDatabase } from './stageTimes';

export interface Partition {
  readonly counts: Configuration;
  /** max_i t_i of the partition, ms. */
  readonly bottleneckMs: number;
}

/**
 * The exact optimum: the contiguous partition of the L units over the EPs, in EP order,
 * with empty stages allowed, that minimises the maximum stage time when EP i runs in mode
 * `modes[i]` — what the ODIN paper's exhaustive search (§2, 42.5 minutes) finds, by
 * dynamic programming:
 *   f[i][l] = min_{k ≤ l} max(f[i−1][k], t_i(units k..l)).
 * f[i−1][k] never decreases with k and t_i(k..l) never increases with k, so the minimum
 * sits where they cross: a binary search finds the smallest k with f[i−1][k] ≥ t_i(k..l),
 * and the answer is k or k−1 — O(N·L·log L) instead of O(N·L²), with exactly the same
 * result. Ties go to the smallest k (the later stages take the most units), so the
 * answer is deterministic.
 */
export function optimalPartition(db: CompiledDatabase, modes: Uint8Array, hopMs = 0): Partition {
  const n = modes.length;
  const unitCount = db.unitCount;
  if (n < 1) throw new RangeError('a pipeline needs at least one execution place');
  const width = unitCount + 1;
  let prev = new Float64Array(width);
  let cur = new Float64Array(width);
  const choice = new Int32Array(n * width);
  for (let l = 0; l <= unitCount; l++) prev[l] = stageTimeMs(db, modes[0]!, 0, l, n === 1, hopMs);
  for (let i = 1; i < n; i++) {
    const mode = modes[i]!;
    const last = i === n - 1;
    for (let l = 0; l <= unitCount; l++) {
      // Smallest k in [0, l] with prev[k] ≥ t_i(k..l); t_i(l..l) = 0, so k = l qualifies.
      let lo = 0;
      let hi = l;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (prev[mid]! >= stageTimeMs(db, mode, mid, l, last, hopMs)) hi = mid;
        else lo = mid + 1;
      }
      let best = prev[lo]!;
      let bestK = lo;
      if (lo > 0) {
        // For every k < lo the stage dominates, and it is smallest at k = lo − 1.
        const before = stageTimeMs(db, mode, lo - 1, l, last, hopMs);
        if (before <= best) {
          best = before;
          bestK = lo - 1;
        }
      }
      // For k ≥ lo the previous stages dominate; prev never decreases, so k = lo is best there.
      cur[l] = best;
      choice[i * width + l] = bestK;
    }
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  const counts = new Int32Array(n);
  let end = unitCount;
  for (let i = n - 1; i >= 1; i--) {
    const k = choice[i * width + end]!;
    counts[i] = end - k;
    end = k;
  }
  counts[0] = end;
  return { counts, bottleneckMs: prev[unitCount]! };
}

/**
 * Optima by per-EP modes, shared by the lanes of one run (they see the same trace) and
 * bounded so a long run cannot grow it without limit.
 */
export class OptimumCache {
  private readonly entries = new Map<string, Partition>();

  constructor(
    private readonly db: CompiledDatabase,
    private readonly hopMs: number,
    private readonly capacity = 4096,
  ) {}

  /** The optimum for `modes` (the caller must not modify the returned counts). */
  get(modes: Uint8Array): Partition {
    const key = String.fromCharCode(...modes);
    let hit = this.entries.get(key);
    if (hit === undefined) {
      hit = optimalPartition(this.db, modes, this.hopMs);
      if (this.entries.size >= this.capacity) this.entries.clear();
      this.entries.set(key, hit);
    }
    return hit;
  }
}

/**
 * Brute force over every composition of L into N parts (C(L+N−1, N−1) of them): the oracle
 * the dynamic programme is tested and benchmarked against. Returns null when it would
 * enumerate more than `limit` configurations.
 */
export function bruteForcePartition(
  db: CompiledDatabase,
  modes: Uint8Array,
  hopMs = 0,
  limit = Number.POSITIVE_INFINITY,
): Partition | null {
  const n = modes.length;
  const unitCount = db.unitCount;
  if (compositionCount(unitCount, n) > limit) return null;
  const counts = new Int32Array(n);
  const best = new Int32Array(n);
  let bestValue = Number.POSITIVE_INFINITY;
  const visit = (i: number, start: number, runningMax: number): void => {
    if (runningMax >= bestValue) return;
    if (i === n - 1) {
      counts[i] = unitCount - start;
      const t = stageTimeMs(db, modes[i]!, start, unitCount, true, hopMs);
      const value = t > runningMax ? t : runningMax;
      if (value < bestValue) {
        bestValue = value;
        best.set(counts);
      }
      return;
    }
    for (let c = 0; start + c <= unitCount; c++) {
      counts[i] = c;
      const t = stageTimeMs(db, modes[i]!, start, start + c, false, hopMs);
      visit(i + 1, start + c, t > runningMax ? t : runningMax);
    }
  };
  visit(0, 0, 0);
  return { counts: best, bottleneckMs: bestValue };
}

/**
 * Plain exhaustive enumeration without pruning, the baseline of `npm run bench` (the
 * paper's exhaustive search visits every configuration). Null when over `limit`.
 */
export function exhaustivePartition(
  db: CompiledDatabase,
  modes: Uint8Array,
  hopMs = 0,
  limit = Number.POSITIVE_INFINITY,
): Partition | null {
  const n = modes.length;
  const unitCount = db.unitCount;
  if (compositionCount(unitCount, n) > limit) return null;
  const counts = new Int32Array(n);
  const best = new Int32Array(n);
  let bestValue = Number.POSITIVE_INFINITY;
  counts[n - 1] = unitCount;
  // Iterate compositions in lexicographic order of the first N−1 counts.
  for (;;) {
    let start = 0;
    let value = 0;
    for (let i = 0; i < n; i++) {
      const t = stageTimeMs(db, modes[i]!, start, start + counts[i]!, i === n - 1, hopMs);
      if (t > value) value = t;
      start += counts[i]!;
    }
    if (value < bestValue) {
      bestValue = value;
      best.set(counts);
    }
    // Next composition: take one unit from the last stage into the rightmost earlier stage
    // that can grow; when the last stage is empty, carry.
    let i = n - 2;
    while (i >= 0 && counts[n - 1] === 0) {
      counts[n - 1] = counts[n - 1]! + counts[i]!;
      counts[i] = 0;
      i--;
    }
    if (i < 0) break;
    counts[i] = counts[i]! + 1;
    counts[n - 1] = counts[n - 1]! - 1;
  }
  return { counts: best, bottleneckMs: bestValue };
}

/** C(L+N−1, N−1), as a float (it overflows integers quickly). */
export function compositionCount(unitCount: number, stages: number): number {
  let result = 1;
  for (let j = 1; j <= stages - 1; j++) result = (result * (unitCount + j)) / j;
  return Math.round(result);
}
