import type { CliCommand, CliWorld } from './command';
import { programCommands } from './commands/index';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io';
import { asUsageError, buildProgram } from './program';

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo, type PathKind } from './io';
export { applySet } from './scenarioInput';

/**
 * The command line of ARCHITECTURE §5, with the kit's commands and those of `worlds` (the command
 * line's list, `src/worlds/commands.ts`, which main.ts hands over). Resolves to the exit code: 0 on
 * success, 2 on invalid input (with a message naming the field, option or file on stderr and
 * nothing on stdout), 1 on a bug (never on any input: the hostile-input suite, hostile.test.ts,
 * holds it to that).
 */
export async function runCli(args: readonly string[], io: CliIo, worlds: readonly CliWorld[]): Promise<number> {
  let code = EXIT_OK;
  try {
    const program = buildProgram(
      io,
      async (command, positional, options) => {
        code = await command.run(positional, options, io);
      },
      programCommands(worlds),
    );
    await program.parseAsync([...args], { from: 'user' });
    return code;
  } catch (error) {
    let usage: UsageError | null;
    try {
      usage = asUsageError(error);
    } catch (bug) {
      io.stderr(`internal error: ${bug instanceof Error ? (bug.stack ?? bug.message) : String(bug)}\n`);
      return EXIT_FAILURE;
    }
    if (usage === null) return EXIT_OK; // --help, help: printed on stdout
    io.stderr(`error: ${usage.message}\n`);
    return EXIT_USAGE;
  }
}

/**
 * Whether the command line needs TensorFlow.js: a command that says so for these arguments
 * (`run`/`sweep` of a scenario with a learning lane, a world's training or real run). False on
 * any error (runCli then reports it).
 */
export function needsLearning(args: readonly string[], io: CliIo, worlds: readonly CliWorld[]): boolean {
  let needed = false;
  const quiet = { stdout: () => undefined, stderr: () => undefined };
  try {
    const probe = (command: CliCommand, positional: readonly (string | undefined)[], options: Record<string, unknown>): void => {
      needed = command.needsLearning?.(positional, options, io) ?? false;
    };
    buildProgram(quiet, probe, programCommands(worlds)).parse([...args], { from: 'user' });
  } catch {
    return false;
  }
  return needed;
}
