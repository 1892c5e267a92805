import { format, select, type Axis, type BaseType, type NumberValue, type ScaleLinear, type ScaleLogarithmic, type Selection } from 'd3';
import type { LiveStore } from '../store/liveStore';
import { REFERENCE_COLOURS } from './palette';
import { SERIES_MAX_POINTS } from '../worker/liveLoop';
import { plottable } from './pointSampling';

/** Font size of every text in a chart, px (readable on a projector). */
export const FONT_PX = 12;
/** Rough width of a character at FONT_PX, px: enough to keep labels from overlapping. */
export const CHAR_PX = 7;
/** At most this many lanes are drawn (the palette has eight colours). */
export const MAX_LANES = 8;
/** At most this many points per lane and line: the worker's series budget, so a series is drawn whole. */
export const MAX_POINTS = SERIES_MAX_POINTS;

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type G = Selection<SVGGElement, unknown, null, undefined>;
export type Div = Selection<HTMLDivElement, unknown, null, undefined>;

/** Options every chart accepts beside its host and store. */
export interface ChartOptions {
  /** Height of the SVG, px; the width follows the host. */
  readonly height?: number;
}

/** What a chart builds inside its host: a root with a toolbar, an HTML legend and the SVG. */
export interface ChartScaffold {
  readonly root: Div;
  readonly toolbar: Div;
  readonly legend: Selection<HTMLUListElement, unknown, null, undefined>;
  readonly svg: Svg;
}

/** Text colours and strokes that follow the page's theme (charts.css sets the variables). */
export const THEME = {
  text: 'currentColor',
  grid: 'var(--chart-grid, #e3e7ec)',
  peak: `var(--chart-peak, ${REFERENCE_COLOURS.peak})`,
  optimum: `var(--chart-optimum, ${REFERENCE_COLOURS.optimum})`,
  interference: 'var(--chart-interference, #4d4d4d)',
  halo: 'var(--bg, #ffffff)',
} as const;

/** Builds the chart's root, toolbar, legend and SVG inside `host`. */
export function createScaffold(host: HTMLElement, className: string): ChartScaffold {
  const root = select(host).append('div').attr('class', `chart ${className}`);
  const toolbar = root.append('div').attr('class', 'chart-toolbar');
  const legend = root.append('ul').attr('class', 'chart-legend').attr('aria-label', 'legend');
  const svg = root
    .append('svg')
    .attr('class', 'chart-svg')
    .attr('role', 'img')
    .attr('aria-label', 'chart')
    .style('display', 'block')
    .style('width', '100%')
    .style('overflow', 'visible')
    .style('font-size', `${FONT_PX}px`)
    .style('font-family', 'inherit');
  return { root, toolbar, legend, svg };
}

/** Shallow equality of two arrays, for selectors that watch several values. */
export function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * Charts waiting to be drawn. One animation frame draws at most one of them, in the order
 * they asked, so however fast frames stream in, the charts never add up to a long task on
 * the main thread: with six charts at 60 Hz each redraws about ten times a second.
 */
const waiting = new Set<() => void>();
let drawFrame = 0;

function drawNext(): void {
  drawFrame = 0;
  const next = waiting.values().next();
  if (next.done === true) return;
  waiting.delete(next.value);
  next.value();
  if (waiting.size > 0) drawFrame = requestAnimationFrame(drawNext);
}

function requestDraw(run: () => void): void {
  waiting.add(run);
  if (drawFrame === 0) drawFrame = requestAnimationFrame(drawNext);
}

function cancelDraw(run: () => void): void {
  waiting.delete(run);
}

/**
 * Runs a chart: subscribes to the store values `watch` selects, follows the host's width, and
 * calls `draw` with the latest state when its turn comes (see `requestDraw`). Returns the cleanup:
 * it unsubscribes, cancels the pending frame, stops observing and removes `root`.
 */
export function mountChart<S>(
  host: HTMLElement,
  store: LiveStore<S>,
  root: Element,
  watch: (state: S) => readonly unknown[],
  draw: (state: S, width: number) => void,
): { cleanup: () => void; redraw: () => void } {
  // Read at the first draw, not here: a chart mounts while its page is being built, and reading
  // a width then forces a layout of the page for every chart (the ResizeObserver reports it anyway).
  let width: number | null = null;
  let alive = true;
  const run = () => {
    width ??= Math.floor(host.clientWidth);
    if (!alive || width < 40) return;
    draw(store.getState(), width);
  };
  const redraw = () => {
    if (alive) requestDraw(run);
  };
  const unsubscribe = store.subscribe(watch, redraw, { equalityFn: sameValues });
  const observer = observeWidth(host, () => width ?? -1, (w) => {
    width = w;
    redraw();
  });
  redraw();
  const cleanup = () => {
    alive = false;
    unsubscribe();
    cancelDraw(run);
    observer.disconnect();
    root.remove();
  };
  return { cleanup, redraw };
}

