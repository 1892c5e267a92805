/**
 * The Measure panel's chart (ARCHITECTURE §2), in the manner of the ODIN paper's Figure 4: per
 * unit, the slowdown under each co-location mode (time under the mode over time alone),
 * for the measured database and, beside it on the same scale, for the roofline-derived
 * one. Memory-bound units (below the roofline's ridge point) sit on a shaded band, so
 * memory- and compute-bound units can be told apart; the legend says so.
 */
import { axisBottom, axisLeft, max, scaleBand, scaleLinear, select } from 'd3';
import type { Boundness } from '../engine/profiles/slowdown';
import type { ModeId } from '../engine/profiles/types';
import { LANE_COLOURS } from '../../../charts/palette';
import { THEME } from '../../../charts/runtime';
import { plottable } from '../../../charts/pointSampling';

/** One panel's data: the units' slowdowns per mode (a mode may still be filling up). */
export interface SlowdownPanel {
  readonly title: string;
  readonly slowdowns: Readonly<Partial<Record<ModeId, readonly number[]>>>;
}

export interface SlowdownChartData {
  readonly layers: readonly string[];
  readonly boundness: readonly Boundness[];
  readonly modes: readonly ModeId[];
  readonly panels: readonly SlowdownPanel[];
}

/** A colour per interference mode (B–L), fixed so a mode keeps its colour across runs. */
export function modeColour(mode: ModeId): string {
  const index = 'BCDEFGHIJKL'.indexOf(mode);
  const extra = ['#7f3c8d', '#11a579', '#3969ac'];
  return index < LANE_COLOURS.length ? LANE_COLOURS[Math.max(0, index)]! : extra[(index - LANE_COLOURS.length) % extra.length]!;
}

const MARGIN = { top: 22, right: 8, bottom: 88, left: 46 } as const;
const PANEL_GAP = 24;

/** Draws `data` into `svg` (all of it, each time: at most 52 units × 12 modes × 2 panels). */
export function renderSlowdownChart(svg: SVGSVGElement, data: SlowdownChartData, width: number, height = 300): void {
  const root = select(svg).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  root.selectAll('*').remove();
  const panels = data.panels.length;
  const panelWidth = Math.max(120, (width - MARGIN.left * panels - MARGIN.right - PANEL_GAP * (panels - 1)) / panels);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const all = data.panels.flatMap((p) => data.modes.flatMap((m) => (p.slowdowns[m] ?? []).filter((v) => plottable(v))));
  const top = Math.max(1.2, (max(all) ?? 1) * 1.05);
  const y = scaleLinear().domain([Math.min(1, ...all, 1) * 0.95, top]).range([innerHeight, 0]).nice();
  const x = scaleBand<number>()
    .domain(data.layers.map((_, i) => i))
    .range([0, panelWidth])
    .paddingInner(0.1);
  const labelEvery = Math.max(1, Math.ceil(11 / Math.max(1, x.bandwidth())));
  data.panels.forEach((panel, p) => {
    const g = root.append('g').attr('transform', `translate(${MARGIN.left + p * (panelWidth + MARGIN.left + PANEL_GAP)},${MARGIN.top})`).attr('data-panel', p);
    g.append('text').attr('x', 0).attr('y', -8).style('fill', THEME.text).attr('font-weight', 600).text(panel.title);
    // Memory-bound units: shaded columns.
    g.append('g')
      .selectAll('rect')
      .data(data.boundness.map((b, i) => ({ b, i })).filter((d) => d.b === 'memory'))
      .join('rect')
      .attr('class', 'memory-bound')
      .attr('x', (d) => x(d.i)!)
      .attr('width', x.bandwidth())
      .attr('y', 0)
      .attr('height', innerHeight)
      .style('fill', 'var(--chart-grid, #e3e7ec)');
    g.append('line').attr('x1', 0).attr('x2', panelWidth).attr('y1', y(1)).attr('y2', y(1)).style('stroke', THEME.optimum).attr('stroke-dasharray', '4 3');
    for (const mode of data.modes) {
      const values = panel.slowdowns[mode] ?? [];
      const points = values.map((v, i) => ({ v, i })).filter((d) => plottable(d.v));
      const colour = modeColour(mode);
      g.append('path')
        .attr('fill', 'none')
        .style('stroke', colour)
        .attr('stroke-width', 1.25)
        .attr('d', points.map((d, k) => `${k === 0 ? 'M' : 'L'}${x(d.i)! + x.bandwidth() / 2},${y(d.v)}`).join(''));
      g.append('g')
        .attr('data-mode', mode)
        .selectAll('circle')
        .data(points)
        .join('circle')
        .attr('cx', (d) => x(d.i)! + x.bandwidth() / 2)
        .attr('cy', (d) => y(d.v))
        .attr('r', 2.5)
        .style('fill', colour)
        .append('title')
        .text((d) => `${data.layers[d.i]} (${data.boundness[d.i]}-bound), mode ${mode}: ${d.v.toFixed(2)}×`);
    }
    g.append('g').call(axisLeft(y).ticks(5).tickFormat((v) => `${Number(v).toFixed(1)}×`));
    g.append('g')
      .attr('transform', `translate(0,${innerHeight})`)
      .call(axisBottom(x).tickFormat((i) => (i % labelEvery === 0 ? (data.layers[i] ?? '') : '')))
      .selectAll('text')
      .attr('transform', 'rotate(-60)')
      .attr('text-anchor', 'end')
      .attr('dx', '-0.5em')
      .attr('dy', '0.1em');
  });
  // Legend: modes, then the shading.
  const legend = root.append('g').attr('transform', `translate(${MARGIN.left},${height - 8})`);
  let at = 0;
  for (const mode of data.modes) {
    legend.append('circle').attr('cx', at + 4).attr('cy', -4).attr('r', 4).style('fill', modeColour(mode));
    legend.append('text').attr('x', at + 11).attr('y', 0).style('fill', THEME.text).text(mode);
    at += 30;
  }
  legend.append('rect').attr('x', at + 6).attr('y', -10).attr('width', 12).attr('height', 12).style('fill', 'var(--chart-grid, #e3e7ec)').style('stroke', THEME.text).attr('stroke-width', 0.5);
  legend.append('text').attr('x', at + 22).attr('y', 0).style('fill', THEME.text).text('memory-bound unit (others compute-bound)');
}
