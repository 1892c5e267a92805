import { useState } from 'react';
import type { PipelineScenario } from '../../scenario/schema';
import { createExploreStore, type ExploreStore } from '../../store/exploreStore';
import { createWebCellPool } from '../../store/explorePool';
import { useLab, useLabStore } from '../labContext';
import { ExploreView } from './ExploreView';

/** One explore store per page (its pool of workers lives as long as a sweep runs). */
let shared: ExploreStore | null = null;
function exploreStore(): ExploreStore {
  shared ??= createExploreStore((workers) => createWebCellPool(workers));
  return shared;
}

/** The Explore view over the live lab's scenario, when the view says so. */
export function ExploreMount() {
  const store = useLabStore();
  const open = useLab((s) => s.view.explore === true);
  const scenario = useLab((s) => s.scenario);
  const [explore] = useState(exploreStore);
  if (!open || scenario === null) return null;
  const close = () => {
    const { explore: _explore, ...view } = store.getState().view;
    void _explore;
    store.getState().setView(view);
  };
  return (
    <ExploreView
      scenario={scenario}
      store={explore}
      autoStart={scenario.sweep !== undefined && explore.getState().status === 'idle'}
      onSweepChange={(sweep) => void store.getState().edit((s) => ({ ...s, sweep }))}
      onOpenRun={(run) => {
        explore.getState().cancel();
        // The run alone, in the normal view: Explore closes on it.
        const { view: _view, ...plain } = run as PipelineScenario;
        void _view;
        void store
          .getState()
          .load(plain, 'preset')
          .then((ok) => (ok ? store.getState().play() : undefined));
      }}
      onClose={close}
    />
  );
}