/**
 * What a chart fed with plain data returns (the serving charts, the shell's store-fed cards):
 * the host passes the data, so the chart reads no store and works with any world's.
 */
export interface DataChart<D> {
  /** Shows `data`; calls in the same animation frame are coalesced into one redraw of the latest data. */
  update(data: D): void;
  /** Stops observing the host, cancels a pending redraw and removes the chart from the host. */
  destroy(): void;
}

/** The minimal host a chart mounts on (an HTMLElement in the browser; a stub in tests). */
export interface ChartHost {
  readonly clientWidth: number;
}

/**
 * Runs a data chart: keeps the latest data, follows the host's width with a ResizeObserver
 * and draws `draw(data, width)` when its turn comes, in the same queue as the store-fed charts
 * (`requestDraw`: one chart an animation frame, so that a lab whose charts all get their first
 * data at once — a load — does not draw them all in one long task before the page shows the
 * run moving). Updates and resizes before its turn are coalesced into one draw of the latest.
 * Nothing is drawn before the first `update` or below 40 px. `destroy` cancels the pending
 * draw, disconnects the observer and removes `root`.
 */
export function mountDataChart<D>(host: ChartHost & Element, root: { remove(): void }, draw: (data: D, width: number) => void): DataChart<D> {
  // Read at the first draw (an animation frame), not at the mount: see mountChart.
  let width: number | null = null;
  let data: D | undefined;
  let hasData = false;
  let alive = true;
  const run = () => {
    if (!alive || !hasData) return;
    width ??= Math.floor(host.clientWidth);
    if (width < 40) return;
    draw(data as D, width);
  };
  const schedule = () => {
    if (alive) requestDraw(run);
  };
  const observer = observeWidth(host, () => width ?? -1, (w) => {
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
      cancelDraw(run);
      observer.disconnect();
      root.remove();
    },
  };
}

/** A legend entry: a swatch and a label. */
export interface LegendItem {
  readonly key: string;
  readonly label: string;
  readonly colour: string;
  readonly swatch: 'line' | 'dashed' | 'step' | 'area' | 'tick' | 'dot' | 'circle' | 'text';
  readonly title?: string;
}

const legendSignatures = new WeakMap<Element, string>();

/** Renders legend entries; does nothing when they have not changed since the last call. */
export function renderLegend(legend: Selection<HTMLUListElement, unknown, null, undefined>, items: readonly LegendItem[]): void {
  const node = legend.node();
  if (node === null) return;
  const signature = JSON.stringify(items);
  if (legendSignatures.get(node) === signature) return;
  legendSignatures.set(node, signature);
  legend.selectAll('*').remove();
  for (const item of items) {
    const li = legend.append('li').attr('class', 'chart-legend-item');
    if (item.title !== undefined) li.attr('title', item.title);
    // Swatches are styled spans, not SVGs: the chart's own SVG stays the only one in its host.
    if (item.swatch !== 'text') appendSwatch(li.append('span').attr('class', `chart-swatch chart-swatch-${item.swatch}`).attr('aria-hidden', 'true'), item);
    li.append('span').text(item.label);
  }
}

/** Draws a legend swatch with inline styles, so that it needs no stylesheet. */
function appendSwatch(span: Selection<HTMLSpanElement, unknown, null, undefined>, item: LegendItem): void {
  span.style('display', 'inline-flex').style('flex', 'none').style('align-items', 'center').style('justify-content', 'center').style('width', '22px').style('height', '12px');
  const part = () => span.append('span').style('display', 'block').style('box-sizing', 'border-box');
  switch (item.swatch) {
    case 'line':
      part().style('width', '20px').style('border-top', `3px solid ${item.colour}`);
      break;
    case 'dashed':
      part().style('width', '20px').style('border-top', `2px dashed ${item.colour}`);
      break;
    case 'step':
      part().style('width', '9px').style('height', '8px').style('align-self', 'flex-end').style('border-bottom', `2px solid ${item.colour}`).style('border-right', `2px solid ${item.colour}`);
      part().style('width', '11px').style('height', '8px').style('align-self', 'flex-start').style('border-top', `2px solid ${item.colour}`);
      span.style('align-items', 'stretch');
      break;
    case 'area':
      part().style('width', '14px').style('height', '12px').style('border-radius', '2px').style('background', item.colour);
      break;
    case 'circle':
      part().style('width', '10px').style('height', '10px').style('border-radius', '50%').style('background', item.colour);
      break;
    case 'tick':
      part().style('width', '0').style('height', '12px').style('border-left', `2px solid ${item.colour}`);
      break;
    case 'dot':
      span.style('flex-direction', 'column');
      part().style('width', '6px').style('height', '6px').style('border-radius', '50%').style('background', item.colour);
      part().style('width', '0').style('height', '6px').style('border-left', `2px solid ${item.colour}`);
      break;
    case 'text':
      break;
  }
}

