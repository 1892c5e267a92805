import type { PipelineMarker } from '../worker/pipelineProtocol';

/** Short text of an interference marker: "E→EP2" (mode E arrives at EP 2), "E←EP2" (it leaves). EPs are 1-based. */
export function markerLabel(marker: PipelineMarker): string {
  const ep = marker.executionPlace === undefined ? '?' : String(marker.executionPlace + 1);
  const mode = marker.mode ?? '?';
  switch (marker.kind) {
    case 'interference-on':
      return `${mode}→EP${ep}`;
    case 'interference-off':
      return `${mode}←EP${ep}`;
    case 'detect':
      return 'detect';
    case 'trial':
      return 'trial';
    case 'install':
      return 'install';
  }
}

/** A sentence for a marker, for tooltips and screen readers. */
export function markerDescription(marker: PipelineMarker): string {
  const ep = marker.executionPlace === undefined ? 'an EP' : `EP ${marker.executionPlace + 1}`;
  const mode = marker.mode ?? '?';
  switch (marker.kind) {
    case 'interference-on':
      return `query ${marker.query}: interference ${mode} arrives at ${ep}`;
    case 'interference-off':
      return `query ${marker.query}: interference ${mode} leaves ${ep}`;
    case 'detect':
      return `query ${marker.query}: the scheduler detects a change`;
    case 'trial':
      return `query ${marker.query}: a trial configuration is measured`;
    case 'install':
      return `query ${marker.query}: the scheduler installs a new configuration`;
  }
}

/** A tick on the time axis: one per pixel column and kind, however many markers fall there. */
export interface PlacedTick {
  readonly x: number;
  readonly kind: PipelineMarker['kind'];
  readonly markers: readonly PipelineMarker[];
  /** The label to draw, or null when it would overlap the previous one. */
  readonly label: string | null;
  readonly labelX: number;
  readonly anchor: 'start' | 'end';
}

export interface TickOptions {
  /** Which markers to place. */
  readonly accept: (marker: PipelineMarker) => boolean;
  /** Pixel x of a query. */
  readonly xOf: (query: number) => number;
  /** Plot width, px: ticks outside [0, width] are dropped. */
  readonly width: number;
  /** Label the ticks (greedily, left to right, skipping those that would overlap). */
  readonly labels?: boolean;
  /** Width of a label, px (default: 7 px per character). */
  readonly measure?: (text: string) => number;
  readonly gapPx?: number;
}

/** Text of a group of markers at one tick: "E→EP2", "E→EP2 F→EP3", or "E→EP2 +2". */
export function groupLabel(markers: readonly PipelineMarker[]): string {
  const texts = [...new Set(markers.map(markerLabel))];
  if (texts.length <= 2) return texts.join(' ');
  return `${texts[0]} +${texts.length - 1}`;
}

/**
 * Places marker ticks on a time axis so that their number is bounded by the plot's width,
 * whatever the number of markers: markers of the same kind in the same pixel column share a
 * tick. Labels are kept left to right when they do not overlap the last kept label; a label
 * that would run past the right edge is drawn to the left of its tick instead.
 */
export function placeTicks(markers: readonly PipelineMarker[], options: TickOptions): PlacedTick[] {
  const { accept, xOf, width, labels = false, measure = (text: string) => text.length * 7, gapPx = 8 } = options;
  const groups = new Map<string, { x: number; kind: PipelineMarker['kind']; markers: PipelineMarker[] }>();
  for (const m of markers) {
    if (!accept(m)) continue;
    const x = xOf(m.query);
    if (!(x >= -0.5 && x <= width + 0.5)) continue;
    const column = Math.round(x);
    const key = `${m.kind}:${column}`;
    const group = groups.get(key);
    if (group) group.markers.push(m);
    else groups.set(key, { x: column, kind: m.kind, markers: [m] });
  }
  const sorted = [...groups.values()].sort((a, b) => a.x - b.x);
  let lastRight = Number.NEGATIVE_INFINITY;
  return sorted.map((g) => {
    if (!labels) return { ...g, label: null, labelX: g.x, anchor: 'start' as const };
    const text = groupLabel(g.markers);
    const w = measure(text);
    let left = g.x + 3;
    let anchor: 'start' | 'end' = 'start';
    if (left + w > width) {
      left = g.x - 3 - w;
      anchor = 'end';
    }
    if (left < 0 || left < lastRight + gapPx) return { ...g, label: null, labelX: g.x, anchor };
    lastRight = left + w;
    return { ...g, label: text, labelX: anchor === 'start' ? g.x + 3 : g.x - 3, anchor };
  });
}
