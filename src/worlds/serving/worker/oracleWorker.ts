/// <reference lib="webworker" />
/**
 * The reference lanes' search worker (ARCHITECTURE §3): started by the serving worker
 * (`oracleWorkerPort.ts`), a thin comlink adapter over `oracleApi`, so that a search of many
 * runs of a trace keeps cores of its own and the serving worker's live run never waits on it.
 * With two cores or more it shares each batch of evaluations out between evaluation workers,
 * one a core (evaluationPool.ts); they end with it.
 */
import { expose, wrap } from 'comlink';
import { useSearchEvaluator } from '../schedulers/reference';
import { evaluationPool, type EvaluationHelper } from './evaluationPool';
import { oracleApi } from './oracleApi';

/** Evaluation workers at most (beyond four, the batches of a search's turns, 7–15 jobs, leave them idle). */
const MAX_EVALUATION_WORKERS = 4;

/** Evaluation worker `k`: a failure of the worker itself (not of an evaluation, which comlink passes on) fails its calls, so that no search waits for a value that will not come. */
function evaluationWorker(k: number): EvaluationHelper {
  const worker = new Worker(new URL('./evaluationWorker.ts', import.meta.url), { type: 'module', name: `oracle-evaluation-${k + 1}` });
  const remote = wrap<EvaluationHelper>(worker);
  const failed = new Promise<never>((_resolve, reject) => worker.addEventListener('error', (event) => reject(new Error(event.message || 'an evaluation worker failed')), { once: true }));
  failed.catch(() => undefined);
  return { begin: (spec, checkpoint) => Promise.race([remote.begin(spec, checkpoint), failed]), evaluate: (job) => Promise.race([remote.evaluate(job), failed]) };
}

const cores = Math.min(MAX_EVALUATION_WORKERS, self.navigator.hardwareConcurrency || 1);
if (cores >= 2) useSearchEvaluator(evaluationPool(Array.from({ length: cores }, (_, k) => evaluationWorker(k))));

expose(oracleApi);