/** Applies the chart font to an axis (d3 sets 10px sans-serif by default). */
export function styleAxis(g: G): void {
  g.attr('font-size', FONT_PX).attr('font-family', 'inherit');
  g.selectAll('text').style('fill', THEME.text);
}

/** Tick labels that stay narrow: SI prefixes (10k, 1.5M) from 10 000 up. */
export function compactTickFormat(scale: ScaleLinear<number, number>, count: number): (value: NumberValue) => string {
  const max = Math.max(...scale.domain().map(Math.abs));
  return max >= 10_000 ? format('~s') : scale.tickFormat(count);
}

/** Tick labels of a log scale: 1, 10, 100 … plus 2 and 5 between them when there is room. */
export function logTickFormat(scale: ScaleLogarithmic<number, number>): (value: NumberValue) => string {
  const [lo, hi] = scale.domain() as [number, number];
  const decades = Math.log10(hi / lo);
  const f = format('~g');
  return (value) => {
    const v = value.valueOf();
    const mantissa = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
    const keep = decades > 3 ? Math.abs(mantissa - 1) < 1e-6 : [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6);
    return keep ? f(v) : '';
  };
}

let measureContext: CanvasRenderingContext2D | null | undefined;

/**
 * Width of a text in px at FONT_PX in the font of `element`, measured on a canvas; falls back
 * to CHAR_PX per character where there is no canvas (tests in Node).
 */
export function textMeasurer(element: Element): (text: string) => number {
  if (measureContext === undefined) {
    measureContext = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  }
  const context = measureContext;
  if (context === null) return (text) => text.length * CHAR_PX;
  const family = getComputedStyle(element).fontFamily || 'sans-serif';
  const font = `${FONT_PX}px ${family}`;
  const cache = new Map<string, number>();
  return (text) => {
    let w = cache.get(text);
    if (w === undefined) {
      context.font = font;
      w = Math.ceil(context.measureText(text).width);
      if (cache.size > 500) cache.clear();
      cache.set(text, w);
    }
    return w;
  };
}

const threeDigits = format('.3~r');

/** Numbers in summaries, titles and labels: three significant digits; "–" for what a chart cannot draw (NaN, ±∞, beyond PLOT_LIMIT). */
export function formatNumber(value: number): string {
  return plottable(value) ? threeDigits(value) : '–';
}

/** A text with a halo in the background colour, so that it stays readable over lines. */
export function haloText<Datum, P extends BaseType, PDatum>(
  text: Selection<SVGTextElement, Datum, P, PDatum>,
): Selection<SVGTextElement, Datum, P, PDatum> {
  text
    .style('fill', THEME.text)
    .style('paint-order', 'stroke')
    .style('stroke', THEME.halo)
    .style('stroke-width', '3px')
    .style('stroke-linejoin', 'round');
  return text;
}

/** Builds an axis call that can be reused with a fresh scale each draw. */
export function callAxis<D extends NumberValue>(g: G, axis: Axis<D>): void {
  g.call(axis);
  styleAxis(g);
}

let nextChartId = 0;
/** A document-unique id (for clip paths). */
export function uniqueId(prefix: string): string {
  nextChartId += 1;
  return `${prefix}-${nextChartId}`;
}

/**
 * Watches `host`'s content width in whole pixels: `resized` is called when it differs from
 * `current()`. The caller disconnects the returned observer.
 */
export function observeWidth(host: Element, current: () => number, resized: (width: number) => void): ResizeObserver {
  const observer = new ResizeObserver((entries) => {
    const entry = entries[entries.length - 1];
    if (!entry) return;
    const w = Math.floor(entry.contentRect.width);
    if (w !== current()) resized(w);
  });
  observer.observe(host);
  return observer;
}
