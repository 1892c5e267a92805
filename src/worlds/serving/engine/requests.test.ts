import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { REQUEST_QUEUED, RequestPool } from './requests';

/** Puts requests of (deadline, sequence) into one model's queue, in the order given. */
function queued(pool: RequestPool, items: readonly (readonly [number, number])[]): number[] {
  return items.map(([deadline, seq]) => {
    const r = pool.alloc();
    pool.deadline[r] = deadline;
    pool.seq[r] = seq;
    pool.state[r] = REQUEST_QUEUED;
    pool.push(0, r);
    return r;
  });
}

describe('RequestPool: the requests and their queues (requests.ts)', () => {
  it('a queue gives its requests by deadline, then by send order (§IV-C), however they came, across growth of the arrays and of the heap', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 600 }), (deadlines) => {
        const pool = new RequestPool(1, 4);
        const items = deadlines.map((d, seq) => [d, seq] as const);
        const slots = queued(pool, items);
        const byRequest = new Map(slots.map((r, i) => [r, items[i]!]));
        const out: (readonly [number, number])[] = [];
        while (pool.heapSize[0]! > 0) out.push(byRequest.get(pool.pop(0))!);
        expect(out).toEqual([...items].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
      }),
      { numRuns: runs(100) },
    );
  });

  it('hands out fresh slots lowest first and freed ones last-freed first; a checkpoint restored hands out the same slots and keeps the queue', () => {
    const pool = new RequestPool(2, 4);
    expect([pool.alloc(), pool.alloc(), pool.alloc()]).toEqual([0, 1, 2]);
    pool.release(1);
    pool.release(0);
    expect(pool.alloc()).toBe(0);
    const inQueue = queued(pool, [
      [30, 5],
      [10, 6],
      [20, 7],
    ]);
    const snapshot = pool.snapshot();
    const freeTop = pool.freeTop;
    const after = () => [pool.alloc(), pool.alloc(), pool.pop(0), pool.pop(0), pool.pop(0), pool.alloc()];
    const first = after();
    expect(first.slice(2, 5)).toEqual([inQueue[1], inQueue[2], inQueue[0]]);
    const copy = new RequestPool(2, 4);
    copy.restore(snapshot, freeTop);
    const again = [copy.alloc(), copy.alloc(), copy.pop(0), copy.pop(0), copy.pop(0), copy.alloc()];
    expect(again).toEqual(first);
    expect(copy.heapSize[1]).toBe(0);
  });

  it('the SLO sum of the k most urgent queued requests is the sum over the first k of the queue in order, for every k (Eq. 1)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 500 })), { minLength: 1, maxLength: 300 }), fc.nat(), (items, pick) => {
        const pool = new RequestPool(1, 4);
        const slots = queued(pool, items.map(([deadline], seq) => [deadline, seq] as const));
        slots.forEach((r, i) => (pool.slo[r] = items[i]![1]));
        const inOrder = items.map(([deadline, slo], seq) => ({ deadline, slo, seq })).sort((a, b) => a.deadline - b.deadline || a.seq - b.seq);
        const k = 1 + (pick % (items.length + 2));
        const expected = inOrder.slice(0, k).reduce((sum, x) => sum + x.slo, 0);
        expect(pool.mostUrgentSloSum(0, k)).toBe(expected);
        // A read, not a take: the queue is as it was.
        expect(pool.heapSize[0]).toBe(items.length);
      }),
      { numRuns: runs(100) },
    );
  });
});
