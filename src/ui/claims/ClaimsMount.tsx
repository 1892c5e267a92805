import type { ClaimRow } from '../../scenario/claimsReport';
import type { PipelineScenario, ServingScenario } from '../../scenario/schema';
import { useLab, useLabStore } from '../labContext';
import { ClaimsPage } from './ClaimsPage';
import { cellScenario, sweepCombinations } from '../../scenario/sweep';


/**
 * The Claims view over the live lab, when the view says so. `App.tsx` loads this module (with
 * the view, its store and the claims registry) when the view first opens: the lab's first
 * load stays small.
 */
export function ClaimsMount({ onOpenServing }: { readonly onOpenServing: (scenario: ServingScenario) => void }) {
  const store = useLabStore();
  const open = useLab((s) => s.view.claims === true);
  if (!open) return null;
  const close = () => {
    const { claims: _claims, ...view } = store.getState().view;
    void _claims;
    store.getState().setView(view);
  };
  const openRow = (row: ClaimRow) => {
    if (row.scenario.world === 'serving') {
      onOpenServing(row.scenario);
      return;
    }
    // A sweep over several combinations opens in the Explore view, which runs it; a claim of one
    // combination (its sweep holds only seeds) plays that run in the lab, with the sweep's first seed.
    const { view: _view, ...swept } = row.scenario as PipelineScenario;
    void _view;
    const single = swept.sweep === undefined || sweepCombinations(swept).length === 1;
    const scenario: PipelineScenario = single ? cellScenario(swept, { values: sweepCombinations(swept)[0]!, seed: swept.seed }) : { ...swept, view: { mode: 'normal', hide: [], explore: true } };
    void store
      .getState()
      .load(scenario, 'preset')
      .then((ok) => (ok && scenario.view?.explore !== true ? store.getState().play() : undefined));
  };
  return <ClaimsPage onOpen={openRow} onClose={close} />;
}
