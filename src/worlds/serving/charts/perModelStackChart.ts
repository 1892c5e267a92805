import { area, scaleLinear } from 'd3';
import type { ModelId } from '../engine/models';
import { formatNumber, MAX_POINTS, mountDataChart, renderLegend, type ChartOptions, type DataChart, type LegendItem } from '../../../charts/runtime';
import { headroomMax, pointIndices, plottable } from '../../../charts/pointSampling';
import { drawScheduleOverlay, NO_SCHEDULE, type ScheduleMarks } from './scheduleOverlay';
import { createAxesFrame, innerSize, layoutLinearAxes, PLOT_MARGIN, setPlotMessage } from '../../../charts/axes';
import { modelColour, timeDomain } from './common';

/**
 * What the BCEdge Figure 8 chart draws: each model's throughput over simulated time, stacked
 * in the order of `series` (the first at the bottom). `timeS[i]` is the time of sample `i`,
 * seconds; `series[k].rps[i]` is model k's throughput then, requests per second. Series
 * shorter than `timeS` end early; missing or non-finite samples count as 0 in the stack.
 */
export interface PerModelStackData {
  readonly timeS: readonly number[];
  readonly series: readonly { readonly model: ModelId; readonly rps: readonly number[] }[];
  /** The scenario's known schedule (tenants, services, rate steps), drawn on the time axis. */
  readonly schedule?: ScheduleMarks;
}

/**
 * Cumulative tops of stacked series: `out[k][i]` is the sum of series 0 … k at sample i, so
 * band k spans [out[k − 1][i], out[k][i]] (0 below the first). Negative, missing and
 * non-finite samples count as 0.
 */
export function stackBands(series: readonly (readonly number[])[], length: number): Float64Array[] {
  const out: Float64Array[] = [];
  let below = new Float64Array(length);
  for (const values of series) {
    const top = new Float64Array(length);
    for (let i = 0; i < length; i++) {
      const v = values[i];
      top[i] = below[i]! + (v !== undefined && plottable(v) && v > 0 ? v : 0);
    }
    out.push(top);
    below = top;
  }
  return out;
}

/**
 * BCEdge Figure 8: throughput per model stacked over simulated time (x seconds, y rps), one
 * colour per model (MODEL_COLOURS). The SVG's `data-points` is the number of samples drawn,
 * summed over models.
 */
export function createPerModelStackChart(host: HTMLElement, options: ChartOptions = {}): DataChart<PerModelStackData> {
  const height = options.height ?? 300;
  const frame = createAxesFrame(host, 'chart-per-model-stack');
  const schedule = frame.overlay.append('g').attr('class', 'chart-schedule');
  const x = scaleLinear();
  const y = scaleLinear();

  const draw = (data: PerModelStackData, width: number) => {
    const { innerWidth, innerHeight } = innerSize(width, height);
    const n = data.timeS.length;
    const tops = stackBands(
      data.series.map((s) => s.rps),
      n,
    );
    const total = tops[tops.length - 1] ?? new Float64Array(n);
    const drawn = pointIndices(n, MAX_POINTS);
    x.domain(timeDomain(data.timeS)).range([0, innerWidth]);
    y.domain([0, headroomMax(drawn.map((i) => total[i]!))]).range([innerHeight, 0]);
    drawScheduleOverlay(schedule, x, innerHeight, data.schedule ?? NO_SCHEDULE);
    layoutLinearAxes(frame, width, height, PLOT_MARGIN, x, y, { x: 'simulated time (s)', y: 'throughput (rps)' });

    let points = 0;
    frame.plot
      .selectAll<SVGPathElement, number>('path')
      .data(data.series.map((_, k) => k))
      .join('path')
      .attr('fill', (k) => modelColour(data.series[k]!.model))
      .attr('fill-opacity', 0.85)
      .attr('stroke', (k) => modelColour(data.series[k]!.model))
      .attr('stroke-width', 1)
      .attr('d', (k) => {
        const top = tops[k]!;
        const bottom = k > 0 ? tops[k - 1]! : null;
        points += drawn.filter((i) => plottable(data.timeS[i])).length;
        return (
          area<number>()
            .defined((i) => plottable(data.timeS[i]))
            .x((i) => x(data.timeS[i]!))
            .y0((i) => y(bottom === null ? 0 : bottom[i]!))
            .y1((i) => y(top[i]!))(drawn) ?? ''
        );
      })
      .selectAll('title')
      .data((k) => [k])
      .join('title')
      .text((k) => `${data.series[k]!.model}: ${n > 0 ? formatNumber(data.series[k]!.rps[n - 1] ?? 0) : 0} rps now`);
    frame.svg.attr('data-points', points);
    setPlotMessage(frame, width, height, points === 0 ? 'No throughput yet: run the serving simulation' : null);

    // Legend top-down in the stack's visual order (the last series is on top).
    const items: LegendItem[] = data.series
      .map((s) => ({ key: s.model, label: s.model, colour: modelColour(s.model), swatch: 'area' as const }))
      .reverse();
    renderLegend(frame.scaffold.legend, items);

    const now = n > 0 ? data.series.map((s) => `${s.model} ${formatNumber(s.rps[n - 1] ?? 0)}`).join(', ') : 'no data';
    frame.svg.attr(
      'aria-label',
      `Stacked throughput in requests per second of ${data.series.length} models over simulated time 0 to ${formatNumber(x.domain()[1]!)} seconds. ` +
        (n > 0 ? `Now: total ${formatNumber(total[n - 1] ?? 0)} rps; ${now}.` : 'No data yet.'),
    );
  };

  return mountDataChart<PerModelStackData>(host, frame.scaffold.root.node()!, draw);
}
