import { memo, useId, type ReactNode } from 'react';
import { useShell } from './shellStore';

/** One marker on the time line, in the track's own unit (queries, simulated ms). */
export interface TimelineMark {
  /** Stable React key. */
  readonly key: string;
  /** Where on the track, in the unit of `TimelineProps.total`. */
  readonly at: number;
  /** The CSS kind (`kind-<kind>`): colour and shape shared by both worlds' markers. */
  readonly kind: string;
  /** Row of its tick while the run plays: 0 the world's events, 1 the selected lane's. */
  readonly row: 0 | 1;
  readonly testId: string;
  /** Text drawn on the track (text, never emoji: Debian's Chromium has no emoji font); may be empty. */
  readonly label: string;
  /** What the marker is, in words (its title and accessible name). */
  readonly description: string;
}

/** A travel button of the time line (a step back or on, in the world's step). */
export interface TimelineStep {
  readonly label: string;
  readonly title: string;
  readonly onClick: () => void;
}

export interface TimelineProps {
  /** After "Time line — ": whose markers these are. */
  readonly subtitle: string;
  readonly position: number;
  readonly total: number;
  /** How far the run has been (the explored part of the track). */
  readonly furthest: number;
  readonly marks: readonly TimelineMark[];
  /** While playing, markers are drawn as ticks (a few SVG paths), paused as buttons to click. */
  readonly playing: boolean;
  readonly onSelect: (mark: TimelineMark) => void;
  readonly onSeek: (position: number) => void;
  readonly onMarker: (direction: 1 | -1) => void;
  readonly back: TimelineStep;
  readonly forward: TimelineStep;
  readonly scrubber: { readonly step: number; readonly label: string; readonly valueText: string };
  /** The legend and where the run is, under the track. */
  readonly legend: ReactNode;
}

const pct = (at: number, total: number) => `${(100 * at) / Math.max(1, total)}%`;

/**
 * The marker buttons, drawn again only when the markers change (not on every frame). They
 * are not tab stops (a long run has hundreds): Shift+←/→ reaches them from the keyboard.
 */
const MarkerButtons = memo(function MarkerButtons({ marks, total, onSelect }: { readonly marks: readonly TimelineMark[]; readonly total: number; readonly onSelect: (mark: TimelineMark) => void }) {
  return (
    <div className="timeline-markers">
      {marks.map((m) => (
        <button
          key={m.key}
          type="button"
          tabIndex={-1}
          className={`timeline-marker kind-${m.kind}`}
          style={{ left: pct(m.at, total) }}
          data-testid={m.testId}
          title={m.description}
          aria-label={`${m.label}${m.label === '' ? '' : ': '}go to ${m.description}`}
          onClick={() => onSelect(m)}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
});

/**
 * While the run plays, the markers are plain ticks: one SVG path per kind and row (a few
 * elements whatever the number of markers, so the page stays responsive at full speed).
 */
const MarkerTicks = memo(function MarkerTicks({ marks, total }: { readonly marks: readonly TimelineMark[]; readonly total: number }) {
  const paths = new Map<string, { kind: string; d: string; last: number }>();
  for (const m of marks) {
    const id = `${m.kind}:${m.row}`;
    const path = paths.get(id) ?? { kind: m.kind, d: '', last: -1 };
    paths.set(id, path);
    // One tick per 1/1000 of the track at most (ticks closer than that would overlap anyway).
    const x = Math.round((1000 * m.at) / Math.max(1, total));
    if (x === path.last) continue;
    path.last = x;
    path.d += `M${x} ${m.row === 0 ? 2 : 22}v16`;
  }
  return (
    <svg className="timeline-markers timeline-ticks" viewBox="0 0 1000 40" preserveAspectRatio="none" aria-hidden="true" data-testid="timeline.ticks">
      {[...paths].map(([id, p]) => (
        <path key={id} className={`timeline-tick kind-${p.kind}`} d={p.d} />
      ))}
    </svg>
  );
});

/**
 * The time line of either world: a scrubber over the run with the world's markers. Dragging
 * it or clicking a marker travels in time (the worker restores a checkpoint or replays), so
 * the board and charts show what they showed then. Each world gives its markers, its unit
 * and its step (`src/ui/pipelineWorld.tsx`, `src/worlds/serving/ui/ServingLab.tsx`).
 */
export function Timeline(props: TimelineProps) {
  const { subtitle, position, total, furthest, marks, playing, onSelect, onSeek, onMarker, back, forward, scrubber, legend } = props;
  const labelId = useId();
  const note = useShell((s) => s.timelineNote);
  return (
    <section className="timeline panel" aria-labelledby={labelId} data-testid="timeline" data-furthest={furthest}>
      <div className="timeline-head">
        <h2 id={labelId}>
          Time line <span className="subtle">— {subtitle}</span>
        </h2>
        <div className="timeline-buttons" role="group" aria-label="Travel in time">
          <button type="button" data-testid="timeline.prev-marker" onClick={() => onMarker(-1)} aria-keyshortcuts="Shift+ArrowLeft" title="Previous marker (Shift+←)">
            ⇤ Marker
          </button>
          <button type="button" data-testid="timeline.back" onClick={back.onClick} aria-keyshortcuts="ArrowLeft" title={back.title}>
            {back.label}
          </button>
          <button type="button" data-testid="timeline.forward" onClick={forward.onClick} aria-keyshortcuts="ArrowRight" title={forward.title}>
            {forward.label}
          </button>
          <button type="button" data-testid="timeline.next-marker" onClick={() => onMarker(1)} aria-keyshortcuts="Shift+ArrowRight" title="Next marker (Shift+→)">
            Marker ⇥
          </button>
        </div>
      </div>
      <div className="timeline-track">
        <div className="timeline-explored" style={{ width: pct(furthest, total) }} aria-hidden="true" />
        {playing ? <MarkerTicks marks={marks} total={total} /> : <MarkerButtons marks={marks} total={total} onSelect={onSelect} />}
        <label className="timeline-scrubber">
          <span className="visually-hidden">{scrubber.label}</span>
          <input
            type="range"
            min={0}
            max={Math.max(1, total)}
            step={scrubber.step}
            value={position}
            data-testid="timeline.scrubber"
            aria-valuetext={scrubber.valueText}
            onChange={(e) => onSeek(Number(e.target.value))}
          />
        </label>
      </div>
      <p className="timeline-legend subtle">{legend}</p>
      <p className="timeline-note" role="status" data-testid="timeline.note">
        {note}
      </p>
    </section>
  );
}
