import { scaleLinear } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';
import { laneColour } from '../../../charts/palette';
import { MAX_LANES, MAX_POINTS, THEME, createScaffold, formatNumber, mountChart, renderLegend, type ChartOptions, type LegendItem } from '../../../charts/runtime';
import { headroomMax, pointIndices } from '../../../charts/pointSampling';
import { createTimeFrame, drawInterferenceTicks, drawLaneLines, layoutTimeFrame, plotSize, queryDomain, setMessage } from './timeFrame';

/**
 * Measured latency (arrival to completion, queueing and trials included) over the query
 * axis, one line per lane, each point the mean over its bucket of queries, with the
 * interference ticks of the throughput chart.
 */
export function createLatencyChart(host: HTMLElement, store: PipelineLabStore, options: ChartOptions = {}): () => void {
  const height = options.height ?? 260;
  const scaffold = createScaffold(host, 'chart-latency');
  const frame = createTimeFrame(scaffold.svg);
  const x = scaleLinear();
  const y = scaleLinear();

  const draw = (state: PipelineLabState, width: number) => {
    const { innerWidth, innerHeight } = plotSize(width, height);
    const series = state.series.slice(0, MAX_LANES);
    const drawn = series.map((s) => pointIndices(s.length, MAX_POINTS));
    x.domain(queryDomain(series)).range([0, innerWidth]);
    const values = function* () {
      for (let l = 0; l < series.length; l++) for (const i of drawn[l]!) yield series[l]!.columns.latencyMs[i]!;
    };
    y.domain([0, headroomMax(values())]).range([innerHeight, 0]);
    const subtitle = 'Arrival to completion, queueing and trials included';
    layoutTimeFrame(frame, width, height, x, y, { x: 'query', y: 'latency (ms)', subtitle });

    const points = drawLaneLines(frame, series, drawn, 'latencyMs', x, y, state.selectedLane);
    scaffold.svg.attr('data-points', points);
    const interference = drawInterferenceTicks(frame, state.markers.all, x, innerWidth, innerHeight);
    setMessage(frame, width, height, points === 0 ? 'No queries yet: press play or step' : null);

    const labelOf = (l: number) => state.lanes[l]?.label ?? `lane ${l + 1}`;
    const items: LegendItem[] = series.map((_, l) => ({ key: `lane-${l}`, label: labelOf(l), colour: laneColour(l), swatch: 'line' }));
    items.push({ key: 'interference', label: 'interference (mode→EP)', colour: THEME.interference, swatch: 'tick' });
    renderLegend(scaffold.legend, items);

    const latest = series
      .map((s, l) => (s.length > 0 ? `${labelOf(l)} now ${formatNumber(s.columns.latencyMs[s.length - 1]!)} ms` : `${labelOf(l)} no data`))
      .join('; ');
    scaffold.svg.attr(
      'aria-label',
      `Measured latency in milliseconds over queries 0 to ${Math.round(x.domain()[1]!)}, ${series.length} lanes: ${latest || 'no data'}. ${interference} interference changes marked.`,
    );
  };

  const { cleanup } = mountChart(host, store, scaffold.root.node()!, (s) => [s.version, s.selectedLane, s.lanes], draw);
  return cleanup;
}
