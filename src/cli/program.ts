import { Command, CommanderError } from 'commander';
import type { CliCommand } from './command';
import { UsageError, type CliIo } from './io';

/** How the documented command is typed (README: the `bin` entry keeps npm's banner off stdout). */
export const PROGRAM_NAME = 'interference-lab';

/** What a parsed command line asks for: the command, its declared arguments and its options. */
export type CommandAction = (command: CliCommand, args: readonly (string | undefined)[], options: Record<string, unknown>) => void | Promise<void>;

/**
 * The commander program over `commands` (`programCommands`: the kit's and the worlds').
 * commander reads the arguments and writes `--help`; its errors come back as CommanderError
 * (exitOverride) and are reworded by `commanderUsageMessage` in the house form `--flag: problem`.
 */
export function buildProgram(io: Pick<CliIo, 'stdout' | 'stderr'>, action: CommandAction, commands: readonly CliCommand[]): Command {
  const program = new Command(PROGRAM_NAME)
    .usage('<command> [options]')
    .description('Interference Lab on the command line: the same engine, scenarios and numbers as the page (ODIN and BCEdge).')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Errors are printed once, reworded, by runCli.
      outputError: () => undefined,
    })
    .showSuggestionAfterError(true)
    .helpCommand('help [command]', 'show the help of a command');
  program.addHelpText(
    'after',
    `\nRun as: npx ${PROGRAM_NAME} <command> ... (only the result on stdout), or npm run -s sim -- <command> ...\n` +
      'Invalid input: a message naming the field on stderr, nothing on stdout, exit code 2.',
  );
  for (const entry of commands) {
    const command = program.command(entry.usage).description(entry.summary);
    entry.configure(command);
    // Not async: the needsLearning probe parses synchronously, and its errors must throw there.
    command.action((...received: unknown[]) => {
      const self = received.at(-1) as Command;
      return action(entry, self.processedArgs as (string | undefined)[], self.opts());
    });
  }
  return program;
}

/**
 * A CommanderError as the person should read it, or null when it is not an error (help was
 * asked for). Messages name the option or the command, like the rest of the CLI.
 */
export function commanderUsageMessage(error: CommanderError): string | null {
  if (error.exitCode === 0) return null;
  const text = error.message.replace(/^error: /, '');
  const quoted = /'([^']*)'/.exec(text)?.[1] ?? '';
  const suggestion = /\(Did you mean ([^)]+)\?\)/.exec(text)?.[1];
  const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
  switch (error.code) {
    case 'commander.unknownCommand':
      return `unknown command "${quoted}"${hint} (see: ${PROGRAM_NAME} --help)`;
    case 'commander.unknownOption':
      return `${quoted}: unknown option${hint}`;
    case 'commander.optionMissingArgument':
      return `${quoted.split(' ')[0]}: needs a value`;
    case 'commander.help':
      return 'needs a command (see the list above)';
    default:
      return text;
  }
}

/** Turns anything a parse threw into a UsageError, a help exit (null), or rethrows a bug. */
export function asUsageError(error: unknown): UsageError | null {
  if (error instanceof UsageError) return error;
  if (error instanceof CommanderError) {
    const message = commanderUsageMessage(error);
    return message === null ? null : new UsageError(message);
  }
  throw error;
}
