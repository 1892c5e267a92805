/**
 * Indices of the points to draw out of `length`, at most `maxPoints` of them, evenly spaced
 * and always including the last one (the newest point must be on screen).
 */
export function pointIndices(length: number, maxPoints: number): number[] {
  if (length <= 0) return [];
  const limit = Math.max(2, Math.floor(maxPoints));
  if (length <= limit) return Array.from({ length }, (_, i) => i);
  const step = Math.ceil((length - 1) / (limit - 1));
  const out: number[] = [];
  for (let i = 0; i < length - 1; i += step) out.push(i);
  out.push(length - 1);
  return out;
}

/**
 * The largest magnitude a chart draws, in the data's unit. Beyond it a value is treated as
 * missing (a gap, "no data"), like NaN: 10¹⁵ is far above any latency, rate or utility the
 * lab produces, and far enough below the largest double that scale arithmetic (differences,
 * headroom, sums of stacked bands) stays finite.
 */
export const PLOT_LIMIT = 1e15;

/**
 * The narrowest span a chart's value axis gets, in the data's unit: a domain of 5·10⁻³²⁴
 * would turn ordinary values into ±∞ pixels.
 */
export const PLOT_MIN_SPAN = 1e-9;

/** Whether a chart can draw `v` (a finite number within ±PLOT_LIMIT). */
export function plottable(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= PLOT_LIMIT;
}

/** Upper end of a y domain: the largest plottable value with some headroom, never 0. */
export function headroomMax(values: Iterable<number>, headroom = 1.08, fallback = 1): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (plottable(v) && v > max) max = v;
  return max > 0 ? Math.max(max * headroom, PLOT_MIN_SPAN) : fallback;
}

/** Shortens `text` with "…" so that it fits `widthPx` at about `charPx` per character. */
export function fitText(text: string, widthPx: number, charPx = 7): string {
  const room = Math.floor(widthPx / charPx);
  if (text.length <= room) return text;
  if (room <= 1) return '';
  return `${text.slice(0, room - 1)}…`;
}

/** Smallest and largest plottable value of `values` (both NaN when there is none). */
export function finiteExtent(values: Iterable<number | null | undefined>): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!plottable(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [Number.NaN, Number.NaN];
}
