import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../testing/propertySeed';
import { EventQueue, NumberEventQueue } from './eventQueue';

describe('EventQueue', () => {
  it('pops by time, then priority, then scheduling order', () => {
    const q = new EventQueue<string>();
    q.push(5, 'late');
    q.push(1, 'b-low', 1);
    q.push(1, 'a-high', 0);
    q.push(1, 'b-low-2', 1);
    q.push(0, 'first');
    const order: string[] = [];
    for (let e = q.pop(); e; e = q.pop()) order.push(e.payload);
    expect(order).toEqual(['first', 'a-high', 'b-low', 'b-low-2', 'late']);
  });

  it('agrees with a stable sort on any input', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 3 }))), (items) => {
        const q = new EventQueue<number>();
        items.forEach(([t, p], i) => q.push(t, i, p));
        const expected = items
          .map(([t, p], i) => ({ t, p, i }))
          .sort((x, y) => x.t - y.t || x.p - y.p || x.i - y.i)
          .map((x) => x.i);
        const got: number[] = [];
        for (let e = q.pop(); e; e = q.pop()) got.push(e.payload);
        expect(got).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  it('rejects NaN times', () => {
    expect(() => new EventQueue<number>().push(Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('NumberEventQueue', () => {
  it('pops as EventQueue does, pushes and pops interleaved, across a checkpoint and past its first capacity', () => {
    // Each step pushes (time, priority) or pops (null); the queue is checkpointed and restored into a new one halfway.
    const step = fc.option(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 })), { nil: null, freq: 4 });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 700 }), (steps) => {
        const reference = new EventQueue<number>();
        let q = new NumberEventQueue();
        const got: number[] = [];
        const expected: number[] = [];
        steps.forEach((s, i) => {
          if (i === steps.length >> 1) {
            const restored = new NumberEventQueue();
            restored.restore(q.snapshot());
            q = restored;
          }
          if (s === null) {
            const e = reference.pop();
            if (e === undefined) {
              expect(q.size).toBe(0);
              expect(q.peekTime()).toBe(Number.POSITIVE_INFINITY);
              return;
            }
            expect(q.peekTime()).toBe(e.timeMs);
            expect(q.peekPayload()).toBe(e.payload);
            expected.push(e.payload);
            got.push(q.pop());
          } else {
            reference.push(s[0], i, s[1]);
            q.push(s[0], i, s[1]);
          }
          expect(q.size).toBe(reference.size);
        });
        expect(got).toEqual(expected);
      }),
      { numRuns: runs(200) },
    );
  });

  it('rejects NaN times', () => {
    expect(() => new NumberEventQueue().push(Number.NaN, 1)).toThrow(RangeError);
  });
});
