/**
 * The page's reference searches on every core (issue 38): the search worker (oracleWorker.ts)
 * shares each batch of a search's evaluations (a coordinate-ascent turn, the uniform grid:
 * reference.ts `SearchEvaluator`) out between evaluation workers (evaluationWorker.ts), each
 * taking the next job not yet taken when it is done with one (runs of different
 * configurations differ in cost), and the search goes on when every value is in
 * (`runSearchAsync`). A page has no shared memory without cross-origin isolation, so the
 * workers answer by message, not as the command line's threads do (cli/searchThreads.ts). Each
 * evaluation is the same pure run wherever it runs: the same plan.
 */
import type { ServingRunSnapshot } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { evaluateJob, type EvaluationJob, type SearchEvaluator } from '../schedulers/reference';

/** An evaluation worker as the pool sees it (the comlink client of `evaluationApi`). */
export interface EvaluationHelper {
  /** The batch's spec and phase start, kept for the jobs after. */
  begin(spec: ServingRunSpec, checkpoint: ServingRunSnapshot | undefined): Promise<void> | void;
  evaluate(job: EvaluationJob): Promise<number> | number;
}

/** What an evaluation worker exposes: the batch it is in, and one job of it at a time. */
export function evaluationApi(): EvaluationHelper {
  let batch: { readonly spec: ServingRunSpec; readonly checkpoint: ServingRunSnapshot | undefined } | null = null;
  return {
    begin(spec, checkpoint) {
      batch = { spec, checkpoint };
    },
    evaluate(job) {
      if (batch === null) throw new Error('an evaluation before its batch began');
      return evaluateJob(batch.spec, job, batch.checkpoint);
    },
  };
}

/** A `SearchEvaluator` over `helpers`: a batch's jobs taken in turn by whichever is free, the values in the jobs' order. */
export function evaluationPool(helpers: readonly EvaluationHelper[]): SearchEvaluator {
  if (helpers.length === 0) throw new RangeError('an evaluation pool needs at least one worker');
  // The batch each helper holds, by identity: a search's turns share its spec (and a phase's its start), sent once.
  const holds = helpers.map(() => ({ spec: null as ServingRunSpec | null, checkpoint: undefined as ServingRunSnapshot | undefined }));
  return {
    threads: helpers.length,
    async evaluate(spec, jobs, checkpoint) {
      const values = new Array<number>(jobs.length);
      let next = 0;
      await Promise.all(
        helpers.map(async (helper, h) => {
          while (next < jobs.length) {
            const i = next++;
            const held = holds[h]!;
            if (held.spec !== spec || held.checkpoint !== checkpoint) {
              await helper.begin(spec, checkpoint);
              held.spec = spec;
              held.checkpoint = checkpoint;
            }
            values[i] = await helper.evaluate(jobs[i]!);
          }
        }),
      );
      return values;
    },
  };
}
