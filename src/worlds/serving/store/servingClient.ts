import type { ServingApi, ServingFrame } from '../worker/servingProtocol';
import { proxy } from 'comlink';
import { workerClient } from '../../../store/restartingWorker';
import { servingWorker } from './servingWorkerStart';
import type { ServingClient } from './servingStore';

/**
 * The serving page's one handle on the serving worker, as `createPipelineWorkerClient` is for the
 * pipeline world (restarted if it dies or stops answering).
 */
export function createServingWorkerClient(): ServingClient {
  return workerClient<ServingApi, ServingFrame>(
    servingWorker,
    (forwarded) => ({
      // The worker fetches the shipped agents from the page's own `agents/` folder.
      // Both calls go at once (the worker answers them in order): the load does not wait for a round trip.
      load: async (scenario) => {
        const configured = forwarded.configure({ agentsBaseUrl: new URL('agents/', document.baseURI).href });
        const loaded = forwarded.load(scenario);
        await configured;
        return loaded;
      },
      // The progress callback crosses to the worker as a comlink proxy.
      sweep: (request, onProgress) => forwarded.sweep(request, proxy(onProgress)),
    }),
  );
}
