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

/** A `NumberEventQueue`'s state (see `NumberEventQueue.snapshot`): its events in heap order. */
export interface NumberEventQueueSnapshot {
  readonly timeMs: Float64Array;
  /** Priority and sequence in one number (`NumberEventQueue`'s rank). */
  readonly rank: Float64Array;
  readonly payload: Float64Array;
  readonly nextSequence: number;
}

/** 2^36: a rank is priority × this + sequence (sequences stay below it, priorities within ±2^15: exact, and in their order). */
const RANK_SCALE = 68_719_476_736;
/** Priorities a `NumberEventQueue` takes: integers of at most this size. */
const PRIORITY_LIMIT = 32_767;

/**
 * `EventQueue` for number payloads, its heap in typed arrays: the same order (time, priority,
 * sequence), so the same events pop in the same order, without an object per event (the
 * serving engine schedules a few million events in a 3000 s run; their allocation and
 * collection were about a tenth of a run, issue 38). Priority and sequence are one number, the
 * rank (priority × 2^36 + sequence, exact in a double), so that an event is three numbers and
 * two comparisons order two of them.
 */
export class NumberEventQueue {
  private timeMs = new Float64Array(256);
  private rank = new Float64Array(256);
  private payload = new Float64Array(256);
  private count = 0;
  private nextSequence = 0;

  get size(): number {
    return this.count;
  }

  /** Schedules `payload` at `timeMs` (lower `priority`, an integer within ±32767, first among equal times). */
  push(timeMs: number, payload: number, priority = 0): void {
    if (Number.isNaN(timeMs)) throw new RangeError('event time must be a number, got NaN');
    if (!Number.isInteger(priority) || Math.abs(priority) > PRIORITY_LIMIT) throw new RangeError(`event priority must be an integer within ±${PRIORITY_LIMIT}, got ${priority}`);
    if (this.count === this.timeMs.length) this.grow(2 * this.count);
    if (this.nextSequence >= RANK_SCALE) throw new RangeError('an event queue takes at most 2^36 events');
    const rank = priority * RANK_SCALE + this.nextSequence++;
    const times = this.timeMs;
    const ranks = this.rank;
    const payloads = this.payload;
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const t = times[parent]!;
      if (timeMs > t || (timeMs === t && rank > ranks[parent]!)) break;
      times[i] = t;
      ranks[i] = ranks[parent]!;
      payloads[i] = payloads[parent]!;
      i = parent;
    }
    times[i] = timeMs;
    ranks[i] = rank;
    payloads[i] = payload;
  }

  /** The next event's time, +∞ when there is none. */
  peekTime(): number {
    return this.count > 0 ? this.timeMs[0]! : Number.POSITIVE_INFINITY;
  }

  /** The next event's priority (+∞ when there is none). */
  peekPriority(): number {
    return this.count > 0 ? Math.floor(this.rank[0]! / RANK_SCALE) : Number.POSITIVE_INFINITY;
  }

  /** The next event's payload (the queue must not be empty). */
  peekPayload(): number {
    return this.payload[0]!;
  }

  /** Removes the next event and returns its payload (the queue must not be empty). */
  pop(): number {
    const times = this.timeMs;
    const ranks = this.rank;
    const payloads = this.payload;
    const top = payloads[0]!;
    const n = --this.count;
    if (n === 0) return top;
    // The last event sifts down from the root.
    const lastTime = times[n]!;
    const lastRank = ranks[n]!;
    const lastPayload = payloads[n]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n) {
        const tr = times[right]!;
        const tl = times[left]!;
        if (tr < tl || (tr === tl && ranks[right]! < ranks[left]!)) child = right;
      }
      const t = times[child]!;
      if (t > lastTime || (t === lastTime && ranks[child]! > lastRank)) break;
      times[i] = t;
      ranks[i] = ranks[child]!;
      payloads[i] = payloads[child]!;
      i = child;
    }
    times[i] = lastTime;
    ranks[i] = lastRank;
    payloads[i] = lastPayload;
    return top;
  }

  /** The queue as it stands, copied, for a checkpoint. */
  snapshot(): NumberEventQueueSnapshot {
    const n = this.count;
    return { timeMs: this.timeMs.slice(0, n), rank: this.rank.slice(0, n), payload: this.payload.slice(0, n), nextSequence: this.nextSequence };
  }

  /** Puts back a state taken by `snapshot`: the queue then pops in the very same order. */
  restore(s: NumberEventQueueSnapshot): void {
    const n = s.timeMs.length;
    this.count = 0;
    this.grow(Math.max(256, n));
    this.timeMs.set(s.timeMs);
    this.rank.set(s.rank);
    this.payload.set(s.payload);
    this.count = n;
    this.nextSequence = s.nextSequence;
  }

  /** Room for `capacity` events, keeping those held. */
  private grow(capacity: number): void {
    const n = this.count;
    const times = new Float64Array(capacity);
    const ranks = new Float64Array(capacity);
    const payloads = new Float64Array(capacity);
    times.set(this.timeMs.subarray(0, n));
    ranks.set(this.rank.subarray(0, n));
    payloads.set(this.payload.subarray(0, n));
    this.timeMs = times;
    this.rank = ranks;
    this.payload = payloads;
  }
}
