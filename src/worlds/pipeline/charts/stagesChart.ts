import { axisBottom, axisLeft, color, scaleBand, scaleLinear } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';
import { laneColour } from '../../../charts/palette';
import { CHAR_PX, FONT_PX, THEME, callAxis, compactTickFormat, createScaffold, formatNumber, haloText, mountChart, textMeasurer, renderLegend, type ChartOptions } from '../../../charts/runtime';
import { fitText, headroomMax, plottable } from '../../../charts/pointSampling';

const MARGIN = { top: 30, right: 18, bottom: 44, left: 64 } as const;

/** Index of the largest value (the first one on ties), or -1 when there is none. */
export function argMax(values: ArrayLike<number>): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (best === -1 || values[i]! > values[best]!) best = i;
  return best;
}

/** Every how many bands an axis label fits, for `n` bands of `bandPx` each with labels of `labelPx`. */
export function labelEvery(bandPx: number, labelPx: number): number {
  if (!(bandPx > 0)) return 1;
  const raw = Math.ceil((labelPx + 6) / bandPx);
  // Steps of 1, 2, 5, 10, 20 … so that the labelled EPs are easy to count.
  for (const step of [1, 2, 4, 5, 8, 10, 16, 20, 32, 50, 64, 100]) if (step >= raw) return step;
  return raw;
}

/**
 * The selected lane's stage times right now, one bar per EP (2 … 64), the bottleneck bar in
 * a darker fill with its time, and a dashed line at the bottleneck of the optimum for the
 * current interference.
 */
