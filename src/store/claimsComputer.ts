import { allClaims, computeClaims } from '../scenario/claims';
import { DEFAULT_LEARNING_RUNS, withLearningRuns } from '../scenario/learningRuns';
import type { RowComputer } from './claimsStore';

/**
 * Recomputes a row of the reproduction report with the claims registry (`scenario/claims.ts`):
 * the same `computeClaims` the CLI runs, on the cells the page's pool runs, so the same seeds
 * give the same row.
 */
export const registryComputer: RowComputer = {
  compute: async (id, seeds, runCells, onProgress, learning = DEFAULT_LEARNING_RUNS) => {
    const claim = allClaims().find((c) => c.id === id);
    if (claim === undefined) throw new RangeError(`${id} is not a claim of this build's registry`);
    const [row] = await computeClaims(withLearningRuns([claim], learning), seeds, runCells, onProgress);
    return row!;
  },
};
