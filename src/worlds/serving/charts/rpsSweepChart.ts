import { axisBottom, axisLeft, line, scaleLinear } from 'd3';
import { laneColour } from '../../../charts/palette';
import { compactTickFormat, formatNumber, mountDataChart, renderLegend, THEME, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { finiteExtent, plottable } from '../../../charts/pointSampling';
import { createAxesFrame, innerSize, layoutAxesFrame, setPlotMessage, tickCounts } from '../../../charts/axes';

/** One point of a sweep: the offered request rate and the share of requests that missed their SLO. */
export interface RpsSweepPoint {
  /** Offered request rate, requests per second. */
  readonly rps: number;
  /** SLO violations, percent of requests (0 … 100). */
  readonly violationPct: number;
}

/**
 * What the BCEdge Figure 15 chart draws: one line per scheduler lane of SLO violation %
 * against the request rate. Points need not be sorted (the chart sorts them by rps);
 * non-finite points are skipped. Lane `l` is coloured `laneColour(lanes[l].index ?? l)`.
 */
export interface RpsSweepData {
  readonly lanes: readonly { readonly label: string; readonly index?: number; readonly points: readonly RpsSweepPoint[] }[];
}

type LanePoint = RpsSweepPoint & { readonly l: number };

/** The finite points of a lane, sorted by request rate. */
export function sweepPoints(points: readonly RpsSweepPoint[]): RpsSweepPoint[] {
  return points.filter((p) => plottable(p.rps) && plottable(p.violationPct)).sort((a, b) => a.rps - b.rps);
}

/**
 * Axes of the sweep: x from 0 to the highest rate (1 rps when there is none), y from 0 to the
 * highest violation with 10 % headroom, at least 10 % and at most 100 %.
 */
export function sweepDomains(lanes: readonly (readonly RpsSweepPoint[])[]): { x: [number, number]; y: [number, number] } {
  const [, xHi] = finiteExtent(lanes.flatMap((ps) => ps.map((p) => p.rps)));
  const [, yHi] = finiteExtent(lanes.flatMap((ps) => ps.map((p) => p.violationPct)));
  const x: [number, number] = [0, xHi > 0 ? xHi : 1];
  const y: [number, number] = [0, Math.min(100, Math.max(10, plottable(yHi) ? yHi * 1.1 : 10))];
  return { x, y };
}

/**
 * BCEdge Figure 15: SLO violation rate (%) against the offered request rate (rps), one line
 * with dots per scheduler lane in its lane colour. The SVG's `data-points` is the number of
 * points drawn, summed over lanes.
 */
export function createRpsSweepChart(host: HTMLElement, options: ChartOptions = {}): DataChart<RpsSweepData> {
  const height = options.height ?? 280;
  const frame = createAxesFrame(host, 'chart-rps-sweep');
  const x = scaleLinear();
  const y = scaleLinear();

  const draw = (data: RpsSweepData, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height);
    const lanes = data.lanes.map((lane) => sweepPoints(lane.points));
    const domains = sweepDomains(lanes);
    x.domain(domains.x).range([0, innerWidth]);
    y.domain(domains.y).range([innerHeight, 0]);
    const ticks = tickCounts(innerWidth, innerHeight);
    layoutAxesFrame(
      frame,
      width,
      height,
      axisBottom(x).ticks(ticks.x).tickFormat(compactTickFormat(x, ticks.x)).tickSizeOuter(0),
      axisLeft(y).ticks(ticks.y).tickSizeOuter(0),
      y.ticks(ticks.y).map((v) => y(v)),
      { x: 'request rate (rps)', y: 'SLO violations (%)' },
    );
    const colourOf = (l: number) => laneColour(data.lanes[l]?.index ?? l);
    let points = 0;
    frame.plot
      .selectAll<SVGGElement, number>('g.chart-lane')
      .data(lanes.map((_, l) => l))
      .join((enter) => {
        const g = enter.append('g').attr('class', 'chart-lane');
        g.append('path').attr('fill', 'none').attr('stroke-width', 2).attr('stroke-linejoin', 'round');
        return g;
      })
      .each((l) => {
        points += lanes[l]!.length;
      })
      .call((g) =>
        g
          .select('path')
          .attr('stroke', (l) => colourOf(l))
          .attr(
            'd',
            (l) =>
              line<RpsSweepPoint>()
                .x((p) => x(p.rps))
                .y((p) => y(p.violationPct))(lanes[l]!) ?? '',
          ),
      )
      .selectAll<SVGCircleElement, LanePoint>('circle')
      .data((l) => lanes[l]!.map((p) => ({ ...p, l })))
      .join((enter) => {
        const c = enter.append('circle').attr('r', 3.5).style('stroke', THEME.halo).attr('stroke-width', 1);
        c.append('title');
        return c;
      })
      .attr('cx', (p) => x(p.rps))
      .attr('cy', (p) => y(p.violationPct))
      .attr('fill', (p) => colourOf(p.l))
      .select('title')
      .text((p) => `${data.lanes[p.l]!.label}: ${formatNumber(p.violationPct)} % at ${formatNumber(p.rps)} rps`);
    frame.svg.attr('data-points', points);
    setPlotMessage(frame, width, height, points === 0 ? 'No sweep yet: run the request-rate sweep' : null);

    const items: LegendItem[] = data.lanes.map((lane, l) => ({ key: `lane-${l}`, label: lane.label, colour: colourOf(l), swatch: 'line' }));
    renderLegend(frame.scaffold.legend, items);

    const summary = data.lanes
      .map((lane, l) => {
        const ps = lanes[l]!;
        const last = ps[ps.length - 1];
        return last ? `${lane.label} ${formatNumber(last.violationPct)} % at ${formatNumber(last.rps)} rps` : `${lane.label} no data`;
      })
      .join('; ');
    frame.svg.attr(
      'aria-label',
      `SLO violation rate in percent against request rate in requests per second, ${data.lanes.length} schedulers, from ${formatNumber(domains.x[0])} to ${formatNumber(domains.x[1])} rps. Highest rate: ${summary || 'no data'}.`,
    );
  };

  return mountDataChart<RpsSweepData>(host, frame.scaffold.root.node()!, draw);
}
