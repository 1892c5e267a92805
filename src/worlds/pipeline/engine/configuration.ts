/**
 * A pipeline configuration C (ODIN §3.2): the number of consecutive units each stage
 * holds, stage i bound to execution place i. Counts are ≥ 0 (a stage may be empty) and
 * sum to L.
 */
export type Configuration = Int32Array;

/** True when `counts` is a valid configuration of `unitCount` units over its stages. */
export function isValidConfiguration(counts: Int32Array, unitCount: number): boolean {
  let sum = 0;
  for (const c of counts) {
    if (c < 0) return false;
    sum += c;
  }
  return sum === unitCount && counts.length > 0;
}

/** A compact key ("5,4,4,3") for maps and logs. */
export function configurationKey(counts: ArrayLike<number>): string {
  return Array.prototype.join.call(counts, ',');
}

/**
 * Moves `units` units from stage `from` to stage `to`. Units are contiguous, so moving to
 * a non-adjacent stage shifts every stage in between by one unit each while their counts
 * stay the same (ARCHITECTURE §2); in counts this is just −units at `from`, +units at `to`.
 * Moves at most what `from` holds and returns how many units moved.
 */
export function moveUnits(counts: Int32Array, from: number, to: number, units = 1): number {
  if (from === to) return 0;
  const moved = Math.min(units, counts[from]!);
  counts[from] = counts[from]! - moved;
  counts[to] = counts[to]! + moved;
  return moved;
}
