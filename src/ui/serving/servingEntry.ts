import { SERVING_PRESETS } from '../../scenario/presets';
import type { ServingScenario } from '../../scenario/schema';
import { createServingWorkerClient } from '../../store/servingClient';
import { createServingStore, type ServingStore } from '../../store/servingStore';

/**
 * What the page needs to open the serving world, in one module that the page imports when the
 * serving lab is first opened (with its worker), so that the pipeline lab's first load carries
 * none of it (issue 12).
 */
export function startServingStore(): ServingStore {
  return createServingStore(createServingWorkerClient());
}

/** The serving world's default scenario (ARCHITECTURE §4): the six models on Xavier NX at 30 rps. */
export function defaultServingScenario(): ServingScenario {
  return structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
}
