import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ServingRunSnapshot, ServingRunSpec } from '../engine/serving/simulation';
import { evaluateJob, type EvaluationJob, type SearchEvaluator } from '../schedulers/serving/reference';

const WORKER_SCRIPT = fileURLToPath(new URL('./searchWorker.mjs', import.meta.url));

/** What the main thread sends a search thread: its share of one batch, and where to write. */
export interface SearchBatchMessage {
  readonly spec: ServingRunSpec;
  readonly checkpoint?: ServingRunSnapshot;
  readonly jobs: readonly { readonly index: number; readonly job: EvaluationJob }[];
  /** Float64 per job of the batch. */
  readonly results: SharedArrayBuffer;
  /** Int32 [jobs done, failed]. */
  readonly done: SharedArrayBuffer;
}

/** A stuck thread is reported after this long without a value (an evaluation of a 3000 s preset takes seconds). */
const STALL_MS = 600_000;

/**
 * The command line's reference searches on every core (issue 38): a batch of evaluations
 * (a coordinate-ascent turn, the uniform grid, reference.ts `SearchEvaluator`) is shared out
 * between this thread and `threads` worker threads, job i to thread i mod (threads + 1), and
 * this thread waits (Atomics.wait: the search stays a plain synchronous loop) until every value
 * is in. Each evaluation is the same pure run wherever it runs, so the search finds the same
 * plan. The threads start at the first batch and never keep the process alive.
 */
export function openSearchThreads(threads: number): SearchEvaluator & { close(): Promise<void> } {
  const workers: Worker[] = [];
  const errors: string[] = [];
  const start = () => {
    while (workers.length < threads) {
      const worker = new Worker(WORKER_SCRIPT);
      worker.unref();
      worker.on('message', (m: { error?: string }) => {
        if (m.error !== undefined) errors.push(m.error);
      });
      worker.on('error', (error: unknown) => errors.push(error instanceof Error ? error.message : String(error)));
      workers.push(worker);
    }
  };
  return {
    evaluate(spec, jobs, checkpoint) {
      start();
      const results = new SharedArrayBuffer(8 * jobs.length);
      const done = new SharedArrayBuffer(8);
      const values = new Float64Array(results);
      const count = new Int32Array(done);
      const shares = workers.map(() => [] as { index: number; job: EvaluationJob }[]);
      const own: number[] = [];
      jobs.forEach((job, index) => {
        const t = index % (threads + 1);
        if (t === 0) own.push(index);
        else shares[t - 1]!.push({ index, job });
      });
      let sent = 0;
      shares.forEach((share, w) => {
        if (share.length === 0) return;
        sent += share.length;
        const message: SearchBatchMessage = { spec, jobs: share, results, done, ...(checkpoint === undefined ? {} : { checkpoint }) };
        workers[w]!.postMessage(message);
      });
      for (const index of own) values[index] = evaluateJob(spec, jobs[index]!, checkpoint);
      for (;;) {
        const seen = Atomics.load(count, 0);
        if (seen >= sent) break;
        if (Atomics.wait(count, 0, seen, STALL_MS) === 'timed-out' && Atomics.load(count, 0) === seen) throw new Error('a search thread gave no value for 10 minutes');
      }
      if (Atomics.load(count, 1) !== 0) throw new Error(`a search thread failed${errors.length > 0 ? `: ${errors[0]}` : ''}`);
      return Array.from(values);
    },
    close: async () => {
      await Promise.all(workers.splice(0).map((w) => w.terminate()));
    },
  };
}
