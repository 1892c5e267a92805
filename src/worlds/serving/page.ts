import type { PageWorld } from '../../ui/shell/pageWorld';

/** The serving world in the page: its module (store, worker, lab) is loaded when its lab first opens. */
export const servingPage: PageWorld = {
  id: 'serving',
  explore: false,
  load: () => import('../../ui/serving/servingPage').then((m) => m.servingPageModule),
};
