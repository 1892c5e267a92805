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

/** Upper end of a y domain: the largest finite value with some headroom, never 0. */
export function headroomMax(values: Iterable<number>, headroom = 1.08, fallback = 1): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (Number.isFinite(v) && v > max) max = v;
  return max > 0 ? max * headroom : fallback;
}

/** Shortens `text` with "…" so that it fits `widthPx` at about `charPx` per character. */
export function fitText(text: string, widthPx: number, charPx = 7): string {
  const room = Math.floor(widthPx / charPx);
  if (text.length <= room) return text;
  if (room <= 1) return '';
  return `${text.slice(0, room - 1)}…`;
}
