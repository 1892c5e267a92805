import type { PageWorld } from '../ui/shell/pageWorld';
import { pipelinePage } from './pipeline/page';
import { servingPage } from './serving/page';

/**
 * The page's list of worlds (ARCHITECTURE §7b), in the order of `src/worlds/index.ts`: the
 * page shell opens a scenario in the lab of its world, found here. The first is the first screen.
 */
export const PAGE_WORLDS: readonly PageWorld[] = [pipelinePage, servingPage];

/** The page world of a world id; the first for an id the list does not have. */
export function pageWorldOf(id: string): PageWorld {
  return PAGE_WORLDS.find((w) => w.id === id) ?? PAGE_WORLDS[0]!;
}
