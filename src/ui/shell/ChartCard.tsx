import { createContext, useContext, useId, type ReactNode, type RefObject } from 'react';
import type { ExportLegendItem } from '../../charts/export';
import { ChartExport } from '../ChartExport';
import { arrangedOrder, moveChart, setChartCollapsed, useChartLayout } from './chartLayout';
import '../charts.css';

/** The ids of the grid a card sits in (its siblings), so that it can move among them. */
const ChartGridContext = createContext<readonly string[] | null>(null);

export interface ChartCardProps {
  readonly title: string;
  /** Dotted test id of the figure, e.g. "chart.throughput"; its buttons are `<testId>.png`, `.svg`, `.collapse`. */
  readonly testId: string;
  /** The element the chart module draws in. */
  readonly host: RefObject<HTMLDivElement | null>;
  /** The export's legend when the chart has drawn none on screen. */
  readonly fallbackLegend: () => ExportLegendItem[];
  /** A sentence under the title. */
  readonly caption?: ReactNode | undefined;
  /** Controls beside the title (a view toggle, a sweep's progress). */
  readonly controls?: ReactNode | undefined;
  /** `data-*` attributes of the figure (values tests read). */
  readonly attributes?: Readonly<Record<`data-${string}`, string | number>> | undefined;
}

/**
 * The one chart card of both worlds: a figure with its title, controls, PNG/SVG export and,
 * in a chart grid, buttons to collapse it and move it earlier or later (remembered in this
 * browser, `chartLayout.ts`). A collapsed card keeps its chart mounted (it follows the store
 * and is drawn again when opened), only its host is hidden.
 */
export function ChartCard({ title, testId, host, fallbackLegend, caption, controls, attributes }: ChartCardProps) {
  const headingId = useId();
  const grid = useContext(ChartGridContext);
  const layout = useChartLayout();
  const collapsed = grid !== null && layout.collapsed.includes(testId);
  const order = grid === null ? [] : arrangedOrder(grid, layout.order);
  const index = order.indexOf(testId);
  return (
    <figure className={`chart-figure${collapsed ? ' collapsed' : ''}`} data-testid={testId} data-collapsed={collapsed} aria-labelledby={headingId} {...attributes}>
      <figcaption>
        <div className="chart-caption">
          <h3 id={headingId} className="chart-title">
            {title}
          </h3>
          {controls === undefined || controls === null ? null : <div className="chart-controls">{controls}</div>}
          <ChartExport title={title} testId={testId} host={host} fallbackLegend={fallbackLegend} />
          {grid === null ? null : (
            <span className="chart-arrange">
              <button type="button" className="chart-export-button" data-testid={`${testId}.earlier`} disabled={index <= 0} onClick={() => moveChart(grid, testId, -1)} aria-label={`Move ${title} earlier`} title="Move earlier">
                ◂
              </button>
              <button
                type="button"
                className="chart-export-button"
                data-testid={`${testId}.later`}
                disabled={index < 0 || index >= order.length - 1}
                onClick={() => moveChart(grid, testId, 1)}
                aria-label={`Move ${title} later`}
                title="Move later"
              >
                ▸
              </button>
              <button
                type="button"
                className="chart-export-button"
                data-testid={`${testId}.collapse`}
                aria-expanded={!collapsed}
                aria-label={`${collapsed ? 'Open' : 'Collapse'} ${title}`}
                title={collapsed ? 'Open' : 'Collapse'}
                onClick={() => setChartCollapsed(testId, !collapsed)}
              >
                {collapsed ? '+' : '−'}
              </button>
            </span>
          )}
        </div>
        {caption === undefined || caption === null || collapsed ? null : <p className="chart-note">{caption}</p>}
      </figcaption>
      <div ref={host} className="chart-host" hidden={collapsed} />
    </figure>
  );
}

/**
 * A grid of chart cards the person can rearrange and collapse: `cards` in the world's order,
 * shown in the order the person chose. Moving a card moves its DOM node (keyed), so its
 * chart is not drawn from scratch.
 */
export function ChartGrid({ cards, label, testId }: { readonly cards: readonly { readonly id: string; readonly node: ReactNode }[]; readonly label: string; readonly testId?: string }) {
  const layout = useChartLayout();
  const ids = cards.map((c) => c.id);
  const order = arrangedOrder(ids, layout.order);
  const byId = new Map(cards.map((c) => [c.id, c.node]));
  return (
    <ChartGridContext.Provider value={ids}>
      <div className="charts-grid shell-charts-grid" role="group" aria-label={label} data-testid={testId}>
        {order.map((id) => (
          <div key={id} className="chart-slot">
            {byId.get(id)}
          </div>
        ))}
      </div>
    </ChartGridContext.Provider>
  );
}
