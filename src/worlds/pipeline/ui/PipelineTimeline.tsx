import { useMemo } from 'react';
import { markerDescription, markerLabel } from '../charts/markerTicks';
import { pipelineLaneMarkers, pipelineMarkerTarget } from '../store/pipelineStore';
import { foldTrials, markerKey, scheduledMarkers } from '../store/pipelineMarkers';
import type { PipelineMarker } from '../worker/pipelineProtocol';
import { usePipelineLab, usePipelineStore } from './pipelineContext';
import { Timeline, type TimelineMark } from '../../../ui/shell/Timeline';

/** Marker buttons drawn at most per kind and per this fraction of the track (the rest is reached with Shift+←/→). */
const BUCKETS = 60;

/** Interference markers carry their short label on the track (the lane's own are plain marks). */
function visibleLabel(m: PipelineMarker): string {
  return m.kind === 'interference-on' || m.kind === 'interference-off' ? markerLabel(m) : '';
}

/**
 * The pipeline world's time line: queries served, with markers for interference arriving and
 * leaving and, for the selected lane, detections, trials and installed configurations; the
 * worker replays from its nearest checkpoint.
 */
export function PipelineTimeline() {
  const store = usePipelineStore();
  // While playing, the scrubber moves in steps of 1/1000 of the run (the page does not
  // redraw the time line on every frame).
  const served = usePipelineLab((s) => (s.status === 'playing' ? Math.floor((Math.floor((s.served * 1000) / Math.max(1, s.totalQueries)) * s.totalQueries) / 1000) : s.served));
  const total = usePipelineLab((s) => s.totalQueries);
  const furthest = usePipelineLab((s) => s.furthest);
  const all = usePipelineLab((s) => s.timelineMarkers);
  const lane = usePipelineLab((s) => s.selectedLane);
  const laneLabel = usePipelineLab((s) => s.lanes[s.selectedLane]?.label ?? '');
  const playing = usePipelineLab((s) => s.status === 'playing');
  const events = usePipelineLab((s) => s.events);
  const trialsShown = usePipelineLab((s) => s.trialsShown);
  // The scheduled markers change only when the run passes one (not with every frame's `furthest`:
  // the markers are drawn again only when they change, ARCHITECTURE §7c).
  const scheduled = usePipelineLab((s) => scheduledMarkers(s.events, s.furthest).length);
  const marks = useMemo(() => {
    const seen = new Set<string>();
    const out: (TimelineMark & { readonly marker: PipelineMarker })[] = [];
    // A rebalancing's trials under its detection (unless unfolded), and the scheduled interference the run has not reached yet.
    const folded = foldTrials(pipelineLaneMarkers(all, lane), trialsShown);
    const ahead = new Set(scheduled === 0 ? [] : scheduledMarkers(events, store.getState().furthest));
    for (const m of [...folded.markers, ...ahead].sort((a, b) => a.query - b.query)) {
      const bucket = `${m.kind}:${Math.floor((m.query / Math.max(1, total)) * BUCKETS)}`;
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      const world = m.kind === 'interference-on' || m.kind === 'interference-off';
      const trials = folded.trials.get(markerKey(m)) ?? 0;
      const planned = ahead.has(m) ? 'scheduled: ' : '';
      out.push({
        key: `${planned}${markerKey(m)}`,
        at: m.query + 1,
        kind: m.kind,
        row: world ? 0 : 1,
        testId: `timeline.marker-${m.kind}-${m.query}`,
        label: visibleLabel(m),
        description: `${planned}${markerDescription(m)}${trials > 0 ? ` (its ${trials} trial${trials === 1 ? '' : 's'} folded under it)` : ''}`,
        marker: m,
      });
    }
    return out;
  }, [all, lane, total, events, scheduled, trialsShown, store]);
  const act = store.getState();
  return (
    <Timeline
      subtitle={`markers of ${laneLabel || 'the selected lane'}`}
      position={served}
      total={total}
      furthest={furthest}
      marks={marks}
      playing={playing}
      onSelect={(mark) => {
        const { query, step } = pipelineMarkerTarget((mark as (typeof marks)[number]).marker);
        void store.getState().seek(query, step);
      }}
      onSeek={(query) => void act.seek(query)}
      onMarker={(direction) => void act.stepMarker(direction)}
      back={{ label: '◂ Step', title: 'Step back (←)', onClick: () => void act.stepAlgorithm(-1) }}
      forward={{ label: 'Step ▸', title: 'Step forward (→)', onClick: () => void act.stepAlgorithm(1) }}
      scrubber={{ step: 1, label: 'Queries served', valueText: `query ${served} of ${total}` }}
      legend={
        <>
          <span className="legend kind-interference-on">▲ interference arrives</span> <span className="legend kind-interference-off">▼ leaves</span>{' '}
          <span className="legend kind-detect">● detection</span> <span className="legend kind-trial">· trial</span> <span className="legend kind-install">◆ installed</span> · query{' '}
          <output data-testid="timeline.served">{served}</output> of {total}{' '}
          <button type="button" className="timeline-fold" data-testid="timeline.trials" aria-pressed={trialsShown} onClick={() => act.setTrialsShown(!trialsShown)}>
            {trialsShown ? 'Fold trials under their rebalancing' : 'Show every trial'}
          </button>
        </>
      }
    />
  );
}
