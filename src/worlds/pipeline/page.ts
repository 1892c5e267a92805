import { pipelinePageModule } from '../../ui/pipeline/pipelinePage';
import type { PageWorld } from '../../ui/shell/pageWorld';

/** The pipeline world in the page: the first screen, so its module is at hand. */
export const pipelinePage: PageWorld = {
  id: 'pipeline',
  explore: true,
  eager: pipelinePageModule,
  load: () => Promise.resolve(pipelinePageModule),
};
