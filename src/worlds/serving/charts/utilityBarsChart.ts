import { axisBottom, axisLeft, scaleBand, scaleLinear } from 'd3';
import type { ModelId } from '../engine/models';
import { laneColour } from '../../../charts/palette';
import { formatNumber, mountDataChart, renderLegend, THEME, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { finiteExtent, plottable } from '../../../charts/pointSampling';
import { createAxesFrame, innerSize, layoutAxesFrame, setPlotMessage, tickCounts } from '../../../charts/axes';

/**
 * What the BCEdge Figure 7 chart draws: each scheduler lane's utility per model.
 * `utility[m][l]` is the raw utility of lane `lanes[l]` on model `models[m]` (null: not
 * measured, no bar). Bars are normalized per model to the best lane (see `normalizeToBest`);
 * the raw value is in each bar's tooltip. Lane `l` is coloured `laneColour(lanes[l].index ?? l)`.
 */
export interface UtilityBarsData {
  readonly models: readonly ModelId[];
  readonly lanes: readonly { readonly label: string; readonly index?: number }[];
  readonly utility: readonly (readonly (number | null)[])[];
}

/**
 * Normalizes one model's utilities to its best lane, which becomes 1. With a positive best,
 * each value is divided by it (a lane at half the best utility gets 0.5). Utility can be
 * negative (BCEdge's utility is a log ratio); when the best is not positive, values are
 * mapped linearly so that the best is 1 and the worst is 0 (all 1 when they are equal).
 * Null and non-finite values stay null.
 */
export function normalizeToBest(values: readonly (number | null)[]): (number | null)[] {
  const [lo, best] = finiteExtent(values);
  if (!plottable(best)) return values.map(() => null);
  return values.map((v) => {
    if (v === null || !plottable(v)) return null;
    if (best > 0) return v / best;
    return best === lo ? 1 : (v - lo) / (best - lo);
  });
}

/** The y domain of normalized bars: [min(0, lowest), max(1, highest)] with a little headroom. */
export function normalizedDomain(normalized: readonly (readonly (number | null)[])[]): [number, number] {
  const [lo, hi] = finiteExtent(normalized.flat());
  const bottom = plottable(lo) ? Math.min(0, lo) : 0;
  const top = plottable(hi) ? Math.max(1, hi) : 1;
  return [bottom < 0 ? bottom * 1.08 : 0, top * 1.08];
}

interface Bar {
  readonly m: number;
  readonly l: number;
  readonly raw: number;
  readonly norm: number;
}

/**
 * BCEdge Figure 7: normalized utility per model as grouped bars (models on x, one bar per
 * scheduler lane in its lane colour), each model's best lane = 1, raw values in the bars'
 * tooltips. The SVG's `data-points` is the number of bars drawn.
 */
export function createUtilityBarsChart(host: HTMLElement, options: ChartOptions = {}): DataChart<UtilityBarsData> {
  const height = options.height ?? 280;
  const frame = createAxesFrame(host, 'chart-utility-bars');
  const zero = frame.overlay.append('line').style('stroke', THEME.text).attr('stroke-width', 1);
  const x = scaleBand<number>().paddingInner(0.2).paddingOuter(0.1);
  const inner = scaleBand<number>().padding(0.08);
  const y = scaleLinear();

  const draw = (data: UtilityBarsData, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height);
    const normalized = data.models.map((_, m) => normalizeToBest(data.lanes.map((__, l) => data.utility[m]?.[l] ?? null)));
    x.domain(data.models.map((_, m) => m)).range([0, innerWidth]);
    inner.domain(data.lanes.map((_, l) => l)).range([0, x.bandwidth()]);
    y.domain(normalizedDomain(normalized)).range([innerHeight, 0]);
    const ticks = tickCounts(innerWidth, innerHeight);
    layoutAxesFrame(
      frame,
      width,
      height,
      axisBottom(x).tickFormat((m) => data.models[m] ?? '').tickSizeOuter(0),
      axisLeft(y).ticks(ticks.y).tickSizeOuter(0),
      y.ticks(ticks.y).map((v) => y(v)),
      { x: 'model', y: 'normalized utility (best lane = 1)' },
    );

    const bars: Bar[] = [];
    for (let m = 0; m < data.models.length; m++) {
      for (let l = 0; l < data.lanes.length; l++) {
        const norm = normalized[m]![l];
        const raw = data.utility[m]?.[l];
        if (norm === null || norm === undefined || raw === null || raw === undefined) continue;
        bars.push({ m, l, raw, norm });
      }
    }
    const colourOf = (l: number) => laneColour(data.lanes[l]?.index ?? l);
    frame.plot
      .selectAll<SVGRectElement, Bar>('rect')
      .data(bars, (b) => `${b.m}:${b.l}`)
      .join((enter) => {
        const r = enter.append('rect');
        r.append('title');
        return r;
      })
      .attr('x', (b) => x(b.m)! + inner(b.l)!)
      .attr('width', inner.bandwidth())
      .attr('y', (b) => y(Math.max(0, b.norm)))
      .attr('height', (b) => Math.abs(y(b.norm) - y(0)))
      .attr('fill', (b) => colourOf(b.l))
      .select('title')
      .text((b) => `${data.models[b.m]}, ${data.lanes[b.l]!.label}: utility ${formatNumber(b.raw)} (normalized ${formatNumber(b.norm)})`);
    zero.attr('x1', 0).attr('x2', innerWidth).attr('y1', y(0)).attr('y2', y(0));
    frame.svg.attr('data-points', bars.length);
    setPlotMessage(frame, width, height, bars.length === 0 ? 'No utilities yet: run the serving simulation' : null);

    const items: LegendItem[] = data.lanes.map((lane, l) => ({ key: `lane-${l}`, label: lane.label, colour: colourOf(l), swatch: 'area' }));
    renderLegend(frame.scaffold.legend, items);

    const winners = data.models
      .map((model, m) => {
        const best = normalized[m]!.findIndex((v) => v === 1);
        return `${model}: ${best >= 0 ? `best ${data.lanes[best]!.label}` : 'no data'}`;
      })
      .join('; ');
    frame.svg.attr(
      'aria-label',
      `Grouped bars of normalized utility for ${data.models.length} models and ${data.lanes.length} schedulers, each model's best scheduler at 1. ${winners || 'No data yet'}.`,
    );
  };

  return mountDataChart<UtilityBarsData>(host, frame.scaffold.root.node()!, draw);
}
