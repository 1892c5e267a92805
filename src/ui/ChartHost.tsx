import { useEffect, useId, useRef, useState } from 'react';
import { chartFileName, chartPngBlob, chartSvgString, legendFromHtml, type ExportLegendItem } from '../charts/export';
import { laneColour } from '../charts/palette';
import type { LabStore } from '../store/labStore';
import { downloadBlob, downloadText } from './download';
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
  readonly create: CreateChart;
}

type ExportFormat = 'png' | 'svg';

const FORMATS: readonly { readonly format: ExportFormat; readonly label: string }[] = [
  { format: 'png', label: 'PNG' },
  { format: 'svg', label: 'SVG' },
];

/**
 * The legend an export draws: the chart's HTML legend as it is on screen (lanes plus the
 * chart's own entries: peak, optimum, execution places, interference…, with their swatch
 * kinds), or, when the chart has drawn none, one line per lane in its palette colour.
 */
function exportLegend(host: HTMLElement, store: LabStore): ExportLegendItem[] {
  const shown = legendFromHtml(host);
  if (shown.length > 0) return shown;
  return store.getState().lanes.map((lane, i) => ({ label: lane.label, colour: laneColour(i), swatch: 'line' }));
}

/**
 * A figure that hosts one imperative D3 chart: React renders the frame once, the chart owns
 * everything inside the host div and follows the store by itself (ARCHITECTURE §8: charts subscribe,
 * React does not re-render per frame). The caption row has buttons that download the chart
 * as PNG or SVG, with its title and legend drawn in.
 */
export function ChartHost({ title, testId, create }: ChartHostProps) {
  const store = useLabStore();
  const hostRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  // A PNG takes a moment to encode: ignore clicks meanwhile (the buttons stay enabled, so
  // that a keyboard user's focus is not lost to a disabled button).
  const busy = useRef(false);
  const [exportError, setExportError] = useState<string | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (host === null) return undefined;
    return create(host, store);
  }, [create, store]);

  const exportChart = async (format: ExportFormat): Promise<void> => {
    const host = hostRef.current;
    const svg = host?.querySelector<SVGSVGElement>('svg.chart-svg') ?? null;
    if (host === null || svg === null) {
      setExportError('The chart has not been drawn yet; try again in a moment.');
      return;
    }
    if (busy.current) return;
    busy.current = true;
    try {
      const options = { title, legend: exportLegend(host, store) };
      if (format === 'svg') downloadText(chartFileName(title, 'svg'), chartSvgString(svg, options), 'image/svg+xml');
      else downloadBlob(chartFileName(title, 'png'), await chartPngBlob(svg, options));
      setExportError(null);
    } catch (error) {
      setExportError(`Could not export the chart: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      busy.current = false;
    }
  };

  return (
    <figure className="chart-figure" data-testid={testId} aria-labelledby={headingId}>
      <figcaption className="chart-caption">
        <h3 id={headingId} className="chart-title">
          {title}
        </h3>
        <span className="chart-export">
          {FORMATS.map(({ format, label }) => (
            <button
              key={format}
              type="button"
              className="chart-export-button"
              data-testid={`${testId}.${format}`}
              aria-label={`Download ${title} as ${label}`}
              title={`Download as ${label}`}
              onClick={() => void exportChart(format)}
            >
              {label}
            </button>
          ))}
        </span>
      </figcaption>
      {exportError !== null && (
        <p className="chart-export-error" role="alert" data-testid={`${testId}.export-error`}>
          {exportError}
        </p>
      )}
      <div ref={hostRef} className="chart-host" />
    </figure>
  );
}
