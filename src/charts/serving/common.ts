import type { Axis, AxisDomain, Selection } from 'd3';
import { MODEL_IDS, type ModelId } from '../../engine/serving/models';
import { FONT_PX, THEME, createScaffold, observeWidth, styleAxis, type ChartScaffold, type DataChart, type G, type Svg } from '../runtime';
import { plottable } from '../pointSampling';

/**
 * Shared plumbing of the serving-world charts. Unlike the pipeline charts these read no
 * store: the host component passes plain data to `update`, so they work with any store.
 */

/** Options of every serving chart. */
export interface ServingChartOptions {
  /** Height of the SVG, px; the width follows the host. */
  readonly height?: number;
}

/** What every serving chart's factory returns (the chart kit's, `runtime.ts`). */
export type { DataChart } from '../runtime';

/**
 * Colours of the six BCEdge models: Paul Tol's "bright" scheme, distinct for colour-blind
 * viewers and different from the lane palette (Okabe–Ito), so models and lanes never clash.
 */
export const MODEL_COLOURS: Readonly<Record<ModelId, string>> = {
  yolo: '#4477AA',
  mob: '#EE6677',
  res: '#228833',
  eff: '#CCBB44',
  inc: '#66CCEE',
  bert: '#AA3377',
};

/** Colour of a model; a neutral grey for an id outside the six. */
export function modelColour(model: string): string {
  return (MODEL_COLOURS as Readonly<Record<string, string>>)[model] ?? '#777777';
}

/** The six models in the paper's order. */
export const SERVING_MODELS: readonly ModelId[] = MODEL_IDS;

/** Space around the plot of an axes chart, px (no title or subtitle band: the host has the title). */
export const PLOT_MARGIN = { top: 14, right: 18, bottom: 44, left: 64 } as const;

type Text = Selection<SVGTextElement, unknown, null, undefined>;

/** Groups of a chart with a left and a bottom axis. */
export interface AxesFrame {
  readonly scaffold: ChartScaffold;
  readonly svg: Svg;
  readonly main: G;
  readonly grid: G;
  /** Marks go here (areas, lines, bars, cells). */
  readonly plot: G;
  /** Above the marks: reference labels, outlines. */
  readonly overlay: G;
  readonly xAxis: G;
  readonly yAxis: G;
  readonly xLabel: Text;
  readonly yLabel: Text;
  readonly message: Text;
}

/** Builds the scaffold (legend + SVG) and the static groups of an axes chart inside `host`. */
export function createAxesFrame(host: HTMLElement, className: string): AxesFrame {
  const scaffold = createScaffold(host, `chart-serving ${className}`);
  const svg = scaffold.svg;
  const main = svg.append('g').attr('class', 'chart-main');
  const grid = main.append('g').attr('class', 'chart-grid');
  const plot = main.append('g').attr('class', 'chart-plot');
  const overlay = main.append('g').attr('class', 'chart-overlay');
  const xAxis = main.append('g').attr('class', 'chart-x-axis');
  const yAxis = main.append('g').attr('class', 'chart-y-axis');
  const xLabel = main.append('text').attr('text-anchor', 'end').style('fill', THEME.text);
  const yLabel = main.append('text').attr('text-anchor', 'middle').attr('transform', 'rotate(-90)').style('fill', THEME.text);
  const message = main.append('text').attr('text-anchor', 'middle').style('fill', THEME.text).style('font-size', `${FONT_PX + 2}px`);
  return { scaffold, svg, main, grid, plot, overlay, xAxis, yAxis, xLabel, yLabel, message };
}

/** Plot size inside an SVG of the given outer size and margin. */
export function innerSize(width: number, height: number, margin: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number } = PLOT_MARGIN): {
  innerWidth: number;
  innerHeight: number;
} {
  return { innerWidth: Math.max(10, width - margin.left - margin.right), innerHeight: Math.max(10, height - margin.top - margin.bottom) };
}