export function createStagesChart(host: HTMLElement, store: PipelineLabStore, options: ChartOptions = {}): () => void {
  const height = options.height ?? 260;
  const scaffold = createScaffold(host, 'chart-stages');
  const svg = scaffold.svg;
  const subtitle = svg.append('text').attr('x', 0).attr('y', 14).style('fill', THEME.text);
  const main = svg.append('g');
  const grid = main.append('g');
  const bars = main.append('g');
  const optimumLine = main.append('line').style('stroke', THEME.optimum).attr('stroke-width', 1.5).attr('stroke-dasharray', '6 4');
  const xAxis = main.append('g');
  const yAxis = main.append('g');
  const bottleneckLabel = haloText(main.append('text')).attr('font-weight', 600);
  const bottleneckValue = main.append('text').attr('font-weight', 600);
  const optimumLabel = haloText(main.append('text'));
  const xLabel = main.append('text').attr('text-anchor', 'end').style('fill', THEME.text).text('execution place (EP)');
  const yLabel = main.append('text').attr('text-anchor', 'middle').attr('transform', 'rotate(-90)').style('fill', THEME.text).text('stage time (ms)');
  const message = main.append('text').attr('text-anchor', 'middle').style('fill', THEME.text).style('font-size', `${FONT_PX + 2}px`);
  const x = scaleBand<number>().paddingInner(0.15).paddingOuter(0.1);
  const measure = textMeasurer(svg.node()!);
  const y = scaleLinear();

  const draw = (state: PipelineLabState, width: number) => {
    const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
    const innerHeight = Math.max(10, height - MARGIN.top - MARGIN.bottom);
    svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    main.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    const lane = state.selectedLane;
    const live = state.live[lane];
    // A stage time or optimum the chart cannot draw (NaN, ±∞, beyond PLOT_LIMIT) is an empty bar.
    const times = (live?.stageTimesMs ?? new Float64Array(0)).map((t) => (plottable(t) ? t : 0));
    const counts = live?.configuration;
    const n = times.length;
    const bottleneck = argMax(times);
    const optimal = plottable(live?.optimalBottleneckMs) ? live.optimalBottleneckMs : 0;
    const label = state.lanes[lane]?.label ?? `lane ${lane + 1}`;
    const colour = laneColour(lane);
    const dark = color(colour)?.darker(1.2).formatHex() ?? colour;

    const eps = Array.from({ length: n }, (_, i) => i);
    x.domain(eps).range([0, innerWidth]);
    y.domain([0, headroomMax([...times, optimal], 1.18)]).range([innerHeight, 0]);
    const status = live ? `${live.rebalancing ? ' · rebalancing now' : ''} · ${live.rebalancings} rebalancing${live.rebalancings === 1 ? '' : 's'}, ${live.trialQueries} trial quer${live.trialQueries === 1 ? 'y' : 'ies'}` : '';
    subtitle.text(fitText(`${label}${status}`, width, CHAR_PX));

    const tickLabel = (i: number) => (n > 12 ? String(i + 1) : `EP ${i + 1}`);
    const every = labelEvery(x.step(), tickLabel(n - 1).length * CHAR_PX);
    xAxis.attr('transform', `translate(0,${innerHeight})`);
    callAxis(
      xAxis,
      axisBottom(x)
        .tickValues(eps.filter((i) => i % every === 0))
        .tickFormat((i) => tickLabel(i))
        .tickSizeOuter(0),
    );
    const yTicks = Math.max(2, Math.min(8, Math.floor(innerHeight / 40)));
    callAxis(yAxis, axisLeft(y).ticks(yTicks).tickFormat(compactTickFormat(y, yTicks)).tickSizeOuter(0));
    grid
      .selectAll<SVGLineElement, number>('line')
      .data(y.ticks(yTicks))
      .join('line')
      .attr('x1', 0)
      .attr('x2', innerWidth)
      .attr('y1', (d) => y(d))
      .attr('y2', (d) => y(d))
      .style('stroke', THEME.grid);

    bars
      .selectAll<SVGRectElement, number>('rect')
      .data(eps)
      .join((enter) => {
        const rect = enter.append('rect');
        rect.append('title');
        return rect;
      })
      .attr('x', (i) => x(i) ?? 0)
      .attr('width', x.bandwidth())
      .attr('y', (i) => y(Math.max(0, times[i]!)))
      .attr('height', (i) => Math.max(0, innerHeight - y(Math.max(0, times[i]!))))
      .attr('fill', (i) => (i === bottleneck ? dark : colour))
      .attr('fill-opacity', (i) => (i === bottleneck ? 1 : 0.45))
      .attr('stroke', (i) => (i === bottleneck ? dark : 'none'))
      .select('title')
      .text((i) => `EP ${i + 1}: ${formatNumber(times[i]!)} ms${counts ? `, ${counts[i] ?? 0} units` : ''}${i === bottleneck ? ' (bottleneck)' : ''}`);

    // The bottleneck's label goes inside its dark bar on two lines when it fits (below the
    // optimum line if that crosses the bar's top), else above the bar and the line. The
    // optimum's label sits above its line at the end away from the bottleneck, or below the
    // line when it would still collide with the bottleneck's label.
    let bottleneckBox: { left: number; right: number; y: number } | null = null;
    if (bottleneck >= 0) {
      const value = `${formatNumber(times[bottleneck]!)} ms`;
      const oneLine = `bottleneck ${value}`;
      const cx = (x(bottleneck) ?? 0) + x.bandwidth() / 2;
      const top = y(times[bottleneck]!);
      const yOpt = optimal > 0 ? y(optimal) : Number.NaN;
      const insideTop = yOpt >= top - 2 && yOpt <= top + 40 ? yOpt : top;
      const inside = x.bandwidth() >= measure('bottleneck') + 10 && innerHeight - insideTop >= 44;
      const w = measure(oneLine);
      const above = Math.min(top, Math.abs(yOpt - top) < 16 ? yOpt : top) - 6;
      const lx = inside ? cx : Math.min(innerWidth - w / 2, Math.max(w / 2, cx));
      bottleneckLabel
        .attr('display', null)
        .attr('text-anchor', 'middle')
        .attr('x', lx)
        .attr('y', inside ? insideTop + 17 : above)
        .style('fill', inside ? '#ffffff' : THEME.text)
        .style('stroke', inside ? 'none' : THEME.halo)
        .text(inside ? 'bottleneck' : oneLine);
      bottleneckValue
        .attr('display', inside ? null : 'none')
        .attr('text-anchor', 'middle')
        .attr('x', cx)
        .attr('y', insideTop + 33)
        .style('fill', '#ffffff')
        .text(value);
      if (!inside) bottleneckBox = { left: lx - w / 2, right: lx + w / 2, y: above };
    } else {
      bottleneckLabel.attr('display', 'none');
      bottleneckValue.attr('display', 'none');
    }
    if (optimal > 0 && n > 0) {
      const yOpt = y(optimal);
      optimumLine.attr('display', null).attr('x1', 0).attr('x2', innerWidth).attr('y1', yOpt).attr('y2', yOpt);
      const text = `optimum bottleneck ${formatNumber(optimal)} ms`;
      const w = measure(text);
      const left = bottleneck >= n / 2;
      const x0 = left ? 4 : innerWidth - 4 - w;
      const collides = bottleneckBox !== null && x0 < bottleneckBox.right + 6 && x0 + w > bottleneckBox.left - 6 && Math.abs(bottleneckBox.y - (yOpt - 5)) < 14;
      optimumLabel
        .attr('display', null)
        .attr('text-anchor', left ? 'start' : 'end')
        .attr('x', left ? 4 : innerWidth - 4)
        .attr('y', collides ? yOpt + 15 : yOpt - 5)
        .text(text);
    } else {
      optimumLine.attr('display', 'none');
      optimumLabel.attr('display', 'none');
    }
    xLabel.attr('x', innerWidth).attr('y', innerHeight + 36);
    yLabel.attr('x', -innerHeight / 2).attr('y', -MARGIN.left + 14);
    message
      .attr('x', innerWidth / 2)
      .attr('y', innerHeight / 2)
      .attr('display', n === 0 ? null : 'none')
      .text('No stage times yet: press play or step');

    renderLegend(scaffold.legend, [
      { key: 'lane', label: `${label}: stage time`, colour, swatch: 'area' },
      { key: 'bottleneck', label: 'bottleneck stage', colour: dark, swatch: 'area' },
      { key: 'optimum', label: 'optimum bottleneck', colour: THEME.optimum, swatch: 'dashed', title: 'slowest stage of the best configuration for the current interference' },
    ]);
    svg.attr(
      'aria-label',
      n === 0
        ? `Stage times of ${label}: no data yet.`
        : `Stage times of ${label} over ${n} EPs, ms${n <= 16 ? `: ${Array.from(times, (t) => formatNumber(t)).join(', ')}` : ''}. ` +
            `Bottleneck EP ${bottleneck + 1} at ${formatNumber(times[bottleneck]!)} ms; optimum bottleneck ${formatNumber(optimal)} ms.`,
    );
  };

  const { cleanup } = mountChart(host, store, scaffold.root.node()!, (s) => [s.version, s.selectedLane, s.lanes], draw);
  return cleanup;
}
