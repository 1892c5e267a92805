import { PIPELINE_LIMITS, type AnyScenario } from '../scenario/schema';
import { sweepCells, sweepCombinations, SWEEP_LIMITS, type SweepCell } from '../scenario/sweep';
import { mergeShards, resolveShard, shardCells, shardDocument } from './shards';
import { learningFor } from './sweepCells';
import { csvRows, runCell, runReport, sweepReport, type CellOutcome, type ResultRow } from '../scenario/sweepReport';
import { autoWorkers, runCellsOnPool } from './sweepPool';
import { UsageError, type CliIo } from './io';
import { emit as writeResult } from './worldRunner';

/** The options of `run`, `sweep` and `merge` (parsed by the CLI's parser). */
export interface SweepOptions {
  readonly format: 'json' | 'csv';
  readonly out?: string | undefined;
  /** --seeds N, or null: the sweep's `seeds`, else DEFAULT_SWEEP_SEEDS. */
  readonly seeds: number | null;
  /** --workers N | auto (null: 1, this thread). */
  readonly workers: number | 'auto' | null;
  readonly shard: string | null;
  readonly shards: number | null;
}

/** Seeds of `sweep` when neither --seeds nor the scenario's sweep says. */
export const DEFAULT_SWEEP_SEEDS = 10;
export const MAX_WORKERS = 256;

function emit(io: CliIo, options: SweepOptions, json: unknown, rows: readonly Record<string, unknown>[]): void {
  writeResult(io, options, json, rows);
}

async function inThisThread(scenario: AnyScenario, cells: readonly SweepCell[], io: CliIo, onCell: (done: number) => void): Promise<CellOutcome[]> {
  const learning = await learningFor(scenario, cells, io.learning);
  return cells.map((cell, i) => {
    const outcome = runCell(scenario, cell, () => performance.now(), learning);
    onCell(i + 1);
    return outcome;
  });
}

/** `run`: every axis combination and lane once, for the scenario's seed. */
export async function commandRun(scenario: AnyScenario, options: SweepOptions, io: CliIo): Promise<number> {
  const outcomes = await inThisThread(scenario, sweepCells(scenario, [scenario.seed]), io, () => {});
  const report = runReport(scenario, outcomes) as { results: ResultRow[] };
  emit(io, options, report, csvRows(report.results));
  return 0;
}

/**
 * `sweep`: every cell (axis values × seeds) of the scenario, or a shard's share of them, in
 * this thread or on a pool of worker threads; prints the report (or the shard document).
 */
export function commandSweep(scenario: AnyScenario, options: SweepOptions, io: CliIo): Promise<number> {
  const count = options.seeds ?? scenario.sweep?.seeds ?? DEFAULT_SWEEP_SEEDS;
  if (scenario.seed + count - 1 > PIPELINE_LIMITS.seed.max) throw new UsageError(`--seeds: seeds would pass ${PIPELINE_LIMITS.seed.max}`);
  const combinations = sweepCombinations(scenario).length;
  if (combinations * count > SWEEP_LIMITS.cells) throw new UsageError(`--seeds: ${combinations} combinations × ${count} seeds = ${combinations * count} cells; at most ${SWEEP_LIMITS.cells}`);
  const seeds = Array.from({ length: count }, (_, i) => scenario.seed + i);
  const cells = sweepCells(scenario, seeds);
  const shard = resolveShard({ shard: options.shard, shards: options.shards }, io.env ?? {});
  if (shard !== null && options.format === 'csv') throw new UsageError('--format: a shard writes JSON for merge; merge prints CSV');
  const mine = shardCells(cells, shard);
  const requested = options.workers === 'auto' ? autoWorkers() : (options.workers ?? 1);
  const workers = Math.max(1, Math.min(requested, mine.length));
  const progress = io.createProgress?.(mine.length, shard === null ? 'sweep' : `shard ${shard.index}/${shard.count}`);
  const finish = (outcomes: CellOutcome[]): number => {
    progress?.stop();
    if (shard !== null) {
      emit(io, options, shardDocument(scenario, seeds, shard, cells, outcomes), []);
    } else {
      const report = sweepReport(scenario, seeds, outcomes) as { results: ResultRow[] };
      emit(io, options, report, csvRows(report.results));
    }
    return 0;
  };
  const onCell = (done: number) => progress?.update(done);
  const outcomes = workers === 1 ? inThisThread(scenario, mine, io, onCell) : runCellsOnPool(scenario, seeds, mine, workers, onCell);
  return outcomes.then(finish, (error: unknown) => {
    progress?.stop();
    throw error;
  });
}

/** `merge FILE...`: shard documents → exactly the report one unsharded `sweep` prints. */
export function commandMerge(names: readonly string[], options: SweepOptions, io: CliIo): number {
  if (names.length === 0) throw new UsageError('merge: needs the shard files (merge FILE...)');
  const files = names.map((name) => {
    const text = io.readFile(name);
    if (text === null) throw new UsageError(`${name}: no such file`);
    return { name, text };
  });
  const merged = mergeShards(files);
  const report = sweepReport(merged.scenario, merged.seeds, merged.outcomes) as { results: ResultRow[] };
  emit(io, options, report, csvRows(report.results));
  return 0;
}

/** Parses --workers: a whole number from 1 to MAX_WORKERS, or `auto` (every core). */
export function parseWorkers(text: string): number | 'auto' {
  if (text === 'auto') return 'auto';
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_WORKERS) throw new UsageError(`--workers: must be an integer from 1 to ${MAX_WORKERS} or "auto", got "${text}"`);
  return n;
}

/** Parses --shards: a whole number from 1 to 100000. */
export function parseShards(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 100_000) throw new UsageError(`--shards: must be an integer from 1 to 100000, got "${text}"`);
  return n;
}
