import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../testing/propertySeed';
import { EventQueue } from './eventQueue';

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
