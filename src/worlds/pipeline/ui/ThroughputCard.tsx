import { createThroughputChart } from '../charts/throughputChart';
import type { PipelineUiSlice } from '../store/pipelineStore';
import { PipelineChartHost, type CreatePipelineChart } from './PipelineChartHost';
import { usePipelineLab, usePipelineStore } from './pipelineContext';

const VIEWS: readonly { readonly view: PipelineUiSlice['throughputView']; readonly label: string }[] = [
  { view: 'measured', label: 'Measured' },
  { view: 'config', label: 'Configuration' },
];

/** The measured / configuration toggle of the throughput chart (ARCHITECTURE §2). */
function ThroughputView() {
  const store = usePipelineStore();
  const view = usePipelineLab((s) => s.throughputView);
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

/** The main chart's plot is a little lower than the grid's, so that it fits the first screen under the board at 1440 × 900 (ARCHITECTURE §7a′). */
const MAIN_CHART_HEIGHT_PX = 256;
const createMainThroughputChart: CreatePipelineChart = (host, store) => createThroughputChart(host, store, { height: MAIN_CHART_HEIGHT_PX });
/**
 * In presentation the chart is drawn 1.5× larger (app.css zooms its host): drawn this low, it is
 * shown about as high as MAIN_CHART_HEIGHT_PX, under the board on a 1280 × 720 projector.
 */
const PRESENTATION_CHART_HEIGHT_PX = 140;
const createPresentedThroughputChart: CreatePipelineChart = (host, store) => createThroughputChart(host, store, { height: PRESENTATION_CHART_HEIGHT_PX });

/** The pipeline lab's main chart: throughput over time, with what its two views mean. */
export function ThroughputCard() {
  const presenting = usePipelineLab((s) => s.view.mode === 'presentation');
  return (
    <PipelineChartHost
      title="Throughput over time"
      testId="chart.throughput"
      create={presenting ? createPresentedThroughputChart : createMainThroughputChart}
      controls={<ThroughputView />}
      caption={
        <span className="charts-explain">
          <strong>Measured</strong>: queries completed per simulated second, trials included. <strong>Configuration</strong>:{' '}
          <abbr title="T(C) = 1 / max tᵢ: the throughput of configuration C, one query per time of its slowest stage tᵢ (ODIN §3.3)">T(C)</abbr> = 1 / max tᵢ of each query&apos;s
          configuration (ODIN&apos;s figures).
        </span>
      }
    />
  );
}
