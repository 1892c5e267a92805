import { useMemo } from 'react';
import { useStore } from 'zustand';
import { servingLaneMarkers, type ServingStore } from '../store/servingStore';
import type { ServingMarker } from '../worker/servingProtocol';
import { Timeline, type TimelineMark } from '../../../ui/shell/Timeline';

/** What a marker says, in words. */
function describeMarker(m: ServingMarker): string {
  const at = `${(m.timeMs / 1000).toFixed(1)} s`;
  switch (m.kind) {
    case 'tenant-on':
      return `another tenant arrives at ${at}`;
    case 'tenant-off':
      return `a tenant leaves at ${at}`;
    case 'config':
      return `${m.model ?? 'a model'} set to b = ${m.batchSize ?? '?'}, m_c = ${m.instances ?? '?'} at ${at}`;
    case 'agent':
      return `an agent loaded at ${at}`;
  }
}

/** The short label drawn on the track, and the shared marker kind it is drawn as. */
const MARK: Record<ServingMarker['kind'], { readonly label: string; readonly kind: string; readonly row: 0 | 1 }> = {
  'tenant-on': { label: '▲', kind: 'interference-on', row: 0 },
  'tenant-off': { label: '▼', kind: 'interference-off', row: 0 },
  config: { label: '◆', kind: 'install', row: 1 },
  agent: { label: '●', kind: 'install', row: 1 },
};

/**
 * The serving world's time line: simulated time, with markers for tenants arriving and
 * leaving and, for the selected lane, configuration changes and loaded agents; the worker
 * restores its latest checkpoint before the target and replays from there with every live
 * change (learning lanes too).
 */
export function ServingTimeline({ store }: { readonly store: ServingStore }) {
  // While playing, the scrubber moves in whole seconds (the page does not redraw it on every frame).
  const timeMs = useStore(store, (s) => (s.status === 'playing' ? Math.floor(s.timeMs / 1000) * 1000 : s.timeMs));
  const durationMs = useStore(store, (s) => s.durationMs);
  const furthestMs = useStore(store, (s) => s.furthestMs);
  const all = useStore(store, (s) => s.timelineMarkers);
  const lane = useStore(store, (s) => s.selectedLane);
  const laneLabel = useStore(store, (s) => s.lanes[s.selectedLane]?.label ?? '');
  const playing = useStore(store, (s) => s.status === 'playing');
  const marks = useMemo(
    () =>
      servingLaneMarkers(all, lane).map((m, i): TimelineMark => ({
        key: `${m.kind}-${m.timeMs}-${i}`,
        at: m.timeMs,
        ...MARK[m.kind],
        testId: `timeline.marker-${m.kind}-${m.timeMs}`,
        description: describeMarker(m),
      })),
    [all, lane],
  );
  const act = store.getState();
  return (
    <Timeline
      subtitle={`tenants, and changes of ${laneLabel || 'the selected lane'}`}
      position={timeMs}
      total={durationMs}
      furthest={furthestMs}
      marks={marks}
      playing={playing}
      onSelect={(mark) => void store.getState().seek(mark.at)}
      onSeek={(at) => void act.seek(at)}
      onMarker={(direction) => void act.stepMarker(direction)}
      back={{ label: '◂ 1 s', title: 'One second back (←)', onClick: () => void act.seek(Math.max(0, store.getState().timeMs - 1000)) }}
      forward={{ label: '1 s ▸', title: 'One second on (→)', onClick: () => void act.step(1000) }}
      scrubber={{ step: 100, label: 'Simulated time, ms', valueText: `${(timeMs / 1000).toFixed(1)} s of ${(durationMs / 1000).toFixed(0)} s` }}
      legend={
        <>
          <span className="legend kind-interference-on">▲ tenant arrives</span> <span className="legend kind-interference-off">▼ leaves</span> <span className="legend kind-install">◆ configuration set</span> · at{' '}
          <output data-testid="timeline.time">{(timeMs / 1000).toFixed(1)}</output> s of {(durationMs / 1000).toFixed(0)} s
        </>
      }
    />
  );
}
