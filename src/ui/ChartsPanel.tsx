import { useId } from 'react';
import { createLatencyChart } from '../charts/latencyChart';
import { createThroughputChart } from '../charts/throughputChart';
import type { UiSlice } from '../store/labStore';
import { ChartHost } from './ChartHost';
import { useLab, useLabStore } from './labContext';
import './charts.css';

// The charts below the first screen (at 1440 × 900 the throughput and latency charts start on
// it, these four below) load when they near the viewport or the browser is first idle (issue 12 part 6).
const loadConfigChart = () => import('../charts/configChart').then((m) => m.createConfigChart);
const loadStagesChart = () => import('../charts/stagesChart').then((m) => m.createStagesChart);
const loadLatencyBoxChart = () => import('../charts/latencyBoxChart').then((m) => m.createLatencyBoxChart);
const loadSloChart = () => import('../charts/sloChart').then((m) => m.createSloChart);

const VIEWS: readonly { readonly view: UiSlice['throughputView']; readonly label: string }[] = [
  { view: 'measured', label: 'Measured' },
  { view: 'config', label: 'Configuration' },
];

/**
 * The lab's charts in a responsive grid (two columns when the panel is wide, one when it is
 * narrow), with the throughput view toggle and what the two views mean (ARCHITECTURE §2). Not a
 * landmark itself: the page wraps it in its own `<section aria-label="Charts">`.
 */
export function ChartsPanel() {
  const store = useLabStore();
  const view = useLab((s) => s.throughputView);
  const headingId = useId();

  return (
    <div className="charts-panel" role="group" aria-labelledby={headingId} data-testid="charts">
      <div className="charts-header">
        <h2 id={headingId}>Charts</h2>
        <div className="chart-toggle" role="group" aria-label="Throughput view" data-testid="charts.throughput-view">
          {VIEWS.map(({ view: v, label }) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              data-testid={`charts.throughput-view.${v}`}
              onClick={() => store.getState().setThroughputView(v)}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      <p className="charts-explain">
        <strong>Measured</strong>: completed queries per simulated second, trials included.{' '}
        <strong>Configuration</strong>: T(C) = 1 / max tᵢ of the configuration that served each query, as the ODIN paper
        plots.
      </p>
      <div className="charts-grid">
        <ChartHost title="Throughput over time" testId="chart.throughput" create={createThroughputChart} />
        <ChartHost title="Latency over time" testId="chart.latency" create={createLatencyChart} />
        <ChartHost title="Configuration of the selected lane" testId="chart.config" load={loadConfigChart} />
        <ChartHost title="Stage times of the selected lane" testId="chart.stages" load={loadStagesChart} />
        <ChartHost title="Latency distribution" testId="chart.latency-box" load={loadLatencyBoxChart} />
        <ChartHost title="SLO violations (ODIN Figure 9)" testId="chart.slo" load={loadSloChart} />
      </div>
    </div>
  );
}
