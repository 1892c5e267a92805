import type { Command } from 'commander';
import type { CliIo } from './io';

/**
 * One command of the command line, in its own module under src/cli/commands/. To add one,
 * write the module and list it in `COMMANDS` (commands/index.ts); the program, `--help`,
 * the exit codes and the error messages come from program.ts.
 */
export interface CliCommand {
  /** commander's name and arguments: `run [scenario]` (arguments optional: the command names what is missing). */
  readonly usage: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Adds the command's options and extra help text. */
  configure(command: Command): void;
  /**
   * Whether these arguments need TensorFlow.js (loaded by main.ts before the run: it is not
   * cheap to load). Absent: never. May throw a UsageError (the run then reports it).
   */
  needsLearning?(args: readonly (string | undefined)[], options: Record<string, unknown>, io: CliIo): boolean;
  /** Runs the command; returns the exit code. Throws a UsageError on invalid input. */
  run(args: readonly (string | undefined)[], options: Record<string, unknown>, io: CliIo): number | Promise<number>;
}
