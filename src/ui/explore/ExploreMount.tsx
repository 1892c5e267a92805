import { useState } from 'react';
import type { AnyScenario } from '../../scenario/schema';
import { createExploreStore, type ExploreStore } from '../../store/exploreStore';
import { createWebCellPool } from '../../store/explorePool';
import { useShell, useShellStore } from '../shell/shellStore';
import { focusClaimNext } from '../claims/claimFocus';
import { ExploreView } from './ExploreView';

/** One explore store per page (its pool of workers lives as long as a sweep runs). */
let shared: ExploreStore | null = null;
function exploreStore(): ExploreStore {
  shared ??= createExploreStore((workers) => createWebCellPool(workers));
  return shared;
}

/** The Explore view over the shown lab's scenario, when its view says so (any world: its fields and sweeps come from the world, `World`). */
export function ExploreMount() {
  const store = useShellStore();
  const open = useShell((s) => (s.view as { readonly explore?: boolean }).explore === true);
  const scenario = useShell((s) => s.scenario as AnyScenario | null);
  const [explore] = useState(exploreStore);
  // A sweep of another lab's scenario is not this one's: Explore opens clean (issue 37).
  const last = explore.getState().scenario;
  if (open && scenario !== null && last !== null && last.world !== scenario.world) explore.getState().clear();
  if (!open || scenario === null) return null;
  const close = () => {
    const { explore: _explore, ...view } = store.getState().view as { readonly explore?: boolean };
    void _explore;
    store.getState().setView(view as never);
  };
  return (
    <ExploreView
      scenario={scenario}
      store={explore}
      autoStart={scenario.sweep !== undefined && explore.getState().status === 'idle'}
      onSweepChange={(sweep) => store.getState().amend((s) => ({ ...(s as AnyScenario), sweep }) as never)}
      onOpenRun={(run) => {
        explore.getState().cancel();
        // The run alone, in the normal view: Explore closes on it.
        const { view: _view, ...plain } = run;
        void _view;
        void store
          .getState()
          .load(plain as never, 'preset')
          .then((ok) => (ok ? store.getState().play() : undefined));
      }}
      onClose={close}
      onOpenClaim={(id) => {
        // The Claims view opens over the lab in Explore's place, on that row unfolded.
        focusClaimNext(id);
        const { explore: _explore, ...view } = store.getState().view as { readonly explore?: boolean };
        void _explore;
        store.getState().setView({ ...view, claims: true } as never);
      }}
    />
  );
}
