import { useEffect, useId, useRef } from 'react';
import { laneColour } from '../charts/palette';
import type { LabStore } from '../store/labStore';
import { ChartExport } from './ChartExport';
import { whenNearOrIdle } from './deferred';
import { useLabStore } from './labContext';
import './charts.css';

/** A chart module's entry point: builds its SVG in `host`, returns the cleanup. */
export type CreateChart = (host: HTMLElement, store: LabStore) => () => void;

export interface ChartHostProps {
  /** Shown as the figure's caption (a level-3 heading). */
  readonly title: string;
  /** Dotted test id of the figure, e.g. "chart.throughput". */
  readonly testId: string;
  /** The chart module, e.g. `createThroughputChart`. Keep it stable (a module function). */
  readonly create?: CreateChart;
  /**
   * Instead of `create`, for a chart below the first screen: fetches the chart module when the
   * figure nears the viewport or the browser is idle (`deferred.tsx`), so that its code is not
   * part of the page's first load. Keep it stable too.
   */
  readonly load?: () => Promise<CreateChart>;
}

/**
 * A figure that hosts one imperative D3 chart: React renders the frame once, the chart owns
 * everything inside the host div and follows the store by itself (ARCHITECTURE §8: charts subscribe,
 * React does not re-render per frame). The caption row has buttons that download the chart
 * as PNG or SVG, with its title and legend drawn in (without a legend on screen, one line
 * per lane in its palette colour).
 */
export function ChartHost({ title, testId, create, load }: ChartHostProps) {
  const store = useLabStore();
  const hostRef = useRef<HTMLDivElement>(null);
  const headingId = useId();

  useEffect(() => {
    const host = hostRef.current;
    if (host === null) return undefined;
    if (create !== undefined) return create(host, store);
    if (load === undefined) return undefined;
    let cleanup: (() => void) | null = null;
    let live = true;
    const cancel = whenNearOrIdle(host, () =>
      void load().then((made) => {
        if (live) cleanup = made(host, store);
      }),
    );
    return () => {
      live = false;
      cancel();
      cleanup?.();
    };
  }, [create, load, store]);

  return (
    <figure className="chart-figure" data-testid={testId} aria-labelledby={headingId}>
      <figcaption className="chart-caption">
        <h3 id={headingId} className="chart-title">
          {title}
        </h3>
        <ChartExport title={title} testId={testId} host={hostRef} fallbackLegend={() => store.getState().lanes.map((lane, i) => ({ label: lane.label, colour: laneColour(i), swatch: 'line' }))} />
      </figcaption>
      <div ref={hostRef} className="chart-host" />
    </figure>
  );
}
