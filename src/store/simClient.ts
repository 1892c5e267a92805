import type { Frame, SimApi } from '../worker/protocol';
import type { SimClient } from './labStore';
import { restartingWorker } from './restartingWorker';

/**
 * The page's one handle on the simulation worker: starts it, wraps it with comlink, and
 * starts a fresh one if it dies, telling the store so it can reload the scenario.
 */
export function createWorkerClient(): SimClient {
  const worker = restartingWorker<SimApi, Frame>(() => new Worker(new URL('../worker/pipelineWorker.ts', import.meta.url), { type: 'module', name: 'simulation' }));
  const remote = worker.remote;
  return {
    subscribe: worker.subscribe,
    onCrash: worker.onCrash,
    load: (scenario) => remote().load(scenario),
    play: () => remote().play(),
    pause: () => remote().pause(),
    step: (n) => remote().step(n),
    reset: () => remote().reset(),
    setSpeed: (speed) => remote().setSpeed(speed),
    addEvent: (executionPlace, mode) => remote().addEvent(executionPlace, mode),
    removeEvent: (id) => remote().removeEvent(id),
    setLaneParameter: (lane, name, value) => remote().setLaneParameter(lane, name, value),
    setDetectionThreshold: (threshold) => remote().setDetectionThreshold(threshold),
    currentScenario: () => remote().currentScenario(),
    seek: (query, step) => remote().seek(query, step),
    stepAlgorithm: (direction) => remote().stepAlgorithm(direction),
    setTraceLane: (lane) => remote().setTraceLane(lane),
  };
}
