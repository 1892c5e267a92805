/**
 * The requests of one serving run (simulation.ts) as a struct of arrays with a free list, and
 * each model's queue as a heap of request indices ordered by (deadline, sequence): §IV-C's
 * shorter SLO first, arrival order on ties. The arrays grow by doubling; a request's index is
 * its slot, handed out lowest first from fresh capacity and last-freed first after that, so
 * that a run restored from a checkpoint hands out the same slots as the run it copies.
 */

/** A request's state in `RequestPool.state`. */
export const REQUEST_FREE = 0;
export const REQUEST_IN_TRANSIT = 1;
export const REQUEST_QUEUED = 2;
export const REQUEST_RUNNING = 3;

/** The requests in flight and the queues, as a checkpoint holds them (`ServingRunSnapshot`). */
export interface RequestPoolSnapshot {
  /**
   * The requests not yet served or lost (their slots in `live`; a free slot's fields are never
   * read), the free list as it stands (its order decides the slots handed out next) and the
   * capacity: a backlog of a burst grows the arrays, a checkpoint holds only what is in flight.
   */
  readonly requests: {
    readonly capacity: number;
    readonly live: Int32Array;
    readonly sent: Float64Array;
    readonly deadline: Float64Array;
    readonly slo: Float64Array;
    readonly edge: Float64Array;
    readonly seq: Float64Array;
    readonly model: Int32Array;
    readonly shapeClass: Int32Array;
    readonly state: Uint8Array;
    readonly free: Int32Array;
  };
  readonly heaps: readonly Int32Array[];
  readonly heapCapacity: Int32Array;
  readonly heapSize: Int32Array;
}

export class RequestPool {
  /** When the device sent it, ms. */
  sent = new Float64Array(0);
  /** sent + SLO, ms: the queue's order. */
  deadline = new Float64Array(0);
  slo = new Float64Array(0);
  /** When it reached the edge, ms. */
  edge = new Float64Array(0);
  /** Its place in send order: the queue's order on equal deadlines. */
  seq = new Float64Array(0);
  model = new Int32Array(0);
  shapeClass = new Int32Array(0);
  /** `REQUEST_FREE`, `REQUEST_IN_TRANSIT`, `REQUEST_QUEUED` or `REQUEST_RUNNING`. */
  state = new Uint8Array(0);
  private freeList = new Int32Array(0);
  /** Entries of the free list in use. */
  freeTop = 0;
  /** Slots in the arrays. */
  capacity = 0;
  /** Per model, its queue: a binary heap of request indices in its first `heapSize[m]` entries. */
  readonly heaps: Int32Array[];
  readonly heapSize: Int32Array;
  /** Per model, its queued requests by shape class (a forming batch's widest class without a walk of the queue). */
  readonly queuedByClass: Int32Array[];

  /** @param classes each model's number of shape classes */
  constructor(models: number, capacity = 1024, classes: readonly number[] = []) {
    this.heaps = Array.from({ length: models }, () => new Int32Array(256));
    this.heapSize = new Int32Array(models);
    this.queuedByClass = Array.from({ length: models }, (_, m) => new Int32Array(classes[m] ?? 1));
    this.grow(capacity);
  }

  /** A free slot (growing the arrays when none is left). */
  alloc(): number {
    if (this.freeTop === 0) this.grow(this.capacity * 2);
    return this.freeList[--this.freeTop]!;
  }

  release(r: number): void {
    this.state[r] = REQUEST_FREE;
    this.freeList[this.freeTop++] = r;
  }

