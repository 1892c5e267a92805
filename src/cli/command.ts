import type { Command } from 'commander';
import type { CliIo } from './io';

/**
 * One command of the command line, in its own module: the kit's under src/cli/commands/, a
 * world's under src/worlds/<id>/cli/commands/. To add one, write the module and list it in
 * `COMMANDS` (commands/index.ts), or in its world's `CliWorld`; the program, `--help`, the exit
 * codes and the error messages come from program.ts.
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

/**
 * A command that belongs to one world (`train`, `real`): it lives in the world's folder
 * (`src/worlds/<id>/cli/commands/`) and comes to the program through the world's `CliWorld`.
 */
export interface WorldCommand extends CliCommand {
  /**
   * The kit's command (its name, `merge`) that `--help` lists it after: a world's commands sit
   * beside the kit's they go with, not in a block at the end. Several after the same one keep
   * the order of the command line's list of worlds.
   */
  readonly listedAfter: string;
}

/**
 * A world on the command line (ARCHITECTURE §5, §7b): its own commands and what its runs set up
 * in the program's main thread. The program's entry (main.ts) hands the command line's list of
 * them (`src/worlds/commands.ts`) to `runCli`; the kit's modules name no world's command.
 */
export interface CliWorld {
  readonly commands: readonly WorldCommand[];
  /**
   * Sets up, once before the command runs, what the world's runs use in this program: `spareCores`
   * is the cores beside the main thread (0 on one core). Absent: nothing to set up.
   */
  start?(spareCores: number): void;
}
