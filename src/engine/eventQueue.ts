/**
 * A priority queue of simulation events ordered by (time, priority, sequence): events at
 * the same simulated time pop in priority order, then in the order they were scheduled,
 * so equal times never depend on heap internals (as SimPy's schedule does).
 */
export interface SimEvent<T> {
  readonly timeMs: number;
  readonly priority: number;
  readonly sequence: number;
  readonly payload: T;
}

/** An event queue's state (see `EventQueue.snapshot`). */
export interface EventQueueSnapshot<T> {
  readonly heap: readonly SimEvent<T>[];
  readonly nextSequence: number;
}

export class EventQueue<T> {
  private heap: SimEvent<T>[] = [];
  private nextSequence = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Schedules `payload` at `timeMs` (lower `priority` first among equal times). */
  push(timeMs: number, payload: T, priority = 0): void {
    if (Number.isNaN(timeMs)) throw new RangeError('event time must be a number, got NaN');
    const event: SimEvent<T> = { timeMs, priority, sequence: this.nextSequence++, payload };
    const heap = this.heap;
    heap.push(event);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(event, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = event;
  }

  /** The next event without removing it. */
  peek(): SimEvent<T> | undefined {
    return this.heap[0];
  }

  /**
   * The queue as it stands, for a checkpoint: the heap's events (immutable, so shared) in heap
   * order and the next sequence number, so that a restored queue pops in the very same order.
   */
  snapshot(): EventQueueSnapshot<T> {
    return { heap: this.heap.slice(), nextSequence: this.nextSequence };
  }

  /** Puts back a state taken by `snapshot`. */
  restore(s: EventQueueSnapshot<T>): void {
    this.heap = s.heap.slice();
    this.nextSequence = s.nextSequence;
  }

  /** Removes and returns the next event. */
  pop(): SimEvent<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function before<T>(a: SimEvent<T>, b: SimEvent<T>): boolean {
  if (a.timeMs !== b.timeMs) return a.timeMs < b.timeMs;
  if (a.priority !== b.priority) return a.priority < b.priority;
  return a.sequence < b.sequence;
}
