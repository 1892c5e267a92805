import { pipelinePageModule } from './ui/pipelinePage';
import type { PageWorld } from '../../ui/shell/pageWorld';

/** The pipeline world in the page: the first screen, so its module is at hand. */
export const pipelinePage: PageWorld = {
  id: 'pipeline',
  label: 'Pipeline lab · ODIN',
  about: 'ODIN: online rebalancing of a CNN inference pipeline’s stages when co-located workloads slow an execution place',
  explore: true,
  eager: pipelinePageModule,
  load: () => Promise.resolve(pipelinePageModule),
};
