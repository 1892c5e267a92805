import { line, scaleLinear } from 'd3';
import type { ModelId } from '../engine/models';
import { formatNumber, haloText, MAX_POINTS, mountDataChart, renderLegend, THEME, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { headroomMax, pointIndices, plottable } from '../../../charts/pointSampling';
import { drawScheduleOverlay, NO_SCHEDULE, type ScheduleMarks } from './scheduleOverlay';
import { createAxesFrame, innerSize, layoutLinearAxes, PLOT_MARGIN, setPlotMessage } from '../../../charts/axes';
import { modelColour, timeDomain } from './common';

/**
 * What the BCEdge Figure 9 chart draws: each model's latency over simulated time and its SLO.
 * `timeS[i]` is the time of sample `i`, seconds; `series[k].latencyMs[i]` is model k's mean
 * end-to-end latency then, ms (NaN or missing: a gap, e.g. no request completed);
 * `series[k].sloMs` is its SLO, ms, drawn as a dashed line of the model's colour.
 */
export interface PerModelLinesData {
  readonly timeS: readonly number[];
  readonly series: readonly { readonly model: ModelId; readonly latencyMs: readonly number[]; readonly sloMs: number }[];
  /** The scenario's known schedule (tenants, services, rate steps), drawn on the time axis. */
  readonly schedule?: ScheduleMarks;
}

/** Samples of `values` at `indices` that are finite (the points a line actually draws). */
export function countFinite(values: readonly number[], indices: readonly number[]): number {
  let n = 0;
  for (const i of indices) {
    const v = values[i];
    if (v !== undefined && plottable(v)) n++;
  }
  return n;
}

/**
 * BCEdge Figure 9: latency per model over simulated time (x seconds, y ms), one colour per
 * model (MODEL_COLOURS), each model's SLO a dashed line of the same colour. The SVG's
 * `data-points` is the number of latency samples drawn, summed over models (SLO lines not counted).
 */
export function createPerModelLinesChart(host: HTMLElement, options: ChartOptions = {}): DataChart<PerModelLinesData> {
  const height = options.height ?? 300;
  const frame = createAxesFrame(host, 'chart-per-model-lines');
  const slos = frame.plot.append('g').attr('class', 'chart-slos');
  const lines = frame.plot.append('g').attr('class', 'chart-lines');
  const schedule = frame.overlay.append('g').attr('class', 'chart-schedule');
  const x = scaleLinear();
  const y = scaleLinear();

  const draw = (data: PerModelLinesData, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height);
    const n = data.timeS.length;
    const drawn = pointIndices(n, MAX_POINTS);
    x.domain(timeDomain(data.timeS)).range([0, innerWidth]);
    const values = function* () {
      for (const s of data.series) {
        for (const i of drawn) yield s.latencyMs[i] ?? Number.NaN;
        yield s.sloMs;
      }
    };
    y.domain([0, headroomMax(values())]).range([innerHeight, 0]);
    drawScheduleOverlay(schedule, x, innerHeight, data.schedule ?? NO_SCHEDULE);
    layoutLinearAxes(frame, width, height, PLOT_MARGIN, x, y, { x: 'simulated time (s)', y: 'latency (ms)' });

    const withSlo = data.series.map((_, k) => k).filter((k) => plottable(data.series[k]!.sloMs));
    slos
      .selectAll<SVGGElement, number>('g')
      .data(withSlo)
      .join((enter) => {
        const g = enter.append('g');
        g.append('line').attr('stroke-width', 1.5).attr('stroke-dasharray', '6 4');
        haloText(g.append('text')).attr('text-anchor', 'end');
        g.append('title');
        return g;
      })
      .call((g) =>
        g
          .select('line')
          .attr('x1', 0)
          .attr('x2', innerWidth)
          .attr('y1', (k) => y(data.series[k]!.sloMs))
          .attr('y2', (k) => y(data.series[k]!.sloMs))
          .attr('stroke', (k) => modelColour(data.series[k]!.model)),
      )
      .call((g) =>
        g
          .select<SVGTextElement>('text')
          .attr('x', innerWidth - 2)
          .attr('y', (k) => y(data.series[k]!.sloMs) - 4)
          // Labels only while the SLOs are far enough apart not to overlap.
          .attr('display', withSlo.length <= 3 ? null : 'none')
          .text((k) => `${data.series[k]!.model} SLO`),
      )
      .call((g) => g.select('title').text((k) => `${data.series[k]!.model} SLO ${formatNumber(data.series[k]!.sloMs)} ms`));

    let points = 0;
    lines
      .selectAll<SVGPathElement, number>('path')
      .data(data.series.map((_, k) => k))
      .join('path')
      .attr('fill', 'none')
      .attr('stroke', (k) => modelColour(data.series[k]!.model))
      .attr('stroke-width', 2)
      .attr('stroke-linejoin', 'round')
      .attr('d', (k) => {
        const v = data.series[k]!.latencyMs;
        points += countFinite(v, drawn);
        return (
          line<number>()
            .defined((i) => plottable(v[i] ?? Number.NaN))
            .x((i) => x(data.timeS[i]!))
            .y((i) => y(v[i]!))(drawn) ?? ''
        );
      });
    frame.svg.attr('data-points', points);
    setPlotMessage(frame, width, height, points === 0 ? 'No latencies yet: run the serving simulation' : null);

    const items: LegendItem[] = data.series.map((s) => ({ key: s.model, label: s.model, colour: modelColour(s.model), swatch: 'line' }));
    items.push({ key: 'slo', label: 'SLO (dashed, model colour)', colour: THEME.peak, swatch: 'dashed' });
    renderLegend(frame.scaffold.legend, items);

    const lastFinite = (v: readonly number[]) => {
      for (let i = Math.min(n, v.length) - 1; i >= 0; i--) if (plottable(v[i]!)) return v[i]!;
      return Number.NaN;
    };
    const now = data.series
      .map((s) => {
        const l = lastFinite(s.latencyMs);
        return `${s.model} ${plottable(l) ? `${formatNumber(l)} ms` : 'no data'} (SLO ${formatNumber(s.sloMs)} ms${plottable(l) && l > s.sloMs ? ', above' : ''})`;
      })
      .join('; ');
    frame.svg.attr(
      'aria-label',
      `Latency in milliseconds of ${data.series.length} models over simulated time 0 to ${formatNumber(x.domain()[1]!)} seconds, each SLO dashed. ${now || 'No data yet'}.`,
    );
  };

  return mountDataChart<PerModelLinesData>(host, frame.scaffold.root.node()!, draw);
}
