import { averageDeep } from './average';
import type { AnyScenario } from './schema';
import { worldOf } from '../kit/worlds';
import { sweepMetric, type SweepCell } from './sweep';
import { differencePct, meanInterval, metricOf, type MeanInterval } from './sweepStats';
import type { WorldResultRow } from '../kit/world';

/** One lane's result in one cell, as `run` prints it (what a world's `runCell` gives). */
export type ResultRow = WorldResultRow;

/** What one cell gave: its place in the canonical order, its seed and every lane's row. */
export interface CellOutcome {
  readonly index: number;
  readonly seed: number;
  readonly results: readonly ResultRow[];
}

/**
 * Runs one cell in this thread (a page worker, a CLI worker thread, the CLI itself). Serving decision times are wall-clock (BCEdge Fig. 16) when
 * `clock` is performance.now: the one number that differs from run to run.
 */
export function runCell(scenario: AnyScenario, cell: SweepCell, clock: () => number, learning: unknown): CellOutcome {
  const rows = worldOf(scenario).runCell(scenario, cell, clock, learning);
  return {
    index: cell.index,
    seed: cell.seed,
    results: rows,
  };
}

/** Per lane label, the mean over axis combinations (the paper's "on average" over the grid); empty without a sweep. */
export function gridMeans(scenario: AnyScenario, results: readonly ResultRow[]): { scheduler: string; label: string; summary: object }[] {
  if (scenario.sweep === undefined) return [];
  const byLabel = new Map<string, ResultRow[]>();
  for (const r of results) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  return [...byLabel.values()].map((rs) => ({ scheduler: rs[0]!.scheduler, label: rs[0]!.label, summary: averageDeep(rs.map((r) => r.summary)) }));
}

/** `run`'s document: every combination and lane for the scenario's seed. */
export function runReport(scenario: AnyScenario, outcomes: readonly CellOutcome[]): object {
  const results = outcomes.flatMap((o) => o.results);
  const means = gridMeans(scenario, results);
  return { scenario, results, ...(means.length > 0 ? { gridMeans: means } : {}) };
}

/** A row of `sweep`'s document: the lane's mean over seeds in one combination, and the metric's interval. */
export interface SweepRow extends ResultRow {
  readonly seeds: number;
  readonly metric: { readonly name: string } & MeanInterval;
}

/**
 * `sweep`'s document from every cell, in canonical order: per combination and lane, the
 * summary averaged over the seeds (in seed order), the metric's mean and 95 % interval, the
 * grid means, and — when the sweep compares two lanes — their paired difference per
 * combination. A pure function of the cells, so any split of the cells over workers or
 * shards gives the same bytes.
 *
 * @throws RangeError when the cells are not the sweep's cells in canonical order.
 */
export function sweepReport(scenario: AnyScenario, seeds: readonly number[], outcomes: readonly CellOutcome[]): object {
  outcomes.forEach((o, i) => {
    if (o.index !== i || o.seed !== seeds[i % seeds.length]) throw new RangeError(`cell ${i} is missing or out of order`);
  });
  const metric = sweepMetric(scenario);
  const results: SweepRow[] = [];
  const combinations = outcomes.length / seeds.length;
  const comparison: object[] = [];
  const compare = scenario.sweep?.compare;
  for (let c = 0; c < combinations; c++) {
    const perSeed = outcomes.slice(c * seeds.length, (c + 1) * seeds.length);
    const first = perSeed[0]!;
    first.results.forEach((row, lane) => {
      const summaries = perSeed.map((o) => o.results[lane]!.summary);
      results.push({
        scheduler: row.scheduler,
        label: row.label,
        params: row.params,
        ...(row.cell ? { cell: row.cell } : {}),
        seeds: seeds.length,
        summary: averageDeep(summaries),
        metric: { name: metric, ...meanInterval(summaries.map((s) => metricOf(s, metric))) },
      });
    });
    if (compare !== undefined) {
      const diffs = perSeed.map((o) => differencePct(metricOf(o.results[compare.a]!.summary, metric), metricOf(o.results[compare.b]!.summary, metric)));
      comparison.push({
        ...(first.results[0]?.cell ? { cell: first.results[0].cell } : {}),
        a: first.results[compare.a]!.label,
        b: first.results[compare.b]!.label,
        metric,
        differencePct: meanInterval(diffs),
      });
    }
  }
  const means = gridMeans(scenario, results);
  return { scenario, seeds, results, ...(means.length > 0 ? { gridMeans: means } : {}), ...(comparison.length > 0 ? { comparison } : {}) };
}

/** The rows `--format csv` prints: one per (combination, lane). */
export function csvRows(results: readonly ResultRow[]): Record<string, unknown>[] {
  return results.map((r) => ({
    scheduler: r.scheduler,
    label: r.label,
    ...(r.cell ? { cell: r.cell } : {}),
    params: r.params,
    ...('seeds' in r ? { seeds: (r as SweepRow).seeds, metric: (r as SweepRow).metric } : {}),
    summary: r.summary,
  }));
}
