import { axisBottom, axisLeft, line, scaleLinear, scaleLog } from 'd3';
import { MAX_POINTS, compactTickFormat, formatNumber, logTickFormat, renderLegend, type LegendItem } from '../../../charts/runtime';
import { finiteExtent, plottable, pointIndices } from '../../../charts/pointSampling';
import { createAxesFrame, innerSize, layoutAxesFrame, setPlotMessage, tickCounts, type AxesFrame } from '../../../charts/axes';

/**
 * Lines over scheduling slots, shared by the learning charts (Fig. 10's training curves and
 * SAC's temperature α): one line per lane in its lane colour, x = slot index.
 */

/** One line: points at ascending slots; a non-finite value is a gap. */
export interface SlotLine {
  readonly key: string;
  readonly label: string;
  readonly colour: string;
  /** Dashed (e.g. a lane that does not learn, drawn for comparison). */
  readonly dashed?: boolean;
  readonly slot: ArrayLike<number>;
  readonly value: ArrayLike<number>;
}

/** What the axes and the texts of a slot-lines chart say. */
export interface SlotLinesView {
  readonly xLabel: string;
  readonly yLabel: string;
  /** Logarithmic y axis (only positive values are drawn). */
  readonly log: boolean;
  /** Text entries after the lines in the legend (e.g. how the lines are smoothed). */
  readonly notes: readonly string[];
  /** Shown over the plot when no line has a point. */
  readonly empty: string;
  /** First sentence of the SVG's aria-label: what the lines are. */
  readonly description: string;
}

/** Whether a value can be drawn on the axis (finite; positive on a log axis). */
function drawable(v: number | undefined, log: boolean): v is number {
  return v !== undefined && plottable(v) && (!log || v > 0);
}

/**
 * Axes of slot lines: x from 0 to the last slot (at least 10); y around the drawable values
 * with 5 % padding (linear; a flat set gets ±0.5, or ±10 % of its value) or ×/÷ 1.25 (log);
 * [0, 1] (linear) or [0.01, 1] (log) when there is nothing to draw.
 */
export function slotLinesDomain(lines: readonly SlotLine[], log: boolean): { x: [number, number]; y: [number, number] } {
  let lastSlot = 0;
  const values: number[] = [];
  for (const l of lines) {
    const n = Math.min(l.slot.length, l.value.length);
    for (let i = 0; i < n; i++) {
      const v = l.value[i];
      if (!drawable(v, log)) continue;
      values.push(v);
      const s = l.slot[i]!;
      if (plottable(s) && s > lastSlot) lastSlot = s;
    }
  }
  const x: [number, number] = [0, Math.max(10, lastSlot)];
  const [lo, hi] = finiteExtent(values);
  if (!plottable(lo)) return { x, y: log ? [0.01, 1] : [0, 1] };
  if (log) return { x, y: [lo / 1.25, hi * 1.25] };
  if (hi === lo) {
    const pad = lo === 0 ? 0.5 : Math.abs(lo) * 0.1;
    return { x, y: [lo - pad, hi + pad] };
  }
  const pad = (hi - lo) * 0.05;
  return { x, y: [lo - pad, hi + pad] };
}

/** The last drawable value of a line (NaN when none). */
export function lastValue(l: SlotLine, log = false): number {
  for (let i = Math.min(l.slot.length, l.value.length) - 1; i >= 0; i--) {
    const v = l.value[i];
    if (drawable(v, log)) return v;
  }
  return Number.NaN;
}

/** A slot-lines chart's groups and its draw function (the chart modules mount it). */
export interface SlotLinesChart {
  readonly frame: AxesFrame;
  draw(lines: readonly SlotLine[], view: SlotLinesView, width: number): void;
}

/**
 * Builds the frame of a slot-lines chart in `host`. `draw` lays out the axes, draws at most
 * MAX_POINTS points per line, the legend (lines, then the notes) and the aria-label, and sets
 * the SVG's `data-points` (points drawn, summed over lines) and `data-lines` (lines with a point).
 */
export function createSlotLines(host: HTMLElement, className: string, height: number): SlotLinesChart {
  const frame = createAxesFrame(host, className);
  const paths = frame.plot.append('g').attr('class', 'chart-lines');
  const x = scaleLinear();
  const yLinear = scaleLinear();
  const yLog = scaleLog();

  const draw = (lines: readonly SlotLine[], view: SlotLinesView, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height);
    const domain = slotLinesDomain(lines, view.log);
    x.domain(domain.x).range([0, innerWidth]);
    yLinear.domain(domain.y).range([innerHeight, 0]);
    yLog.domain(domain.y).range([innerHeight, 0]);
    const y = (v: number) => (view.log ? yLog(v) : yLinear(v));
    const ticks = tickCounts(innerWidth, innerHeight);
    const yAxis = view.log
      ? axisLeft(yLog).ticks(ticks.y).tickFormat(logTickFormat(yLog)).tickSizeOuter(0)
      : axisLeft(yLinear).ticks(ticks.y).tickFormat(compactTickFormat(yLinear, ticks.y)).tickSizeOuter(0);
    const gridValues = view.log ? yLog.ticks(ticks.y) : yLinear.ticks(ticks.y);
    layoutAxesFrame(
      frame,
      width,
      height,
      axisBottom(x).ticks(ticks.x).tickFormat(compactTickFormat(x, ticks.x)).tickSizeOuter(0),
      yAxis,
      gridValues.map((v) => y(v)),
      { x: view.xLabel, y: view.yLabel },
    );

    let points = 0;
    let drawnLines = 0;
    paths
      .selectAll<SVGPathElement, SlotLine>('path')
      .data(lines, (l) => l.key)
      .join('path')
      .attr('data-key', (l) => l.key)
      .attr('fill', 'none')
      .attr('stroke', (l) => l.colour)
      .attr('stroke-width', 2)
      .attr('stroke-linejoin', 'round')
      .attr('stroke-dasharray', (l) => (l.dashed === true ? '6 4' : null))
      .attr('d', (l) => {
        const n = Math.min(l.slot.length, l.value.length);
        const indices = pointIndices(n, MAX_POINTS);
        let count = 0;
        for (const i of indices) if (drawable(l.value[i], view.log)) count++;
        points += count;
        if (count > 0) drawnLines++;
        return (
          line<number>()
            .defined((i) => drawable(l.value[i], view.log) && plottable(l.slot[i]))
            .x((i) => x(l.slot[i]!))
            .y((i) => y(l.value[i]!))(indices) ?? ''
        );
      });
    frame.svg.attr('data-points', points).attr('data-lines', drawnLines);
    setPlotMessage(frame, width, height, points === 0 ? view.empty : null);

    const items: LegendItem[] = lines.map((l) => ({ key: l.key, label: l.label, colour: l.colour, swatch: l.dashed === true ? 'dashed' : 'line' }));
    view.notes.forEach((note, i) => items.push({ key: `note-${i}`, label: note, colour: 'currentColor', swatch: 'text' }));
    renderLegend(frame.scaffold.legend, items);

    const latest = lines
      .map((l) => {
        const v = lastValue(l, view.log);
        return `${l.label} ${plottable(v) ? formatNumber(v) : 'no data'}`;
      })
      .join('; ');
    frame.svg.attr(
      'aria-label',
      `${view.description} Slots 0 to ${formatNumber(domain.x[1])}${view.log ? ', logarithmic y axis' : ''}. Latest: ${latest || 'no data yet'}.`,
    );
  };

  return { frame, draw };
}
