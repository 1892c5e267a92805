import { useMemo } from 'react';
import type { HideableControl } from '../../../scenario/schema';
import { AlgorithmPanel } from './AlgorithmPanel';
import { Board } from './Board';
import { AssumptionsPanel, EventsList, pipelineLessons, PipelineCharts, PipelineTimeline, ScenarioPanel } from './belowTheFold';
import { SHORTCUTS } from '../../../ui/HelpOverlay';
import { usePipelineLab, usePipelineStore } from './pipelineContext';
import { LanesPanel } from './LanesPanel';
import { MeasureLauncher } from './MeasureLauncher';
import { RealLauncher } from './RealLauncher';
import { PIPELINE_PLAYBACK } from './pipelinePlayback';
import { pipelineShare } from './pipelineShare';
import { LabShell, type LabWorld } from '../../../ui/shell/LabShell';
import { useTeachingKeys } from './pipelineKeys';
import { ThroughputCard } from './ThroughputCard';

/** The pipeline world in the page shell: its board, side panels, charts, time line, share bar and lessons. */
export function PipelineLab() {
  const store = usePipelineStore();
  const hide = usePipelineLab((s) => s.view.hide);
  const hidden = (c: HideableControl) => hide.includes(c);
  // The teaching keys (step, rewind, the algorithm panel) are the pipeline lab's.
  useTeachingKeys(store);
  const share = useMemo(() => pipelineShare(store), [store]);
  const world: LabWorld = {
    testId: 'lab',
    title: 'Interference Lab',
    tagline: 'Drop co-located workloads onto execution places and watch online schedulers rebalance a CNN inference pipeline — every lane on the same interference trace.',
    launchers: hidden('links') ? null : (
      <>
        <MeasureLauncher />
        <RealLauncher />
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
  };
  return <LabShell store={store} world={world} />;
}

