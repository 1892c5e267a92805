import { lazy, Suspense, useMemo } from 'react';
import type { HideableControl } from '../scenario/schema';
import { AlgorithmPanel } from './AlgorithmPanel';
import { Board } from './Board';
import { AssumptionsPanel, EventsList, pipelineLessons, PipelineCharts, PipelineTimeline, ScenarioPanel } from './belowTheFold';
import { SHORTCUTS } from './HelpOverlay';
import { useLab, useLabStore } from './labContext';
import { LanesPanel } from './LanesPanel';
import { MeasureLauncher } from './MeasureLauncher';
import { PIPELINE_PLAYBACK } from './PlaybackBar';
import { pipelineShare } from './ShareBar';
import { LabShell, type LabWorld } from './shell/LabShell';
import { useTeachingKeys } from './shellKeys';
import { ThroughputCard } from './ThroughputCard';
import { ViewLauncher } from './ViewLauncher';

/** The Claims view's mount, loaded when the view is first opened (it loads the view itself). */
const ClaimsMount = lazy(() => import('./claims/ClaimsMount').then((m) => ({ default: m.ClaimsMount })));

/** The Explore view (its store, worker pool, sweeps and charts), loaded when it is first opened. */
const ExploreMount = lazy(() => import('./explore/ExploreMount').then((m) => ({ default: m.ExploreMount })));

/** The pipeline world in the page shell: its board, side panels, charts, time line, share bar and lessons. */
export function PipelineLab() {
  const store = useLabStore();
  const hide = useLab((s) => s.view.hide);
  const hidden = (c: HideableControl) => hide.includes(c);
  const exploring = useLab((s) => s.view.explore === true);
  const claiming = useLab((s) => s.view.claims === true);
  // The teaching keys (step, rewind, the algorithm panel) are the pipeline lab's.
  useTeachingKeys(store);
  const share = useMemo(() => pipelineShare(store), [store]);
  // One view over the lab at a time: the Claims view, or the Explore view.
  const over = claiming ? (
    <Suspense fallback={<p className="loading" data-testid="claims.loading">Opening the Claims view…</p>}>
      <ClaimsMount />
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

