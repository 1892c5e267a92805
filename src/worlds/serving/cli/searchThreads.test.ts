import { afterAll, describe, expect, it } from 'vitest';
import type { ServingRunSpec } from '../engine/spec';
import { runSearch, fixedInHindsightSearch, fixedPerPhaseSearch, useSearchEvaluator, type ReferenceSearchParams } from '../schedulers/reference';
import { openSearchThreads } from './searchThreads';
import { changingServingWorld } from '../../../testing/changingServingWorld';

// A small world that changes: a load step, a tenant from 25 to 35 s, a service starting.
const spec: ServingRunSpec = changingServingWorld(40_000, [25_000, 35_000]);
const params: ReferenceSearchParams = { maxBatch: 8, maxInstances: 2, rounds: 2, perModel: true };

const threads = openSearchThreads(1);
afterAll(async () => {
  useSearchEvaluator(null);
  await threads.close();
});

describe('reference searches on threads (issue 38)', () => {
  it('find the plans the search in one thread finds, counting the same evaluations', () => {
    const hindsight = runSearch(fixedInHindsightSearch(spec, params));
    const perPhase = runSearch(fixedPerPhaseSearch(spec, params));
    const progress: number[] = [];
    useSearchEvaluator(threads);
    try {
      expect(runSearch(fixedInHindsightSearch(spec, params))).toEqual(hindsight);
      expect(runSearch(fixedPerPhaseSearch(spec, params), (done) => progress.push(done))).toEqual(perPhase);
    } finally {
      useSearchEvaluator(null);
    }
    expect(progress.at(-1)).toBe(perPhase.evaluations);
    expect(perPhase.plan.length).toBeGreaterThan(0);
  }, 120_000);
});
