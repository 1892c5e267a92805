import { axisBottom, axisLeft, line, scaleLinear } from 'd3';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';
import { laneColour } from '../../../charts/palette';
import { appendAxes, appendAxisTexts, innerSize, layoutAxes, setPlotMessage, type AxesParts, type Margin } from '../../../charts/axes';
import { CHAR_PX, MAX_LANES, THEME, createScaffold, formatNumber, mountChart, renderLegend, type ChartOptions, type LegendItem } from '../../../charts/runtime';
import { fitText } from '../../../charts/pointSampling';
import { sloCurve, type SloPoint, type SloReference } from './sloCurve';

const MARGIN: Margin = { top: 30, right: 18, bottom: 44, left: 64 };

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
  const parts: AxesParts = { svg, main, grid, ...appendAxes(main), ...appendAxisTexts(main) };
  const x = scaleLinear().domain([0, 100]);
  const y = scaleLinear().domain([0, 100]);

  const draw = (state: PipelineLabState, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height, MARGIN);
    buttons.attr('aria-pressed', (r) => String(r === reference));
    x.range([0, innerWidth]);
    y.range([innerHeight, 0]);
    const text = REFERENCE_TEXT[reference];
    subtitle.text(fitText(text.subtitle, width, CHAR_PX));
    const xTicks = innerWidth > 420 ? [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] : [5, 25, 50, 75, 100];
    layoutAxes(
      parts,
      width,
      height,
      MARGIN,
      axisBottom(x).tickValues(xTicks).tickSizeOuter(0),
      axisLeft(y).ticks(5).tickSizeOuter(0),
      y.ticks(5).map((d) => y(d)),
      { x: text.axis, y: 'queries violating the SLO (%)' },
    );

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
    setPlotMessage(parts, width, height, summaries === null ? SLO_WAITING_MESSAGE : null, MARGIN);

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
