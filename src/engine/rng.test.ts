import { describe, expect, it } from 'vitest';
import { createRng, createRngFromState } from './rng';

describe('createRng', () => {
  it('gives the same stream for the same seed and stream id', () => {
    const a = createRng(42, 1);
    const b = createRng(42, 1);
    const xs = Array.from({ length: 100 }, () => a.nextFloat());
    const ys = Array.from({ length: 100 }, () => b.nextFloat());
    expect(xs).toEqual(ys);
  });

  it('gives different streams for different seeds and stream ids', () => {
    const first = (seed: number, stream: number): number[] => {
      const r = createRng(seed, stream);
      return Array.from({ length: 8 }, () => r.nextFloat());
    };
    expect(first(1, 0)).not.toEqual(first(2, 0));
    expect(first(1, 0)).not.toEqual(first(1, 1));
  });

  it('pins the stream so that old links keep their numbers', () => {
    const r = createRng(2024, 0);
    const xs = Array.from({ length: 3 }, () => r.nextFloat());
    // Recorded once; a change here breaks every shared scenario.
    expect(xs).toMatchInlineSnapshot(`
      [
        0.14349433640018106,
        0.4703120233025402,
        0.49548265035264194,
      ]
    `);
  });

  it('draws uniform floats in [0,1) with the right mean', () => {
    const r = createRng(7);
    let sum = 0;
    let outside = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const x = r.nextFloat();
      if (!(x >= 0 && x < 1)) outside++;
      sum += x;
    }
    expect(outside).toBe(0);
    expect(sum / n).toBeCloseTo(0.5, 2);
  });

  it('draws integers covering the range evenly', () => {
    const r = createRng(9);
    const counts = new Array<number>(5).fill(0);
    for (let i = 0; i < 50_000; i++) counts[r.nextInt(5)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('draws exponentials with the requested mean', () => {
    const r = createRng(11);
    let sum = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) sum += r.exponential(20);
    expect(sum / n).toBeGreaterThan(19.6);
    expect(sum / n).toBeLessThan(20.4);
  });

  it('restores from its state', () => {
    const r = createRng(5);
    r.nextFloat();
    const copy = createRngFromState(r.state());
    expect(copy.nextFloat()).toBe(r.nextFloat());
  });

  it('rejects bad seeds loudly', () => {
    expect(() => createRng(-1)).toThrow(RangeError);
    expect(() => createRng(1.5)).toThrow(RangeError);
    expect(() => createRng(2 ** 32)).toThrow(RangeError);
    expect(() => createRng(1).nextInt(0)).toThrow(RangeError);
  });
});
