import { axisBottom, axisLeft, type Axis, type AxisDomain, type ScaleLinear, type Selection } from 'd3';
import { FONT_PX, THEME, compactTickFormat, createScaffold, styleAxis, textMeasurer, type ChartScaffold, type G, type Svg } from './runtime';

/**
 * The chart kit's axes (ARCHITECTURE §7c): the groups every chart with a left and a bottom
 * axis has, their sizes inside a margin, and one layout of axes, grid lines and labels — used
 * by the serving world's charts (`AxesFrame`) and by the pipeline's query-axis charts
 * (timeFrame.ts builds its `TimeFrame` on the same parts).
 */

/** Space around a plot, px. */
export interface Margin {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

/** Space around the plot of an axes chart, px (no title or subtitle band: the host has the title). */
export const PLOT_MARGIN: Margin = { top: 14, right: 18, bottom: 44, left: 64 };

type Text = Selection<SVGTextElement, unknown, null, undefined>;

/** What the axes layout sizes and draws: the SVG, the plot's group, the grid, the two axes, their labels and a message. */
export interface AxesParts {
  readonly svg: Svg;
  readonly main: G;
  readonly grid: G;
  readonly xAxis: G;
  readonly yAxis: G;
  readonly xLabel: Text;
  readonly yLabel: Text;
  readonly message: Text;
}

/** The axes' two groups, appended to `main` (after the marks, so the axes draw over them). */
export function appendAxes(main: G): Pick<AxesParts, 'xAxis' | 'yAxis'> {
  return { xAxis: main.append('g').attr('class', 'chart-x-axis'), yAxis: main.append('g').attr('class', 'chart-y-axis') };
}

/** The axis labels and the plot's message, appended to `main` (last, above everything). */
export function appendAxisTexts(main: G): Pick<AxesParts, 'xLabel' | 'yLabel' | 'message'> {
  const xLabel = main.append('text').attr('text-anchor', 'end').style('fill', THEME.text);
  const yLabel = main.append('text').attr('text-anchor', 'middle').attr('transform', 'rotate(-90)').style('fill', THEME.text);
  const message = main.append('text').attr('text-anchor', 'middle').style('fill', THEME.text).style('font-size', `${FONT_PX + 2}px`);
  return { xLabel, yLabel, message };
}

/** Plot size inside an SVG of the given outer size and margin. */
export function innerSize(width: number, height: number, margin: Margin = PLOT_MARGIN): { innerWidth: number; innerHeight: number } {
  return { innerWidth: Math.max(10, width - margin.left - margin.right), innerHeight: Math.max(10, height - margin.top - margin.bottom) };
}

/** Tick counts that keep labels apart at a plot size. */
export function tickCounts(innerWidth: number, innerHeight: number): { x: number; y: number } {
  return { x: Math.max(2, Math.min(10, Math.floor(innerWidth / 80))), y: Math.max(2, Math.min(8, Math.floor(innerHeight / 40))) };
}

/**
 * Sizes the SVG and draws the axes, horizontal grid lines at `gridYs` (plot px) and the axis
 * labels. `x` and `y` are axis generators for the current scales (axisBottom / axisLeft).
 */
export function layoutAxes<X extends AxisDomain, Y extends AxisDomain>(
  parts: AxesParts,
  width: number,
  height: number,
  margin: Margin,
  x: Axis<X>,
  y: Axis<Y>,
  gridYs: readonly number[],
  labels: { readonly x: string; readonly y: string },
): void {
  const { innerWidth, innerHeight } = innerSize(width, height, margin);
  parts.svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  parts.main.attr('transform', `translate(${margin.left},${margin.top})`);
  parts.xAxis.attr('transform', `translate(0,${innerHeight})`);
  parts.xAxis.call(x);
  styleAxis(parts.xAxis);
  parts.yAxis.call(y);
  styleAxis(parts.yAxis);
  parts.grid
    .selectAll<SVGLineElement, number>('line')
    .data(gridYs)
    .join('line')
    .attr('x1', 0)
    .attr('x2', innerWidth)
    .attr('y1', (d) => d)
    .attr('y2', (d) => d)
    .style('stroke', THEME.grid)
    .attr('stroke-width', 1);
  parts.xLabel.attr('x', innerWidth).attr('y', innerHeight + 36).text(labels.x);
  // A label longer than the plot is high would be cut at the chart's top ("ghput (queries/s)" on a
  // low chart): it is then said by its unit alone ("queries/s", the card's title names the
  // quantity), and one still too long starts at the plot's top and runs down into the bottom margin.
  const node = parts.svg.node();
  const measure = node === null ? () => 0 : textMeasurer(node);
  const unit = /\(([^()]+)\)\s*$/.exec(labels.y)?.[1];
  const text = measure(labels.y) <= innerHeight || unit === undefined ? labels.y : unit;
  const fits = measure(text) <= innerHeight;
  parts.yLabel
    .attr('text-anchor', fits ? 'middle' : 'end')
    .attr('x', fits ? -innerHeight / 2 : 0)
    .attr('y', -margin.left + 14)
    .text(text);
}

/** `layoutAxes` of two linear scales: the kit's tick counts, compact tick labels, grid lines at the value ticks. */
export function layoutLinearAxes(
  parts: AxesParts,
  width: number,
  height: number,
  margin: Margin,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  labels: { readonly x: string; readonly y: string },
): void {
  const { innerWidth, innerHeight } = innerSize(width, height, margin);
  const ticks = tickCounts(innerWidth, innerHeight);
  layoutAxes(
    parts,
    width,
    height,
    margin,
    axisBottom(x).ticks(ticks.x).tickFormat(compactTickFormat(x, ticks.x)).tickSizeOuter(0),
    axisLeft(y).ticks(ticks.y).tickFormat(compactTickFormat(y, ticks.y)).tickSizeOuter(0),
    y.ticks(ticks.y).map((v) => y(v)),
    labels,
  );
}

/** Shows a message over the plot (or hides it with null). */
export function setPlotMessage(parts: Pick<AxesParts, 'message'>, width: number, height: number, text: string | null, margin: Margin = PLOT_MARGIN): void {
  const { innerWidth, innerHeight } = innerSize(width, height, margin);
  parts.message
    .attr('x', innerWidth / 2)
    .attr('y', innerHeight / 2)
    .attr('display', text === null ? 'none' : null)
    .text(text ?? '');
}

/** A chart with a left and a bottom axis, its marks in `plot` and what goes over them in `overlay` (the serving charts' frame). */
export interface AxesFrame extends AxesParts {
  readonly scaffold: ChartScaffold;
  /** Marks go here (areas, lines, bars, cells). */
  readonly plot: G;
  /** Above the marks: reference labels, outlines. */
  readonly overlay: G;
}

/** Builds the scaffold (legend + SVG) and the groups of an axes chart inside `host`. */
export function createAxesFrame(host: HTMLElement, className: string): AxesFrame {
  const scaffold = createScaffold(host, className);
  const svg = scaffold.svg;
  const main = svg.append('g').attr('class', 'chart-main');
  const grid = main.append('g').attr('class', 'chart-grid');
  const plot = main.append('g').attr('class', 'chart-plot');
  const overlay = main.append('g').attr('class', 'chart-overlay');
  return { scaffold, svg, main, grid, plot, overlay, ...appendAxes(main), ...appendAxisTexts(main) };
}

/** `layoutAxes` of an `AxesFrame` in the kit's margin. */
export function layoutAxesFrame<X extends AxisDomain, Y extends AxisDomain>(
  frame: AxesFrame,
  width: number,
  height: number,
  x: Axis<X>,
  y: Axis<Y>,
  gridYs: readonly number[],
  labels: { readonly x: string; readonly y: string },
): void {
  layoutAxes(frame, width, height, PLOT_MARGIN, x, y, gridYs, labels);
}
