/**
 * The search worker's call (ARCHITECTURE §3), apart from `expose` so that tests call the very
 * object in Node: one reference search, run to its end in one go as the command line runs it
 * (`runSearch` of the lane's `ReferenceLaneSearch.start`), telling its progress after each
 * evaluation. The serving worker sends one search at a time (`referenceLanes.ts`
 * `ReferenceSearches`) and stops this worker to drop one.
 */
import { runSearch, type ReferenceResult, type SearchStep } from '../schedulers/reference';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import type { OracleSearchRequest } from './referenceLanes';

export const oracleApi = {
  search(request: OracleSearchRequest, progress: (step: SearchStep) => void): ReferenceResult {
    const search = SERVING_SCHEDULERS[request.kind].reference;
    if (search === undefined) throw new RangeError(`kind: ${String(request.kind)} is not a reference lane`);
    return runSearch(search.start(request.spec, request.params, request.prior), (done, total) => progress({ done, total }));
  },
};

export type OracleApi = typeof oracleApi;
