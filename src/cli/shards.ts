import { parseAnyScenario } from '../scenario/parse';
import { formatErrors, type AnyScenario } from '../scenario/schema';
import { cellKey, sweepCells, type SweepCell } from '../scenario/sweep';
import type { CellOutcome } from '../scenario/sweepReport';
import { UsageError } from './io';

/**
 * Sharding a sweep over a batch engine's tasks. The project has no scheduler of its own: a
 * Kubernetes Indexed Job or a Slurm array starts N copies of `sweep`, each learns its index
 * from the environment the engine sets, runs its share of the cells and writes a shard
 * document; `merge` turns the N shard documents into exactly what one unsharded `sweep`
 * prints.
 */


/** Which share of the cells a process runs: shard `index` of `count` (0-based). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export const MAX_SHARDS = 100_000;

/**
 * Cell `i` belongs to shard `i mod count`. Round robin rather than blocks: neighbouring
 * cells differ by one seed or one axis step and cost alike, so every shard gets a like mix
 * of cheap and expensive cells (a learning lane at 50 rps costs more than at 10).
 */
export function shardOwns(shard: Shard, cellIndex: number): boolean {
  return cellIndex % shard.count === shard.index;
}

/** The cells of one shard, in canonical order. */
export function shardCells(cells: readonly SweepCell[], shard: Shard | null): SweepCell[] {
  return shard === null ? [...cells] : cells.filter((c) => shardOwns(shard, c.index));
}

const integer = (text: string): number | null => (/^\d{1,9}$/.test(text) ? Number(text) : null);

/**
 * The shard a process runs, from its flags and its environment, or null for all cells:
 *
 * - `--shard I/N`: shard I (0-based) of N;
 * - `--shards N` with `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job sets it to the pod's
 *   index, 0 … completions − 1; the Job does not tell its completions, hence `--shards`), or
 *   with Slurm's variables;
 * - `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (a Slurm array): the index is
 *   (ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP, so `--array=1-8` and `--array=0-7`
 *   both give shards 0 … 7.
 *
 * @throws UsageError naming the flag or variable that is wrong.
 */
export function resolveShard(flags: { shard: string | null; shards: number | null }, env: Readonly<Record<string, string | undefined>>): Shard | null {
  if (flags.shard !== null) {
    if (flags.shards !== null) throw new UsageError('--shard and --shards: give one of them');
    const m = /^(\d{1,9})\/(\d{1,9})$/.exec(flags.shard);
    const index = m ? Number(m[1]) : NaN;
    const count = m ? Number(m[2]) : NaN;
    if (!m || count < 1 || count > MAX_SHARDS || index >= count) {
      throw new UsageError(`--shard: must be I/N with 0 ≤ I < N ≤ ${MAX_SHARDS} (shards are counted from 0), got "${flags.shard}"`);
    }
    return { index, count };
  }
  const k8s = env['JOB_COMPLETION_INDEX'];
  const slurm = slurmShard(env);
  if (flags.shards !== null) {
    const count = flags.shards;
    if (k8s !== undefined) {
      const index = integer(k8s);
      if (index === null || index >= count) throw new UsageError(`JOB_COMPLETION_INDEX: must be an integer from 0 to ${count - 1} (--shards ${count}), got "${k8s}"`);
      return { index, count };
    }
    if (slurm !== null) {
      if (slurm.count !== count) throw new UsageError(`--shards: ${count} differs from SLURM_ARRAY_TASK_COUNT (${slurm.count})`);
      return slurm;
    }
    throw new UsageError('--shards: needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID in the environment; or give --shard I/N');
  }
  if (slurm !== null) return slurm;
  if (k8s !== undefined) throw new UsageError(`JOB_COMPLETION_INDEX is set (${k8s}): give --shards N, the Job's completions`);
  return null;
}

function slurmShard(env: Readonly<Record<string, string | undefined>>): Shard | null {
  const id = env['SLURM_ARRAY_TASK_ID'];
  if (id === undefined) return null;
  const read = (name: string, fallback: number | null): number => {
    const raw = env[name];
    if (raw === undefined) {
      if (fallback === null) throw new UsageError(`${name}: must be set with SLURM_ARRAY_TASK_ID (a Slurm array sets both)`);
      return fallback;
    }
    const v = integer(raw);
    if (v === null) throw new UsageError(`${name}: must be a whole number, got "${raw}"`);
    return v;
  };
  const taskId = read('SLURM_ARRAY_TASK_ID', null);
  const count = read('SLURM_ARRAY_TASK_COUNT', null);
  const min = read('SLURM_ARRAY_TASK_MIN', 0);
  const step = Math.max(1, read('SLURM_ARRAY_TASK_STEP', 1));
  if (count < 1 || count > MAX_SHARDS) throw new UsageError(`SLURM_ARRAY_TASK_COUNT: must be from 1 to ${MAX_SHARDS}, got ${count}`);
  const offset = taskId - min;
  if (offset < 0 || offset % step !== 0 || offset / step >= count) {
    throw new UsageError(`SLURM_ARRAY_TASK_ID: ${taskId} is not one of the array's ${count} tasks from SLURM_ARRAY_TASK_MIN ${min} in steps of ${step}`);
  }
  return { index: offset / step, count };
}

