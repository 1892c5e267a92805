import { describe, expect, it } from 'vitest';
import { runFigure1Sweep, type Figure1Result } from './figure1';

/** [row, column] of the best cell by `better`, optionally skipping cells. */
function argBest(
  m: readonly (readonly number[])[],
  better: (a: number, b: number) => boolean,
  skip: (i: number, j: number) => boolean = () => false,
): [number, number] {
  let best: [number, number] = [-1, -1];
  m.forEach((row, i) =>
    row.forEach((v, j) => {
      if (skip(i, j)) return;
      if (best[0] < 0 || better(v, m[best[0]]![best[1]]!)) best = [i, j];
    }),
  );
  return best;
}

const interior = (r: Figure1Result, [i, j]: [number, number]): boolean =>
  i > 0 && i < r.batchSizes.length - 1 && j > 0 && j < r.instanceCounts.length - 1;

describe('BCEdge Figure 1 on the engine (yolo on Xavier NX)', () => {
  // Two seeds: the shape is a property of the model, not of one arrival trace.
  for (const seed of [1, 2]) {
    it(`has its best throughput and latency at moderate b and m_c, and collapses at 128 × 8 (seed ${seed})`, () => {
      const r = runFigure1Sweep({ seed });
      expect(r.batchSizes).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
      expect(r.instanceCounts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const oom = (i: number, j: number) => r.oomBatches[i]![j]! > 0;

      const bestT = argBest(r.throughputRps, (a, b) => a > b);
      expect(interior(r, bestT)).toBe(true);
      // Latency: cells that overflowed memory shed requests, which flatters the rest; they
      // are the figure's "memory overflow" cells and do not compete for the best latency.
      const bestL = argBest(r.latencyMeanMs, (a, b) => a < b, oom);
      expect(interior(r, bestL)).toBe(true);

      const best = r.throughputRps[bestT[0]]![bestT[1]]!;
      const corner = r.throughputRps[7]![7]!;
      // 128 × 8 collapses: out of memory, and a small fraction of the best throughput.
      expect(oom(7, 7)).toBe(true);
      expect(corner).toBeLessThan(0.3 * best);
      // The other corners are no match either: batching and concurrency both pay, up to a point.
      expect(r.throughputRps[0]![0]!).toBeLessThan(0.5 * best);
      expect(r.throughputRps[0]![7]!).toBeLessThan(0.5 * best);
      expect(r.throughputRps[7]![0]!).toBeLessThan(0.6 * best);
      // Nothing overflows memory at moderate configurations.
      for (let i = 0; i <= 5; i++) for (let j = 0; j < 8; j++) expect(oom(i, j)).toBe(false);
    });
  }

  it('is deterministic', () => {
    const small = { batchSizes: [4, 128], instanceCounts: [2, 8], durationMs: 5000 };
    expect(JSON.stringify(runFigure1Sweep(small))).toBe(JSON.stringify(runFigure1Sweep(small)));
  });
});
