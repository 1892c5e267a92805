import { useContext } from 'react';
import type { ClaimRow } from '../../scenario/claimsReport';
import type { AnyScenario } from '../../scenario/schema';
import { cellScenario, sweepCombinations } from '../../scenario/sweep';
import { worldOf } from '../../kit/worlds';
import { useShell, useShellStore } from '../shell/shellStore';
import { pageWorldIn, PageWorldsContext, useOpenInLab } from '../shell/pageWorld';
import { ClaimsPage } from './ClaimsPage';

/**
 * The Claims view over the shown lab, when its view says so. A lab loads this module (with the
 * view, its store and the claims registry) when the view first opens: the first load stays small.
 * A row opens its scenario in the lab of its world.
 */
export function ClaimsMount() {
  const store = useShellStore();
  const open = useOpenInLab();
  const pages = useContext(PageWorldsContext);
  const shown = useShell((s) => (s.view as { readonly claims?: boolean }).claims === true);
  if (!shown) return null;
  const close = () => {
    const { claims: _claims, ...view } = store.getState().view as { readonly claims?: boolean };
    void _claims;
    store.getState().setView(view as never);
  };
  const openRow = (row: ClaimRow) => {
    // A sweep over several combinations opens in the Explore view where the lab has one, which
    // runs it; a claim of one combination (its sweep holds only seeds) plays that run, with the
    // sweep's first seed; a lab without Explore plays one cell of the sweep.
    const { view: _view, ...swept } = row.scenario as AnyScenario;
    void _view;
    const single = swept.sweep === undefined || sweepCombinations(swept).length === 1;
    const explore = !single && pageWorldIn(pages, worldOf(swept).id).explore;
    const scenario: AnyScenario = single ? cellScenario(swept, { values: sweepCombinations(swept)[0]!, seed: swept.seed }) : explore ? ({ ...swept, view: { mode: 'normal', hide: [], explore: true } } as AnyScenario) : swept;
    // The lab opens at its top (the board and the main chart), not where the claim's row was on the page.
    void open({ world: scenario.world, scenario, source: 'preset', play: !explore }).then(() => window.scrollTo(0, 0));
  };
  return <ClaimsPage onOpen={openRow} onClose={close} />;
}
