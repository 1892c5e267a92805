import { createConfigChart } from '../charts/configChart';
import { createLatencyBoxChart } from '../charts/latencyBoxChart';
import { createLatencyChart } from '../charts/latencyChart';
import { createSloChart } from '../charts/sloChart';
import { createStagesChart } from '../charts/stagesChart';
import { PipelineChartHost } from './PipelineChartHost';
import { ChartGrid } from '../../../ui/shell/ChartCard';

const CARDS = [
  { id: 'chart.latency', node: <PipelineChartHost title="Latency over time" testId="chart.latency" create={createLatencyChart} /> },
  { id: 'chart.config', node: <PipelineChartHost title="Configuration of the selected lane" testId="chart.config" create={createConfigChart} /> },
  { id: 'chart.stages', node: <PipelineChartHost title="Stage times of the selected lane" testId="chart.stages" create={createStagesChart} /> },
  { id: 'chart.latency-box', node: <PipelineChartHost title="Latency distribution" testId="chart.latency-box" create={createLatencyBoxChart} /> },
  { id: 'chart.slo', node: <PipelineChartHost title="SLO violations (ODIN Figure 9)" testId="chart.slo" create={createSloChart} /> },
] as const;

/** The pipeline lab's other charts, in a grid the person can rearrange and collapse. */
export function PipelineCharts() {
  return (
    <div className="charts-panel" data-testid="charts">
      <ChartGrid cards={CARDS} label="Charts" />
    </div>
  );
}
