/**
 * How a claim of a paper is judged against the lab's number. A verdict is always computed
 * from measured estimates (mean and 95 % interval over seeds); nothing here knows a result.
 *
 * - `holds`: the lab agrees — same sign or ordering, its interval clear of the other side,
 *   and, where the paper gives a number, within the claim's stated tolerance of it.
 * - `partly`: the direction agrees but the size is outside the tolerance, or a claim made of
 *   several parts (cells of a grid, models, platforms) holds for some parts and not others.
 * - `fails`: the lab's interval lies on the wrong side.
 * - `noise`: the interval straddles the boundary: with these seeds the lab cannot tell.
 */
export type Verdict = 'holds' | 'partly' | 'fails' | 'noise';

export const VERDICTS: readonly Verdict[] = ['holds', 'partly', 'fails', 'noise'];

/**
 * A measured number: the mean over `seeds` seeds and the half-width of its 95 % interval
 * (the shape of a sweep's per-cell statistics).
 */
export interface Estimate {
  readonly mean: number;
  readonly halfWidth95: number;
  readonly seeds: number;
  /**
   * Set when the number is a difference in the metric's own unit (percentage points for a
   * share in %) instead of in % of a baseline, because the baseline was below the claim's
   * threshold (claims.ts `pointsBelow`); absent: the claim's usual unit.
   */
  readonly unit?: 'points';
  /** The baseline lane's mean of the metric over the seeds, when the claim compares against a threshold (`pointsBelow`). */
  readonly baseline?: number;
}

/** The rule a claim is judged by. Percentages are in %, other values in the metric's unit. */
export type VerdictRule =
  /**
   * The lab's number (usually a difference in % of a baseline lane) has the claimed sign;
   * when the paper gives its size, `paperValue ± tolerance` is where it should land.
   */
  | { readonly kind: 'sign'; readonly sign: 1 | -1; readonly paperValue?: number; readonly tolerance?: number }
  /** The lab's number stays at or below (`atMost`) or at or above (`atLeast`) a bound. */
  | { readonly kind: 'atMost' | 'atLeast'; readonly bound: number }
  /** The lab's number lands within `tolerance` of the paper's `paperValue` (holds), or within twice that (partly). */
  | { readonly kind: 'near'; readonly paperValue: number; readonly tolerance: number };

/** A verdict with the sentence that says why, written from the numbers. */
export interface Judgement {
  readonly verdict: Verdict;
  readonly reason: string;
}

const fmt = (v: number): string => {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return v.toFixed(digits);
};

const interval = (e: Estimate): string => (e.seeds > 1 ? `${fmt(e.mean)} ± ${fmt(e.halfWidth95)}` : fmt(e.mean));

/**
 * Judges one estimate by one rule.
 * @throws RangeError when the estimate is not finite
 */
export function judge(rule: VerdictRule, estimate: Estimate): Judgement {
  const { mean, halfWidth95 } = estimate;
  if (!Number.isFinite(mean) || !Number.isFinite(halfWidth95) || halfWidth95 < 0) {
    throw new RangeError(`judge: estimate must be a finite mean with a half-width ≥ 0, got ${mean} ± ${halfWidth95}`);
  }
  const lo = mean - halfWidth95;
  const hi = mean + halfWidth95;
  const shown = interval(estimate);
  switch (rule.kind) {
    case 'sign': {
      const wanted = rule.sign > 0 ? 'above 0' : 'below 0';
      const right = rule.sign > 0 ? lo > 0 : hi < 0;
      const wrong = rule.sign > 0 ? hi < 0 : lo > 0;
      if (wrong) return { verdict: 'fails', reason: `the lab measures ${shown}: the opposite sign (the claim needs ${wanted})` };
      if (!right) return { verdict: 'noise', reason: `the lab measures ${shown}: the interval includes 0, inside the noise of ${estimate.seeds} seed${estimate.seeds === 1 ? '' : 's'}` };
      if (rule.paperValue !== undefined && rule.tolerance !== undefined && Math.abs(mean - rule.paperValue) > rule.tolerance) {
        return { verdict: 'partly', reason: `same sign, but ${fmt(mean)} is more than ${fmt(rule.tolerance)} from the paper's ${fmt(rule.paperValue)}` };
      }
      return { verdict: 'holds', reason: `the lab measures ${shown}, ${wanted} as claimed${rule.paperValue === undefined ? '' : ` (paper ${fmt(rule.paperValue)})`}` };
    }
    case 'atMost':
    case 'atLeast': {
      const within = rule.kind === 'atMost' ? hi <= rule.bound : lo >= rule.bound;
      const outside = rule.kind === 'atMost' ? lo > rule.bound : hi < rule.bound;
      const words = rule.kind === 'atMost' ? 'at most' : 'at least';
      if (within) return { verdict: 'holds', reason: `the lab measures ${shown}, ${words} ${fmt(rule.bound)} as claimed` };
      if (outside) return { verdict: 'fails', reason: `the lab measures ${shown}, not ${words} ${fmt(rule.bound)}` };
      return { verdict: 'noise', reason: `the lab measures ${shown}: the interval straddles the bound ${fmt(rule.bound)}` };
    }
    case 'near': {
      const off = Math.abs(mean - rule.paperValue);
      if (off <= rule.tolerance) return { verdict: 'holds', reason: `the lab measures ${shown}, within ${fmt(rule.tolerance)} of the paper's ${fmt(rule.paperValue)}` };
      if (off <= 2 * rule.tolerance) return { verdict: 'partly', reason: `the lab measures ${shown}, ${fmt(off)} from the paper's ${fmt(rule.paperValue)} (tolerance ${fmt(rule.tolerance)})` };
      return { verdict: 'fails', reason: `the lab measures ${shown}, far from the paper's ${fmt(rule.paperValue)} (tolerance ${fmt(rule.tolerance)})` };
    }
  }
}

/**
 * Combines the verdicts of a claim's parts (cells of a grid, models, platforms): all hold →
 * holds; none holds and at least one fails → fails when every part fails, else partly;
 * only noise → noise; any mix with a holding part → partly.
 */
export function combine(parts: readonly Verdict[]): Verdict {
  if (parts.length === 0) throw new RangeError('combine: a claim needs at least one part');
  const count = (v: Verdict): number => parts.filter((p) => p === v).length;
  if (count('holds') === parts.length) return 'holds';
  if (count('fails') === parts.length) return 'fails';
  if (count('noise') === parts.length) return 'noise';
  if (count('holds') === 0 && count('partly') === 0) return count('fails') > count('noise') ? 'fails' : 'noise';
  return 'partly';
}
