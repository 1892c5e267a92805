import type { PipelineFrame, PipelineApi } from '../worker/pipelineProtocol';
import type { PipelineClient } from './pipelineStore';
import { workerClient } from '../../../store/restartingWorker';

/**
 * The page's one handle on the pipeline worker: starts it, wraps it with comlink, and
 * starts a fresh one if it dies or stops answering, telling the store so it can reload the scenario.
 */
export function createPipelineWorkerClient(): PipelineClient {
  return workerClient<PipelineApi, PipelineFrame>(() => new Worker(new URL('../worker/pipelineWorker.ts', import.meta.url), { type: 'module', name: 'simulation' }));
}
