import { memo, useId, useMemo } from 'react';
import { markerDescription, markerLabel } from '../charts/markerTicks';
import { laneMarkers, markerTarget } from '../store/labStore';
import type { Marker } from '../worker/protocol';
import { useLab, useLabStore } from './labContext';

/** Marker buttons drawn at most per kind and per this fraction of the track (the rest is reached with Shift+←/→). */
const BUCKETS = 60;

/**
 * The marker buttons, drawn again only when the markers change (not on every frame). They
 * are not tab stops (a long run has hundreds): Shift+←/→ reaches them from the keyboard.
 */
const MarkerButtons = memo(function MarkerButtons({ markers, total }: { readonly markers: readonly Marker[]; readonly total: number }) {
  const store = useLabStore();
  const pct = (q: number) => `${(100 * q) / Math.max(1, total)}%`;
  return (
    <div className="timeline-markers">
      {markers.map((m) => (
        <button
          key={`${m.kind}-${m.query}-${m.lane}-${m.executionPlace ?? ''}`}
          type="button"
          tabIndex={-1}
          className={`timeline-marker kind-${m.kind}`}
          style={{ left: pct(m.query + 1) }}
          data-testid={`timeline.marker-${m.kind}-${m.query}`}
          title={markerDescription(m)}
          aria-label={`${visibleLabel(m)}${visibleLabel(m) === '' ? '' : ': '}go to ${markerDescription(m)}`}
          onClick={() => {
            const { query, step } = markerTarget(m);
            void store.getState().seek(query, step);
          }}
        >
          {visibleLabel(m)}
        </button>
      ))}
    </div>
  );
});

/** Marker kinds, top row first, as the ticks draw them while the run plays. */
const TICK_ROWS: readonly { readonly kind: Marker['kind']; readonly row: 0 | 1 }[] = [
  { kind: 'interference-on', row: 0 },
  { kind: 'interference-off', row: 0 },
  { kind: 'detect', row: 1 },
  { kind: 'trial', row: 1 },
  { kind: 'install', row: 1 },
];

/**
 * While the run plays, the markers are plain ticks: one SVG path per kind (a few elements
 * whatever the number of markers, so the page stays responsive at full speed). Paused, they
 * become the buttons above, to click.
 */
const MarkerTicks = memo(function MarkerTicks({ markers, total }: { readonly markers: readonly Marker[]; readonly total: number }) {
  const paths = TICK_ROWS.map(({ kind, row }) => {
    // One tick per 1/1000 of the track at most (ticks closer than that would overlap anyway).
    let d = '';
    let last = -1;
    for (const m of markers) {
      if (m.kind !== kind) continue;
      const x = Math.round((1000 * (m.query + 1)) / Math.max(1, total));
      if (x === last) continue;
      last = x;
      d += `M${x} ${row === 0 ? 2 : 22}v16`;
    }
    return { kind, d };
  });
  return (
    <svg className="timeline-markers timeline-ticks" viewBox="0 0 1000 40" preserveAspectRatio="none" aria-hidden="true" data-testid="timeline.ticks">
      {paths.map((p) => (p.d === '' ? null : <path key={p.kind} className={`timeline-tick kind-${p.kind}`} d={p.d} />))}
    </svg>
  );
});

/** Interference markers carry their short label on the track (the lane's own are plain marks). */
function visibleLabel(m: Marker): string {
  return m.kind === 'interference-on' || m.kind === 'interference-off' ? markerLabel(m) : '';
}

/**
 * The time line under the charts (teaching mode): a scrubber over the run with markers for
 * interference arriving and leaving and, for the selected lane, detections, trials and
 * installed configurations. Dragging it or clicking a marker travels in time: the worker
 * replays from its nearest checkpoint, so the board and charts show what they showed then.
 */
export function Timeline() {
  const store = useLabStore();
  // While playing, the scrubber moves in steps of 1/1000 of the run (the page does not
  // redraw the time line on every frame).
  const served = useLab((s) => (s.status === 'playing' ? Math.floor((Math.floor((s.served * 1000) / Math.max(1, s.totalQueries)) * s.totalQueries) / 1000) : s.served));
  const total = useLab((s) => s.totalQueries);
  const furthest = useLab((s) => s.furthest);
  const all = useLab((s) => s.timelineMarkers);
  const lane = useLab((s) => s.selectedLane);
  const laneLabel = useLab((s) => s.lanes[s.selectedLane]?.label ?? '');
  const playing = useLab((s) => s.status === 'playing');
  const labelId = useId();
  const act = store.getState();
  const markers = useMemo(() => {
    const seen = new Set<string>();
    const out: Marker[] = [];
    for (const m of laneMarkers(all, lane)) {
      const key = `${m.kind}:${Math.floor((m.query / Math.max(1, total)) * BUCKETS)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(m);
    }
    return out;
  }, [all, lane, total]);
  const pct = (q: number) => `${(100 * q) / Math.max(1, total)}%`;

  return (
    <section className="timeline panel" aria-labelledby={labelId} data-testid="timeline" data-furthest={furthest}>
      <div className="timeline-head">
        <h2 id={labelId}>
          Time line <span className="subtle">— markers of {laneLabel || 'the selected lane'}</span>
        </h2>
        <div className="timeline-buttons" role="group" aria-label="Travel in time">
          <button type="button" data-testid="timeline.prev-marker" onClick={() => void act.stepMarker(-1)} aria-keyshortcuts="Shift+ArrowLeft" title="Previous marker (Shift+←)">
            ⇤ Marker
          </button>
          <button type="button" data-testid="timeline.back" onClick={() => void act.stepAlgorithm(-1)} aria-keyshortcuts="ArrowLeft" title="Step back (←)">
            ◂ Step
          </button>
          <button type="button" data-testid="timeline.forward" onClick={() => void act.stepAlgorithm(1)} aria-keyshortcuts="ArrowRight" title="Step forward (→)">
            Step ▸
          </button>
          <button type="button" data-testid="timeline.next-marker" onClick={() => void act.stepMarker(1)} aria-keyshortcuts="Shift+ArrowRight" title="Next marker (Shift+→)">
            Marker ⇥
          </button>
        </div>
      </div>
      <div className="timeline-track">
        <div className="timeline-explored" style={{ width: pct(furthest) }} aria-hidden="true" />
        {playing ? <MarkerTicks markers={markers} total={total} /> : <MarkerButtons markers={markers} total={total} />}
        <label className="timeline-scrubber">
          <span className="visually-hidden">Queries served</span>
          <input
            type="range"
            min={0}
            max={Math.max(1, total)}
            step={1}
            value={served}
            data-testid="timeline.scrubber"
            aria-valuetext={`query ${served} of ${total}`}
            onChange={(e) => void act.seek(Number(e.target.value))}
          />
        </label>
      </div>
      <p className="timeline-legend subtle">
        <span className="legend kind-interference-on">▲ interference arrives</span> <span className="legend kind-interference-off">▼ leaves</span>{' '}
        <span className="legend kind-detect">● detection</span> <span className="legend kind-trial">· trial</span> <span className="legend kind-install">◆ installed</span> · query{' '}
        <output data-testid="timeline.served">{served}</output> of {total}
      </p>
    </section>
  );
}
