import { afterWorlds } from '../../kit/worlds';
import { startServingWorkerEarly } from './store/servingWorkerStart';
import type { PageWorld } from '../../ui/shell/pageWorld';

/** The serving world in the page: its module (store, worker, lab) is loaded when its lab first opens. */
export const servingPage: PageWorld = {
  id: 'serving',
  label: 'Serving lab · BCEdge',
  about: 'BCEdge: a soft actor-critic scheduler choosing batch size and concurrent instances per model on an edge GPU',
  explore: false,
  load: () => afterWorlds(() => import('./ui/servingPage')).then((m) => m.servingPageModule),
  // Its worker starts while the lab's module loads (the entry carries only the worker's address).
  prestart: startServingWorkerEarly,
};
