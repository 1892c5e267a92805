import { lazy, Suspense } from 'react';
import type { ClaimRow } from '../../scenario/claimsReport';
import type { PipelineScenario, ServingScenario } from '../../scenario/schema';
import { useLab, useLabStore } from '../labContext';

/** The view, its store and the claims registry are loaded when the view first opens: the lab's first load stays small. */
const ClaimsPage = lazy(() => import('./ClaimsPage').then((m) => ({ default: m.ClaimsPage })));

/** The Claims view over the live lab, when the view says so. */
export function ClaimsMount({ onOpenServing }: { readonly onOpenServing: (scenario: ServingScenario) => void }) {
  const store = useLabStore();
  const open = useLab((s) => s.view.claims === true);
  if (!open) return null;
  const close = () => {
    const { claims: _claims, ...view } = store.getState().view;
    void _claims;
    store.getState().setView(view);
  };
  const openRow = async (row: ClaimRow) => {
    if (row.scenario.world === 'serving') {
      onOpenServing(row.scenario);
      return;
    }
    // The sweep helpers come with the Claims view's chunk (already loaded when a row can be opened), not the lab's first load.
    const { cellScenario, sweepCombinations } = await import('../../scenario/sweep');
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
  return (
    <Suspense fallback={<p className="loading" data-testid="claims.loading">Opening the Claims view…</p>}>
      <ClaimsPage onOpen={(row) => void openRow(row)} onClose={close} />
    </Suspense>
  );
}
