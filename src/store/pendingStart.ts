/**
 * A Play asked for and not yet under way: the long-run guard may still be loading the run's
 * cost (`longRun.ts`), or the worker has been told and its first frame of the run has not come.
 * While one is pending the page shows Pause, and a Pause cancels it — so that a Play never
 * starts the run after the person paused it (a link opened and paused at once, a load that
 * keeps playing while the person pauses).
 */
export class PendingStart {
  private last = 0;
  private pending: number | null = null;
  private told: number | null = null;

  constructor(private readonly show: (starting: boolean) => void) {}

  /** A new request, replacing any earlier one; its id. */
  begin(): number {
    this.pending = ++this.last;
    this.told = null;
    this.show(true);
    return this.pending;
  }

  /** Whether `id` is still the request pending (not paused, not replaced by a later one). */
  live(id: number): boolean {
    return this.pending === id;
  }

  /**
   * The worker was told to play `id`: it is under way at the worker's next frame (`framed`),
   * or now when the run has ended already (the worker does not play a finished run).
   */
  toldWorker(id: number, finished: boolean): void {
    if (this.pending !== id) return;
    if (finished) this.end(id);
    else this.told = id;
  }

  /** The guard let `id` go or declined it: a request the worker was not told of ends here. */
  settled(id: number): void {
    if (this.told !== id) this.end(id);
  }

  /** A frame came from the worker: a request it was told of is under way. */
  framed(): void {
    if (this.pending !== null && this.told === this.pending) this.end(this.pending);
  }

  /** A Pause: whatever is pending will not start. */
  cancel(): void {
    if (this.pending !== null) this.end(this.pending);
  }

  private end(id: number): void {
    if (this.pending !== id) return;
    this.pending = null;
    this.told = null;
    this.show(false);
  }
}