/** Tick counts that keep labels apart at a plot size. */
export function tickCounts(innerWidth: number, innerHeight: number): { x: number; y: number } {
  return { x: Math.max(2, Math.min(10, Math.floor(innerWidth / 80))), y: Math.max(2, Math.min(8, Math.floor(innerHeight / 40))) };
}

/**
 * Sizes the frame and draws its axes, horizontal grid lines at `gridYs` (plot px) and axis labels.
 * `x` and `y` are axis generators for the current scales (axisBottom / axisLeft).
 */
export function layoutAxesFrame<X extends AxisDomain, Y extends AxisDomain>(
  frame: AxesFrame,
  width: number,
  height: number,
  x: Axis<X>,
  y: Axis<Y>,
  gridYs: readonly number[],
  labels: { readonly x: string; readonly y: string },
): void {
  const { innerWidth, innerHeight } = innerSize(width, height);
  frame.svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  frame.main.attr('transform', `translate(${PLOT_MARGIN.left},${PLOT_MARGIN.top})`);
  frame.xAxis.attr('transform', `translate(0,${innerHeight})`);
  frame.xAxis.call(x);
  styleAxis(frame.xAxis);
  frame.yAxis.call(y);
  styleAxis(frame.yAxis);
  frame.grid
    .selectAll<SVGLineElement, number>('line')
    .data(gridYs)
    .join('line')
    .attr('x1', 0)
    .attr('x2', innerWidth)
    .attr('y1', (d) => d)
    .attr('y2', (d) => d)
    .style('stroke', THEME.grid)
    .attr('stroke-width', 1);
  frame.xLabel.attr('x', innerWidth).attr('y', innerHeight + 36).text(labels.x);
  frame.yLabel.attr('x', -innerHeight / 2).attr('y', -PLOT_MARGIN.left + 14).text(labels.y);
}

/** Shows a message over the plot (or hides it with null). */
export function setPlotMessage(frame: AxesFrame, width: number, height: number, text: string | null): void {
  const { innerWidth, innerHeight } = innerSize(width, height);
  frame.message
    .attr('x', innerWidth / 2)
    .attr('y', innerHeight / 2)
    .attr('display', text === null ? 'none' : null)
    .text(text ?? '');
}

/** Smallest and largest finite value of `values` (both NaN when there is none). */
export function finiteExtent(values: Iterable<number | null | undefined>): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!plottable(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [Number.NaN, Number.NaN];
}

/** The minimal host a chart mounts on (an HTMLElement in the browser; a stub in tests). */
export interface ChartHost {
  readonly clientWidth: number;
}

/**
 * Runs a data chart: keeps the latest data, follows the host's width with a ResizeObserver
 * and calls `draw(data, width)` at most once per animation frame (updates and resizes in the
 * same frame are coalesced). Nothing is drawn before the first `update` or below 40 px.
 * `destroy` cancels the pending frame, disconnects the observer and removes `root`.
 */
export function mountDataChart<D>(host: ChartHost & Element, root: { remove(): void }, draw: (data: D, width: number) => void): DataChart<D> {
  let width = Math.floor(host.clientWidth);
  let data: D | undefined;
  let hasData = false;
  let frame = 0;
  let alive = true;
  const run = () => {
    frame = 0;
    if (!alive || !hasData || width < 40) return;
    draw(data as D, width);
  };
  const schedule = () => {
    if (alive && frame === 0) frame = requestAnimationFrame(run);
  };
  const observer = observeWidth(host, () => width, (w) => {
    width = w;
    schedule();
  });
  return {
    update(next: D) {
      data = next;
      hasData = true;
      schedule();
    },
    destroy() {
      if (!alive) return;
      alive = false;
      if (frame !== 0) cancelAnimationFrame(frame);
      frame = 0;
      observer.disconnect();
      root.remove();
    },
  };
}

/** Time axis of the serving charts: 0 … the last sample, at least `minSeconds` wide. */
export function timeDomain(timeS: readonly number[], minSeconds = 10): [number, number] {
  let first = 0;
  let last = 0;
  for (const t of timeS) {
    if (!plottable(t)) continue;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return [first, Math.max(first + minSeconds, last)];
}
