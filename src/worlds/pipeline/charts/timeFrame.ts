import { line, type ScaleLinear, type Selection } from 'd3';
import type { PipelineSeriesBuffer, PipelineSeriesColumn } from '../store/pipelineSeriesBuffer';
import { laneColour } from '../../../charts/palette';
import type { PipelineMarker } from '../worker/pipelineProtocol';
import { markerDescription, placeTicks } from './markerTicks';
import { appendAxes, appendAxisTexts, innerSize, layoutLinearAxes, setPlotMessage, type AxesParts, type Margin } from '../../../charts/axes';
import { CHAR_PX, THEME, haloText, textMeasurer, uniqueId, type G, type Svg } from '../../../charts/runtime';
import { fitText, plottable } from '../../../charts/pointSampling';

/** Space around the plot of a time chart, px: the top band holds the subtitle and the interference labels. */
export const TIME_MARGIN: Margin = { top: 46, right: 18, bottom: 44, left: 64 };

type Text = Selection<SVGTextElement, unknown, null, undefined>;
type Path = Selection<SVGPathElement, unknown, null, undefined>;

/** The groups of a chart over the query axis (the pipeline's time charts): the kit's axes parts and what the query axis adds. */
export interface TimeFrame extends AxesParts {
  readonly subtitle: Text;
  /** Clipped to the plot: areas, reference lines and lane lines go here. */
  readonly areas: G;
  readonly refs: G;
  readonly lines: G;
  /** Not clipped: labels of reference lines. */
  readonly labels: G;
  readonly interference: {
    readonly guides: Path;
    readonly on: Path;
    readonly off: Path;
    readonly labels: G;
  };
  readonly laneTicks: { readonly detect: Path; readonly install: Path };
  readonly clipRect: Selection<SVGRectElement, unknown, null, undefined>;
  /** Width of a 12 px label in the chart's font. */
  readonly measure: (text: string) => number;
}

/** Builds the static structure of a time chart once; `layoutTimeFrame` sizes it on every draw. */
export function createTimeFrame(svg: Svg): TimeFrame {
  const clipId = uniqueId('chart-clip');
  const clipRect = svg.append('defs').append('clipPath').attr('id', clipId).append('rect');
  const subtitle = svg.append('text').attr('class', 'chart-subtitle').attr('x', 0).attr('y', 14).style('fill', THEME.text);
  const main = svg.append('g').attr('class', 'chart-main');
  const grid = main.append('g').attr('class', 'chart-grid');
  const clipped = main.append('g').attr('clip-path', `url(#${clipId})`);
  const areas = clipped.append('g').attr('class', 'chart-areas');
  const guides = clipped
    .append('path')
    .attr('class', 'chart-interference-guides')
    .attr('fill', 'none')
    .style('stroke', THEME.interference)
    .attr('stroke-opacity', 0.22)
    .attr('stroke-width', 1);
  const refs = clipped.append('g').attr('class', 'chart-refs');
  const lines = clipped.append('g').attr('class', 'chart-lines');
  const axes = appendAxes(main);
  const on = main.append('path').attr('fill', 'none').style('stroke', THEME.interference).attr('stroke-width', 2);
  const off = main
    .append('path')
    .attr('fill', 'none')
    .style('stroke', THEME.interference)
    .attr('stroke-width', 1.5)
    .attr('stroke-dasharray', '2 2');
  const interferenceLabels = main.append('g').attr('class', 'chart-interference-labels');
  const detect = main.append('path').attr('fill', 'none').attr('stroke-width', 2);
  const install = main.append('path').attr('stroke-width', 2);
  const labels = main.append('g').attr('class', 'chart-ref-labels');
  return {
    svg,
    subtitle,
    main,
    grid,
    areas,
    refs,
    lines,
    labels,
    ...axes,
    ...appendAxisTexts(main),
    interference: { guides, on, off, labels: interferenceLabels },
    laneTicks: { detect, install },
    clipRect,
    measure: textMeasurer(svg.node()!),
  };
}

/** Plot size of a time chart of the given outer size. */
export function plotSize(width: number, height: number): { innerWidth: number; innerHeight: number } {
  return innerSize(width, height, TIME_MARGIN);
}

/** Sizes the frame and draws its axes (query axis below, compact numbers), grid and labels: the kit's `layoutAxes` and the subtitle. */
export function layoutTimeFrame(
  frame: TimeFrame,
  width: number,
  height: number,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  labels: { readonly x: string; readonly y: string; readonly subtitle: string },
): void {
  const { innerWidth, innerHeight } = plotSize(width, height);
  frame.clipRect.attr('x', 0).attr('y', -4).attr('width', innerWidth).attr('height', innerHeight + 8);
  frame.subtitle.text(fitText(labels.subtitle, width, CHAR_PX));
  layoutLinearAxes(frame, width, height, TIME_MARGIN, x, y, labels);
}

/** Shows a message over the plot (or hides it with null). */
export function setMessage(frame: TimeFrame, width: number, height: number, text: string | null): void {
  setPlotMessage(frame, width, height, text, TIME_MARGIN);
}

