import type { AdmissionRequest, AdmissionView, ServingScheduler } from '../engine/scheduler';

export interface DeepRtParams {
  /** Largest batch the batcher forms. */
  readonly maxBatch: number;
  /** Admission control on (DeepRT's admission control module) or off. */
  readonly admission: boolean;
}

/**
 * `deeprt`: DeepRT (Yang et al., SEC 2021), as BCEdge §V-B1 describes it — "a soft real-time
 * scheduler that adopts dynamic batching with earliest-deadline-first (EDF) scheduling" —
 * without concurrent instances (Table I: no concurrent instance). Our reading:
 * - One executor for the whole GPU (`dispatch: 'edf'`): batches run one at a time,
 *   non-preemptively. When the GPU frees, the model whose queued request has the earliest
 *   deadline goes next, over all models (EDF over requests), and takes up to `maxBatch` of
 *   its queued requests, earliest deadlines first (DeepRT's batcher groups requests of the
 *   same model; we batch what is queued instead of its fixed time windows — a
 *   simplification).
 * - Admission control: a request is admitted only if, by the profiled (contention-free)
 *   batch times, it can still finish by its deadline behind the work EDF puts before it:
 *   now + what the running batch still needs + every queued request of every model with a
 *   deadline at most its own (batched by each model's batch size), itself included, + the
 *   return of its result ≤ its deadline. A refused request is dropped (an SLO violation).
 *   DeepRT's test, like this one, knows nothing of interference: under contention its
 *   profile is optimistic (BCEdge §V-E: DeepRT "is only suitable for the DNN models without
 *   strict SLO constraints").
 * - Not modelled: DeepRT's adaptation module (it degrades jobs that overrun).
 */
export function createDeepRt(params: DeepRtParams): ServingScheduler {
  const scheduler: ServingScheduler = {
    id: 'deeprt',
    dispatch: 'edf',
    decide: (observation) => observation.models.map(() => ({ batchSize: params.maxBatch, instances: 1 })),
    snapshot: () => null,
    restore: () => {},
  };
  return params.admission ? { ...scheduler, admit: admitByEdf } : scheduler;
}

/** The admission test described on `createDeepRt`. */
export function admitByEdf(request: AdmissionRequest, view: AdmissionView): boolean {
  let finishMs = view.nowMs + view.runningRemainingMs;
  for (let m = 0; m < view.modelCount; m++) {
    let ahead = view.queuedWithDeadlineAtMost(m, request.deadlineMs) + (m === request.model ? 1 : 0);
    const batch = view.batchSize(m);
    while (ahead > 0) {
      const size = Math.min(batch, ahead);
      finishMs += view.isolatedBatchMs(m, size);
      ahead -= size;
    }
  }
  return finishMs + view.returnMs(request.model) <= request.deadlineMs;
}
