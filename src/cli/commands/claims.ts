import { availableParallelism } from 'node:os';
import { Option } from 'commander';
import type { Claim } from '../../scenario/claimModel';
import { allClaims, planClaims, planRows, runPlanCells, type ClaimsPlan, type PlanShard, type RunSomeCells } from '../../scenario/claims';
import { DEFAULT_LEARNING_RUNS, LEARNING_RUNS_LIMITS, withLearningRuns, type LearningRuns } from '../../scenario/learningRuns';
import { claimsMarkdown, claimsTable } from '../../scenario/claimsFormat';
import { CLAIMS_REPORT_VERSION, type ClaimsReport, type Paper } from '../../scenario/claimsReport';
import { runCell } from '../../scenario/sweepReport';
import { claimsShardDocument, mergeClaimShards, planFingerprint, type ClaimsShardPlan } from '../claimShards';
import type { CliCommand } from '../command';
import { commandLine, gitCommit, typedArgs } from '../provenance';
import { UsageError, type CliIo } from '../io';
import { choiceOption, integerOption } from '../options';
import { checkOutputPath, writeOutput } from '../outputPath';
import { resolveShard } from '../shards';
import { learningFor } from '../sweepCells';
import { papers } from '../../kit/worlds';
import { parseShards, parseWorkers } from '../sweepCommand';
import { autoWorkers, openSweepPool } from '../sweepPool';
import type { Progress } from '../sweepProgress';

export const CLAIMS_FORMATS = ['table', 'json', 'md'] as const;
export type ClaimsFormat = (typeof CLAIMS_FORMATS)[number];
export const DEFAULT_CLAIMS_SEEDS = 10;
export const MAX_CLAIMS_SEEDS = 100;

interface ClaimsOptions {
  readonly paper?: Paper;
  readonly seeds?: number;
  readonly workers?: number | 'auto';
  /** Absent: a table (JSON for a shard and for merge). */
  readonly format?: ClaimsFormat;
  readonly out?: string;
  readonly claim?: string[];
  readonly skipLearning?: boolean;
  readonly learningLength?: number;
  readonly learningSeeds?: number;
  readonly learningReadingsLength?: number;
  readonly shard?: string;
  readonly shards?: number;
}

/** The claims these options select, in registry order. */
export function selectClaims(options: Pick<ClaimsOptions, 'paper' | 'claim' | 'skipLearning'>): Claim[] {
  for (const id of options.claim ?? []) {
    if (!allClaims().some((c) => c.id === id)) throw new UsageError(`--claim: no claim "${id}" (see the ids in: claims --format table)`);
  }
  const chosen = allClaims().filter((c) => (options.paper === undefined || c.paper === options.paper) && (options.claim === undefined || options.claim.includes(c.id)) && !(options.skipLearning === true && c.learns));
  if (chosen.length === 0) throw new UsageError(`--claim: no claim of ${options.paper ?? 'either paper'} is among ${(options.claim ?? []).join(', ')}`);
  return chosen;
}

/** The learning runs these options ask for (the registry's when neither is given). */
function learningRunsOf(options: Pick<ClaimsOptions, 'learningLength' | 'learningSeeds' | 'learningReadingsLength'>): LearningRuns {
  const lengthS = options.learningLength ?? DEFAULT_LEARNING_RUNS.lengthS;
  const readings = options.learningReadingsLength;
  return { lengthS, seeds: options.learningSeeds ?? DEFAULT_LEARNING_RUNS.seeds, ...(readings === undefined || readings === lengthS ? {} : { readingsLengthS: readings }) };
}

/** The claims, with their learning runs, and their plan for `seeds` seeds. */
export function claimsPlanOf(claims: readonly Claim[], seeds: number, learning: LearningRuns): { readonly claims: Claim[]; readonly plan: ClaimsPlan } {
  const run = withLearningRuns(claims, learning);
  return { claims: run, plan: planClaims(run, seeds) };
}

