import { axisBottom, axisLeft, format, scaleBand, scaleLinear, scaleLog } from 'd3';
import { laneColour } from '../../../charts/palette';
import { CHAR_PX, compactTickFormat, haloText, logTickFormat, mountDataChart, renderLegend, styleAxis, THEME, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { finiteExtent, fitText, PLOT_MIN_SPAN, plottable } from '../../../charts/pointSampling';
import { createAxesFrame, setPlotMessage, tickCounts } from '../../../charts/axes';

/**
 * What the BCEdge Figure 16 chart draws: each lane's mean wall-clock time per scheduling
 * decision, µs (measured in the worker; null or ≤ 0: no decision yet, no bar).
 * Lane `l` is coloured `laneColour(lanes[l].index ?? l)`.
 */
export interface DecisionTimeData {
  readonly lanes: readonly { readonly label: string; readonly index?: number; readonly decisionUs: number | null }[];
}

/** Ratio max/min above which the time axis turns logarithmic (a rule takes ~1 µs, a network ~1 ms). */
export const DECISION_LOG_SPAN = 100;

/**
 * The time axis: linear from 0 to the longest time (+10 %) or, when the positive times span
 * more than DECISION_LOG_SPAN, logarithmic from half the shortest to twice the longest;
 * [0, 1] µs without data.
 */
export function decisionDomain(values: readonly (number | null)[]): { min: number; max: number; log: boolean } {
  const [lo, hi] = finiteExtent(values.filter((v): v is number => v !== null && v >= PLOT_MIN_SPAN));
  if (!plottable(lo)) return { min: 0, max: 1, log: false };
  if (hi / lo > DECISION_LOG_SPAN) return { min: lo / 2, max: hi * 2, log: true };
  return { min: 0, max: hi * 1.1, log: false };
}

const threeDigits = format('.3~r');

/** A duration in µs for people: "0.85 µs", "412 µs", "1.25 ms", "2.5 s". */
export function formatMicros(us: number): string {
  if (!plottable(us)) return '–';
  if (us >= 1e6) return `${threeDigits(us / 1e6)} s`;
  if (us >= 1000) return `${threeDigits(us / 1000)} ms`;
  return `${threeDigits(us)} µs`;
}

const MARGIN = { top: 10, right: 70, bottom: 44, left: 160 } as const;
const ROW_PX = 30;

interface Row {
  readonly l: number;
  readonly label: string;
  readonly us: number | null;
}

/**
 * BCEdge Figure 16: mean time per decision of each lane as horizontal bars (lanes top to
 * bottom in lane order, lane colours), the value at each bar's end, µs on x (logarithmic when
 * the lanes differ by orders of magnitude, as rules and neural networks do). The SVG grows
 * with the number of lanes; its `data-points` is the number of bars drawn.
 */
export function createDecisionTimeChart(host: HTMLElement, options: ChartOptions = {}): DataChart<DecisionTimeData> {
  const frame = createAxesFrame(host, 'chart-decision-time');
  const labels = frame.overlay.append('g').attr('class', 'chart-values');
  const y = scaleBand<number>().paddingInner(0.25).paddingOuter(0.15);

  const draw = (data: DecisionTimeData, width: number) => {
    // null: no decision yet; 0: every decision was shorter than the clock's resolution (browsers coarsen
    // performance.now() to 5–100 µs), shown as a label, not as a bar of a made-up length.
    const rows: Row[] = data.lanes.map((lane, l) => ({ l, label: lane.label, us: lane.decisionUs !== null && plottable(lane.decisionUs) && lane.decisionUs >= 0 ? lane.decisionUs : null }));
    const height = options.height ?? Math.max(150, MARGIN.top + MARGIN.bottom + ROW_PX * Math.max(1, rows.length));
    const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
    const innerHeight = Math.max(10, height - MARGIN.top - MARGIN.bottom);
    const domain = decisionDomain(rows.map((r) => (r.us === 0 ? null : r.us)));
    const xLinear = scaleLinear().domain([domain.min, domain.max]).range([0, innerWidth]);
    const xLog = scaleLog().domain([domain.min, domain.max]).range([0, innerWidth]);
    const x = (v: number) => (domain.log ? xLog(v) : xLinear(v));
    y.domain(rows.map((r) => r.l)).range([0, innerHeight]);
    const ticks = tickCounts(innerWidth, innerHeight);

    frame.svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    frame.main.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    frame.xAxis
      .attr('transform', `translate(0,${innerHeight})`)
      .call(
        domain.log
          ? axisBottom(xLog).ticks(ticks.x).tickFormat(logTickFormat(xLog)).tickSizeOuter(0)
          : axisBottom(xLinear).ticks(ticks.x).tickFormat(compactTickFormat(xLinear, ticks.x)).tickSizeOuter(0),
      );
    styleAxis(frame.xAxis);
    const room = MARGIN.left - 12;
    frame.yAxis.call(
      axisLeft(y)
        .tickFormat((l) => fitText(rows[l]?.label ?? '', room, CHAR_PX))
        .tickSizeOuter(0),
    );
    styleAxis(frame.yAxis);
    // On a log axis, grid lines only at the labelled ticks (not at every 2 … 9 between them).
    const logLabel = logTickFormat(xLog);
    const gridXs = (domain.log ? xLog.ticks(ticks.x).filter((v) => logLabel(v) !== '') : xLinear.ticks(ticks.x)).map((v) => x(v));
    frame.grid
      .selectAll<SVGLineElement, number>('line')
      .data(gridXs)
      .join('line')
      .attr('x1', (d) => d)
      .attr('x2', (d) => d)
      .attr('y1', 0)
      .attr('y2', innerHeight)
      .style('stroke', THEME.grid)
      .attr('stroke-width', 1);
    frame.xLabel.attr('x', innerWidth).attr('y', innerHeight + 36).text(`mean time per decision (µs${domain.log ? ', log scale' : ''})`);
    frame.yLabel.text('');

    const bars = rows.filter((r) => r.us !== null && r.us > 0);
    const colourOf = (r: Row) => laneColour(data.lanes[r.l]?.index ?? r.l);
    const start = domain.log ? 0 : x(0);
    frame.plot
      .selectAll<SVGRectElement, Row>('rect')
      .data(bars, (r) => String(r.l))
      .join((enter) => {
        const rect = enter.append('rect');
        rect.append('title');
        return rect;
      })
      .attr('x', start)
      .attr('y', (r) => y(r.l)!)
      .attr('height', y.bandwidth())
      .attr('width', (r) => Math.max(1, x(r.us!) - start))
      .attr('fill', colourOf)
      .select('title')
      .text((r) => `${r.label}: ${formatMicros(r.us!)} per decision`);
    labels
      .selectAll<SVGTextElement, Row>('text')
      .data(rows, (r) => String(r.l))
      .join((enter) => haloText(enter.append('text')).attr('dominant-baseline', 'central'))
      .attr('x', (r) => (r.us === null || r.us === 0 ? 4 : Math.max(1, x(r.us) - start) + start + 4))
      .attr('y', (r) => y(r.l)! + y.bandwidth() / 2)
      .text((r) => (r.us === null ? 'no decision yet' : r.us === 0 ? 'below the clock’s resolution' : formatMicros(r.us)));
    // Lanes measured: drawn bars and those below the clock's resolution.
    frame.svg.attr('data-points', rows.filter((r) => r.us !== null).length);
    setPlotMessage(frame, width, height, rows.length === 0 ? 'No lanes' : null);
    // setPlotMessage centres on the shared margin: centre on this chart's plot instead.
    frame.message.attr('x', innerWidth / 2).attr('y', innerHeight / 2);

    const items: LegendItem[] = rows.map((r) => ({ key: `lane-${r.l}`, label: r.label, colour: colourOf(r), swatch: 'area' }));
    items.push({ key: 'note', label: 'wall-clock time in the simulation worker (this computer), mean over the run', colour: 'currentColor', swatch: 'text' });
    renderLegend(frame.scaffold.legend, items);
    frame.svg.attr(
      'aria-label',
      `Bars of the mean time per scheduling decision of ${rows.length} lanes${domain.log ? ' on a logarithmic axis' : ''}: ${rows.map((r) => `${r.label} ${r.us === null ? 'no decision yet' : formatMicros(r.us)}`).join('; ') || 'no data yet'}.`,
    );
  };

  return mountDataChart<DecisionTimeData>(host, frame.scaffold.root.node()!, draw);
}
