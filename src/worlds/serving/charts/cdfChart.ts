import { axisBottom, axisLeft, line, scaleLinear } from 'd3';
import { compactTickFormat, formatNumber, mountDataChart, renderLegend, THEME, uniqueId, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { finiteExtent, plottable } from '../../../charts/pointSampling';
import { createAxesFrame, innerSize, layoutAxesFrame, setPlotMessage, tickCounts } from '../../../charts/axes';

/**
 * One distribution as its quantiles: `quantiles[i]` is the value below which a share
 * i / (n − 1) of the samples lie (the learning reports give the 101 percentiles 0 … 100).
 * Empty: no samples yet (the series is listed in the legend but draws nothing).
 */
export interface CdfSeries {
  readonly key: string;
  readonly label: string;
  readonly colour: string;
  readonly dashed?: boolean;
  readonly quantiles: readonly number[];
}

/**
 * What a CDF chart draws (BCEdge Fig. 13, the predictor's relative error against linear
 * regression; Fig. 14, the per-slot SLO violation rate): x = the value in `unit`,
 * y = cumulative share of samples (%).
 */
export interface CdfData {
  readonly xLabel: string;
  /** Unit of x, for texts ("%"). */
  readonly unit: string;
  readonly series: readonly CdfSeries[];
  /** Shown over the plot when no series has samples. */
  readonly empty: string;
  /** First sentence of the aria-label: what the distributions are. */
  readonly description: string;
}

/** A point of an empirical CDF: value and cumulative share, %. */
export interface CdfPoint {
  readonly value: number;
  readonly share: number;
}

/**
 * The points of a CDF from quantiles: quantile i of n at share 100·i/(n − 1) %, non-finite
 * quantiles skipped; values are made non-decreasing (a CDF never goes back).
 */
export function cdfPoints(quantiles: readonly number[]): CdfPoint[] {
  const n = quantiles.length;
  const out: CdfPoint[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  quantiles.forEach((q, i) => {
    if (!plottable(q)) return;
    floor = Math.max(floor, q);
    out.push({ value: floor, share: n === 1 ? 100 : (100 * i) / (n - 1) });
  });
  return out;
}

/** Above this many times the largest 95th percentile, the x axis stops at 1.5 × that percentile. */
export const CDF_TAIL_RATIO = 3;

/**
 * The x axis of CDFs: from min(0, smallest value) to the largest value, except when a long
 * tail (largest value > CDF_TAIL_RATIO × the largest 95th percentile) would squeeze the
 * curves: then it ends at 1.5 × that percentile and `clipped` is true. [0, 1] without data.
 */
export function cdfDomain(series: readonly (readonly CdfPoint[])[]): { x: [number, number]; clipped: boolean } {
  const all = series.flat();
  const [lo, hi] = finiteExtent(all.map((p) => p.value));
  if (!plottable(lo)) return { x: [0, 1], clipped: false };
  const start = Math.min(0, lo);
  const [, p95] = finiteExtent(series.map((points) => points.filter((p) => p.share <= 95).at(-1)?.value));
  if (plottable(p95) && p95 > start && hi - start > CDF_TAIL_RATIO * (p95 - start)) return { x: [start, start + 1.5 * (p95 - start)], clipped: true };
  return { x: [start, hi > start ? hi : start + 1], clipped: false };
}

/**
 * Cumulative distributions as lines: x the value (clipped at a long tail, the legend says
 * where), y the share of samples at or below it, 0 … 100 %. The SVG's `data-points` is the
 * number of points drawn and `data-series` the number of series with samples.
 */
export function createCdfChart(host: HTMLElement, options: ChartOptions = {}): DataChart<CdfData> {
  const height = options.height ?? 280;
  const frame = createAxesFrame(host, 'chart-cdf');
  const clipId = uniqueId('chart-cdf-clip');
  const clipRect = frame.svg.insert('defs', ':first-child').append('clipPath').attr('id', clipId).append('rect');
  frame.plot.attr('clip-path', `url(#${clipId})`);
  const x = scaleLinear();
  const y = scaleLinear().domain([0, 100]);

  const draw = (data: CdfData, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height);
    const points = data.series.map((s) => cdfPoints(s.quantiles));
    const domain = cdfDomain(points);
    x.domain(domain.x).range([0, innerWidth]);
    y.range([innerHeight, 0]);
    clipRect.attr('x', -2).attr('y', -2).attr('width', innerWidth + 4).attr('height', innerHeight + 4);
    const ticks = tickCounts(innerWidth, innerHeight);
    layoutAxesFrame(
      frame,
      width,
      height,
      axisBottom(x).ticks(ticks.x).tickFormat(compactTickFormat(x, ticks.x)).tickSizeOuter(0),
      axisLeft(y).ticks(Math.min(ticks.y, 5)).tickSizeOuter(0),
      y.ticks(Math.min(ticks.y, 5)).map((v) => y(v)),
      { x: data.xLabel, y: 'cumulative share (%)' },
    );

    const drawn = data.series.map((s, i) => ({ s, points: points[i]! }));
    frame.plot
      .selectAll<SVGPathElement, (typeof drawn)[number]>('path')
      .data(drawn, (d) => d.s.key)
      .join('path')
      .attr('fill', 'none')
      .attr('stroke', (d) => d.s.colour)
      .attr('stroke-width', 2)
      .attr('stroke-linejoin', 'round')
      .attr('stroke-dasharray', (d) => (d.s.dashed === true ? '6 4' : null))
      .attr('d', (d) =>
        d.points.length === 0
          ? ''
          : (line<CdfPoint>()
              .x((p) => x(p.value))
              .y((p) => y(p.share))(d.points) ?? ''),
      );
    const total = points.reduce((sum, p) => sum + p.length, 0);
    const withSamples = points.filter((p) => p.length > 0).length;
    frame.svg.attr('data-points', total).attr('data-series', withSamples);
    setPlotMessage(frame, width, height, total === 0 ? data.empty : null);

    const items: LegendItem[] = data.series.map((s) => ({ key: s.key, label: s.label, colour: s.colour, swatch: s.dashed === true ? 'dashed' : 'line' }));
    if (domain.clipped) {
      items.push({ key: 'clipped', label: `x axis cut at ${formatNumber(domain.x[1])} ${data.unit}: the longest tails are not shown`, colour: THEME.text, swatch: 'text' });
    }
    renderLegend(frame.scaffold.legend, items);

    const medians = drawn
      .filter((d) => d.points.length > 0)
      .map((d) => {
        const median = d.points.find((p) => p.share >= 50)?.value ?? Number.NaN;
        return `${d.s.label}: median ${formatNumber(median)} ${data.unit}`;
      })
      .join('; ');
    frame.svg.attr('aria-label', `${data.description} Cumulative share of samples (0 to 100 %) against the value in ${data.unit}. ${medians || 'No data yet'}.`);
  };

  return mountDataChart<CdfData>(host, frame.scaffold.root.node()!, draw);
}
