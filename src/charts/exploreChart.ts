import { area, axisBottom, axisLeft, extent, interpolateRdBu, interpolateViridis, line, max, min, scaleBand, scaleDiverging, scaleLinear, scalePoint, scaleSequential, select } from 'd3';
import type { AxisValue } from '../scenario/sweep';
import { higherIsBetter } from '../scenario/sweepStats';
import { formatValue, type ExploreData, type ExplorePoint } from './exploreData';
import { laneColour } from './palette';
import { plottable } from './pointSampling';

export interface ExploreChartHandlers {
  /** The pointer is over a point or cell (null: it left). */
  onHover(point: ExplorePoint | null, lane: number | null): void;
  /** A heatmap cell or a line's point was clicked: open that run. */
  onOpen(i: number, j: number): void;
}

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { top: 12, right: 16, bottom: 48, left: 72 };

const label = (v: AxisValue) => (typeof v === 'number' ? formatValue(v) : String(v));

/**
 * Draws the Explore chart into `svg` (replacing what was there): with one axis, a line per
 * lane with its 95 % band over seeds; with two, a heatmap of one lane's metric (viridis) or of
 * the lane difference (diverging around 0, each cell labelled with its signed value, so the
 * sign reads at a glance). Cells without a finished seed stay grey.
 */
export function drawExplore(svg: SVGSVGElement, data: ExploreData, handlers: ExploreChartHandlers): void {
  const root = select(svg);
  root.selectAll('*').remove();
  root.attr('viewBox', `0 0 ${WIDTH} ${HEIGHT}`).attr('role', 'img').attr('class', 'explore-chart').attr('aria-label', chartLabel(data));
  const inner = { width: WIDTH - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom };
  const g = root.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
  if (data.heatmap !== null) drawHeatmap(g, data, inner, handlers);
  else if (data.axes.length === 1) drawLines(g, data, inner, handlers);
}

/** What the chart shows, in words, for a screen reader (its cells and points carry their own labels). */
function chartLabel(data: ExploreData): string {
  const axes = data.axes.map((a) => `${a.name} (${a.values.join(', ')})`).join(' × ');
  if (data.heatmap !== null) return `Heatmap of ${data.heatmap.title} over ${axes}.`;
  return `${data.metricLabel} against ${axes}, a line per lane: ${data.laneLabels.join(', ')}.`;
}

type Group = ReturnType<typeof select<SVGGElement, unknown>>;

function drawHeatmap(g: Group, data: ExploreData, size: { width: number; height: number }, handlers: ExploreChartHandlers): void {
  const heatmap = data.heatmap!;
  const [rowsAxis, colsAxis] = [data.axes[0]!, data.axes[1]!];
  // Rows (first axis) run up the y axis, columns (second axis) along x.
  const x = scaleBand<number>().domain(colsAxis.values.map((_, j) => j)).range([0, size.width]).padding(0.04);
  const y = scaleBand<number>().domain(rowsAxis.values.map((_, i) => i)).range([size.height, 0]).padding(0.04);
  const finite = heatmap.cells.map((c) => c.mean).filter((v) => plottable(v));
  const difference = heatmap.mode.kind === 'difference';
  let colour: (v: number) => string;
  if (difference) {
    const m = Math.max(1e-9, max(finite.map(Math.abs)) ?? 1);
    // Blue where lane a is better, red where it is worse (lower is better for latency, violations).
    const good = higherIsBetter(data.metric) ? 1 : -1;
    const scale = scaleDiverging(interpolateRdBu).domain([-m * good, 0, m * good]);
    colour = (v) => scale(v);
  } else {
    const [lo, hi] = [min(finite) ?? 0, max(finite) ?? 1];
    const scale = scaleSequential(interpolateViridis).domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi]);
    colour = (v) => scale(v);
  }
  const cells = g
    .selectAll('g.explore-cell')
    .data(heatmap.cells)
    .join('g')
    .attr('class', 'explore-cell')
    .attr('data-testid', (c) => `explore.cell-${c.i}-${c.j}`)
    .attr('data-mean', (c) => (plottable(c.mean) ? String(c.mean) : ''))
    .attr('data-seeds', (c) => String(c.seeds))
    .attr('tabindex', 0)
    .attr('role', 'button')
    .attr('aria-label', (c) => `${rowsAxis.name} ${label(rowsAxis.values[c.i]!)}, ${colsAxis.name} ${label(colsAxis.values[c.j]!)}: ${cellText(c, difference)}`)
    .attr('transform', (c) => `translate(${x(c.j)},${y(c.i)})`)
    .on('pointerenter', (_, c) => handlers.onHover(c, null))
    .on('pointerleave', () => handlers.onHover(null, null))
    .on('focus', (_, c) => handlers.onHover(c, null))
    .on('click', (_, c) => handlers.onOpen(c.i, c.j))
    .on('keydown', (event: KeyboardEvent, c) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        handlers.onOpen(c.i, c.j);
      }
    });
  cells
    .append('rect')
    .attr('width', x.bandwidth())
    .attr('height', y.bandwidth())
    .attr('fill', (c) => (c.seeds > 0 && plottable(c.mean) ? colour(c.mean) : '#e4e4e4'));
  cells
    .append('text')
    .attr('x', x.bandwidth() / 2)
    .attr('y', y.bandwidth() / 2)
    .attr('text-anchor', 'middle')
    .attr('dominant-baseline', 'central')
    .attr('class', 'explore-cell-label')
    .style('font-size', `${Math.max(9, Math.min(14, x.bandwidth() / 5))}px`)
    .style('fill', (c) => (c.seeds > 0 && plottable(c.mean) && lightness(colour(c.mean)) < 0.55 ? '#ffffff' : '#111111'))
    .text((c) => (c.seeds === 0 ? '…' : difference ? `${formatValue(c.mean, true)} %` : formatValue(c.mean)));
  g.append('g')
    .attr('transform', `translate(0,${size.height})`)
    .call(axisBottom(x).tickFormat((j) => label(colsAxis.values[j]!)));
  g.append('g').call(axisLeft(y).tickFormat((i) => label(rowsAxis.values[i]!)));
  g.append('text').attr('class', 'explore-axis-title').attr('x', size.width / 2).attr('y', size.height + 38).attr('text-anchor', 'middle').text(colsAxis.name);
  g.append('text').attr('class', 'explore-axis-title').attr('transform', `translate(-56,${size.height / 2}) rotate(-90)`).attr('text-anchor', 'middle').text(rowsAxis.name);
}

