import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import type { AnyLabStore } from '../../../store/liveStore';
import { createServingWorkerClient } from '../store/servingClient';
import { createServingStore, type ServingStore } from '../store/servingStore';
import type { PageWorldModule, WorldLabProps } from '../../../ui/shell/pageWorld';
import { ServingLab } from './ServingLab';
import { servingLinkHash } from './traceScenario';

/** The serving world's default scenario (ARCHITECTURE §4): the six models on Xavier NX at 30 rps. */
export function defaultServingScenario(): ServingScenario {
  return structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
}

function ServingLabMount({ store, onExit }: WorldLabProps) {
  return <ServingLab store={store as unknown as ServingStore} onExit={onExit} />;
}

/**
 * The serving world in the page, in one module that the page loads when the serving lab is
 * first opened (with its worker), so that the first screen carries none of it.
 */
export const servingPageModule: PageWorldModule = {
  startStore: () => createServingStore(createServingWorkerClient()) as unknown as AnyLabStore,
  defaultScenario: defaultServingScenario,
  linkHash: (scenario) => Promise.resolve(servingLinkHash(scenario as ServingScenario)),
  Lab: ServingLabMount,
};
