import { toCsv } from '../scenario/csv';
import type { AnyScenario } from '../scenario/schema';
import type { CliIo } from './io';
import { hasLearningLanes } from './sweepCells';
import type { OutputFormat } from './options';
import { writeOutput } from './outputPath';

/** Whether a scenario runs a learning scheduler (tfjs must be loaded for it). */
export function hasLearningLane(scenario: AnyScenario): boolean {
  return hasLearningLanes(scenario);
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
