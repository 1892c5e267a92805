import { createConfigChart } from '../../charts/pipeline/configChart';
import { createLatencyBoxChart } from '../../charts/pipeline/latencyBoxChart';
import { createLatencyChart } from '../../charts/pipeline/latencyChart';
import { createSloChart } from '../../charts/pipeline/sloChart';
import { createStagesChart } from '../../charts/pipeline/stagesChart';
import { PipelineChartHost } from './PipelineChartHost';
import { ChartGrid } from '../shell/ChartCard';

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
