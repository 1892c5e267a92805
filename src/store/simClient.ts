import { proxy, wrap } from 'comlink';
import type { SimApi } from '../worker/protocol';
import type { SimClient } from './labStore';

/**
 * The page's one handle on the simulation worker: starts it and wraps it with comlink.
 * Frames come back through a proxied callback.
 */
export function createWorkerClient(): SimClient {
  const worker = new Worker(new URL('../worker/simWorker.ts', import.meta.url), { type: 'module', name: 'simulation' });
  const remote = wrap<SimApi>(worker);
  return {
    subscribe: (onFrame) => remote.subscribe(proxy(onFrame)),
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
