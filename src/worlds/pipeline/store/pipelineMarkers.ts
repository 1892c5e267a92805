import type { PipelineEventView, PipelineMarker } from '../worker/pipelineProtocol';

/**
 * The time line's markers as a person steps through them (Shift+← →, the Marker buttons): a
 * rebalancing's trials folded under its detection (ODIN α=10 tries about a dozen configurations,
 * and going back over one took as many presses, issue 37), unless the person unfolds them; and the
 * scenario's scheduled interference from the start, before the run has reached it.
 */
export interface FoldedMarkers {
  /** The markers to show and step through, in the order of their query. */
  readonly markers: readonly PipelineMarker[];
  /** Trials folded under each detection, by `markerKey` of the detection. */
  readonly trials: ReadonlyMap<string, number>;
}

/** A marker's identity (kind, query, lane, EP). */
export function markerKey(m: PipelineMarker): string {
  return `${m.kind}-${m.query}-${m.lane}-${m.executionPlace ?? ''}`;
}

/**
 * Folds each lane's trials under the detection that started its rebalancing (the last detection of
 * that lane before them); `unfold` keeps them. A trial with no detection before it in the list (the
 * list keeps the newest markers only) stays.
 */
export function foldTrials(markers: readonly PipelineMarker[], unfold = false): FoldedMarkers {
  const trials = new Map<string, number>();
  if (unfold) return { markers, trials };
  const lastDetect = new Map<number, string>();
  const kept: PipelineMarker[] = [];
  for (const m of markers) {
    if (m.kind === 'detect') lastDetect.set(m.lane, markerKey(m));
    const under = m.kind === 'trial' ? lastDetect.get(m.lane) : undefined;
    if (under === undefined) kept.push(m);
    else trials.set(under, (trials.get(under) ?? 0) + 1);
  }
  return { markers: kept, trials };
}

/**
 * The scenario's scheduled interference (its events' arrivals and departures) that the run has
 * not reached yet, as markers of every lane: on the time line from the start.
 */
export function scheduledMarkers(events: readonly PipelineEventView[], furthest: number): PipelineMarker[] {
  const out: PipelineMarker[] = [];
  for (const e of events) {
    // The run marks a change at the query whose modes differ from the one before: `fromQuery` and `toQuery` (pipelineSession.ts).
    if (e.fromQuery >= furthest) out.push({ query: e.fromQuery, kind: 'interference-on', lane: -1, executionPlace: e.executionPlace, mode: e.mode });
    if (e.toQuery !== null && e.toQuery >= furthest) out.push({ query: e.toQuery, kind: 'interference-off', lane: -1, executionPlace: e.executionPlace, mode: e.mode });
  }
  return out.sort((a, b) => a.query - b.query);
}
