/**
 * The search worker's call (ARCHITECTURE §3), apart from `expose` so that tests call the very
 * object in Node: one reference search, run to its end as the command line runs it
 * (`runSearchAsync` of the lane's `ReferenceLaneSearch.start`: in one go, its batches of
 * evaluations shared out between the evaluation workers when the search worker has them,
 * evaluationPool.ts), telling its progress after each evaluation. The serving worker sends one
 * search at a time (`referenceLanes.ts` `ReferenceSearches`) and stops this worker to drop one.
 */
import { runSearchAsync, type ReferenceResult, type SearchStep } from '../schedulers/reference';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import type { OracleSearchRequest } from './referenceLanes';

export const oracleApi = {
  search(request: OracleSearchRequest, progress: (step: SearchStep) => void): Promise<ReferenceResult> {
    const search = SERVING_SCHEDULERS[request.kind].reference;
    if (search === undefined) throw new RangeError(`kind: ${String(request.kind)} is not a reference lane`);
    return runSearchAsync(search.start(request.spec, request.params, request.prior), (done, total) => progress({ done, total }));
  },
};

export type OracleApi = typeof oracleApi;