/**
 * This checkout's plan for a shard's claims, seeds and learning runs, refused by field when it
 * is not the plan the shard ran (`claims merge`).
 */
function planOfShards(identity: ClaimsShardPlan): { readonly claims: Claim[]; readonly plan: ClaimsPlan } {
  const ids = identity.claims;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) throw new UsageError('plan.claims: must list the claims of the shards');
  const unknown = ids.find((id) => !allClaims().some((c) => c.id === id));
  if (unknown !== undefined) throw new UsageError(`plan.claims: "${unknown}" is not a claim of this checkout's registry`);
  const learning = identity.learning;
  const ok = (v: unknown, { min, max }: { min: number; max: number }) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  if (!ok(identity.seeds, { min: 1, max: MAX_CLAIMS_SEEDS })) throw new UsageError(`plan.seeds: must be an integer from 1 to ${MAX_CLAIMS_SEEDS}`);
  if (learning === null || typeof learning !== 'object' || !ok(learning.lengthS, LEARNING_RUNS_LIMITS.lengthS) || !ok(learning.seeds, LEARNING_RUNS_LIMITS.seeds)) throw new UsageError('plan.learning: must give lengthS and seeds within the bounds of --learning-length and --learning-seeds');
  if (learning.readingsLengthS !== undefined && !ok(learning.readingsLengthS, LEARNING_RUNS_LIMITS.lengthS)) throw new UsageError('plan.learning.readingsLengthS: must be within the bounds of --learning-readings-length');
  const planned = claimsPlanOf(
    allClaims().filter((c) => ids.includes(c.id)),
    identity.seeds,
    learning,
  );
  const fingerprint = planFingerprint(planned.claims, planned.plan);
  if (fingerprint !== identity.plan) {
    throw new UsageError(`plan.plan: the shards ran plan ${String(identity.plan)} (commit ${String(identity.commit)}), this checkout's registry plans ${fingerprint} for the same claims: merge in a checkout of the shards' commit`);
  }
  return planned;
}

/**
 * `claims`: every claim of the registry (or those of --paper / --claim) computed on the
 * worker pool, printed as a table, JSON (the report the page ships) or Markdown.
 */
