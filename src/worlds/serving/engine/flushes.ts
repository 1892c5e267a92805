/**
 * Batching `form` (assumptions.ts): each model's forming batch has a deadline to start, its
 * `FLUSH` (simulation.ts). The deadline moves with nearly every request that joins the forming
 * batch, and each move once pushed an event into the run's queue, the earlier one left there to
 * be ignored when it came up: about as many events as requests, most of them stale. Here each
 * model keeps only its deadline in force, and the run takes the earliest of them beside its event
 * queue, in the very order the queue gave: by time, then by the order in which the deadlines were
 * set (the queue's sequence among its `FLUSH` events, which share one priority).
 *
 * The queue fired a deadline at the first of its events at that time, so a model whose deadline
 * returns to a time it had left while that earlier event was still pending fires in that earlier
 * event's turn: the deadlines left and not yet past (`stale*`) are kept, with their turns, for it.
 */

/** The flush deadlines as a checkpoint holds them (`ServingRunSnapshot.flushes`). */
export interface FlushDeadlinesSnapshot {
  readonly atMs: Float64Array;
  readonly turn: Float64Array;
  readonly turns: number;
  readonly staleMs: readonly Float64Array[];
  readonly staleTurn: readonly Float64Array[];
}

export class FlushDeadlines {
  /** Per model, the deadline in force, ms (+∞: none). */
  readonly atMs: Float64Array;
  /** Per model, its deadline's turn among deadlines at the same time (the queue's sequence). */
  private readonly turn: Float64Array;
  /** Turns handed out (one per deadline set, as the queue numbered its events). */
  private turns = 0;
  /** Per model, the deadlines it left (some perhaps past), their turns, how many, and the earliest and latest of them. */
  private staleMs: Float64Array[];
  private staleTurn: Float64Array[];
  private readonly staleCount: Int32Array;
  private readonly staleMinMs: Float64Array;
  private readonly staleMaxMs: Float64Array;
  /** The earliest deadline in force (+∞: none) and its model. */
  nextMs = Number.POSITIVE_INFINITY;
  nextModel = -1;

  constructor(models: number) {
    this.atMs = new Float64Array(models).fill(Number.POSITIVE_INFINITY);
    this.turn = new Float64Array(models);
    this.staleMs = Array.from({ length: models }, () => new Float64Array(8));
    this.staleTurn = Array.from({ length: models }, () => new Float64Array(8));
    this.staleCount = new Int32Array(models);
    this.staleMinMs = new Float64Array(models).fill(Number.POSITIVE_INFINITY);
    this.staleMaxMs = new Float64Array(models).fill(Number.NEGATIVE_INFINITY);
  }

  /** Model m's forming batch must start by `atMs` (> `nowMs`, and not its deadline in force). */
  set(m: number, atMs: number, nowMs: number): void {
    this.leave(m, nowMs);
    let turn = this.turns++;
    // A deadline at a time it had left, whose event would still be pending: that event's turn.
    if (atMs >= this.staleMinMs[m]! && atMs <= this.staleMaxMs[m]!) {
      const at = this.findStale(m, atMs, nowMs);
      if (at >= 0) {
        turn = this.staleTurn[m]![at]!;
        this.removeStale(m, at);
        this.staleBounds(m);
      }
    }
    this.atMs[m] = atMs;
    this.turn[m] = turn;
    if (atMs < this.nextMs || (atMs === this.nextMs && turn < this.turn[this.nextModel]!)) {
      this.nextMs = atMs;
      this.nextModel = m;
    } else if (m === this.nextModel) this.findNext();
  }

  /** Model m's forming batch started (or has none): its deadline is left. */
  clear(m: number, nowMs: number): void {
    if (this.atMs[m] === Number.POSITIVE_INFINITY) return;
    this.leave(m, nowMs);
    this.atMs[m] = Number.POSITIVE_INFINITY;
    if (m === this.nextModel) this.findNext();
  }

