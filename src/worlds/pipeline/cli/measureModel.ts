/**
 * The work of `measure <model> [--modes A,B,F] [--repeats N] [--size 224|112] [--out FILE]`
 * (ARCHITECTURE §5; registered in commands/measure.ts, beside it): times the model's real tfjs units
 * alone and beside the hogs of each mode on this machine and writes the database in the
 * scenario's embedded-database format (JSON, with its measurement record), with a
 * progress bar on a terminal.
 */
import { SingleBar } from 'cli-progress';
import type { Tf } from '../../../lib/tf';
import { MODE_IDS, MODEL_IDS, type ModeId, type ModelId } from '../engine/profiles/types';
import type { SpawnHog } from '../measure/hogs';
import { measureDatabase, modesToMeasure, type MeasureEnvironment } from '../measure/runner';
import { databaseToJson } from '../scenario/databaseFile';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../../../cli/io';

/** Parsed arguments of `measure`. */
export interface MeasureArgs {
  readonly model: ModelId;
  /** A first, then the asked modes in A–L order. */
  readonly modes: readonly ModeId[];
  readonly repeats: number;
  readonly inputSize: 224 | 112;
  readonly hogBufferMiB: number | null;
  readonly cores: number | null;
}

/** The model argument, or a usage error naming it. */
export function measureModel(model: string | undefined): ModelId {
  if (model === undefined) throw new UsageError(`measure: needs a model (${MODEL_IDS.join(', ')})`);
  if (!(MODEL_IDS as readonly string[]).includes(model)) throw new UsageError(`measure: model must be one of ${MODEL_IDS.join(', ')}, got "${model}"`);
  return model as ModelId;
}

/** `--modes A,B,F`: modes A–L, case-insensitive; A is measured anyway. */
export function parseModes(list: string): ModeId[] {
  const wanted = list.split(',').map((m) => m.trim().toUpperCase());
  const bad = wanted.find((m) => !(MODE_IDS as readonly string[]).includes(m));
  if (bad !== undefined) throw new UsageError(`--modes: "${bad}" is not a mode; modes are ${MODE_IDS.join(', ')}`);
  return modesToMeasure(wanted as ModeId[]);
}

/** What a measurement needs from the outside world. */
export interface MeasureDeps {
  readonly tf: Tf;
  readonly spawnHog: SpawnHog;
  readonly cores: number;
  readonly runtime: string;
  readonly defaultHogBufferMiB: number;
  readonly stderr: (text: string) => void;
  /** Draws a progress bar on stderr (a terminal). */
  readonly progressBar: boolean;
  /** Set when the person presses Ctrl+C: the run stops between units and its hogs with it. */
  readonly isCancelled?: () => boolean;
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/** Measures; resolves to the database as JSON text, or null when cancelled. */
export async function measureToJson(args: MeasureArgs, deps: MeasureDeps): Promise<string | null> {
  const env: MeasureEnvironment = {
    tf: deps.tf,
    now: () => performance.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    spawnHog: deps.spawnHog,
    cores: args.cores ?? deps.cores,
    runtime: deps.runtime,
    date: () => new Date().toISOString(),
  };
  const bar = deps.progressBar
    ? new SingleBar({ format: 'measure {bar} {percentage}% | {mode} {unit} | {hogs} | {remaining} left', stream: process.stderr, hideCursor: true })
    : null;
  bar?.start(1000, 0, { mode: 'A', unit: '', hogs: 'alone', remaining: '…' });
  try {
    const result = await measureDatabase(
      { model: args.model, modes: args.modes, repeats: args.repeats, inputSize: args.inputSize, hogBufferMiB: args.hogBufferMiB ?? deps.defaultHogBufferMiB },
      env,
      (p) =>
        bar?.update(Math.round(p.fraction * 1000), {
          mode: p.mode,
          unit: p.unit,
          hogs: p.hogs,
          remaining: p.remainingMs === null ? '…' : formatDuration(p.remainingMs),
        }),
      deps.isCancelled,
    );
    return result.ok ? databaseToJson(result.database) : null;
  } finally {
    bar?.stop();
  }
}

/** Exit code of a measurement that was cancelled (after a message on stderr). */
export function cancelledExit(stderr: (text: string) => void): number {
  stderr('measure: cancelled; nothing written\n');
  return EXIT_FAILURE;
}

export { EXIT_OK };
