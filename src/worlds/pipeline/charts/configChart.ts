import { area, curveStepAfter, scaleLinear } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';
import { laneColour, stageColour } from '../../../charts/palette';
import { MAX_POINTS, THEME, createScaffold, mountChart, renderLegend, type ChartOptions, type LegendItem } from '../../../charts/runtime';
import { plottable, pointIndices } from '../../../charts/pointSampling';
import { compactLegend, stackCounts } from '../../../charts/stack';
import { createTimeFrame, drawInterferenceTicks, layoutTimeFrame, plotSize, queryDomain, setMessage } from './timeFrame';

/** Legend entries for the stages before the rest are summarised as "…". */
export const STAGE_LEGEND_MAX = 8;

/**
 * The selected lane's configuration over the query axis: stacked areas of units per stage
 * (EP 1 at the bottom), stepped because a configuration holds until the next one is
 * installed, with interference ticks at the top.
 */
export function createConfigChart(host: HTMLElement, store: PipelineLabStore, options: ChartOptions = {}): () => void {
  const height = options.height ?? 260;
  const scaffold = createScaffold(host, 'chart-config');
  const frame = createTimeFrame(scaffold.svg);
  const x = scaleLinear();
  const y = scaleLinear();
  let cumulative: Float64Array = new Float64Array(0);

  const draw = (state: PipelineLabState, width: number) => {
    const { innerWidth, innerHeight } = plotSize(width, height);
    const lane = state.selectedLane;
    const s = state.series[lane];
    const stages = s?.stages ?? state.stages;
    const length = s?.length ?? 0;
    // One point per pixel column is all a stepped area can show; it keeps 64 stages cheap.
    const drawn = pointIndices(length, Math.min(MAX_POINTS, Math.max(64, Math.ceil(innerWidth))));
    if (s && length > 0) {
      cumulative = stackCounts(s.counts, stages, length, cumulative);
    }
    const width1 = stages + 1;
    const units = s && length > 0 ? cumulative[(length - 1) * width1 + stages]! : state.layers.length;
    x.domain(queryDomain(state.series)).range([0, innerWidth]);
    y.domain([0, Math.max(1, units)]).range([innerHeight, 0]);
    const label = state.lanes[lane]?.label ?? `lane ${lane + 1}`;
    layoutTimeFrame(frame, width, height, x, y, {
      x: 'query',
      y: 'units per stage',
      subtitle: `${label}: ${units} units over ${stages} stages, EP 1 at the bottom`,
    });

    const bands = s && length > 0 ? Array.from({ length: stages }, (_, k) => k) : [];
    const q = s?.columns.query;
    frame.areas
      .selectAll<SVGPathElement, number>('path')
      .data(bands)
      .join('path')
      .attr('fill', (k) => stageColour(k, stages))
      // Crisp edges: no anti-aliased seams between neighbouring bands at the steps.
      .attr('shape-rendering', 'crispEdges')
      .attr('d', (k) =>
        area<number>()
          .curve(curveStepAfter)
          .defined((i) => plottable(q![i]!))
          .x((i) => x(q![i]!))
          .y0((i) => y(cumulative[i * width1 + k]!))
          .y1((i) => y(cumulative[i * width1 + k + 1]!))(drawn) ?? '',
      );
    scaffold.svg.attr('data-points', bands.length > 0 ? drawn.length : 0);
    const markers = state.markers.all;
    drawInterferenceTicks(frame, markers, x, innerWidth, innerHeight);
    setMessage(frame, width, height, bands.length === 0 ? 'No queries yet: press play or step' : null);

    const { shown, hidden } = compactLegend(stages, STAGE_LEGEND_MAX);
    const items: LegendItem[] = [
      { key: 'lane', label, colour: laneColour(lane), swatch: 'circle', title: 'selected lane' },
      ...shown.map((k): LegendItem => ({ key: `ep-${k}`, label: `EP ${k + 1}`, colour: stageColour(k, stages), swatch: 'area' })),
    ];
    if (hidden > 0) items.push({ key: 'more', label: `… EP ${stages} (${hidden} more)`, colour: '', swatch: 'text' });
    items.push({ key: 'interference', label: 'interference (mode→EP)', colour: THEME.interference, swatch: 'tick' });
    renderLegend(scaffold.legend, items);

    let now = '';
    if (s && length > 0 && stages <= 16) now = Array.from(s.countsAt(length - 1)).join(', ');
    scaffold.svg.attr(
      'aria-label',
      `Configuration of ${label} over queries 0 to ${Math.round(x.domain()[1]!)}: units per stage stacked for ${stages} stages. ` +
        (length === 0 ? 'No data yet.' : now ? `Now ${now} units on EP 1 to EP ${stages}.` : ''),
    );
  };

  const { cleanup } = mountChart(host, store, scaffold.root.node()!, (s) => [s.version, s.selectedLane, s.lanes, s.stages], draw);
  return cleanup;
}
