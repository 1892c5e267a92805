import type { Estimate } from '../../scenario/verdict';

/**
 * How the Claims view writes the lab's numbers (README "Does it reproduce the papers?"): with
 * their unit, and no more digits than the seeds support.
 */

/** The short form of a number, as the verdict's reasons write it (scenario/verdict.ts): 2 decimals under 10, 1 under 100, none above. */
export function formatNumber(v: number, signed = false): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  const text = abs.toFixed(digits);
  const sign = v < 0 && Number(text) !== 0 ? '−' : signed && v > 0 ? '+' : '';
  return `${sign}${text}`;
}

/** From this size on a number is rounded to the precision of its interval and grouped by thousands. */
const LARGE = 1000;

/** `v` rounded to a multiple of `step`, grouped by thousands (`121,746` at step 10,000 → `120,000`), signed as asked. */
function grouped(v: number, step: number, signed: boolean): string {
  const rounded = Math.round(v / step) * step;
  const text = Math.abs(rounded).toLocaleString('en-US', { maximumFractionDigits: 0 });
  const sign = rounded < 0 ? '−' : signed && rounded > 0 ? '+' : '';
  return `${sign}${text}`;
}

/** Two significant digits of a positive number's magnitude: the step to round it and its peers to. */
function stepOf(v: number): number {
  return 10 ** Math.max(0, Math.floor(Math.log10(Math.abs(v))) - 1);
}

/**
 * The unit a row's estimate is in: `pp` for a difference in percentage points, ` %` when the
 * row's own words end in "%" (ARCHITECTURE §4a: a row's `labNumber` names what is measured and
 * its unit), else none (a count, a ratio).
 */
export function unitOfRow(e: Estimate, labNumber: string): string {
  if (e.unit === 'points') return ' pp';
  return labNumber.trimEnd().endsWith('%') ? ' %' : '';
}

/**
 * `mean ± half-width unit (n seeds)`, or `mean unit (1 seed)`: "4.20 ± 1.10 pp (2 seeds)". A large number (≥ 1,000, or an
 * interval that wide) is given to two significant digits of its interval's half-width, grouped
 * by thousands: "121746 ± 111206" reads "+120,000 ± 110,000 %"; a change of more than
 * +1,000 % also says how many times as large it is ("≈ 1,200 ×").
 */
export function formatEstimate(e: Estimate, unit = e.unit === 'points' ? ' pp' : ''): string {
  const seeds = `${e.seeds} seed${e.seeds === 1 ? '' : 's'}`;
  const large = Math.abs(e.mean) >= LARGE || e.halfWidth95 >= LARGE;
  const step = large ? stepOf(Math.max(e.halfWidth95, e.seeds > 1 ? 0 : Math.abs(e.mean)) || Math.abs(e.mean)) : 0;
  const mean = large ? grouped(e.mean, step, unit === ' %') : formatNumber(e.mean);
  const half = large ? grouped(e.halfWidth95, step, false) : e.halfWidth95 < 0.005 ? '0' : formatNumber(e.halfWidth95);
  const times = unit === ' %' && e.mean >= LARGE ? `≈ ${grouped(1 + e.mean / 100, stepOf(1 + e.mean / 100), false)} ×; ` : '';
  return e.seeds > 1 ? `${mean} ± ${half}${unit} (${times}${seeds})` : `${mean}${unit} (${times}${seeds})`;
}
