/**
 * The numbers of a change, to the precision at which they differ: α moved from 0.142291 to
 * 0.142293 read "from 0.14229 to 0.14229" at five decimals (issue 37). At least `min` decimals,
 * more until the two differ, at most `max`; equal even then, the change is below that precision.
 */
export function changeText(before: number, after: number, min = 3, max = 12): { readonly before: string; readonly after: string; readonly unchanged: boolean } {
  if (!Number.isFinite(before) || !Number.isFinite(after)) return { before: Number.isFinite(before) ? before.toFixed(min) : '–', after: Number.isFinite(after) ? after.toFixed(min) : '–', unchanged: false };
  for (let digits = min; digits <= max; digits++) {
    const a = before.toFixed(digits);
    const b = after.toFixed(digits);
    if (a !== b) return { before: a, after: b, unchanged: false };
  }
  return { before: before.toFixed(min), after: after.toFixed(min), unchanged: true };
}
