import { useEffect, useState } from 'react';
import { defaultScenario } from '../scenario/presets';
import { createLabStore, type LabStore } from '../store/labStore';
import { createWorkerClient } from '../store/simClient';
import { AssumptionsPanel } from './AssumptionsPanel';
import { Board } from './Board';
import { ChartsPanel } from './ChartsPanel';
import { ErrorBanner } from './ErrorBanner';
import { EventsList } from './EventsList';
import { LabStoreContext } from './labContext';
import { LanesPanel } from './LanesPanel';
import { PlaybackBar } from './PlaybackBar';
import { ScenarioPanel } from './ScenarioPanel';

/**
 * The pipeline lab: the board of execution places with its palette of co-located
 * workloads, the lanes and their controls, and the charts, all fed by one store.
 */
export function App({ store: given }: { readonly store?: LabStore } = {}) {
  const [store] = useState<LabStore>(() => given ?? createLabStore(createWorkerClient()));
  useEffect(() => {
    // The first impression (DESIGN §4): the default scenario, playing on load.
    void store
      .getState()
      .load(defaultScenario())
      .then((ok) => (ok ? store.getState().play() : undefined));
  }, [store]);
  return (
    <LabStoreContext.Provider value={store}>
      <div className="lab">
        <header className="lab-header">
          <div className="lab-title">
            <h1 data-testid="app.title">Interference Lab</h1>
            <p className="tagline">
              Drop co-located workloads onto execution places and watch online schedulers rebalance a CNN inference pipeline
              — every lane on the same interference trace.
            </p>
          </div>
          <PlaybackBar />
        </header>
        <ErrorBanner />
        <main className="lab-main">
          <section className="lab-board" aria-labelledby="board-heading">
            <Board />
            <EventsList />
          </section>
          <aside className="lab-side" aria-label="Scenario and lanes">
            <LanesPanel />
            <ScenarioPanel />
            <AssumptionsPanel />
          </aside>
          <section className="lab-charts" aria-label="Charts">
            <ChartsPanel />
          </section>
        </main>
      </div>
    </LabStoreContext.Provider>
  );
}
