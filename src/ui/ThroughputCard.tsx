import { createConfigChart } from '../charts/configChart';
import { createLatencyBoxChart } from '../charts/latencyBoxChart';
import { createLatencyChart } from '../charts/latencyChart';
import { createSloChart } from '../charts/sloChart';
import { createStagesChart } from '../charts/stagesChart';
import { createThroughputChart } from '../charts/throughputChart';
import type { UiSlice } from '../store/labStore';
import { ChartHost } from './ChartHost';
import { useLab, useLabStore } from './labContext';
import { ChartGrid } from './shell/ChartCard';

const VIEWS: readonly { readonly view: UiSlice['throughputView']; readonly label: string }[] = [
  { view: 'measured', label: 'Measured' },
  { view: 'config', label: 'Configuration' },
];

/** The measured / configuration toggle of the throughput chart (ARCHITECTURE §2). */
function ThroughputView() {
  const store = useLabStore();
  const view = useLab((s) => s.throughputView);
  return (
    <div className="chart-toggle" role="group" aria-label="Throughput view" data-testid="charts.throughput-view">
      {VIEWS.map(({ view: v, label }) => (
        <button key={v} type="button" aria-pressed={view === v} data-testid={`charts.throughput-view.${v}`} onClick={() => store.getState().setThroughputView(v)}>
          {label}
        </button>
      ))}
    </div>
  );
}

/** The pipeline lab's main chart: throughput over time, with what its two views mean. */
export function ThroughputCard() {
  return (
    <ChartHost
      title="Throughput over time"
      testId="chart.throughput"
      create={createThroughputChart}
      controls={<ThroughputView />}
      caption={
        <span className="charts-explain">
          <strong>Measured</strong>: completed queries per simulated second, trials included. <strong>Configuration</strong>: T(C) = 1 / max tᵢ of the configuration that served
          each query, as the ODIN paper plots.
        </span>
      }
    />
  );
}

const CARDS = [
  { id: 'chart.latency', node: <ChartHost title="Latency over time" testId="chart.latency" create={createLatencyChart} /> },
  { id: 'chart.config', node: <ChartHost title="Configuration of the selected lane" testId="chart.config" create={createConfigChart} /> },
  { id: 'chart.stages', node: <ChartHost title="Stage times of the selected lane" testId="chart.stages" create={createStagesChart} /> },
  { id: 'chart.latency-box', node: <ChartHost title="Latency distribution" testId="chart.latency-box" create={createLatencyBoxChart} /> },
  { id: 'chart.slo', node: <ChartHost title="SLO violations (ODIN Figure 9)" testId="chart.slo" create={createSloChart} /> },
] as const;

/** The pipeline lab's other charts, in a grid the person can rearrange and collapse. */
export function PipelineCharts() {
  return (
    <div className="charts-panel" data-testid="charts">
      <ChartGrid cards={CARDS} label="Charts" />
    </div>
  );
}
