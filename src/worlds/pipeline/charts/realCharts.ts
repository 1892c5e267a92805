/**
 * The real pipeline's charts (ARCHITECTURE §2, the real backend): the run live, query by
 * query, as measured on this machine (throughput over the last few queries and latency, per
 * lane), and the simulation beside the measurement once the lanes are done (throughput,
 * mean and p99 latency per lane, measured and simulated side by side, the signed error
 * above each pair). Fed plain data; drawn whole each time (a few hundred points).
 */
import { axisBottom, axisLeft, max, scaleBand, scaleLinear, select, type Selection } from 'd3';
import { laneColour } from '../../../charts/palette';
import { THEME } from '../../../charts/runtime';

/** One lane's measured points: query index, throughput (qps) and latency (ms). */
export interface RealLiveLane {
  readonly label: string;
  readonly points: readonly { readonly query: number; readonly throughputQps: number; readonly latencyMs: number; readonly trial: boolean }[];
}

const MARGIN = { top: 22, right: 12, bottom: 34, left: 52 } as const;

/** Two panels side by side: throughput and latency against the query index, a line per lane. */
export function renderRealLive(svg: SVGSVGElement, lanes: readonly RealLiveLane[], queries: number, width: number, height = 236): void {
  const root = select(svg).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  root.selectAll('*').remove();
  const panelWidth = Math.max(140, (width - 2 * (MARGIN.left + MARGIN.right)) / 2);
  const innerHeight = height - MARGIN.top - MARGIN.bottom - 16;
  const x = scaleLinear().domain([0, Math.max(1, queries)]).range([0, panelWidth]);
  const panels = [
    { title: 'throughput, qps (measured on this machine)', value: (p: RealLiveLane['points'][number]) => p.throughputQps },
    { title: 'latency, ms (measured on this machine)', value: (p: RealLiveLane['points'][number]) => p.latencyMs },
  ];
  panels.forEach((panel, k) => {
    const values = lanes.flatMap((l) => l.points.map(panel.value)).filter(Number.isFinite);
    const y = scaleLinear().domain([0, Math.max(1e-9, (max(values) ?? 1) * 1.1)]).range([innerHeight, 0]).nice();
    const g = root.append('g').attr('transform', `translate(${MARGIN.left + k * (panelWidth + MARGIN.left + MARGIN.right)},${MARGIN.top})`);
    g.append('text').attr('x', 0).attr('y', -8).style('fill', THEME.text).attr('font-weight', 600).text(panel.title);
    g.append('g').attr('transform', `translate(0,${innerHeight})`).call(axisBottom(x).ticks(5));
    g.append('g').call(axisLeft(y).ticks(4));
    g.append('text').attr('x', panelWidth / 2).attr('y', innerHeight + 30).attr('text-anchor', 'middle').style('fill', THEME.text).attr('font-size', 11).text('query');
    lanes.forEach((lane, i) => {
      const points = lane.points.filter((p) => Number.isFinite(panel.value(p)));
      const path = points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.query).toFixed(1)},${y(panel.value(p)).toFixed(1)}`).join('');
      g.append('path').attr('d', path).attr('fill', 'none').attr('stroke', laneColour(i)).attr('stroke-width', 1.5).attr('data-lane', i).attr('data-points', points.length);
      // Trial queries (rebalancing) as open circles.
      g.append('g')
        .selectAll('circle')
        .data(points.filter((p) => p.trial))
        .join('circle')
        .attr('cx', (p) => x(p.query))
        .attr('cy', (p) => y(panel.value(p)))
        .attr('r', 2.5)
        .attr('fill', 'none')
        .attr('stroke', laneColour(i));
    });
  });
  laneLegend(root, lanes.map((l) => l.label), height, [{ label: 'trial query (rebalancing)', mark: 'circle' }]);
}

/** A legend along the bottom: a swatch per lane, then the marks explained. */
function laneLegend(root: Selection<SVGSVGElement, unknown, null, undefined>, labels: readonly string[], height: number, marks: readonly { readonly label: string; readonly mark: 'circle' | 'solid' | 'dashed' | 'shade' }[]): void {
  const legend = root.append('g').attr('class', 'chart-legend').attr('transform', `translate(${MARGIN.left},${height - 6})`).attr('font-size', 11);
  let x = 0;
  const entry = (draw: (g: Selection<SVGGElement, unknown, null, undefined>) => void, text: string) => {
    const g = legend.append('g').attr('transform', `translate(${x},0)`);
    draw(g);
    g.append('text').attr('x', 16).attr('y', 0).style('fill', THEME.text).text(text);
    x += 28 + 7 * text.length;
  };
  labels.forEach((label, i) => entry((g) => void g.append('rect').attr('x', 0).attr('y', -9).attr('width', 12).attr('height', 10).attr('fill', laneColour(i)), label));
  for (const m of marks) {
    entry((g) => {
      if (m.mark === 'shade') g.append('rect').attr('x', 0).attr('y', -9).attr('width', 12).attr('height', 10).attr('fill', THEME.text).attr('opacity', 0.15);
      else if (m.mark === 'circle') g.append('circle').attr('cx', 6).attr('cy', -4).attr('r', 3).attr('fill', 'none').attr('stroke', THEME.text);
      else g.append('line').attr('x1', 0).attr('x2', 12).attr('y1', -4).attr('y2', -4).attr('stroke', THEME.text).attr('stroke-width', 1.5).attr('stroke-dasharray', m.mark === 'dashed' ? '4 2' : null);
    }, m.label);
  }
}

/** One lane's per-query latency, measured (its first run) and simulated (the calibrated machine's first noise seed, or the ideal machine). */
export interface TraceLane {
  readonly label: string;
  readonly measured: readonly { readonly query: number; readonly latencyMs: number }[];
  readonly simulated: readonly { readonly query: number; readonly latencyMs: number }[];
}

/** Per-query latency, a panel per lane: measured (solid) beside simulated (dashed), the interference phases shaded. */
export function renderTraceBeside(svg: SVGSVGElement, lanes: readonly TraceLane[], queries: number, interfered: readonly { readonly fromQuery: number; readonly toQuery: number }[], width: number, height = 230): void {
  const root = select(svg).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  root.selectAll('*').remove();
  const count = Math.max(1, lanes.length);
  const panelWidth = Math.max(140, (width - count * (MARGIN.left + MARGIN.right)) / count);
  const innerHeight = height - MARGIN.top - MARGIN.bottom - 12;
  const x = scaleLinear().domain([0, Math.max(1, queries)]).range([0, panelWidth]);
  const all = lanes.flatMap((l) => [...l.measured, ...l.simulated].map((p) => p.latencyMs)).filter(Number.isFinite);
  const y = scaleLinear().domain([0, Math.max(1e-9, (max(all) ?? 1) * 1.1)]).range([innerHeight, 0]).nice();
  lanes.forEach((lane, i) => {
    const g = root.append('g').attr('transform', `translate(${MARGIN.left + i * (panelWidth + MARGIN.left + MARGIN.right)},${MARGIN.top})`).attr('data-lane', i);
    for (const span of interfered) g.append('rect').attr('x', x(span.fromQuery)).attr('width', Math.max(1, x(span.toQuery) - x(span.fromQuery))).attr('y', 0).attr('height', innerHeight).attr('fill', THEME.text).attr('opacity', 0.07);
    g.append('text').attr('x', 0).attr('y', -8).style('fill', THEME.text).attr('font-weight', 600).text(`${lane.label}: latency per query, ms`);
    g.append('g').attr('transform', `translate(0,${innerHeight})`).call(axisBottom(x).ticks(5));
    g.append('g').call(axisLeft(y).ticks(4));
    const line = (points: TraceLane['measured'], dashed: boolean, side: string) =>
      g
        .append('path')
        .attr('d', points.filter((p) => Number.isFinite(p.latencyMs)).map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.query).toFixed(1)},${y(p.latencyMs).toFixed(1)}`).join(''))
        .attr('fill', 'none')
        .attr('stroke', laneColour(i))
        .attr('stroke-width', 1.5)
        .attr('stroke-dasharray', dashed ? '4 2' : null)
        .attr('data-side', side)
        .attr('data-points', points.length);
    line(lane.measured, false, 'measured');
    line(lane.simulated, true, 'simulated');
  });
  laneLegend(root, lanes.map((l) => l.label), height, [
    { label: 'measured on this machine', mark: 'solid' },
    { label: 'simulated on the calibrated machine', mark: 'dashed' },
    { label: 'interference', mark: 'shade' },
  ]);
}

