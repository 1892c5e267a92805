import type { ServingApi, ServingFrame } from '../worker/servingProtocol';
import { proxy } from 'comlink';
import { workerClient } from './restartingWorker';
import type { ServingClient } from './servingStore';

/**
 * The serving page's one handle on the serving worker, as `createPipelineWorkerClient` is for the
 * pipeline world (restarted if it dies or stops answering).
 */
export function createServingWorkerClient(): ServingClient {
  return workerClient<ServingApi, ServingFrame>(
    () => new Worker(new URL('../worker/servingWorker.ts', import.meta.url), { type: 'module', name: 'serving' }),
    (forwarded) => ({
      // The worker fetches the shipped agents from the page's own `agents/` folder.
      load: async (scenario) => {
        await forwarded.configure({ agentsBaseUrl: new URL('agents/', document.baseURI).href });
        return forwarded.load(scenario);
      },
      // The progress callback crosses to the worker as a comlink proxy.
      sweep: (request, onProgress) => forwarded.sweep(request, proxy(onProgress)),
    }),
  );
}