  /** The earliest deadline is due now (`nextModel`'s): it is taken. */
  fire(): number {
    const m = this.nextModel;
    this.atMs[m] = Number.POSITIVE_INFINITY;
    this.findNext();
    return m;
  }

  /** Model m's deadline in force, if any and not past, is kept as one it left. */
  private leave(m: number, nowMs: number): void {
    const at = this.atMs[m]!;
    if (at === Number.POSITIVE_INFINITY || at <= nowMs) return;
    let n = this.staleCount[m]!;
    if (n === this.staleMs[m]!.length) {
      // Full: those past go first (a deadline is only ever set after now, so they match none).
      for (let i = n - 1; i >= 0; i--) if (this.staleMs[m]![i]! <= nowMs) this.removeStale(m, i);
      this.staleBounds(m);
      n = this.staleCount[m]!;
      if (n === this.staleMs[m]!.length) {
        const times = new Float64Array(2 * n);
        const turns = new Float64Array(2 * n);
        times.set(this.staleMs[m]!);
        turns.set(this.staleTurn[m]!);
        this.staleMs[m] = times;
        this.staleTurn[m] = turns;
      }
    }
    this.staleMs[m]![n] = at;
    this.staleTurn[m]![n] = this.turn[m]!;
    this.staleCount[m] = n + 1;
    if (at < this.staleMinMs[m]!) this.staleMinMs[m] = at;
    if (at > this.staleMaxMs[m]!) this.staleMaxMs[m] = at;
  }

  /** The index of model m's left deadline at `atMs` (-1: none), dropping those past on the way. */
  private findStale(m: number, atMs: number, nowMs: number): number {
    const times = this.staleMs[m]!;
    let found = -1;
    for (let i = this.staleCount[m]! - 1; i >= 0; i--) {
      if (times[i]! <= nowMs) {
        this.removeStale(m, i);
        // The last entry moved into i: the one found, if it was that one, is at i now.
        if (found === this.staleCount[m]) found = i;
      } else if (times[i] === atMs && found < 0) found = i;
    }
    this.staleBounds(m);
    return found;
  }

  private removeStale(m: number, i: number): void {
    const last = --this.staleCount[m]!;
    this.staleMs[m]![i] = this.staleMs[m]![last]!;
    this.staleTurn[m]![i] = this.staleTurn[m]![last]!;
  }

  private staleBounds(m: number): void {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    const times = this.staleMs[m]!;
    for (let i = 0; i < this.staleCount[m]!; i++) {
      if (times[i]! < min) min = times[i]!;
      if (times[i]! > max) max = times[i]!;
    }
    this.staleMinMs[m] = min;
    this.staleMaxMs[m] = max;
  }

  private findNext(): void {
    let best = -1;
    let bestMs = Number.POSITIVE_INFINITY;
    for (let m = 0; m < this.atMs.length; m++) {
      const at = this.atMs[m]!;
      if (at < bestMs || (at === bestMs && best >= 0 && this.turn[m]! < this.turn[best]!)) {
        best = m;
        bestMs = at;
      }
    }
    this.nextMs = bestMs;
    this.nextModel = best;
  }

  snapshot(): FlushDeadlinesSnapshot {
    return {
      atMs: this.atMs.slice(),
      turn: this.turn.slice(),
      turns: this.turns,
      staleMs: this.staleMs.map((t, m) => t.slice(0, this.staleCount[m]!)),
      staleTurn: this.staleTurn.map((t, m) => t.slice(0, this.staleCount[m]!)),
    };
  }

  restore(s: FlushDeadlinesSnapshot): void {
    this.atMs.set(s.atMs);
    this.turn.set(s.turn);
    this.turns = s.turns;
    const room = (t: Float64Array): Float64Array => {
      const a = new Float64Array(Math.max(8, t.length));
      a.set(t);
      return a;
    };
    this.staleMs = s.staleMs.map(room);
    this.staleTurn = s.staleTurn.map(room);
    s.staleMs.forEach((t, m) => {
      this.staleCount[m] = t.length;
      this.staleBounds(m);
    });
    this.findNext();
  }
}
