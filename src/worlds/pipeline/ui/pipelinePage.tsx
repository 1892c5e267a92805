import { defaultPipelineScenario } from '../defaultPreset';
import type { PipelineScenario } from '../schema';
import { createPipelineStore, type PipelineLabStore } from '../store/pipelineStore';
import type { AnyLabStore } from '../../../store/liveStore';
import { createPipelineWorkerClient } from '../store/pipelineClient';
import { PipelineStoreContext } from './pipelineContext';
import { linkFor } from '../../../ui/linkSync';
import { PipelineLab } from './PipelineLab';
import type { PageWorldModule, WorldLabProps } from '../../../ui/shell/pageWorld';

/** The pipeline lab over the store the page gives it. */
function PipelineLabMount({ store }: WorldLabProps) {
  return (
    <PipelineStoreContext.Provider value={store as unknown as PipelineLabStore}>
      <PipelineLab />
    </PipelineStoreContext.Provider>
  );
}

/** The pipeline world in the page: its store with its worker, its lab, its default scenario, its links. */
export const pipelinePageModule: PageWorldModule = {
  startStore: () => createPipelineStore(createPipelineWorkerClient()) as unknown as AnyLabStore,
  defaultScenario: defaultPipelineScenario,
  linkHash: (scenario) => linkFor(scenario as PipelineScenario),
  Lab: PipelineLabMount,
};
