import { proxy, wrap, type Remote } from 'comlink';
import type { Frame, SimApi } from '../worker/protocol';
import type { SimClient } from './labStore';

/**
 * The page's one handle on the simulation worker: starts it, wraps it with comlink, and
 * starts a fresh one if it dies (an uncaught error in the worker), telling the store so it
 * can reload the scenario (DESIGN §7: the scenario survives a crashed worker).
 */
export function createWorkerClient(): SimClient {
  let onFrame: ((frame: Frame) => void) | null = null;
  const crashListeners: (() => void)[] = [];
  let worker: Worker;
  let remote: Remote<SimApi>;
  const start = (): void => {
    worker = new Worker(new URL('../worker/simWorker.ts', import.meta.url), { type: 'module', name: 'simulation' });
    remote = wrap<SimApi>(worker);
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
    step: (n) => remote.step(n),
    reset: () => remote.reset(),
    setSpeed: (speed) => remote.setSpeed(speed),
    addEvent: (executionPlace, mode) => remote.addEvent(executionPlace, mode),
    removeEvent: (id) => remote.removeEvent(id),
    setLaneParameter: (lane, name, value) => remote.setLaneParameter(lane, name, value),
    setDetectionThreshold: (threshold) => remote.setDetectionThreshold(threshold),
    currentScenario: () => remote.currentScenario(),
  };
}
