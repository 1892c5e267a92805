/**
 * Stage workers of a real pipeline as Node worker threads (`interference-lab real`, the
 * bench and the tests).
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StagePort } from '../measure/realPipeline/pipeline';
import type { StageReply } from '../measure/realPipeline/protocol';

const STAGE_SCRIPT = fileURLToPath(new URL('./stageWorker.mjs', import.meta.url));

/** Starts one stage thread; terminating it frees its tfjs memory with it. */
export function spawnNodeStage(): StagePort {
  const worker = new Worker(STAGE_SCRIPT);
  return {
    post: (request, transfer) => worker.postMessage(request, transfer),
    listen(onReply, onError) {
      worker.on('message', (reply: StageReply) => onReply(reply));
      worker.on('error', (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
    },
    terminate: () => worker.terminate(),
  };
}
