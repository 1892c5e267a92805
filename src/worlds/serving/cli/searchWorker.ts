import { parentPort } from 'node:worker_threads';
import { evaluateJob } from '../schedulers/reference';
import { takeJobs, type SearchBatchMessage } from './searchThreads';

/**
 * A search thread of the command line (searchThreads.ts): takes jobs of a batch of a reference
 * search's evaluations until none is left (`takeJobs`), writing each value into the shared
 * results and counting it done; the main thread waits on that count. A failure is counted too,
 * with its message sent, so that the main thread never waits for a value that will not come.
 */
parentPort?.on('message', (message: SearchBatchMessage) => {
  for (const error of takeJobs(message, (index) => evaluateJob(message.spec, message.jobs[index]!, message.checkpoint))) parentPort?.postMessage({ error });
});
