import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { defaultScenario } from '../scenario/defaultPreset';
import type { FieldError, HideableControl, ServingScenario } from '../scenario/schema';
import type { ServingStore } from '../store/servingStore';
import { createLabStore, type LabStore } from '../store/labStore';
import { createWorkerClient } from '../store/simClient';
import { AlgorithmPanel } from './AlgorithmPanel';
import { Board } from './Board';
import { AssumptionsPanel, EventsList, pipelineLessons, PipelineCharts, PipelineTimeline, ScenarioPanel } from './belowTheFold';
import { SHORTCUTS } from './HelpOverlay';
import { LabStoreContext, useLab, useLabStore } from './labContext';
import { LanesPanel } from './LanesPanel';
import { MeasureLauncher } from './MeasureLauncher';
import { linkCodec, linkFor, startLinkSync } from './linkSync';
import { PIPELINE_PLAYBACK } from './PlaybackBar';
import { pipelineShare } from './ShareBar';
import { LabShell, type LabWorld } from './shell/LabShell';
import { ThroughputCard } from './ThroughputCard';
import { useHistoryKeys, useTeachingKeys } from './shellKeys';
import { ViewLauncher } from './ViewLauncher';

/** The serving lab is loaded when it is first opened: the pipeline lab's first load stays small. */
const ServingLab = lazy(() => import('./serving/ServingLab').then((m) => ({ default: m.ServingLab })));

/** The serving world's store, worker and default scenario, loaded when the serving lab is first opened. */
const servingEntry = () => import('./serving/servingEntry');

/** The Claims view's mount, loaded when the view is first opened (it loads the view itself). */
const ClaimsMount = lazy(() => import('./claims/ClaimsMount').then((m) => ({ default: m.ClaimsMount })));

/** The Explore view (its store, worker pool, sweeps and charts), loaded when it is first opened (issue 12). */
const ExploreMount = lazy(() => import('./explore/ExploreMount').then((m) => ({ default: m.ExploreMount })));

/** What the page does with a link, once it is decoded and routed to its world. */
export interface LinkRoutes {
  /** A valid serving scenario, or a serving link's field errors (the serving lab shows them). */
  serving(routed: { readonly scenario: ServingScenario } | { readonly errors: readonly FieldError[] }): void;
  /** A pipeline link: back in the pipeline lab, which loads it or shows its errors. */
  pipeline(): void;
}

/**
 * Opens a link: decoded once (`decodeLink`) and routed to the lab of its world (issue 17):
 * the pipeline store loads a pipeline scenario or shows the errors; a serving link opens the
 * serving lab, with its scenario or with the serving scenario's own field errors.
 */
export async function routeLink(store: LabStore, hash: string, routes: LinkRoutes): Promise<boolean> {
  const decoded = (await linkCodec()).decodeLink(hash);
  if (decoded.world === 'serving') {
    routes.serving(decoded.ok ? { scenario: decoded.scenario as ServingScenario } : { errors: decoded.errors });
    return decoded.ok;
  }
  routes.pipeline();
  if (!decoded.ok) {
    store.getState().reject('link', decoded.errors);
    return false;
  }
  return store.getState().load(decoded.scenario, 'link');
}