/** One lane's figures, measured and simulated, with the signed errors (%). */
export interface SimVsRealLane {
  readonly label: string;
  readonly measured: { readonly throughputQps: number; readonly latencyMeanMs: number; readonly latencyP99Ms: number };
  readonly simulated: { readonly throughputQps: number; readonly latencyMeanMs: number; readonly latencyP99Ms: number };
  readonly error: { readonly throughputQps: number; readonly latencyMeanMs: number; readonly latencyP99Ms: number };
}

const FIGURES = [
  { key: 'throughputQps', title: 'throughput, qps' },
  { key: 'latencyMeanMs', title: 'mean latency, ms' },
  { key: 'latencyP99Ms', title: 'p99 latency, ms' },
] as const;

const signed = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(0)} %` : '—');

/** Three panels (throughput, mean, p99); per lane a measured bar (solid) and a simulated one (hatched outline). */
export function renderSimVsReal(svg: SVGSVGElement, lanes: readonly SimVsRealLane[], width: number, height = 240): void {
  const root = select(svg).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  root.selectAll('*').remove();
  const gap = 18;
  const panelWidth = Math.max(110, (width - 3 * MARGIN.left - 2 * gap - MARGIN.right) / 3);
  const innerHeight = height - MARGIN.top - MARGIN.bottom - 14;
  FIGURES.forEach((figure, k) => {
    const values = lanes.flatMap((l) => [l.measured[figure.key], l.simulated[figure.key]]).filter(Number.isFinite);
    const y = scaleLinear().domain([0, Math.max(1e-9, (max(values) ?? 1) * 1.18)]).range([innerHeight, 0]).nice();
    const x = scaleBand<number>().domain(lanes.map((_, i) => i)).range([0, panelWidth]).paddingInner(0.25).paddingOuter(0.1);
    const g = root.append('g').attr('transform', `translate(${MARGIN.left + k * (panelWidth + MARGIN.left + gap)},${MARGIN.top})`).attr('data-figure', figure.key);
    g.append('text').attr('x', 0).attr('y', -8).style('fill', THEME.text).attr('font-weight', 600).text(figure.title);
    g.append('g').attr('transform', `translate(0,${innerHeight})`).call(axisBottom(x).tickFormat((i) => lanes[i]?.label ?? ''));
    g.append('g').call(axisLeft(y).ticks(4));
    lanes.forEach((lane, i) => {
      const band = x(i) ?? 0;
      const w = x.bandwidth() / 2;
      const bar = (value: number, offset: number, measured: boolean) =>
        g
          .append('rect')
          .attr('x', band + offset)
          .attr('y', y(Number.isFinite(value) ? value : 0))
          .attr('width', Math.max(1, w - 2))
          .attr('height', innerHeight - y(Number.isFinite(value) ? value : 0))
          .attr('fill', measured ? laneColour(i) : 'none')
          .attr('stroke', laneColour(i))
          .attr('stroke-width', measured ? 0 : 2)
          .attr('stroke-dasharray', measured ? null : '4 2')
          .attr('data-side', measured ? 'measured' : 'simulated')
          .append('title')
          .text(`${lane.label}, ${measured ? 'measured' : 'simulated'}: ${value.toFixed(2)}`);
      bar(lane.measured[figure.key], 0, true);
      bar(lane.simulated[figure.key], w, false);
      g.append('text')
        .attr('x', band + x.bandwidth() / 2)
        .attr('y', y(Math.max(lane.measured[figure.key], lane.simulated[figure.key])) - 4)
        .attr('text-anchor', 'middle')
        .attr('font-size', 11)
        .style('fill', THEME.text)
        .text(signed(lane.error[figure.key]));
    });
  });
  const legend = root.append('g').attr('transform', `translate(${MARGIN.left},${height - 8})`).attr('font-size', 11);
  legend.append('rect').attr('x', 0).attr('y', -9).attr('width', 12).attr('height', 10).attr('fill', THEME.text);
  legend.append('text').attr('x', 16).attr('y', 0).style('fill', THEME.text).text('measured on this machine');
  legend.append('rect').attr('x', 190).attr('y', -9).attr('width', 12).attr('height', 10).attr('fill', 'none').attr('stroke', THEME.text).attr('stroke-dasharray', '4 2');
  legend.append('text').attr('x', 206).attr('y', 0).style('fill', THEME.text).text('simulated on the database measured here (error: simulated vs measured)');
}
