import type { AnyScenario } from '../scenario/schema';
import { axisValues, sweepMetric, type AxisValue } from '../scenario/sweep';
import { fieldName, metricName } from '../scenario/sweepNames';
import { worldOf } from '../kit/worlds';
import type { CellOutcome } from '../scenario/sweepReport';
import { differencePct, meanInterval, metricOf, type MeanInterval } from '../scenario/sweepStats';
import { plottable } from './pointSampling';

/** What the heatmap shows: one lane's metric, or lane a against lane b in % of b. */
export type HeatmapMode = { readonly kind: 'lane'; readonly lane: number } | { readonly kind: 'difference'; readonly a: number; readonly b: number };

/** One point of a line or one cell of a heatmap: the mean over the seeds done, its 95 % half-width, the count. */
export interface ExplorePoint extends MeanInterval {
  /** Index along the first axis. */
  readonly i: number;
  /** Index along the second axis (0 with one axis). */
  readonly j: number;
  /** Seeds the combination has in all (seeds ≤ total while the sweep runs). */
  readonly total: number;
}

export interface ExploreAxis {
  readonly name: string;
  readonly path: string;
  readonly values: readonly AxisValue[];
}

export interface ExploreData {
  readonly metric: string;
  /** The metric in words, with its unit (`sweepNames.ts`): "mean throughput (queries/s)". */
  readonly metricLabel: string;
  readonly axes: readonly ExploreAxis[];
  readonly laneLabels: readonly string[];
  /** One axis: a line per lane over the axis values. */
  readonly lines: readonly { readonly lane: number; readonly label: string; readonly points: readonly ExplorePoint[] }[];
  /** Two axes: the heatmap's cells, row i (first axis) × column j (second axis). */
  readonly heatmap: { readonly mode: HeatmapMode; readonly title: string; readonly cells: readonly ExplorePoint[] } | null;
}

/**
 * Labels of the scenario's lanes: a lane's label when every cell gives it the same one;
 * when an axis sweeps its parameter (ODIN α), "lane k (scheduler)" instead.
 */
function laneLabels(scenario: AnyScenario, outcomes: readonly (CellOutcome | null)[]): string[] {
  const lanes = worldOf(scenario).lanes(scenario);
  return lanes.map((l, k) => {
    const seen = new Set<string>();
    for (const o of outcomes) if (o?.results[k] !== undefined) seen.add(o.results[k].label);
    return seen.size === 1 ? [...seen][0]! : `lane ${k + 1} (${worldOf(scenario).schedulerLabel?.(l.scheduler) ?? l.scheduler})`;
  });
}

/**
 * The Explore view's numbers from the cells done so far (pure): per axis combination and
 * lane, the metric's mean and 95 % interval over the seeds that have finished; with two axes
 * also the heatmap of one lane or of the paired difference of two lanes (per seed, then
 * averaged: the interval is of the difference, not of each lane).
 */
export function exploreData(scenario: AnyScenario, seeds: readonly number[], outcomes: readonly (CellOutcome | null)[], mode: HeatmapMode): ExploreData {
  const metric = sweepMetric(scenario);
  const metricLabel = metricName(metric);
  // An axis the person named keeps its name; else the field's, in words (never its path).
  const axes: ExploreAxis[] = (scenario.sweep?.axes ?? []).map((a) => ({ name: a.name ?? fieldName(a.path, scenario), path: a.path, values: axisValues(a) }));
  const labels = laneLabels(scenario, outcomes);
  const rows = axes[0]?.values.length ?? 1;
  const cols = axes.length >= 2 ? axes[1]!.values.length : 1;
  // Axes past the second are averaged over (the page draws one or two axes; the CLI any).
  const inner = axes.slice(2).reduce((n, a) => n * a.values.length, 1);
  const S = seeds.length;
  const cellsOf = (i: number, j: number): CellOutcome[] => {
    const out: CellOutcome[] = [];
    for (let k = 0; k < inner; k++) {
      const combination = (i * cols + j) * inner + k;
      for (let s = 0; s < S; s++) {
        const o = outcomes[combination * S + s];
        if (o) out.push(o);
      }
    }
    return out;
  };
  const point = (i: number, j: number, value: (o: CellOutcome) => number): ExplorePoint => ({ i, j, total: S * inner, ...meanInterval(cellsOf(i, j).map(value)) });
  const laneValue = (lane: number) => (o: CellOutcome) => metricOf(o.results[lane]?.summary ?? {}, metric);
  const lines =
    axes.length === 1
      ? labels.map((label, lane) => ({ lane, label, points: Array.from({ length: rows }, (_, i) => point(i, 0, laneValue(lane))) }))
      : [];
  let heatmap: ExploreData['heatmap'] = null;
  if (axes.length >= 2) {
    const value =
      mode.kind === 'lane'
        ? laneValue(mode.lane)
        : (o: CellOutcome) => differencePct(metricOf(o.results[mode.a]?.summary ?? {}, metric), metricOf(o.results[mode.b]?.summary ?? {}, metric));
    const title = mode.kind === 'lane' ? `${labels[mode.lane] ?? ''}: ${metricLabel}` : `${labels[mode.a] ?? ''} against ${labels[mode.b] ?? ''}: ${metricLabel}, difference in %`;
    const cells: ExplorePoint[] = [];
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) cells.push(point(i, j, value));
    heatmap = { mode, title, cells };
  }
  return { metric, metricLabel, axes, laneLabels: labels, lines, heatmap };
}

/** A value for people: 4 significant digits, a sign when asked. */
export function formatValue(value: number, signed = false): string {
  if (!plottable(value)) return '–';
  const text = Math.abs(value) >= 1000 ? value.toFixed(0) : Number(value.toPrecision(4)).toString();
  return signed && value > 0 ? `+${text}` : text.replace('-', '−');
}
