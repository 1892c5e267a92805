import { parentPort } from 'node:worker_threads';
import { evaluateJob } from '../schedulers/serving/reference';
import type { SearchBatchMessage } from './searchThreads';

/**
 * A search thread of the command line (searchThreads.ts): evaluates its share of a batch of a
 * reference search's evaluations and writes each value into the shared results, then counts it
 * done; the main thread waits on that count. A failure is counted too, with its message kept,
 * so that the main thread never waits for a value that will not come.
 */
parentPort?.on('message', (message: SearchBatchMessage) => {
  const results = new Float64Array(message.results);
  const done = new Int32Array(message.done);
  for (const { index, job } of message.jobs) {
    try {
      results[index] = evaluateJob(message.spec, job, message.checkpoint);
    } catch (error) {
      results[index] = Number.NaN;
      Atomics.store(done, 1, 1);
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
    Atomics.add(done, 0, 1);
    Atomics.notify(done, 0);
  }
});
