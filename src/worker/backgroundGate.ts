/**
 * First frame first (ARCHITECTURE §3): a worker's background work — the learners' load of
 * TensorFlow.js, the reference lanes' searches, the sweeps — waits while a run stands at
 * time 0 (after a load, or a seek back to the start) until a frame whose simulated time has
 * moved went out, or `waitMs` after the run came to stand there (a run left paused). The
 * work that waits is not dropped: it starts then, in the order it was held. Once the run has
 * moved, background work starts at once (in a task of its own).
 */
export class BackgroundGate {
  private held: (() => void)[] = [];
  private closed = false;
  /** Counts the closings: a timeout of an earlier one does not open a later one. */
  private closings = 0;

  constructor(
    /** Runs `fn` after about `delayMs` (the host's timer). */
    private readonly schedule: (fn: () => void, delayMs: number) => void,
    /** How long the gate stays closed for a run that does not move, ms. */
    private readonly waitMs: number,
  ) {}

  /** Whether background work waits now. */
  get waiting(): boolean {
    return this.closed;
  }

  /** A frame went out at simulated `timeMs`: at 0 the gate closes (if open), past 0 it opens. */
  framed(timeMs: number): void {
    if (timeMs > 0) this.open();
    else if (!this.closed) this.close();
  }

  /**
   * Runs `start` in a task of its own when the gate is open then, else once it opens. Looked
   * at in that task, not now: work asked for while a load builds its lanes sees the gate the
   * load's frame at 0 closed.
   */
  defer(start: () => void): void {
    this.schedule(() => {
      if (this.closed) this.held.push(start);
      else start();
    }, 0);
  }

  private close(): void {
    this.closed = true;
    const own = ++this.closings;
    this.schedule(() => {
      if (own === this.closings) this.open();
    }, this.waitMs);
  }

  private open(): void {
    if (!this.closed) return;
    this.closed = false;
    const due = this.held;
    this.held = [];
    // Not inside the frame's own call: each starts in a task of its own.
    for (const start of due) this.schedule(start, 0);
  }
}
