import { describe, expect, it } from 'vitest';
import { changingServingWorld } from '../../../testing/changingServingWorld';
import { evaluateJob, fixedPerPhaseSearch, runSearch, runSearchAsync, useSearchEvaluator, type EvaluationJob, type ReferenceSearchParams } from '../schedulers/reference';
import { evaluationApi, evaluationPool, type EvaluationHelper } from './evaluationPool';

const spec = changingServingWorld(60_000, [30_000, 45_000]);
const params: ReferenceSearchParams = { maxBatch: 4, maxInstances: 2, rounds: 1, perModel: true };

/** An evaluation worker in this thread answering a macrotask later, its calls recorded. */
function laterWorker(name: string, calls: string[]): EvaluationHelper {
  const api = evaluationApi();
  const later = <T>(f: () => T | Promise<T>) => new Promise<T>((resolve) => setTimeout(() => resolve(f()), 0));
  return {
    begin: (s, checkpoint) => later(() => (calls.push(`${name} begin`), api.begin(s, checkpoint))),
    evaluate: (job) => later(() => (calls.push(`${name} job`), api.evaluate(job))),
  };
}

describe('the page’s evaluation workers (evaluationPool)', () => {
  it('share a batch out, each taking the next job when free; values in the jobs’ order, each batch’s spec sent once a worker', async () => {
    const calls: string[] = [];
    const pool = evaluationPool([laterWorker('a', calls), laterWorker('b', calls)]);
    const jobs: EvaluationJob[] = [1, 2, 4].map((b) => ({ plan: [{ fromMs: 0, actions: spec.models.map(() => ({ batchSize: b, instances: 1 })) }] }));
    expect(await pool.evaluate(spec, jobs)).toEqual(jobs.map((job) => evaluateJob(spec, job)));
    expect(await pool.evaluate(spec, jobs.slice(0, 2))).toEqual(jobs.slice(0, 2).map((job) => evaluateJob(spec, job)));
    expect(calls.filter((c) => c.endsWith('begin'))).toEqual(['a begin', 'b begin']);
    expect(calls.filter((c) => c.endsWith('job'))).toHaveLength(5);
  });

  it('a search run on them finds the plan, counts and progress of one thread', async () => {
    const told: number[] = [];
    const alone = runSearch(fixedPerPhaseSearch(spec, params), (done) => told.push(done));
    useSearchEvaluator(evaluationPool([laterWorker('a', []), laterWorker('b', [])]));
    try {
      const progress: number[] = [];
      expect(await runSearchAsync(fixedPerPhaseSearch(spec, params), (done) => progress.push(done))).toEqual(alone);
      expect(progress.at(-1)).toBe(told.at(-1));
    } finally {
      useSearchEvaluator(null);
    }
  }, 60_000);

  it('an evaluation before its batch, and a pool of none, say so', () => {
    expect(() => evaluationApi().evaluate({ plan: [] })).toThrow(/before its batch/);
    expect(() => evaluationPool([])).toThrow(/at least one/);
  });
});