/** What a shard writes: enough to check it against the others and to rebuild the unsharded report. */
export interface ShardDocument {
  readonly shard: Shard & { readonly cells: number };
  readonly scenario: AnyScenario;
  readonly seeds: readonly number[];
  readonly cells: readonly (CellOutcome & { readonly key: string })[];
}

/** The shard document of a shard's outcomes (each cell carries its key: axis values and seed). */
export function shardDocument(scenario: AnyScenario, seeds: readonly number[], shard: Shard, cells: readonly SweepCell[], outcomes: readonly CellOutcome[]): ShardDocument {
  return {
    shard: { ...shard, cells: cells.length },
    scenario,
    seeds,
    cells: outcomes.map((o) => ({ index: o.index, key: cellKey(cells[o.index]!), seed: o.seed, results: o.results })),
  };
}

/** A merged sweep: the scenario, its seeds and every cell's outcome in canonical order. */
export interface Merged {
  readonly scenario: AnyScenario;
  readonly seeds: readonly number[];
  readonly outcomes: readonly CellOutcome[];
}

/**
 * Checks shard documents against each other and puts their cells back in canonical order.
 * Refuses, naming the file: text that is not a shard document, a scenario or seeds other
 * than the first file's, a cell that is not this sweep's or that another file also holds;
 * and, naming the shard, cells that no file holds.
 *
 * @throws UsageError with the message for the person.
 */
export function mergeShards(files: readonly { readonly name: string; readonly text: string }[]): Merged {
  if (files.length === 0) throw new UsageError('merge: needs the shard files (FILE...)');
  let reference: { name: string; scenarioJson: string; seedsJson: string; count: number; cells: SweepCell[]; scenario: AnyScenario; seeds: number[] } | null = null;
  const byIndex = new Map<number, { file: string; outcome: CellOutcome }>();
  for (const file of files) {
    let document: unknown;
    try {
      document = JSON.parse(file.text);
    } catch (error) {
      throw new UsageError(`${file.name}: is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const d = document as Partial<ShardDocument> | null;
    if (d !== null && typeof d === 'object' && (d as { kind?: unknown }).kind === 'claims-shard') {
      throw new UsageError(`${file.name}: kind: is a shard of the claims report: merge it with claims merge FILE...`);
    }
    if (d === null || typeof d !== 'object' || typeof d.shard !== 'object' || d.shard === null || !Array.isArray(d.cells) || !Array.isArray(d.seeds)) {
      throw new UsageError(`${file.name}: is not a shard output (write one with sweep --shard I/N or --shards N)`);
    }
    const scenarioJson = JSON.stringify(d.scenario);
    const seedsJson = JSON.stringify(d.seeds);
    if (reference === null) {
      const parsed = parseAnyScenario(d.scenario);
      if (!parsed.ok) throw new UsageError(`${file.name}: its scenario is not valid:\n${formatErrors(parsed.errors)}`);
      const seeds = d.seeds as number[];
      if (!seeds.every((s, i) => Number.isInteger(s) && s === parsed.scenario.seed + i) || seeds.length < 1) {
        throw new UsageError(`${file.name}: seeds must run from the scenario's seed on, one by one`);
      }
      const count = d.shard.count;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_SHARDS) throw new UsageError(`${file.name}: shard.count is not a shard count`);
      reference = { name: file.name, scenarioJson, seedsJson, count, cells: sweepCells(parsed.scenario, seeds), scenario: parsed.scenario, seeds };
    } else {
      if (scenarioJson !== reference.scenarioJson) throw new UsageError(`${file.name}: is a shard of another scenario than ${reference.name}`);
      if (seedsJson !== reference.seedsJson) throw new UsageError(`${file.name}: ran other seeds than ${reference.name}`);
      if (d.shard.count !== reference.count) throw new UsageError(`${file.name}: is one of ${String(d.shard.count)} shards, ${reference.name} one of ${reference.count}`);
    }
    for (const c of d.cells as (CellOutcome & { key?: unknown })[]) {
      const expected = typeof c?.index === 'number' ? reference.cells[c.index] : undefined;
      if (expected === undefined || c.key !== cellKey(expected) || c.seed !== expected.seed || !Array.isArray(c.results)) {
        throw new UsageError(`${file.name}: cell ${JSON.stringify(c?.index)} is not a cell of this sweep`);
      }
      const held = byIndex.get(c.index);
      if (held !== undefined) throw new UsageError(`${file.name}: cell ${c.index} ${c.key} is also in ${held.file} (overlapping shards)`);
      byIndex.set(c.index, { file: file.name, outcome: { index: c.index, seed: c.seed, results: c.results } });
    }
  }
  const ref = reference!;
  const missing = ref.cells.filter((c) => !byIndex.has(c.index));
  if (missing.length > 0) {
    const shards = [...new Set(missing.map((c) => c.index % ref.count))];
    const list = missing.slice(0, 5).map((c) => c.index).join(', ');
    throw new UsageError(
      `merge: ${missing.length} of ${ref.cells.length} cells are missing (cells ${list}${missing.length > 5 ? ', …' : ''}): no file holds shard${shards.length > 1 ? 's' : ''} ${shards.slice(0, 10).map((s) => `${s}/${ref.count}`).join(', ')}`,
    );
  }
  return { scenario: ref.scenario, seeds: ref.seeds, outcomes: ref.cells.map((c) => byIndex.get(c.index)!.outcome) };
}