export const claimsCommand: CliCommand = {
  usage: 'claims [action] [files...]',
  summary: "recompute every claim of both papers: the lab's number, its verdict and the readings that flip it (or a shard of them; claims merge FILE... joins the shards)",
  configure(command) {
    const ids = papers().map((p) => p.id);
    command.addOption(new Option('--paper <paper>', `only the claims of one paper: ${ids.join(' or ')}`).argParser(choiceOption('--paper', ids)));
    command.option('--seeds <n>', `seeds per cell (1 to ${MAX_CLAIMS_SEEDS}, default ${DEFAULT_CLAIMS_SEEDS}; learning claims use at most their own cap, said in the row)`, integerOption('--seeds', 1, MAX_CLAIMS_SEEDS));
    command.option('--workers <n|auto>', 'worker threads for the cells (default 1: this thread; auto: every core)', parseWorkers);
    command.addOption(new Option('--format <format>', 'output format: table (default), json (the report the page shows; the default of a shard and of merge) or md (a reproduction report)').argParser(choiceOption('--format', CLAIMS_FORMATS)));
    command.option('--out <file>', 'write the output to FILE instead of standard output');
    command.option('--claim <id>', 'only this claim (repeatable)', (value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.option('--skip-learning', 'leave out the claims that train learners (minutes each)');
    const { lengthS, seeds } = LEARNING_RUNS_LIMITS;
    command.option('--learning-length <s>', `run length of the learning rows, s (${lengthS.min} to ${lengthS.max}; default ${DEFAULT_LEARNING_RUNS.lengthS}, the paper's 3000)`, integerOption('--learning-length', lengthS.min, lengthS.max));
    command.option('--learning-seeds <n>', `seeds of the learning rows at most (${seeds.min} to ${seeds.max}; default ${DEFAULT_LEARNING_RUNS.seeds}, never more than --seeds)`, integerOption('--learning-seeds', seeds.min, seeds.max));
    command.option('--learning-readings-length <s>', `run length of the learning rows' readings (the strip of what flips each row), s (${lengthS.min} to ${lengthS.max}; default: --learning-length)`, integerOption('--learning-readings-length', lengthS.min, lengthS.max));
    command.option('--shard <i/n>', 'run only shard I (counted from 0) of N of the cells and write a shard file for claims merge');
    command.option('--shards <n>', 'N shards, the index from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID', parseShards);
    command.addHelpText(
      'after',
      [
        '',
        'The report the page ships is regenerated by:',
        '  npm run claims -- --format json --workers auto --out public/claims/report.json',
        'or, in shards (each on its own machine, the same commit), then merged:',
        '  npm run claims -- --shard 0/8 --workers auto --out shard-0.json   (… to 7/8)',
        '  npm run claims -- merge shard-*.json --out public/claims/report.json',
        'A Slurm array (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT) gives the shard without a flag.',
        '(README, "Does it reproduce the papers?").',
      ].join('\n'),
    );
  },
  // Merging runs nothing; computing (all of it or a shard) trains learners when a chosen claim does.
  needsLearning: ([action], options) => action === undefined && selectClaims(options as unknown as ClaimsOptions).some((c) => c.learns),
  async run([action, files], rawOptions, io) {
    const options = rawOptions as unknown as ClaimsOptions;
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const args = typedArgs('claims');
    if (action === 'merge') {
      const names = (files as unknown as string[] | undefined) ?? [];
      const report = mergeReport(names, io, args);
      emitReport(report, options.format ?? 'json', options, io);
      return 0;
    }
    if (action !== undefined) throw new UsageError(`claims: "${action}" is not an action of claims (claims [options], or claims merge FILE...)`);
    const claims = selectClaims(options);
    const seeds = options.seeds ?? DEFAULT_CLAIMS_SEEDS;
    const learning = learningRunsOf(options);
    const requested = options.workers === 'auto' ? autoWorkers() : (options.workers ?? 1);
    const shard = resolveShard({ shard: options.shard ?? null, shards: options.shards ?? null }, io.env ?? {});
    if (shard !== null) {
      if (options.format !== undefined && options.format !== 'json') throw new UsageError('--format: a shard writes JSON for claims merge; claims merge prints a table or Markdown');
      const document = await computeShard(claims, seeds, learning, shard, requested, io, args);
      const text = `${JSON.stringify(document)}\n`;
      if (options.out !== undefined) writeOutput(io, '--out', options.out, text);
      else io.stdout(text);
      return 0;
    }
    const report = await computeReport(claims, seeds, requested, io, args, learning);
    emitReport(report, options.format ?? 'table', options, io);
    return 0;
  },
};

function emitReport(report: ClaimsReport, format: ClaimsFormat, options: Pick<ClaimsOptions, 'out'>, io: CliIo): void {
  const text = format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : format === 'md' ? claimsMarkdown(report) : claimsTable(report);
  if (options.out !== undefined) writeOutput(io, '--out', options.out, text);
  else io.stdout(text);
}

/** Where this process computes: Node, platform, cores, threads. */
function machineOf(workers: number): string {
  return `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores, ${workers} worker thread${workers === 1 ? '' : 's'}`;
}

/** Runs cells on `workers` threads (1: this thread) with a progress bar when stderr is a terminal, and closes the pool after. */
async function withCells<T>(workers: number, io: CliIo, label: string, work: (runCells: RunSomeCells, onProgress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
  const pool = workers > 1 ? openSweepPool(workers) : null;
  let bar: Progress | undefined;
  const runCells: RunSomeCells =
    pool === null
      ? async (scenario, cellSeeds, cells, onCell) => {
          const learning = await learningFor(scenario, cells, io.learning);
          return cells.map((cell, i) => {
            const outcome = runCell(scenario, cell, () => performance.now(), learning);
            onCell?.(i + 1);
            return outcome;
          });
        }
      : (scenario, cellSeeds, cells, onCell) => pool.run(scenario, cellSeeds, cells, onCell);
  try {
    return await work(runCells, (done, total) => {
      bar ??= io.createProgress?.(total, label);
      bar?.update(done);
    });
  } finally {
    bar?.stop();
    await pool?.terminate();
  }
}

/** Computes the report on `workers` threads (1: this thread), with a progress bar when stderr is a terminal. */
export async function computeReport(claims: readonly Claim[], seeds: number, workers: number, io: CliIo, args?: readonly string[], learning: LearningRuns = DEFAULT_LEARNING_RUNS): Promise<ClaimsReport> {
  const startedMs = Date.now();
  const { plan } = claimsPlanOf(claims, seeds, learning);
  const rows = await withCells(workers, io, 'claims', async (runCells, onProgress) => planRows(plan, await runPlanCells(plan, null, runCells, onProgress)));
  return {
    version: CLAIMS_REPORT_VERSION,
    provenance: {
      commit: gitCommit(),
      seeds,
      date: new Date().toISOString(),
      machine: machineOf(workers),
      command: commandLine('npm run claims --', args),
      learning,
      durationS: Math.round((Date.now() - startedMs) / 100) / 10,
    },
    rows,
  };
}

/** Computes one shard of the claims' cells (`claims --shard I/N`): the document `claims merge` reads. */
export async function computeShard(claims: readonly Claim[], seeds: number, learning: LearningRuns, shard: PlanShard, workers: number, io: CliIo, args?: readonly string[]) {
  const startedMs = Date.now();
  const planned = claimsPlanOf(claims, seeds, learning);
  const identity: ClaimsShardPlan = { commit: gitCommit(), claims: planned.claims.map((c) => c.id), seeds, learning, plan: planFingerprint(planned.claims, planned.plan) };
  const outcomes = await withCells(workers, io, `claims shard ${shard.index}/${shard.count}`, (runCells, onProgress) => runPlanCells(planned.plan, shard, runCells, onProgress));
  return claimsShardDocument(planned.plan, identity, shard, outcomes, {
    machine: machineOf(workers),
    date: new Date().toISOString(),
    durationS: Math.round((Date.now() - startedMs) / 100) / 10,
    command: commandLine('npm run claims --', args),
  });
}

/** `claims merge FILE...`: the shards' rows as the report one unsharded run writes, with where each shard ran. */
export function mergeReport(names: readonly string[], io: CliIo, args?: readonly string[]): ClaimsReport {
  if (names.length === 0) throw new UsageError('claims merge: needs the shard files (claims merge FILE...)');
  const files = names.map((name) => {
    const text = io.readFile(name);
    if (text === null) throw new UsageError(`${name}: no such file`);
    return { name, text };
  });
  const merged = mergeClaimShards(files, planOfShards);
  const machines = [...new Set(merged.shards.map((s) => s.machine))];
  const machine = `${merged.shards.length} shards on ${machines.length === 1 ? machines[0]! : `${machines.length} kinds of machine: ${machines.join('; ')}`}`;
  return {
    version: CLAIMS_REPORT_VERSION,
    provenance: {
      commit: merged.plan.commit,
      seeds: merged.plan.seeds,
      date: merged.shards.map((s) => s.date).sort().at(-1)!,
      machine: machine.length > 300 ? `${machine.slice(0, 299)}…` : machine,
      command: commandLine('npm run claims --', args).slice(0, 500),
      learning: merged.plan.learning,
      durationS: Math.round(merged.shards.reduce((sum, s) => sum + s.durationS, 0) * 10) / 10,
      shards: merged.shards,
    },
    rows: merged.rows,
  };
}
