import { useRef, useState, type RefObject } from 'react';
import type { ExportLegendItem } from '../charts/export';
import { downloadBlob, downloadText } from './download';

type ExportFormat = 'png' | 'svg';

const FORMATS: readonly { readonly format: ExportFormat; readonly label: string }[] = [
  { format: 'png', label: 'PNG' },
  { format: 'svg', label: 'SVG' },
];

/**
 * The PNG and SVG buttons of a chart card (both worlds): they download the chart drawn in
 * `host`, with its title and legend drawn in — the chart's HTML legend as it is on screen,
 * or `fallbackLegend` when the chart has drawn none. Test ids `<testId>.png`, `<testId>.svg`.
 */
export function ChartExport({
  title,
  testId,
  host,
  fallbackLegend,
}: {
  readonly title: string;
  readonly testId: string;
  readonly host: RefObject<HTMLElement | null>;
  readonly fallbackLegend: () => ExportLegendItem[];
}) {
  // A PNG takes a moment to encode: ignore clicks meanwhile (the buttons stay enabled, so
  // that a keyboard user's focus is not lost to a disabled button).
  const busy = useRef(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const exportChart = async (format: ExportFormat): Promise<void> => {
    const element = host.current;
    const svg = element?.querySelector<SVGSVGElement>('svg.chart-svg') ?? null;
    if (element == null || svg === null) {
      setExportError('The chart has not been drawn yet; try again in a moment.');
      return;
    }
    if (busy.current) return;
    busy.current = true;
    try {
      // The exporter loads with the first export: the first screen does not need it (ARCHITECTURE §7a′).
      const { chartFileName, chartPngBlob, chartSvgString, legendFromHtml } = await import('../charts/export');
      const shown = legendFromHtml(element);
      const options = { title, legend: shown.length > 0 ? shown : fallbackLegend() };
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
    <>
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
      {exportError !== null && (
        <p className="chart-export-error" role="alert" data-testid={`${testId}.export-error`}>
          {exportError}
        </p>
      )}
    </>
  );
}
