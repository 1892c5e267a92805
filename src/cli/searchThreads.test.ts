import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVING_ASSUMPTIONS, type ServingRunSpec } from '../engine/serving/simulation';
import { runSearch, fixedInHindsightSearch, fixedPerPhaseSearch, useSearchEvaluator, type ReferenceSearchParams } from '../schedulers/serving/reference';
import { openSearchThreads } from './searchThreads';

// A small world that changes (as reference.test.ts's): a load step, a tenant, a service starting.
const spec: ServingRunSpec = {
  platform: 'xavier-nx',
  models: [
    { model: 'res', weight: 1, rate: { kind: 'steps', steps: [{ fromMs: 0, rateRps: 8 }, { fromMs: 20_000, rateRps: 60 }] } },
    { model: 'mob', weight: 1 },
    { model: 'bert', weight: 1, serviceFromMs: 10_000 },
  ],
  rateRps: 30,
  durationMs: 40_000,
  seed: 5,
  background: [{ fromMs: 25_000, toMs: 35_000, intensity: 0.6, memoryMb: 3000 }],
  assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, interferenceNoise: 0.1 },
};
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