  private grow(capacity: number): void {
    const old = this.capacity;
    const grow64 = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(capacity);
      b.set(a.subarray(0, old));
      return b;
    };
    const grow32 = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(capacity);
      b.set(a.subarray(0, old));
      return b;
    };
    this.sent = grow64(this.sent);
    this.deadline = grow64(this.deadline);
    this.slo = grow64(this.slo);
    this.edge = grow64(this.edge);
    this.seq = grow64(this.seq);
    this.model = grow32(this.model);
    this.shapeClass = grow32(this.shapeClass);
    const state = new Uint8Array(capacity);
    state.set(this.state.subarray(0, old));
    this.state = state;
    const free = new Int32Array(capacity);
    free.set(this.freeList.subarray(0, this.freeTop));
    // New slots are handed out lowest index first.
    for (let r = capacity - 1; r >= old; r--) free[this.freeTop++] = r;
    this.freeList = free;
    this.capacity = capacity;
  }

  // ---- Queues: (deadline, sequence) ascending ---------------------------------------------

  /** Whether request r goes before request s in a queue. */
  before(r: number, s: number): boolean {
    const dr = this.deadline[r]!;
    const ds = this.deadline[s]!;
    return dr < ds || (dr === ds && this.seq[r]! < this.seq[s]!);
  }

  /** Puts request r in its model's queue. */
  push(model: number, r: number): void {
    let heap = this.heaps[model]!;
    let i = this.heapSize[model]!;
    if (i === heap.length) {
      const bigger = new Int32Array(heap.length * 2);
      bigger.set(heap);
      heap = bigger;
      this.heaps[model] = heap;
    }
    this.heapSize[model] = i + 1;
    this.queuedByClass[model]![this.shapeClass[r]!]!++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!this.before(r, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = r;
  }

  /** Takes the head of a model's queue (which must not be empty). */
  pop(model: number): number {
    const heap = this.heaps[model]!;
    const top = heap[0]!;
    const n = this.heapSize[model]! - 1;
    this.heapSize[model] = n;
    this.queuedByClass[model]![this.shapeClass[top]!]!--;
    if (n === 0) return top;
    const last = heap[n]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.before(heap[right]!, heap[left]!) ? right : left;
      if (!this.before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }

  // ---- The k most urgent of a queue (Eq. 1's slot length, simulation.ts `eq1SlotMs`) -------

  /** Candidates of the best-first walk of a queue's heap: positions in it, a min-heap by their requests' order (scratch, not state). */
  private candidates = new Int32Array(0);
  private candidateCount = 0;

  /** Σ SLO of the k most urgent queued requests of model m (a best-first walk of its deadline heap: O(k log k)). */
  mostUrgentSloSum(m: number, k: number): number {
    const heap = this.heaps[m]!;
    const n = this.heapSize[m]!;
    let sum = 0;
    if (k >= n) {
      for (let i = 0; i < n; i++) sum += this.slo[heap[i]!]!;
      return sum;
    }
    // The k smallest of a binary heap: the root, and each time one is taken its children join
    // the candidates (one more each time: at most k + 1 of them).
    if (this.candidates.length < k + 1) this.candidates = new Int32Array(2 * k + 2);
    this.candidateCount = 0;
    this.pushCandidate(heap, 0);
    for (let taken = 0; taken < k; taken++) {
      const p = this.popCandidate(heap);
      sum += this.slo[heap[p]!]!;
      const left = 2 * p + 1;
      if (left < n) this.pushCandidate(heap, left);
      if (left + 1 < n) this.pushCandidate(heap, left + 1);
    }
    return sum;
  }

  /** Adds position `p` of a deadline heap to the candidates (a min-heap of positions by the requests' order). */
  private pushCandidate(heap: Int32Array, p: number): void {
    const cand = this.candidates;
    let i = this.candidateCount++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[p]!, heap[cand[parent]!]!)) break;
      cand[i] = cand[parent]!;
      i = parent;
    }
    cand[i] = p;
  }

  /** Takes the candidate whose request comes first. */
  private popCandidate(heap: Int32Array): number {
    const cand = this.candidates;
    const top = cand[0]!;
    const size = --this.candidateCount;
    if (size === 0) return top;
    const last = cand[size]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(heap[cand[right]!]!, heap[cand[left]!]!) ? right : left;
      if (!this.before(heap[cand[child]!]!, heap[last]!)) break;
      cand[i] = cand[child]!;
      i = child;
    }
    cand[i] = last;
    return top;
  }

  // ---- Checkpoints (ARCHITECTURE §7a) ------------------------------------------------------

  /** The requests in flight and the queues, copied. */
  snapshot(): RequestPoolSnapshot {
    const live: number[] = [];
    for (let r = 0; r < this.capacity; r++) if (this.state[r] !== REQUEST_FREE) live.push(r);
    const at = Int32Array.from(live);
    return {
      requests: {
        capacity: this.capacity,
        live: at,
        sent: Float64Array.from(at, (r) => this.sent[r]!),
        deadline: Float64Array.from(at, (r) => this.deadline[r]!),
        slo: Float64Array.from(at, (r) => this.slo[r]!),
        edge: Float64Array.from(at, (r) => this.edge[r]!),
        seq: Float64Array.from(at, (r) => this.seq[r]!),
        model: Int32Array.from(at, (r) => this.model[r]!),
        shapeClass: Int32Array.from(at, (r) => this.shapeClass[r]!),
        state: Uint8Array.from(at, (r) => this.state[r]!),
        free: this.freeList.slice(0, this.freeTop),
      },
      heaps: this.heaps.map((h, m) => h.slice(0, Math.max(1, this.heapSize[m]!))),
      heapCapacity: Int32Array.from(this.heaps, (h) => h.length),
      heapSize: this.heapSize.slice(),
    };
  }

  /** Back to a state `snapshot` took, with `freeTop` entries of its free list in use. */
  restore(s: RequestPoolSnapshot, freeTop: number): void {
    const r = s.requests;
    const capacity = r.capacity;
    this.sent = new Float64Array(capacity);
    this.deadline = new Float64Array(capacity);
    this.slo = new Float64Array(capacity);
    this.edge = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.model = new Int32Array(capacity);
    this.shapeClass = new Int32Array(capacity);
    this.state = new Uint8Array(capacity);
    r.live.forEach((at, k) => {
      this.sent[at] = r.sent[k]!;
      this.deadline[at] = r.deadline[k]!;
      this.slo[at] = r.slo[k]!;
      this.edge[at] = r.edge[k]!;
      this.seq[at] = r.seq[k]!;
      this.model[at] = r.model[k]!;
      this.shapeClass[at] = r.shapeClass[k]!;
      this.state[at] = r.state[k]!;
    });
    this.freeList = new Int32Array(capacity);
    this.freeList.set(r.free);
    this.freeTop = freeTop;
    this.capacity = capacity;
    s.heaps.forEach((h, m) => {
      const heap = new Int32Array(s.heapCapacity[m]!);
      heap.set(h);
      this.heaps[m] = heap;
    });
    this.heapSize.set(s.heapSize);
    this.queuedByClass.forEach((counts, m) => {
      counts.fill(0);
      for (let i = 0; i < this.heapSize[m]!; i++) counts[this.shapeClass[this.heaps[m]![i]!]!]!++;
    });
  }
}
