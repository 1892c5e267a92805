import { axisBottom, axisLeft, line, scaleLinear } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../../store/pipelineStore';
import { laneColour } from '../palette';
import { CHAR_PX, FONT_PX, MAX_LANES, THEME, callAxis, createScaffold, formatNumber, mountChart, renderLegend, type ChartOptions, type LegendItem } from '../runtime';
import { fitText } from '../pointSampling';
import { sloCurve, type SloPoint, type SloReference } from './sloCurve';

const MARGIN = { top: 30, right: 18, bottom: 44, left: 64 } as const;

/** Text shown until the run pauses or finishes (the summaries arrive then). */
export const SLO_WAITING_MESSAGE = 'Pause or finish the run to see SLO violations';

const REFERENCE_TEXT: Record<SloReference, { button: string; axis: string; subtitle: string }> = {
  peak: { button: '% of peak', axis: 'SLO level (% of peak throughput)', subtitle: 'SLO: T(C) ≥ level × peak (interference-free optimum)' },
  optimum: {
    button: '% of optimum',
    axis: 'SLO level (% of current optimum)',
    subtitle: 'SLO: T(C) ≥ level × optimum for the current interference',
  },
};

/**
 * ODIN Figure 9: the share of queries whose configuration throughput T(C) misses an SLO set
 * at 5 … 100 % of the peak (or, with the toggle, of the resource-constrained optimum), one
 * line per lane, from the summaries that arrive when the run pauses or finishes.
 */
export function createSloChart(host: HTMLElement, store: PipelineLabStore, options: ChartOptions = {}): () => void {
  const height = options.height ?? 260;
  const scaffold = createScaffold(host, 'chart-slo');
  let reference: SloReference = 'peak';
  const group = scaffold.toolbar.append('div').attr('class', 'chart-toggle').attr('role', 'group').attr('aria-label', 'SLO reference');
  const buttons = group
    .selectAll<HTMLButtonElement, SloReference>('button')
    .data<SloReference>(['peak', 'optimum'])
    .join('button')
    .attr('type', 'button')
    .attr('data-testid', (r) => `chart.slo.${r}`)
    .text((r) => REFERENCE_TEXT[r].button);

  const svg = scaffold.svg;
  const subtitle = svg.append('text').attr('x', 0).attr('y', 14).style('fill', THEME.text);
  const main = svg.append('g');
  const grid = main.append('g');
  const lines = main.append('g');
  const dots = main.append('g');
  const xAxis = main.append('g');
  const yAxis = main.append('g');
  const xLabel = main.append('text').attr('text-anchor', 'end').style('fill', THEME.text);
  const yLabel = main.append('text').attr('text-anchor', 'middle').attr('transform', 'rotate(-90)').style('fill', THEME.text).text('queries violating the SLO (%)');
  const message = main.append('text').attr('text-anchor', 'middle').style('fill', THEME.text).style('font-size', `${FONT_PX + 2}px`);
  const x = scaleLinear().domain([0, 100]);
  const y = scaleLinear().domain([0, 100]);

  const draw = (state: PipelineLabState, width: number) => {
    const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
    const innerHeight = Math.max(10, height - MARGIN.top - MARGIN.bottom);
    svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    main.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    buttons.attr('aria-pressed', (r) => String(r === reference));
    x.range([0, innerWidth]);
    y.range([innerHeight, 0]);
    const text = REFERENCE_TEXT[reference];
    subtitle.text(fitText(text.subtitle, width, CHAR_PX));
    xAxis.attr('transform', `translate(0,${innerHeight})`);
    const xTicks = innerWidth > 420 ? [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] : [5, 25, 50, 75, 100];
    callAxis(xAxis, axisBottom(x).tickValues(xTicks).tickSizeOuter(0));
    callAxis(yAxis, axisLeft(y).ticks(5).tickSizeOuter(0));
    grid
      .selectAll<SVGLineElement, number>('line')
      .data(y.ticks(5))
      .join('line')
      .attr('x1', 0)
      .attr('x2', innerWidth)
      .attr('y1', (d) => y(d))
      .attr('y2', (d) => y(d))
      .style('stroke', THEME.grid);
    xLabel.attr('x', innerWidth).attr('y', innerHeight + 36).text(text.axis);
    yLabel.attr('x', -innerHeight / 2).attr('y', -MARGIN.left + 14);

    const summaries = state.summaries;
    const curves: SloPoint[][] = summaries === null ? [] : summaries.slice(0, MAX_LANES).map((s) => sloCurve(s, reference));
    const indices = curves.map((_, l) => l);
    const path = line<SloPoint>()
      .x((p) => x(p.levelPct))
      .y((p) => y(p.violationPct));
    lines
      .selectAll<SVGPathElement, number>('path')
      .data(indices)
      .join('path')
      .attr('fill', 'none')
      .attr('stroke', (l) => laneColour(l))
      .attr('stroke-width', 2)
      .attr('d', (l) => path(curves[l]!) ?? '');
    dots
      .selectAll<SVGGElement, number>('g')
      .data(indices)
      .join('g')
      .attr('fill', (l) => laneColour(l))
      .selectAll<SVGCircleElement, SloPoint>('circle')
      .data((l) => curves[l]!)
      .join('circle')
      .attr('cx', (p) => x(p.levelPct))
      .attr('cy', (p) => y(p.violationPct))
      .attr('r', 3);
    message
      .attr('x', innerWidth / 2)
      .attr('y', innerHeight / 2)
      .attr('display', summaries === null ? null : 'none')
      .text(SLO_WAITING_MESSAGE);

    const labelOf = (l: number) => state.lanes[l]?.label ?? `lane ${l + 1}`;
    const laneCount = Math.min(MAX_LANES, summaries?.length ?? state.lanes.length);
    const items: LegendItem[] = Array.from({ length: laneCount }, (_, l) => ({ key: `lane-${l}`, label: labelOf(l), colour: laneColour(l), swatch: 'line' }));
    renderLegend(scaffold.legend, items);

    const at = (c: SloPoint[], pct: number) => c.find((p) => p.levelPct === pct)?.violationPct;
    svg.attr(
      'aria-label',
      summaries === null
        ? `SLO violations: ${SLO_WAITING_MESSAGE}.`
        : `Share of queries violating an SLO set at 5 to 100 % of the ${reference === 'peak' ? 'peak throughput' : 'current optimum'}: ` +
            indices
              .map((l) => {
                const v50 = at(curves[l]!, 50);
                const v90 = at(curves[l]!, 90);
                return `${labelOf(l)} ${v50 === undefined ? '?' : formatNumber(v50)} % at 50 %, ${v90 === undefined ? '?' : formatNumber(v90)} % at 90 %`;
              })
              .join('; ') +
            '.',
    );
  };

  const { cleanup, redraw } = mountChart(host, store, scaffold.root.node()!, (s) => [s.summaries, s.lanes], draw);
  buttons.on('click', (_event, r) => {
    reference = r;
    redraw();
  });
  return cleanup;
}
