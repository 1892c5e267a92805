import { axisBottom, axisLeft, axisRight, interpolateViridis, lab, scaleBand, scaleLinear, scaleLog, scaleSequential, scaleSequentialLog } from 'd3';
import { CHAR_PX, FONT_PX, formatNumber, haloText, mountDataChart, renderLegend, styleAxis, THEME, uniqueId, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { finiteExtent, plottable } from '../../../charts/pointSampling';
import { createAxesFrame, innerSize, setPlotMessage } from '../../../charts/axes';

/**
 * The metric a heatmap shows: throughput is better high, latency better low (Fig. 1); a
 * learning lane's policy π(a|s) in % (the live policy heatmap), masked actions missing.
 */
export type HeatmapMetric = 'throughput' | 'latency' | 'probability';

/** A configuration cell: batch size b and number of concurrent instances m_c. */
export interface HeatmapCell {
  readonly batchSize: number;
  readonly instances: number;
}

/**
 * What the BCEdge Figure 1 heatmap draws (one metric; two charts show throughput and latency side by side),
 * or a learning lane's policy over the same grid.
 * `values[b][mc]` is the metric for `batchSizes[b]` and `instanceCounts[mc]`: rps for throughput,
 * ms for latency, % for probability; `null` for a cell that ran out of memory (drawn hatched,
 * labelled "OOM") or, for probability, an action the lane's masks did not allow ("masked").
 * Give every cell: a missing row or column entry is drawn as missing too.
 */
export interface HeatmapData {
  readonly metric: HeatmapMetric;
  /** Rows, bottom to top (1, 2, 4 … 128). */
  readonly batchSizes: readonly number[];
  /** Columns, left to right (1 … 8). */
  readonly instanceCounts: readonly number[];
  readonly values: readonly (readonly (number | null)[])[];
  /** The configuration in use now, drawn as a ring; null or absent for none. */
  readonly marker?: HeatmapCell | null;
}

/**
 * Unit and wording of each metric: `missing` labels a null cell (if not empty), `missingText` says what it
 * means, `best` names the outlined cell; `zeroBased` colour scales start at 0 (probabilities).
 */
export const HEATMAP_METRIC = {
  throughput: { unit: 'rps', label: 'throughput', better: 'higher', missing: 'OOM', missingText: 'out of memory', best: 'best cell (higher throughput)', zeroBased: false },
  latency: { unit: 'ms', label: 'latency', better: 'lower', missing: 'OOM', missingText: 'out of memory', best: 'best cell (lower latency)', zeroBased: false },
  // Masked actions get no word in their cell: a predictor can mask most of the grid.
  probability: { unit: '%', label: 'probability π(a|s)', better: 'higher', missing: '', missingText: 'masked (not allowed)', best: 'most probable action (argmax)', zeroBased: true },
} as const;

/** A cell of the matrix by index, with its value. */
export interface CellIndex {
  readonly row: number;
  readonly col: number;
  readonly value: number;
}

/**
 * The best cell: the largest value (`better` = 'higher') or the smallest ('lower'), skipping
 * null (OOM) and non-finite cells; the first one in row-major order on ties; null when there is none.
 */
export function bestCell(values: readonly (readonly (number | null)[])[], better: 'higher' | 'lower'): CellIndex | null {
  let best: CellIndex | null = null;
  for (let row = 0; row < values.length; row++) {
    const r = values[row]!;
    for (let col = 0; col < r.length; col++) {
      const v = r[col];
      if (v === null || v === undefined || !plottable(v)) continue;
      if (best === null || (better === 'higher' ? v > best.value : v < best.value)) best = { row, col, value: v };
    }
  }
  return best;
}

/** Domain and kind of the colour scale of a heatmap. */
export interface ColourDomain {
  readonly min: number;
  readonly max: number;
  /** Log scale when every value is positive and they span more than `LOG_SPAN` (latency under overload). */
  readonly log: boolean;
}

/** Ratio max/min above which the colour scale turns logarithmic. */
export const LOG_SPAN = 30;

/**
 * Colour domain of a matrix: its finite, non-null extent; a flat or empty matrix gets a
 * domain one unit wide (or [0, 1]) so that the scale stays defined. `zeroBased`: linear from
 * 0 to the largest value (1 when nothing is above 0), for shares such as probabilities.
 */
export function colourDomain(values: readonly (readonly (number | null)[])[], zeroBased = false): ColourDomain {
  const [lo, hi] = finiteExtent(values.flat());
  if (zeroBased) return { min: 0, max: plottable(hi) && hi > 0 ? hi : 1, log: false };
  if (!plottable(lo)) return { min: 0, max: 1, log: false };
  if (hi === lo) return lo > 0 ? { min: lo / 2, max: lo * 1.5, log: false } : { min: lo - 1, max: hi + 1, log: false };
  return { min: lo, max: hi, log: lo > 0 && hi / lo > LOG_SPAN };
}

/** Probabilities below this, %, get no text in their cell (the colour and the title tell). */
export const PROBABILITY_TEXT_MIN = 0.5;

/**
 * A cell's text: the value with three significant digits; probabilities (%) as whole
 * percents, one decimal under 10 %, nothing under PROBABILITY_TEXT_MIN (a policy puts
 * almost all its mass on a few actions: the rest would be a wall of "0.0").
 */
export function cellText(value: number, metric: HeatmapMetric): string {
  if (metric !== 'probability') return formatNumber(value);
  if (!(value >= PROBABILITY_TEXT_MIN)) return '';
  return value < 10 ? value.toFixed(1) : value.toFixed(0);
}

/** Readable text colour (black or white) on a fill. */
export function textOn(fill: string): string {
  return lab(fill).l > 55 ? '#000000' : '#ffffff';
}

const MARGIN = { top: 14, right: 96, bottom: 44, left: 64 } as const;
const BAR_WIDTH = 12;
const MARKER_COLOUR = '#D55E00';

interface Cell {
  readonly row: number;
  readonly col: number;
  readonly value: number | null;
}

/**
 * BCEdge Figure 1: batch size (rows) × number of concurrent instances (columns) coloured by
 * one metric (viridis; log when it spans a wide range), OOM cells hatched, the best cell
 * outlined, the current configuration ringed, and a colour bar with the unit on the right.
 * With the 'probability' metric it is a learning lane's policy: masked actions hatched, the
 * most probable action outlined. The SVG's `data-points` is the number of cells drawn
 * (missing cells included); each cell's `data-value` is its value (empty when missing).
 */
export function createHeatmapChart(host: HTMLElement, options: ChartOptions = {}): DataChart<HeatmapData> {
  const height = options.height ?? 320;
  const frame = createAxesFrame(host, 'chart-heatmap');
  const { svg, plot, overlay } = frame;
  const defs = svg.insert('defs', ':first-child');
  const hatchId = uniqueId('chart-hatch');
  const hatch = defs.append('pattern').attr('id', hatchId).attr('patternUnits', 'userSpaceOnUse').attr('width', 8).attr('height', 8).attr('patternTransform', 'rotate(45)');
  hatch.append('rect').attr('width', 8).attr('height', 8).attr('fill', '#f2f2f2');
  hatch.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 8).attr('stroke', '#8a8a8a').attr('stroke-width', 3);
  const gradientId = uniqueId('chart-gradient');
  const gradient = defs.append('linearGradient').attr('id', gradientId).attr('x1', 0).attr('y1', 1).attr('x2', 0).attr('y2', 0);
  const bar = frame.main.append('g').attr('class', 'chart-colour-bar');
  const barRect = bar.append('rect').attr('width', BAR_WIDTH).attr('fill', `url(#${gradientId})`).style('stroke', THEME.grid);
  const barAxis = bar.append('g');
  const barLabel = bar.append('text').attr('text-anchor', 'middle').attr('transform', 'rotate(90)').style('fill', THEME.text);
  const bestRect = overlay.append('rect').attr('fill', 'none').style('stroke', THEME.optimum).attr('stroke-width', 3);
  const bestInner = overlay.append('rect').attr('fill', 'none').style('stroke', THEME.halo).attr('stroke-width', 1.5);
  const ringHalo = overlay.append('circle').attr('fill', 'none').style('stroke', THEME.halo).attr('stroke-width', 6);
  const ring = overlay.append('circle').attr('fill', 'none').attr('stroke', MARKER_COLOUR).attr('stroke-width', 3);
  const x = scaleBand<number>().paddingInner(0.04);
  const y = scaleBand<number>().paddingInner(0.04);

  const draw = (data: HeatmapData, width: number) => {
    const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
    const { innerHeight } = innerSize(width, height);
    const meta = HEATMAP_METRIC[data.metric];
    const rows = data.batchSizes.length;
    const cols = data.instanceCounts.length;
    svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    frame.main.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    x.domain(data.instanceCounts.map((_, c) => c)).range([0, innerWidth]);
    y.domain(data.batchSizes.map((_, r) => r)).range([innerHeight, 0]);
    frame.xAxis.attr('transform', `translate(0,${innerHeight})`).call(axisBottom(x).tickFormat((c) => String(data.instanceCounts[c] ?? '')).tickSizeOuter(0));
    styleAxis(frame.xAxis);
    frame.yAxis.call(axisLeft(y).tickFormat((r) => String(data.batchSizes[r] ?? '')).tickSizeOuter(0));
    styleAxis(frame.yAxis);
    frame.xLabel.attr('x', innerWidth).attr('y', innerHeight + 36).text('concurrent instances (m_c)');
    frame.yLabel.attr('x', -innerHeight / 2).attr('y', -MARGIN.left + 14).text('batch size (b)');

    const domain = colourDomain(data.values, meta.zeroBased);
    const colour = domain.log
      ? scaleSequentialLog(interpolateViridis).domain([domain.min, domain.max])
      : scaleSequential(interpolateViridis).domain([domain.min, domain.max]);
    const cells: Cell[] = [];
    for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) cells.push({ row, col, value: data.values[row]?.[col] ?? null });
    const fillOf = (c: Cell) => (c.value === null || !plottable(c.value) ? `url(#${hatchId})` : colour(c.value));
    const bw = x.bandwidth();
    const bh = y.bandwidth();
    const showText = bw >= 30 && bh >= FONT_PX + 2;
    const describe = (c: Cell) =>
      `batch ${data.batchSizes[c.row]}, ${data.instanceCounts[c.col]} instances: ${c.value === null ? meta.missingText : `${formatNumber(c.value)} ${meta.unit}`}`;
    plot
      .selectAll<SVGGElement, Cell>('g.chart-cell')
      .data(cells, (c) => `${c.row}:${c.col}`)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'chart-cell');
        g.append('rect');
        g.append('text').attr('text-anchor', 'middle').attr('dominant-baseline', 'central');
        g.append('title');
        return g;
      })
      .attr('transform', (c) => `translate(${x(c.col)},${y(c.row)})`)
      .attr('data-value', (c) => (plottable(c.value) ? String(c.value) : ''))
      .call((g) =>
        g
          .select('rect')
          .attr('width', bw)
          .attr('height', bh)
          .attr('fill', fillOf),
      )
      .call((g) =>
        g
          .select<SVGTextElement>('text')
          .attr('x', bw / 2)
          .attr('y', bh / 2)
          .attr('display', (c) => (showText || c.value === null ? null : 'none'))
          .style('fill', (c) => (c.value === null ? '#000000' : textOn(colour(c.value))))
          .style('font-weight', (c) => (c.value === null ? '600' : null))
          // A missing cell's word only where it fits (the hatching, the title and the legend say it anyway).
          .text((c) => (c.value === null ? (meta.missing.length * (CHAR_PX + 1) <= bw - 4 ? meta.missing : '') : cellText(c.value, data.metric))),
      )
      .call((g) => g.select('title').text(describe));
    svg.attr('data-points', cells.length);

    const best = bestCell(data.values, meta.better);
    bestRect.attr('display', best ? null : 'none');
    bestInner.attr('display', best ? null : 'none');
    if (best) {
      bestRect.attr('x', x(best.col)!).attr('y', y(best.row)!).attr('width', bw).attr('height', bh);
      bestInner.attr('x', x(best.col)! + 2.25).attr('y', y(best.row)! + 2.25).attr('width', Math.max(0, bw - 4.5)).attr('height', Math.max(0, bh - 4.5));
    }
    const marker = data.marker ?? null;
    const mRow = marker ? data.batchSizes.indexOf(marker.batchSize) : -1;
    const mCol = marker ? data.instanceCounts.indexOf(marker.instances) : -1;
    const markerShown = mRow >= 0 && mCol >= 0;
    const radius = Math.max(4, Math.min(bw, bh) / 2 - 3);
    for (const c of [ringHalo, ring]) {
      c.attr('display', markerShown ? null : 'none');
      if (markerShown) c.attr('cx', x(mCol)! + bw / 2).attr('cy', y(mRow)! + bh / 2).attr('r', radius);
    }

    // Colour bar on the right, its axis in the metric's unit.
    const barX = innerWidth + 14;
    bar.attr('transform', `translate(${barX},0)`);
    barRect.attr('height', innerHeight);
    const stops = Array.from({ length: 11 }, (_, i) => i / 10);
    const valueAt = (t: number) => (domain.log ? domain.min * Math.pow(domain.max / domain.min, t) : domain.min + (domain.max - domain.min) * t);
    gradient
      .selectAll('stop')
      .data(stops)
      .join('stop')
      .attr('offset', (t) => `${t * 100}%`)
      .attr('stop-color', (t) => colour(valueAt(t)));
    const barScale = domain.log ? scaleLog().domain([domain.min, domain.max]).range([innerHeight, 0]) : scaleLinear().domain([domain.min, domain.max]).range([innerHeight, 0]);
    barAxis.attr('transform', `translate(${BAR_WIDTH},0)`).call(axisRight(barScale).ticks(Math.max(2, Math.min(6, Math.floor(innerHeight / 40))), '~s').tickSizeOuter(0));
    styleAxis(barAxis);
    barLabel.attr('x', innerHeight / 2).attr('y', -(BAR_WIDTH + 58)).text(`${meta.label} (${meta.unit})`);

    const missing = cells.filter((c) => c.value === null).length;
    setPlotMessage(frame, width, height, cells.length === 0 ? 'No configurations measured yet' : null);
    frame.message.attr('x', innerWidth / 2);

    const items: LegendItem[] = [
      { key: 'scale', label: `colour: ${meta.label} (${meta.unit}), ${meta.better} is better${domain.log ? ', log scale' : ''}`, colour: THEME.text, swatch: 'text' },
      { key: 'best', label: meta.best, colour: THEME.optimum, swatch: 'tick' },
      { key: 'current', label: 'current configuration', colour: MARKER_COLOUR, swatch: 'circle' },
      { key: 'missing', label: `${meta.missing === '' ? 'hatched' : meta.missing}: ${meta.missingText}`, colour: '#8a8a8a', swatch: 'area', title: `hatched cells: ${meta.missingText}` },
    ];
    renderLegend(frame.scaffold.legend, items);

    const bestText = best ? `best ${formatNumber(best.value)} ${meta.unit} at batch ${data.batchSizes[best.row]} with ${data.instanceCounts[best.col]} instances` : 'no best cell';
    const markerValue = markerShown ? (data.values[mRow]?.[mCol] ?? null) : null;
    const markerText = markerShown ? `; current configuration batch ${marker!.batchSize} with ${marker!.instances} instances: ${markerValue === null ? meta.missingText : `${formatNumber(markerValue)} ${meta.unit}`}` : '';
    svg.attr(
      'aria-label',
      `Heatmap of ${meta.label} in ${meta.unit} over ${rows} batch sizes (${data.batchSizes[0] ?? '–'} to ${data.batchSizes[rows - 1] ?? '–'}) and ${cols} instance counts: ${bestText}; ${missing} cells ${meta.missingText}${markerText}.`,
    );
  };

  const chart = mountDataChart<HeatmapData>(host, frame.scaffold.root.node()!, draw);
  // The ring is drawn over the best outline: raise it once, the overlay keeps the order.
  ringHalo.raise();
  ring.raise();
  haloText(frame.message);
  return chart;
}
