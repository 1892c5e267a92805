import { defaultScenario } from '../scenario/defaultPreset';
import type { PipelineScenario } from '../scenario/schema';
import { createLabStore, type LabStore } from '../store/labStore';
import type { AnyLabStore } from '../store/liveStore';
import { createWorkerClient } from '../store/simClient';
import { LabStoreContext } from './labContext';
import { linkFor } from './linkSync';
import { PipelineLab } from './PipelineLab';
import type { PageWorldModule, WorldLabProps } from './shell/pageWorld';

/** The pipeline lab over the store the page gives it. */
function PipelineLabMount({ store }: WorldLabProps) {
  return (
    <LabStoreContext.Provider value={store as unknown as LabStore}>
      <PipelineLab />
    </LabStoreContext.Provider>
  );
}

/** The pipeline world in the page: its store with its worker, its lab, its default scenario, its links. */
export const pipelinePageModule: PageWorldModule = {
  startStore: () => createLabStore(createWorkerClient()) as unknown as AnyLabStore,
  defaultScenario,
  linkHash: (scenario) => linkFor(scenario as PipelineScenario),
  Lab: PipelineLabMount,
};
