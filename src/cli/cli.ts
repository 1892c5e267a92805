import type { CliCommand } from './command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io';
import { asUsageError, buildProgram } from './program';

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo, type PathKind } from './io';
export { applySet } from './scenarioInput';

/**
 * The command line of ARCHITECTURE §5. Resolves to the exit code: 0 on success, 2 on invalid input
 * (with a message naming the field, option or file on stderr and nothing on stdout), 1 on a
 * bug (never on any input: the hostile-input suite, hostile.test.ts, holds it to that).
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  let code = EXIT_OK;
  try {
    const program = buildProgram(io, async (command, positional, options) => {
      code = await command.run(positional, options, io);
    });
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
 * Whether the command line needs TensorFlow.js: `train`, or `run`/`sweep` of a serving
 * scenario with a learning lane. False on any error (runCli then reports it).
 */
export function needsLearning(args: readonly string[], io: CliIo): boolean {
  let needed = false;
  const quiet = { stdout: () => undefined, stderr: () => undefined };
  try {
    const probe = (command: CliCommand, positional: readonly (string | undefined)[], options: Record<string, unknown>): void => {
      needed = command.needsLearning?.(positional, options, io) ?? false;
    };
    buildProgram(quiet, probe).parse([...args], { from: 'user' });
  } catch {
    return false;
  }
  return needed;
}