/**
 * The query axis shared by every lane: 0 … the last query any lane has reached, at least
 * `minQueries` wide so that a young run does not get fractional query ticks.
 */
export function queryDomain(series: readonly PipelineSeriesBuffer[], minQueries = 10): [number, number] {
  let last = 0;
  for (const s of series) {
    const q = s.length > 0 ? s.columns.query[s.length - 1]! : 0;
    if (plottable(q)) last = Math.max(last, q);
  }
  return [0, Math.max(minQueries, last)];
}

/**
 * Draws the interference ticks (lane −1 markers) at the top of the plot: arrivals as solid
 * ticks with a faint guide through the plot, departures as dotted ticks, labels above the
 * plot where they fit. Returns how many interference changes are on screen.
 */
export function drawInterferenceTicks(frame: TimeFrame, markers: readonly PipelineMarker[], x: ScaleLinear<number, number>, innerWidth: number, innerHeight: number): number {
  const ticks = placeTicks(markers, {
    accept: (m) => m.lane === -1 && (m.kind === 'interference-on' || m.kind === 'interference-off'),
    xOf: x,
    width: innerWidth,
    labels: true,
    measure: frame.measure,
  });
  let on = '';
  let off = '';
  let guides = '';
  let count = 0;
  // Guides through the plot only while they are sparse enough to read (≥ 12 px apart on average).
  const sparse = ticks.length * 12 <= innerWidth;
  for (const t of ticks) {
    count += t.markers.length;
    if (t.kind === 'interference-on') {
      on += `M${t.x},-2V9`;
      if (sparse) guides += `M${t.x},0V${innerHeight}`;
    } else {
      off += `M${t.x},-2V9`;
    }
  }
  frame.interference.on.attr('d', on || null).attr('stroke-width', sparse ? 2 : 1);
  frame.interference.off.attr('d', off || null).attr('stroke-width', sparse ? 1.5 : 1);
  frame.interference.guides.attr('d', guides || null);
  const labelled = ticks.filter((t) => t.label !== null);
  frame.interference.labels
    .selectAll<SVGGElement, (typeof labelled)[number]>('g')
    .data(labelled)
    .join((enter) => {
      const g = enter.append('g');
      haloText(g.append('text'));
      g.append('title');
      return g;
    })
    .call((g) =>
      g
        .select('text')
        .attr('x', (t) => t.labelX)
        .attr('y', -6)
        .attr('text-anchor', (t) => t.anchor)
        .text((t) => t.label ?? ''),
    )
    .call((g) => g.select('title').text((t) => t.markers.map(markerDescription).join('\n')));
  return count;
}

/** Draws the detect (tick) and install (tick with a dot) markers of one lane at the bottom of the plot. */
export function drawLaneTicks(frame: TimeFrame, markers: readonly PipelineMarker[], lane: number, colour: string, x: ScaleLinear<number, number>, innerWidth: number, innerHeight: number): void {
  const ticks = placeTicks(markers, {
    accept: (m) => m.lane === lane && (m.kind === 'detect' || m.kind === 'install'),
    xOf: x,
    width: innerWidth,
  });
  let detect = '';
  let install = '';
  const base = innerHeight;
  // Dots on the install ticks only while they are sparse; dense, a taller tick says "install".
  const sparse = ticks.length * 10 <= innerWidth;
  for (const t of ticks) {
    if (t.kind === 'detect') detect += `M${t.x},${base}v-8`;
    else if (sparse) install += `M${t.x},${base}v-12M${t.x - 3},${base - 15}a3,3 0 1,0 6,0a3,3 0 1,0 -6,0`;
    else install += `M${t.x},${base}v-14`;
  }
  frame.laneTicks.detect.attr('d', detect || null).attr('stroke', colour).attr('stroke-width', sparse ? 2 : 1);
  frame.laneTicks.install.attr('d', install || null).attr('stroke', colour).attr('fill', colour).attr('stroke-width', sparse ? 2 : 1);
}

/**
 * Draws one line per lane of `column` over the query axis, the selected lane thicker and on
 * top, and returns how many points were drawn (the charts' `data-points`).
 */
export function drawLaneLines(
  frame: TimeFrame,
  series: readonly PipelineSeriesBuffer[],
  drawn: readonly (readonly number[])[],
  column: PipelineSeriesColumn,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  selectedLane: number,
): number {
  let points = 0;
  frame.lines
    .selectAll<SVGPathElement, number>('path')
    .data(series.map((_, l) => l))
    .join('path')
    .attr('fill', 'none')
    .attr('stroke', (l) => laneColour(l))
    .attr('stroke-width', (l) => (l === selectedLane ? 2.5 : 1.75))
    .attr('stroke-linejoin', 'round')
    .attr('d', (l) => {
      const q = series[l]!.columns.query;
      const v = series[l]!.columns[column];
      points += drawn[l]!.length;
      return (
        line<number>()
          .defined((i) => plottable(v[i]!) && plottable(q[i]!))
          .x((i) => x(q[i]!))
          .y((i) => y(v[i]!))(drawn[l]!) ?? ''
      );
    });
  frame.lines
    .selectAll<SVGPathElement, number>('path')
    .filter((l) => l === selectedLane)
    .raise();
  return points;
}
