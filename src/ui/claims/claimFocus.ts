/**
 * The claim the Claims view shows unfolded and scrolled to when it next opens (a line of the
 * Explore view points at it). A tiny module apart from the view, which the page loads lazily.
 */
let focused: string | null = null;

/** Asks the Claims view to open on this row (its id, `scenario/claims.ts`). */
export function focusClaimNext(id: string): void {
  focused = id;
}

/** The row to open on, once: the view takes it when it mounts. */
export function takeClaimFocus(): string | null {
  const id = focused;
  focused = null;
  return id;
}
