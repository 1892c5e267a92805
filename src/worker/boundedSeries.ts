import { SERIES_MAX_POINTS } from './liveLoop';

/**
 * A lane's series as a worker keeps it, bounded, for either world: points are appended; when
 * `maxPoints` is reached neighbours merge in pairs (`merge(a, b)`, b the later) and the stride
 * (what one point stands for: queries, slots) doubles, so a run of any length costs at most
 * `maxPoints` points. It tracks what the page has: `take()` gives the points not sent yet, or
 * all of them (replacing the page's) after a compaction, a jump or a restore.
 */
export class BoundedSeries<P> {
  stride = 1;
  private points: P[] = [];
  private sent = 0;
  private replaceNext = false;

  constructor(
    private readonly merge: (a: P, b: P) => P,
    private readonly maxPoints: number = SERIES_MAX_POINTS,
  ) {}

  get length(): number {
    return this.points.length;
  }

  push(point: P): void {
    this.points.push(point);
    if (this.points.length >= this.maxPoints) this.compact();
  }

  /** The next `take` gives every point again, replacing the page's series. */
  resend(): void {
    this.sent = 0;
    this.replaceNext = true;
  }

  /** Points not yet sent (or all of them after a compaction), and whether they replace. */
  take(): { readonly points: readonly P[]; readonly replace: boolean } {
    const replace = this.replaceNext;
    const points = this.points.slice(replace ? 0 : this.sent);
    this.sent = this.points.length;
    this.replaceNext = false;
    return { points, replace };
  }

  /** The points and stride, for a checkpoint (points are never changed once made, so they are shared). */
  snapshot(): { readonly stride: number; readonly points: readonly P[] } {
    return { stride: this.stride, points: this.points.slice() };
  }

  /** Puts back a checkpoint; the next `take` replaces the page's series with all the points. */
  restore(s: { readonly stride: number; readonly points: readonly P[] }): void {
    this.stride = s.stride;
    this.points = s.points.slice();
    this.resend();
  }

  private compact(): void {
    const merged: P[] = [];
    for (let i = 0; i + 1 < this.points.length; i += 2) merged.push(this.merge(this.points[i]!, this.points[i + 1]!));
    if (this.points.length % 2 === 1) merged.push(this.points.at(-1)!);
    this.points = merged;
    this.stride *= 2;
    this.replaceNext = true;
  }
}
