import { curveStepAfter, line, scaleLinear } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';
import { laneColour } from '../../../charts/palette';
import { MAX_LANES, MAX_POINTS, THEME, createScaffold, formatNumber, haloText, mountChart, renderLegend, type ChartOptions, type LegendItem } from '../../../charts/runtime';
import { headroomMax, pointIndices, plottable } from '../../../charts/pointSampling';
import { createTimeFrame, drawInterferenceTicks, drawLaneLines, drawLaneTicks, layoutTimeFrame, plotSize, queryDomain, setMessage } from './timeFrame';

/** What the two throughput views show (ARCHITECTURE §2), as the chart's subtitle. */
export const THROUGHPUT_VIEW_SUBTITLE = {
  config: 'Configuration view: T(C) = 1 / max tᵢ per query',
  measured: 'Measured view: completed queries per simulated second',
} as const;

/**
 * Throughput over the query axis, one line per lane (configuration or measured view, as the
 * store's `throughputView` says), with the peak (dashed) and the current optimum (stepped,
 * lane 0's `optimalQps`) as references, interference ticks at the top and the selected
 * lane's detect/install ticks at the bottom. The SVG's `data-points` is the number of
 * points drawn, summed over lanes.
 */
export function createThroughputChart(host: HTMLElement, store: PipelineLabStore, options: ChartOptions = {}): () => void {
  const height = options.height ?? 300;
  const scaffold = createScaffold(host, 'chart-throughput');
  const frame = createTimeFrame(scaffold.svg);
  const peakLine = frame.refs
    .append('line')
    .style('stroke', THEME.peak)
    .attr('stroke-width', 1.5)
    .attr('stroke-dasharray', '6 4');
  const optimumPath = frame.refs.append('path').attr('fill', 'none').style('stroke', THEME.optimum).attr('stroke-width', 1.5).attr('stroke-opacity', 0.85);
  const peakLabel = haloText(frame.labels.append('text')).attr('text-anchor', 'end').text('peak');
  const optimumLabel = haloText(frame.labels.append('text')).attr('text-anchor', 'end').text('optimum');
  const x = scaleLinear();
  const y = scaleLinear();

  const draw = (state: PipelineLabState, width: number) => {
    const { innerWidth, innerHeight } = plotSize(width, height);
    const view = state.throughputView;
    const column = view === 'config' ? 'configQps' : 'measuredQps';
    const series = state.series.slice(0, MAX_LANES);
    const reference = series[0];
    const drawn = series.map((s) => pointIndices(s.length, MAX_POINTS));
    const optimumIdx = reference ? pointIndices(reference.length, MAX_POINTS) : [];

    x.domain(queryDomain(series)).range([0, innerWidth]);
    const values = function* () {
      for (let l = 0; l < series.length; l++) for (const i of drawn[l]!) yield series[l]!.columns[column][i]!;
      if (reference) for (const i of optimumIdx) yield reference.columns.optimalQps[i]!;
      yield state.peakQps;
    };
    y.domain([0, headroomMax(values())]).range([innerHeight, 0]);
    layoutTimeFrame(frame, width, height, x, y, { x: 'query', y: 'throughput (queries/s)', subtitle: THROUGHPUT_VIEW_SUBTITLE[view] });

    const points = drawLaneLines(frame, series, drawn, column, x, y, state.selectedLane);
    scaffold.svg.attr('data-points', points);

    const peakVisible = plottable(state.peakQps) && state.peakQps > 0;
    const yPeak = peakVisible ? y(state.peakQps) : 0;
    peakLine.attr('display', peakVisible ? null : 'none').attr('x1', 0).attr('x2', innerWidth).attr('y1', yPeak).attr('y2', yPeak);
    peakLabel.attr('display', peakVisible ? null : 'none').attr('x', innerWidth - 2).attr('y', yPeak - 5);
    let optimumNow = Number.NaN;
    if (reference && optimumIdx.length > 0) {
      const q = reference.columns.query;
      const o = reference.columns.optimalQps;
      optimumNow = o[reference.length - 1]!;
      optimumPath.attr(
        'd',
        line<number>()
          .defined((i) => plottable(o[i]!) && plottable(q[i]!))
          .curve(curveStepAfter)
          .x((i) => x(q[i]!))
          .y((i) => y(o[i]!))(optimumIdx),
      );
      // Below its line: the optimum never exceeds the peak, so the two labels do not collide.
      const optimumShown = plottable(optimumNow);
      optimumLabel.attr('display', optimumShown ? null : 'none').attr('x', innerWidth - 2).attr('y', optimumShown ? y(optimumNow) + 15 : 0);
    } else {
      optimumPath.attr('d', null);
      optimumLabel.attr('display', 'none');
    }

    const markers = state.markers.all;
    const interference = drawInterferenceTicks(frame, markers, x, innerWidth, innerHeight);
    const selected = state.selectedLane;
    drawLaneTicks(frame, markers, selected, laneColour(selected), x, innerWidth, innerHeight);
    setMessage(frame, width, height, points === 0 ? 'No queries yet: press play or step' : null);

    const labelOf = (l: number) => state.lanes[l]?.label ?? `lane ${l + 1}`;
    const items: LegendItem[] = series.map((_, l) => ({ key: `lane-${l}`, label: labelOf(l), colour: laneColour(l), swatch: 'line' }));
    items.push(
      { key: 'peak', label: 'peak', colour: THEME.peak, swatch: 'dashed', title: 'interference-free optimum throughput' },
      { key: 'optimum', label: 'optimum', colour: THEME.optimum, swatch: 'step', title: 'best configuration for the current interference' },
      { key: 'interference', label: 'interference (mode→EP)', colour: THEME.interference, swatch: 'tick' },
    );
    if (selected < series.length) {
      items.push(
        { key: 'detect', label: `detect (${labelOf(selected)})`, colour: laneColour(selected), swatch: 'tick' },
        { key: 'install', label: 'install', colour: laneColour(selected), swatch: 'dot' },
      );
    }
    renderLegend(scaffold.legend, items);

    const latest = series
      .map((s, l) => (s.length > 0 ? `${labelOf(l)} now ${formatNumber(s.columns[column][s.length - 1]!)}` : `${labelOf(l)} no data`))
      .join('; ');
    scaffold.svg.attr(
      'aria-label',
      `Throughput in queries per second over queries 0 to ${Math.round(x.domain()[1]!)}, ${view === 'config' ? 'configuration' : 'measured'} view, ${series.length} lanes: ${latest || 'no data'}. ` +
        `Peak ${formatNumber(state.peakQps)}${plottable(optimumNow) ? `, current optimum ${formatNumber(optimumNow)}` : ''}. ${interference} interference changes marked.`,
    );
  };

  const { cleanup } = mountChart(host, store, scaffold.root.node()!, (s) => [s.version, s.throughputView, s.selectedLane, s.lanes, s.peakQps], draw);
  return cleanup;
}
