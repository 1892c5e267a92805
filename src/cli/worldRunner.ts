import { averageDeep } from '../scenario/average';
import { toCsv } from '../scenario/csv';
import { gridCells, runPipelineScenario } from '../scenario/pipelineRunner';
import { runServingScenario, servingCells } from '../scenario/servingRunner';
import type { AnyScenario, ServingScenario } from '../scenario/schema';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory, type LearningFactoryOptions } from '../agents/registry';
import { isLearningScheduler, type LearningFactory } from '../schedulers/serving/registry';
import type { CliIo } from './io';
import type { OutputFormat } from './options';
import { writeOutput } from './outputPath';

/** What `run` and `sweep` need from a world: its grid size and a run of every cell and lane for a seed. */
export interface WorldRunner {
  readonly hasGrid: boolean;
  readonly cells: number;
  run(seed: number, onCell?: () => void): readonly ResultRow[];
}

export interface ResultRow {
  readonly scheduler: string;
  readonly label: string;
  readonly params: unknown;
  readonly cell?: object;
  readonly summary: object;
}

/** The learning factory for a serving scenario with learning lanes (undefined when it has none). */
export function learningFactory(scenario: ServingScenario, io: CliIo, options: LearningFactoryOptions = {}): LearningFactory | undefined {
  if (!hasLearningLane(scenario)) return undefined;
  if (io.learning === undefined) throw new Error('this scenario has learning lanes but TensorFlow.js was not loaded (needsLearning)');
  const { tf, agents } = io.learning;
  return createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context), ...options });
}

/** Whether a scenario runs a learning scheduler (tfjs must be loaded for it). */
export function hasLearningLane(scenario: AnyScenario): boolean {
  return scenario.world === 'serving' && scenario.serving.lanes.some((l) => isLearningScheduler(l.scheduler));
}

export function runnerFor(scenario: AnyScenario, io: CliIo): WorldRunner {
  if (scenario.world === 'serving') {
    const learning = learningFactory(scenario, io);
    // Decision time is wall-clock (BCEdge Fig. 16): the one number that differs run to run.
    return {
      hasGrid: scenario.serving.grid !== undefined,
      cells: servingCells(scenario).length,
      run: (seed, onCell) => runServingScenario(scenario, seed, () => performance.now(), onCell, learning),
    };
  }
  return { hasGrid: scenario.pipeline.grid !== undefined, cells: gridCells(scenario.pipeline).length, run: (seed, onCell) => runPipelineScenario(scenario, seed, onCell) };
}

/** Per lane, the mean over grid cells (the paper's "on average" over the grid). */
export function gridMeans(results: readonly ResultRow[], runner: WorldRunner): { scheduler: string; label: string; summary: object }[] {
  if (!runner.hasGrid) return [];
  const byLabel = new Map<string, ResultRow[]>();
  for (const r of results) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  return [...byLabel.values()].map((rs) => ({ scheduler: rs[0]!.scheduler, label: rs[0]!.label, summary: averageDeep(rs.map((r) => r.summary)) }));
}

/** A progress bar on stderr, only when stderr is a terminal (pipes and logs stay clean). */
export function progress(io: CliIo, done: number, total: number): void {
  if (!io.stderrIsTty) return;
  const width = 30;
  const filled = Math.round((width * done) / total);
  io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
}

/** Writes the result: JSON (the whole document) or CSV (the rows), to `out` or standard output. */
export function emit(io: CliIo, output: { readonly format: OutputFormat; readonly out?: string | undefined }, json: unknown, rows: readonly Record<string, unknown>[]): void {
  const text = output.format === 'json' ? `${JSON.stringify(json, null, 2)}\n` : toCsv(rows);
  if (output.out !== undefined) writeOutput(io, '--out', output.out, text);
  else io.stdout(text);
}

export function resultRows(results: readonly ResultRow[]): Record<string, unknown>[] {
  return results.map((r) => ({ scheduler: r.scheduler, label: r.label, ...(r.cell ? { cell: r.cell } : {}), params: r.params, summary: r.summary }));
}
