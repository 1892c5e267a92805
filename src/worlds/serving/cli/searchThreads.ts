import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ServingRunSnapshot } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { evaluateJob, type EvaluationJob, type SearchEvaluator } from '../schedulers/reference';

const WORKER_SCRIPT = fileURLToPath(new URL('./searchWorker.mjs', import.meta.url));

/** What the main thread sends a search thread: one batch, and where to take jobs and write values. */
export interface SearchBatchMessage {
  readonly spec: ServingRunSpec;
  readonly checkpoint?: ServingRunSnapshot;
  readonly jobs: readonly EvaluationJob[];
  /** Float64 per job of the batch. */
  readonly results: SharedArrayBuffer;
  /** Int32 [jobs done, failed, next job to take]. */
  readonly done: SharedArrayBuffer;
}

/** Int32 slots of `SearchBatchMessage.done`. */
export const DONE_COUNT = 0;
export const DONE_FAILED = 1;
export const NEXT_JOB = 2;

/** A stuck thread is reported after this long without a value (an evaluation of a 3000 s preset takes seconds). */
const STALL_MS = 600_000;

/**
 * The command line's reference searches on every core (issue 38): a batch of evaluations
 * (a coordinate-ascent turn, the uniform grid, reference.ts `SearchEvaluator`) is shared out
 * between this thread and `threads` worker threads, each taking the next job not yet taken
 * (an atomic counter: runs of different configurations differ in cost, so a fixed share would
 * leave a thread idle while another finishes a long one), and this thread waits
 * (Atomics.wait: the search stays a plain synchronous loop) until every value is in. Each
 * evaluation is the same pure run wherever it runs, so the search finds the same plan. The
 * threads start at the first batch and never keep the process alive.
 */
export function openSearchThreads(threads: number): SearchEvaluator & { close(): Promise<void> } {
  const workers: Worker[] = [];
  const errors: string[] = [];
  const start = () => {
    while (workers.length < threads) {
      const worker = new Worker(WORKER_SCRIPT);
      worker.on('message', (m: { error?: string }) => {
        if (m.error !== undefined) errors.push(m.error);
      });
      worker.on('error', (error: unknown) => errors.push(error instanceof Error ? error.message : String(error)));
      // After the listeners: a 'message' listener refs the worker again, and the command would
      // never exit once its output was written.
      worker.unref();
      workers.push(worker);
    }
  };
  return {
    threads: threads + 1,
    evaluate(spec, jobs, checkpoint) {
      start();
      const results = new SharedArrayBuffer(8 * jobs.length);
      const done = new SharedArrayBuffer(12);
      const values = new Float64Array(results);
      const control = new Int32Array(done);
      const message: SearchBatchMessage = { spec, jobs, results, done, ...(checkpoint === undefined ? {} : { checkpoint }) };
      // No thread is sent more than it could take (a batch of two leaves the other threads be).
      for (const worker of workers.slice(0, jobs.length - 1)) worker.postMessage(message);
      const own = takeJobs(message, (index) => evaluateJob(spec, jobs[index]!, checkpoint));
      for (;;) {
        const seen = Atomics.load(control, DONE_COUNT);
        if (seen >= jobs.length) break;
        if (Atomics.wait(control, DONE_COUNT, seen, STALL_MS) === 'timed-out' && Atomics.load(control, DONE_COUNT) === seen) throw new Error('a search thread gave no value for 10 minutes');
      }
      if (own.length > 0) throw new Error(own[0]);
      if (Atomics.load(control, DONE_FAILED) !== 0) throw new Error(`a search thread failed${errors.length > 0 ? `: ${errors[0]}` : ''}`);
      return Array.from(values);
    },
    close: async () => {
      await Promise.all(workers.splice(0).map((w) => w.terminate()));
    },
  };
}

/**
 * Takes the batch's jobs not yet taken, one at a time, until none is left: evaluates each
 * (`evaluate(index)`), writes its value and counts it done (a failure too, flagged, its value
 * NaN, so that the main thread never waits for a value that will not come). Returns the
 * failures' messages. This thread and every search thread run it on the same batch.
 */
export function takeJobs(message: SearchBatchMessage, evaluate: (index: number) => number): string[] {
  const results = new Float64Array(message.results);
  const control = new Int32Array(message.done);
  const failures: string[] = [];
  for (;;) {
    const index = Atomics.add(control, NEXT_JOB, 1);
    if (index >= message.jobs.length) return failures;
    try {
      results[index] = evaluate(index);
    } catch (error) {
      results[index] = Number.NaN;
      Atomics.store(control, DONE_FAILED, 1);
      failures.push(error instanceof Error ? error.message : String(error));
    }
    Atomics.add(control, DONE_COUNT, 1);
    Atomics.notify(control, DONE_COUNT);
  }
}