function cellText(c: ExplorePoint, difference: boolean): string {
  if (c.seeds === 0) return 'not run yet';
  return `${formatValue(c.mean, difference)}${difference ? ' %' : ''} ± ${formatValue(c.halfWidth95)} (${c.seeds} of ${c.total} seeds)`;
}

/** Relative luminance of a CSS rgb() colour, 0…1 (for a readable label on the cell). */
function lightness(colour: string): number {
  const m = /(\d+)\D+(\d+)\D+(\d+)/.exec(colour);
  if (!m) return 1;
  return (0.2126 * Number(m[1]) + 0.7152 * Number(m[2]) + 0.0722 * Number(m[3])) / 255;
}

function drawLines(g: Group, data: ExploreData, size: { width: number; height: number }, handlers: ExploreChartHandlers): void {
  const axis = data.axes[0]!;
  const numeric = axis.values.every((v) => typeof v === 'number');
  const xs = axis.values.map((_, i) => i);
  const xNum = scaleLinear()
    .domain((extent(axis.values as number[]) as [number, number]) ?? [0, 1])
    .range([0, size.width]);
  const xPoint = scalePoint<number>().domain(xs).range([0, size.width]).padding(0.5);
  const xOf = (i: number) => (numeric && axis.values.length > 1 ? xNum(axis.values[i] as number) : (xPoint(i) ?? 0));
  // A half-width that cannot be drawn (NaN with one seed, or beyond PLOT_LIMIT) draws no band.
  const band = (p: ExplorePoint) => (plottable(p.halfWidth95) && plottable(p.mean + p.halfWidth95) && plottable(p.mean - p.halfWidth95) ? p.halfWidth95 : 0);
  const points = data.lines.flatMap((l) => l.points.filter((p) => p.seeds > 0 && plottable(p.mean)));
  const lo = min(points.map((p) => p.mean - band(p))) ?? 0;
  const hi = max(points.map((p) => p.mean + band(p))) ?? 1;
  const y = scaleLinear().domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi]).nice().range([size.height, 0]);
  for (const l of data.lines) {
    const done = l.points.filter((p) => p.seeds > 0 && plottable(p.mean));
    const colour = laneColour(l.lane);
    const lane = g.append('g').attr('class', 'explore-lane').attr('data-lane', l.label);
    lane
      .append('path')
      .datum(done)
      .attr('class', 'explore-band')
      .attr('fill', colour)
      .attr('fill-opacity', 0.18)
      .attr(
        'd',
        area<ExplorePoint>()
          .x((p) => xOf(p.i))
          .y0((p) => y(p.mean - band(p)))
          .y1((p) => y(p.mean + band(p))),
      );
    lane
      .append('path')
      .datum(done)
      .attr('fill', 'none')
      .attr('stroke', colour)
      .attr('stroke-width', 2)
      .attr(
        'd',
        line<ExplorePoint>()
          .x((p) => xOf(p.i))
          .y((p) => y(p.mean)),
      );
    lane
      .selectAll('circle')
      .data(done)
      .join('circle')
      .attr('data-testid', (p) => `explore.point-${l.lane}-${p.i}`)
      .attr('cx', (p) => xOf(p.i))
      .attr('cy', (p) => y(p.mean))
      .attr('r', 4.5)
      .attr('fill', colour)
      .style('cursor', 'pointer')
      .on('pointerenter', (_, p) => handlers.onHover(p, l.lane))
      .on('pointerleave', () => handlers.onHover(null, null))
      .on('click', (_, p) => handlers.onOpen(p.i, 0));
  }
  const xAxis = numeric && axis.values.length > 1 ? axisBottom(xNum).ticks(Math.min(10, axis.values.length)) : axisBottom(xPoint).tickFormat((i) => label(axis.values[i]!));
  g.append('g').attr('transform', `translate(0,${size.height})`).call(xAxis as never);
  g.append('g').call(axisLeft(y).ticks(6));
  g.append('text').attr('class', 'explore-axis-title').attr('x', size.width / 2).attr('y', size.height + 38).attr('text-anchor', 'middle').text(axis.name);
  g.append('text').attr('class', 'explore-axis-title').attr('transform', `translate(-56,${size.height / 2}) rotate(-90)`).attr('text-anchor', 'middle').text(data.metricLabel);
}
