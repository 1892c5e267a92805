/**
 * The geometry of the board's drag and drop (`dragDrop.tsx`): which drop target an item is
 * over, and where the keyboard moves it next. Pure functions of rectangles, tested beside.
 */

/** A rectangle in viewport pixels (the fields of a `DOMRect` that matter here). */
export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** A drop target and where it is on screen. */
export interface TargetRect {
  readonly id: string;
  readonly rect: Rect;
}

function contains(rect: Rect, x: number, y: number): boolean {
  return x >= rect.left && x <= rect.left + rect.width && y >= rect.top && y <= rect.top + rect.height;
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The target the dragged item is over: the one under the pointer when there is a pointer,
 * else the one under the item's centre, else the one the item's rectangle overlaps most;
 * null over none. A target inside another (none on the board) loses to the smaller one.
 */
export function targetUnder(targets: readonly TargetRect[], item: Rect, pointer: { readonly x: number; readonly y: number } | null): string | null {
  const point = pointer ?? { x: item.left + item.width / 2, y: item.top + item.height / 2 };
  const hits = targets.filter((t) => contains(t.rect, point.x, point.y));
  if (hits.length > 0) return hits.reduce((a, b) => (b.rect.width * b.rect.height < a.rect.width * a.rect.height ? b : a)).id;
  let best: string | null = null;
  let bestArea = 0;
  for (const t of targets) {
    const area = overlap(t.rect, item);
    if (area > bestArea) {
      best = t.id;
      bestArea = area;
    }
  }
  return best;
}

/**
 * Keyboard dragging jumps from drop target to drop target (arrow keys) instead of moving a
 * few pixels per press, so an execution place is a couple of presses away: the targets whose
 * id starts with `prefix`, left to right; → and ↓ go to the next, ← and ↑ to the previous;
 * from outside every target, → enters the first and ← the last. Returns the item's new
 * top-left corner (centred on the target, at most 80 px below its top), or null for another key.
 */
export function keyboardJump(key: string, targets: readonly TargetRect[], item: Rect, prefix: string): { x: number; y: number } | null {
  const forward = key === 'ArrowRight' || key === 'ArrowDown';
  if (!forward && key !== 'ArrowLeft' && key !== 'ArrowUp') return null;
  const row = targets.filter((t) => t.id.startsWith(prefix)).sort((a, b) => a.rect.left - b.rect.left);
  if (row.length === 0) return null;
  const cx = item.left + item.width / 2;
  const cy = item.top + item.height / 2;
  // Only a target the item is really over counts (the palette sits below the EPs).
  const current = row.findIndex((t) => contains(t.rect, cx, cy));
  const next = current === -1 ? (forward ? 0 : row.length - 1) : Math.max(0, Math.min(row.length - 1, current + (forward ? 1 : -1)));
  const rect = row[next]!.rect;
  return { x: rect.left + rect.width / 2 - item.width / 2, y: rect.top + Math.min(80, rect.height / 2) - item.height / 2 };
}
