import { describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { fitLinear, predictLinear } from './linearRegression';

/** Rows of uniform features in [−1, 1) and y = w·x + b (+ noise of the given amplitude). */
function synthetic(n: number, w: readonly number[], b: number, noise: number, seed: number): { X: number[][]; y: number[] } {
  const rng = createRng(seed);
  const X: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = w.map(() => rng.nextFloat() * 2 - 1);
    X.push(row);
    y.push(row.reduce((s, x, j) => s + x * w[j]!, b) + noise * (rng.nextFloat() * 2 - 1));
  }
  return { X, y };
}

describe('fitLinear', () => {
  it('recovers known coefficients from noiseless data', () => {
    const w = [3, -2, 0.5, 0, 7.25];
    const { X, y } = synthetic(200, w, -4, 0, 1);
    const model = fitLinear(X, y);
    // The ridge (1e-6 · trace) shrinks by about a millionth.
    w.forEach((wj, j) => expect(model.weights[j]).toBeCloseTo(wj, 4));
    expect(model.bias).toBeCloseTo(-4, 4);
    expect(predictLinear(model, [1, 1, 1, 1, 1])).toBeCloseTo(3 - 2 + 0.5 + 7.25 - 4, 4);
  });

  it('recovers them closely from noisy data', () => {
    const w = [1.5, -0.75, 2];
    const { X, y } = synthetic(5000, w, 10, 0.1, 2);
    const model = fitLinear(X, y);
    w.forEach((wj, j) => expect(Math.abs(model.weights[j]! - wj)).toBeLessThan(0.01));
    expect(Math.abs(model.bias - 10)).toBeLessThan(0.01);
  });

  it('stays solvable with collinear columns (a one-hot that sums to 1) and fits them', () => {
    const rng = createRng(3);
    const X: number[][] = [];
    const y: number[] = [];
    const perClass = [5, -1, 2];
    for (let i = 0; i < 300; i++) {
      const c = rng.nextInt(3);
      const x = rng.nextFloat();
      const row = [x, 0, 0, 0];
      row[1 + c] = 1;
      X.push(row);
      y.push(2 * x + perClass[c]!);
    }
    const model = fitLinear(X, y);
    expect(Array.from(model.weights).every(Number.isFinite)).toBe(true);
    for (let i = 0; i < X.length; i++) expect(predictLinear(model, X[i]!)).toBeCloseTo(y[i]!, 3);
  });

  it('predicts the mean when every column is constant', () => {
    const model = fitLinear([[1, 2], [1, 2], [1, 2]], [1, 2, 6]);
    expect(Array.from(model.weights)).toEqual([0, 0]);
    expect(model.bias).toBeCloseTo(3, 12);
  });

  it('rejects malformed input with RangeErrors naming the field', () => {
    expect(() => fitLinear([], [])).toThrow(/^X: /);
    expect(() => fitLinear([[1], [2]], [1])).toThrow(/^y: expected 2/);
    expect(() => fitLinear([[1, 2], [3]], [1, 2])).toThrow(/^X\[1\]: expected 2 columns/);
    expect(() => fitLinear([[1], [Number.NaN]], [1, 2])).toThrow(/^X\[1\]\[0\]/);
    expect(() => fitLinear([[1], [2]], [1, Number.POSITIVE_INFINITY])).toThrow(/^y\[1\]/);
    expect(() => fitLinear([[1], [2]], [1, 2])).not.toThrow();
    expect(() => predictLinear(fitLinear([[1], [2]], [1, 2]), [1, 2])).toThrow(RangeError);
  });
});
