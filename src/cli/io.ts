import type { CliLearning } from './shippedAgents';
import type { Progress } from './sweepProgress';

/** What is at a path on disk (output paths are checked before any work starts). */
export type PathKind = 'file' | 'directory' | 'missing' | 'other';

/** Everything the CLI touches of the outside world, so tests can run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads a file as UTF-8, or returns null when there is no such file. */
  readFile(path: string): string | null;
  /** Writes a file; may throw (the CLI turns the error into a message naming the file). */
  writeFile(path: string, text: string): void;
  readonly stderrIsTty: boolean;
  /** Whether a path is an existing directory (train's --out). */
  isDirectory?(path: string): boolean;
  /**
   * What is at a path, and whether a directory can be written into. When absent (in-memory
   * tests) every output path is taken as writable.
   */
  pathKind?(path: string): PathKind;
  canWriteInto?(directory: string): boolean;
  /**
   * TensorFlow.js and the shipped agents, present when the command needs them (a world's
   * learners, a real run's layers; main.ts loads them when `needsLearning` says so: tfjs is not
   * cheap to load).
   */
  readonly learning?: CliLearning;
  /** The environment: a batch engine's shard index (sweep); none in tests unless given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A progress bar of cells (main.ts gives one only when stderr is a terminal). */
  createProgress?(total: number, label: string): Progress;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * Invalid input from the person at the keyboard: printed as `error: <message>` on stderr,
 * exit code 2, nothing on stdout (ARCHITECTURE §5). The message names the field, option or file.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
