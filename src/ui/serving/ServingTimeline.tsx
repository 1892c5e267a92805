import { memo, useId, useMemo } from 'react';
import { useStore } from 'zustand';
import { servingLaneMarkers, type ServingStore } from '../../store/servingStore';
import type { ServingMarker } from '../../worker/servingProtocol';

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

/** The short label drawn on the track (text, not emoji: Debian's Chromium has no emoji font). */
const MARK: Record<ServingMarker['kind'], string> = { 'tenant-on': '▲', 'tenant-off': '▼', config: '◆', agent: '●' };

const MarkerButtons = memo(function MarkerButtons({ store, markers, durationMs }: { readonly store: ServingStore; readonly markers: readonly ServingMarker[]; readonly durationMs: number }) {
  return (
    <div className="timeline-markers">
      {markers.map((m, i) => (
        <button
          key={`${m.kind}-${m.timeMs}-${i}`}
          type="button"
          tabIndex={-1}
          className={`timeline-marker kind-${m.kind === 'tenant-on' ? 'interference-on' : m.kind === 'tenant-off' ? 'interference-off' : 'install'}`}
          style={{ left: `${(100 * m.timeMs) / Math.max(1, durationMs)}%` }}
          data-testid={`timeline.marker-${m.kind}-${m.timeMs}`}
          title={describeMarker(m)}
          aria-label={`go to: ${describeMarker(m)}`}
          onClick={() => void store.getState().seek(m.timeMs)}
        >
          {MARK[m.kind]}
        </button>
      ))}
    </div>
  );
});

/**
 * The serving lab's time line: a scrubber over the run's simulated time with markers for
 * tenants arriving and leaving and, for the selected lane, configuration changes. Dragging
 * it or clicking a marker travels in time: the worker replays from time 0 with every live
 * change (learning lanes too), so the board and charts show what they showed then.
 */
export function ServingTimeline({ store }: { readonly store: ServingStore }) {
  // While playing, the scrubber moves in whole seconds (the page does not redraw it on every frame).
  const timeMs = useStore(store, (s) => (s.status === 'playing' ? Math.floor(s.timeMs / 1000) * 1000 : s.timeMs));
  const durationMs = useStore(store, (s) => s.durationMs);
  const furthestMs = useStore(store, (s) => s.furthestMs);
  const all = useStore(store, (s) => s.timelineMarkers);
  const lane = useStore(store, (s) => s.selectedLane);
  const laneLabel = useStore(store, (s) => s.lanes[s.selectedLane]?.label ?? '');
  const labelId = useId();
  const markers = useMemo(() => servingLaneMarkers(all, lane), [all, lane]);
  const act = store.getState();
  return (
    <section className="timeline panel" aria-labelledby={labelId} data-testid="timeline" data-furthest={furthestMs}>
      <div className="timeline-head">
        <h2 id={labelId}>
          Time line <span className="subtle">— tenants, and changes of {laneLabel || 'the selected lane'}</span>
        </h2>
        <div className="timeline-buttons" role="group" aria-label="Travel in time">
          <button type="button" data-testid="timeline.prev-marker" onClick={() => void act.stepMarker(-1)} aria-keyshortcuts="Shift+ArrowLeft" title="Previous marker (Shift+←)">
            ⇤ Marker
          </button>
          <button type="button" data-testid="timeline.back" onClick={() => void act.seek(Math.max(0, store.getState().timeMs - 1000))} aria-keyshortcuts="ArrowLeft" title="One second back (←)">
            ◂ 1 s
          </button>
          <button type="button" data-testid="timeline.forward" onClick={() => void act.step(1000)} aria-keyshortcuts="ArrowRight" title="One second on (→)">
            1 s ▸
          </button>
          <button type="button" data-testid="timeline.next-marker" onClick={() => void act.stepMarker(1)} aria-keyshortcuts="Shift+ArrowRight" title="Next marker (Shift+→)">
            Marker ⇥
          </button>
        </div>
      </div>
      <div className="timeline-track">
        <div className="timeline-explored" style={{ width: `${(100 * furthestMs) / Math.max(1, durationMs)}%` }} aria-hidden="true" />
        <MarkerButtons store={store} markers={markers} durationMs={durationMs} />
        <label className="timeline-scrubber">
          <span className="visually-hidden">Simulated time, ms</span>
          <input
            type="range"
            min={0}
            max={Math.max(1, durationMs)}
            step={100}
            value={timeMs}
            data-testid="timeline.scrubber"
            aria-valuetext={`${(timeMs / 1000).toFixed(1)} s of ${(durationMs / 1000).toFixed(0)} s`}
            onChange={(e) => void act.seek(Number(e.target.value))}
          />
        </label>
      </div>
      <p className="timeline-legend subtle">
        <span className="legend kind-interference-on">▲ tenant arrives</span> <span className="legend kind-interference-off">▼ leaves</span> <span className="legend kind-install">◆ configuration set</span> · at{' '}
        <output data-testid="timeline.time">{(timeMs / 1000).toFixed(1)}</output> s of {(durationMs / 1000).toFixed(0)} s
      </p>
    </section>
  );
}
