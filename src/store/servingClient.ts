import { proxy, wrap, type Remote } from 'comlink';
import type { ServingApi, ServingFrame } from '../worker/servingProtocol';
import type { ServingClient } from './servingStore';

/**
 * The serving page's one handle on the serving worker, as `createWorkerClient` is for the
 * pipeline world: starts it, wraps it with comlink, and starts a fresh one if it dies (an
 * uncaught error in the worker), telling the store so it can reload the scenario.
 */
export function createServingWorkerClient(): ServingClient {
  let onFrame: ((frame: ServingFrame) => void) | null = null;
  const crashListeners: (() => void)[] = [];
  let worker: Worker;
  let remote: Remote<ServingApi>;
  const start = (): void => {
    worker = new Worker(new URL('../worker/servingWorker.ts', import.meta.url), { type: 'module', name: 'serving' });
    remote = wrap<ServingApi>(worker);
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      start();
      for (const listener of crashListeners) listener();
    });
    if (onFrame !== null) void remote.subscribe(proxy(onFrame));
  };
  start();
  return {
    subscribe: (callback) => {
      onFrame = callback;
      return remote.subscribe(proxy(callback));
    },
    onCrash: (listener) => void crashListeners.push(listener),
    load: (scenario) => remote.load(scenario),
    play: () => remote.play(),
    pause: () => remote.pause(),
    step: (simulatedMs) => remote.step(simulatedMs),
    reset: () => remote.reset(),
    setSpeed: (speed) => remote.setSpeed(speed),
    setRate: (rateRps) => remote.setRate(rateRps),
    setModelConfig: (lane, model, batchSize, instances) => remote.setModelConfig(lane, model, batchSize, instances),
    addBackground: (intensity, memoryMb) => remote.addBackground(intensity, memoryMb),
    removeBackground: (id) => remote.removeBackground(id),
    currentScenario: () => remote.currentScenario(),
  };
}
