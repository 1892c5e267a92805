import { axisBottom, axisLeft, scaleBand, scaleLog } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';
import { laneColour } from '../../../charts/palette';
import { BOX_WHISKERS, boxStats, type BoxStats } from './histogram';
import { appendAxes, appendAxisTexts, innerSize, layoutAxes, setPlotMessage, type AxesParts, type Margin } from '../../../charts/axes';
import { CHAR_PX, MAX_LANES, THEME, createScaffold, formatNumber, logTickFormat, mountChart, renderLegend, type ChartOptions, type LegendItem } from '../../../charts/runtime';
import { fitText, plottable } from '../../../charts/pointSampling';

const MARGIN: Margin = { top: 30, right: 18, bottom: 44, left: 64 };

/** y domain of a log scale over box plots: the whiskers with a little room, at least one decade wide. */
export function boxDomain(boxes: readonly (BoxStats | null)[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const b of boxes) {
    if (b === null) continue;
    lo = Math.min(lo, b.whiskerLow);
    hi = Math.max(hi, b.whiskerHigh);
  }
  if (!(hi > 0) || !plottable(lo)) return [1, 100];
  lo = Math.max(lo / 1.4, 1e-3);
  hi *= 1.4;
  if (hi / lo < 10) {
    const mid = Math.sqrt(lo * hi);
    lo = mid / Math.sqrt(10);
    hi = mid * Math.sqrt(10);
  }
  return [lo, hi];
}

/**
 * The measured latency distribution of every lane so far, as box plots computed from the
 * lanes' log-spaced latency histograms: whiskers p1–p99, box p25–p75, median line, on a
 * log axis (latencies under interference span decades).
 */
export function createLatencyBoxChart(host: HTMLElement, store: PipelineLabStore, options: ChartOptions = {}): () => void {
  const height = options.height ?? 260;
  const scaffold = createScaffold(host, 'chart-latency-box');
  const svg = scaffold.svg;
  const subtitle = svg.append('text').attr('x', 0).attr('y', 14).style('fill', THEME.text);
  const main = svg.append('g');
  const grid = main.append('g');
  const boxes = main.append('g');
  const parts: AxesParts = { svg, main, grid, ...appendAxes(main), ...appendAxisTexts(main) };
  const x = scaleBand<number>().paddingInner(0.35).paddingOuter(0.2);
  const y = scaleLog();

  const draw = (state: PipelineLabState, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height, MARGIN);
    const live = state.live.slice(0, MAX_LANES);
    const stats = live.map((l) => boxStats(l.latencyHistogram));
    const lanes = live.map((_, i) => i);
    const labelOf = (l: number) => state.lanes[l]?.label ?? `lane ${l + 1}`;
    x.domain(lanes).range([0, innerWidth]);
    y.domain(boxDomain(stats)).range([innerHeight, 0]);
    const count = stats.reduce((m, b) => Math.max(m, b?.count ?? 0), 0);
    subtitle.text(fitText(`Measured latency of all ${count} queries so far, per lane`, width, CHAR_PX));

    layoutAxes(
      parts,
      width,
      height,
      MARGIN,
      axisBottom(x)
        .tickFormat((l) => fitText(labelOf(l), x.step() - 4, CHAR_PX))
        .tickSizeOuter(0),
      axisLeft(y).ticks(6).tickFormat(logTickFormat(y)).tickSizeOuter(0),
      y
        .ticks(6)
        .filter((t) => logTickFormat(y)(t) !== '')
        .map((t) => y(t)),
      { x: 'lane', y: 'latency (ms, log scale)' },
    );

    const bw = x.bandwidth();
    const present = lanes.filter((l) => stats[l] !== null);
    const groups = boxes
      .selectAll<SVGGElement, number>('g')
      .data(present)
      .join((enter) => {
        const g = enter.append('g');
        g.append('line').attr('class', 'whisker');
        g.append('line').attr('class', 'cap-low');
        g.append('line').attr('class', 'cap-high');
        g.append('rect').attr('class', 'box');
        g.append('line').attr('class', 'median');
        g.append('title');
        return g;
      })
      .attr('transform', (l) => `translate(${x(l) ?? 0},0)`);
    const s = (l: number) => stats[l]!;
    groups
      .select('.whisker')
      .attr('x1', bw / 2)
      .attr('x2', bw / 2)
      .attr('y1', (l) => y(s(l).whiskerLow))
      .attr('y2', (l) => y(s(l).whiskerHigh))
      .attr('stroke', (l) => laneColour(l))
      .attr('stroke-width', 1.5);
    for (const [cls, key] of [
      ['.cap-low', 'whiskerLow'],
      ['.cap-high', 'whiskerHigh'],
    ] as const) {
      groups
        .select(cls)
        .attr('x1', bw * 0.25)
        .attr('x2', bw * 0.75)
        .attr('y1', (l) => y(s(l)[key]))
        .attr('y2', (l) => y(s(l)[key]))
        .attr('stroke', (l) => laneColour(l))
        .attr('stroke-width', 1.5);
    }
    groups
      .select('.box')
      .attr('x', 0)
      .attr('width', bw)
      .attr('y', (l) => y(s(l).q3))
      .attr('height', (l) => Math.max(1, y(s(l).q1) - y(s(l).q3)))
      .attr('fill', (l) => laneColour(l))
      .attr('fill-opacity', 0.3)
      .attr('stroke', (l) => laneColour(l))
      .attr('stroke-width', 1.5);
    groups
      .select('.median')
      .attr('x1', 0)
      .attr('x2', bw)
      .attr('y1', (l) => y(s(l).median))
      .attr('y2', (l) => y(s(l).median))
      .style('stroke', THEME.text)
      .attr('stroke-width', 2.5);
    groups
      .select('title')
      .text((l) => {
        const b = s(l);
        return `${labelOf(l)}: median ${formatNumber(b.median)} ms, p25–p75 ${formatNumber(b.q1)}–${formatNumber(b.q3)} ms, ${BOX_WHISKERS.label} ${formatNumber(b.whiskerLow)}–${formatNumber(b.whiskerHigh)} ms (${b.count} queries)`;
      });

    setPlotMessage(parts, width, height, present.length === 0 ? 'No queries yet: press play or step' : null, MARGIN);

    const items: LegendItem[] = lanes.map((l) => ({ key: `lane-${l}`, label: labelOf(l), colour: laneColour(l), swatch: 'area' }));
    items.push({ key: 'how', label: `box p25–p75 · line median · whiskers ${BOX_WHISKERS.label}`, colour: '', swatch: 'text' });
    renderLegend(scaffold.legend, items);

    svg.attr(
      'aria-label',
      present.length === 0
        ? 'Latency distribution per lane: no queries yet.'
        : `Latency distribution per lane in milliseconds, log scale: ` +
            present
              .map((l) => `${labelOf(l)} median ${formatNumber(s(l).median)}, p25 ${formatNumber(s(l).q1)}, p75 ${formatNumber(s(l).q3)}, p99 ${formatNumber(s(l).whiskerHigh)}`)
              .join('; ') +
            '.',
    );
  };

  const { cleanup } = mountChart(host, store, scaffold.root.node()!, (s) => [s.version, s.lanes], draw);
  return cleanup;
}