/** Opens the link in the address bar, or the default scenario (ARCHITECTURE §4), and plays it. */
async function openFirstScenario(store: LabStore, routes: LinkRoutes): Promise<void> {
  const hash = window.location.hash.replace(/^#/, '');
  if (hash !== '' && (await linkCodec()).decodeLink(hash).world === 'serving') {
    // A serving link opens the serving lab; the pipeline lab waits behind it, on its default.
    await store.getState().load(defaultScenario(), 'preset');
    await routeLink(store, hash, routes);
    return;
  }
  let ok = hash !== '' && (await routeLink(store, hash, routes));
  if (!ok) {
    // A broken link keeps its banner over the default scenario.
    const errors = store.getState().errors;
    ok = await store.getState().load(defaultScenario(), 'preset');
    if (errors !== null) store.getState().reject(errors.source, errors.errors);
  }
  // A link that opens the Explore or Claims view leaves the lab paused: their workers need the cores.
  const view = store.getState().view;
  if (ok && view.explore !== true && view.claims !== true) await store.getState().play();
}

/** The pipeline world in the page shell: its board, side panels, charts, time line, share bar and lessons. */
function Lab({ onOpenServing }: { readonly onOpenServing: (scenario: ServingScenario) => void }) {
  const store = useLabStore();
  const hide = useLab((s) => s.view.hide);
  const hidden = (c: HideableControl) => hide.includes(c);
  const exploring = useLab((s) => s.view.explore === true);
  const claiming = useLab((s) => s.view.claims === true);
  const share = useMemo(() => pipelineShare(store, onOpenServing), [store, onOpenServing]);
  // One view over the lab at a time: the Claims view, or the Explore view.
  const over = claiming ? (
    <Suspense fallback={<p className="loading" data-testid="claims.loading">Opening the Claims view…</p>}>
      <ClaimsMount onOpenServing={onOpenServing} />
    </Suspense>
  ) : exploring ? (
    <Suspense fallback={<p className="loading">Opening Explore…</p>}>
      <ExploreMount />
    </Suspense>
  ) : null;
  const world: LabWorld = {
    testId: 'lab',
    title: 'Interference Lab',
    tagline: 'Drop co-located workloads onto execution places and watch online schedulers rebalance a CNN inference pipeline — every lane on the same interference trace.',
    launchers: (
      <>
        <ViewLauncher view="explore" label="Explore…" title="Sweep one or two of the scenario's fields over seeds, on every core" />
        <ViewLauncher view="claims" label="Claims…" title="Every claim of both papers beside the lab’s number, its verdict and the assumptions that flip it" />
        {hidden('links') ? null : <MeasureLauncher />}
      </>
    ),
    playback: PIPELINE_PLAYBACK,
    share,
    lessons: pipelineLessons,
    shortcuts: SHORTCUTS,
    board: <Board showPalette={!hidden('palette')} />,
    dockLabel: 'Algorithm, scenario and lanes',
    dock: [
      { part: 'lanes', node: <LanesPanel /> },
      { part: 'algorithm', node: <AlgorithmPanel /> },
      { part: 'events', node: <EventsList /> },
      { part: 'scenario', node: <ScenarioPanel /> },
      { part: 'assumptions', node: <AssumptionsPanel /> },
    ],
    mainChart: <ThroughputCard />,
    charts: <PipelineCharts />,
    timeline: <PipelineTimeline />,
    over,
  };
  return <LabShell store={store} world={world} />;
}

/**
 * The pipeline lab: the board of execution places with its palette of co-located
 * workloads, the lanes and their controls, and the charts, all fed by one store; the
 * scenario lives in the address bar so that a link reopens it exactly.
 */
export function App({ store: given }: { readonly store?: LabStore } = {}) {
  const [store] = useState<LabStore>(() => given ?? createLabStore(createWorkerClient()));
  const [serving, setServing] = useState<ServingStore | null>(null);
  const [showServing, setShowServing] = useState(false);
  const servingRef = useRef<ServingStore | null>(null);
  const servingShownRef = useRef(false);
  /** The serving world's store, started (with its worker) the first time it is opened. */
  const servingStore = async (): Promise<ServingStore> => {
    if (servingRef.current === null) {
      const { startServingStore } = await servingEntry();
      if (servingRef.current === null) {
        servingRef.current = startServingStore();
        setServing(servingRef.current);
      }
    }
    return servingRef.current;
  };
  const openServing = (routed: Parameters<LinkRoutes['serving']>[0]) => {
    void store.getState().pause();
    const existing = servingRef.current;
    setShowServing(true);
    void Promise.all([servingStore(), servingEntry()]).then(([target, { defaultServingScenario }]) => {
      if ('errors' in routed) {
        // A broken serving link: its errors over the serving lab's last good scenario (the default the first time).
        const fallback = existing?.getState().scenario ?? null;
        void (fallback !== null ? Promise.resolve(true) : target.getState().load(defaultServingScenario(), 'preset')).then(() => target.getState().reject('link', routed.errors));
        return;
      }
      void target
        .getState()
        .load(routed.scenario, 'preset')
        .then((ok) => (ok ? target.getState().play() : undefined));
    });
  };
  const routesRef = useRef<LinkRoutes>({ serving: () => undefined, pipeline: () => undefined });
  useEffect(() => {
    routesRef.current = {
      serving: openServing,
      pipeline: () => {
        void servingRef.current?.getState().pause();
        setShowServing(false);
      },
    };
    servingShownRef.current = serving !== null && showServing;
  });
  useEffect(() => {
    const routes: LinkRoutes = { serving: (r) => routesRef.current.serving(r), pipeline: () => routesRef.current.pipeline() };
    void openFirstScenario(store, routes);
    return startLinkSync(store, window, () => !servingShownRef.current, (hash) => routeLink(store, hash, routes));
  }, [store]);
  // The keys go to the lab that is shown: undo in the serving lab undoes a serving edit.
  const servingShown = serving !== null && showServing;
  useHistoryKeys(servingShown ? serving : store);
  useTeachingKeys(servingShown ? null : store);
  // While the serving lab is shown, the address bar holds its scenario; back in the pipeline lab, the pipeline's.
  useEffect(() => {
    if (serving === null || !showServing) {
      const scenario = store.getState().scenario;
      if (scenario !== null) void linkFor(scenario).then((hash) => (hash !== null && !servingShownRef.current ? window.history.replaceState(window.history.state, '', `#${hash}`) : undefined));
      return;
    }
    let change = 0;
    let live = true;
    const write = (scenario: ServingScenario | null) => {
      if (scenario === null) return;
      const own = ++change;
      // A scenario that cannot be linked (a trace too long for a link, or invalid): the address keeps the last good one.
      void import('./serving/traceScenario').then(({ servingLinkHash }) => {
        if (own !== change || !live) return;
        const hash = servingLinkHash(scenario);
        if (hash !== null) window.history.replaceState(window.history.state, '', `#${hash}`);
      });
    };
    write(serving.getState().scenario);
    const unsubscribe = serving.subscribe((s) => s.scenario, write);
    return () => {
      live = false;
      unsubscribe();
    };
  }, [serving, showServing, store]);
  if (showServing && serving === null) return <p className="loading" data-testid="serving.loading">Opening the serving lab…</p>;
  if (serving !== null && showServing) {
    return (
      <Suspense fallback={<p className="loading" data-testid="serving.loading">Opening the serving lab…</p>}>
        <ServingLab
          store={serving}
          onExit={() => {
            void serving.getState().pause();
            setShowServing(false);
          }}
        />
      </Suspense>
    );
  }
  return (
    <LabStoreContext.Provider value={store}>
      <Lab onOpenServing={(scenario) => openServing({ scenario })} />
    </LabStoreContext.Provider>
  );
}
