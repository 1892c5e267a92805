import type { ServingApi, ServingFrame } from '../worker/servingProtocol';
import { restartingWorker } from './restartingWorker';
import type { ServingClient } from './servingStore';

/**
 * The serving page's one handle on the serving worker, as `createWorkerClient` is for the
 * pipeline world (restarted if it dies).
 */
export function createServingWorkerClient(): ServingClient {
  const worker = restartingWorker<ServingApi, ServingFrame>(() => new Worker(new URL('../worker/servingWorker.ts', import.meta.url), { type: 'module', name: 'serving' }));
  const remote = worker.remote;
  return {
    subscribe: worker.subscribe,
    onCrash: worker.onCrash,
    // The worker fetches the shipped agents from the page's own `agents/` folder.
    load: async (scenario) => {
      await remote().configure({ agentsBaseUrl: new URL('agents/', document.baseURI).href });
      return remote().load(scenario);
    },
    play: () => remote().play(),
    pause: () => remote().pause(),
    step: (simulatedMs) => remote().step(simulatedMs),
    reset: () => remote().reset(),
    setSpeed: (speed) => remote().setSpeed(speed),
    setArrivalRate: (rateRps) => remote().setArrivalRate(rateRps),
    setModelConfig: (lane, model, batchSize, instances) => remote().setModelConfig(lane, model, batchSize, instances),
    addBackground: (intensity, memoryMb) => remote().addBackground(intensity, memoryMb),
    removeBackground: (id) => remote().removeBackground(id),
    currentScenario: () => remote().currentScenario(),
    exportAgent: (lane) => remote().exportAgent(lane),
    explainUpdate: (lane) => remote().explainUpdate(lane),
    importAgent: (lane, file) => remote().importAgent(lane, file),
  };
}
