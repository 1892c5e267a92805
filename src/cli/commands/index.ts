import type { CliCommand, CliWorld } from '../command';
import { claimsCommand } from './claims';
import { mergeCommand } from './merge';
import { presetsCommand } from './presets';
import { runCommand } from './run';
import { sweepCommand } from './sweep';

/** The kit's commands, the ones every world's scenarios go through, in the order `--help` lists them. Add a new one here. */
export const COMMANDS: readonly CliCommand[] = [runCommand, sweepCommand, mergeCommand, presetsCommand, claimsCommand];

/** A command's name, as typed: the first word of its usage. */
export function commandName(command: CliCommand): string {
  return command.usage.split(' ')[0]!;
}

/**
 * The program's commands: the kit's, each followed by the worlds' commands listed after it
 * (`WorldCommand.listedAfter`), in the order of `worlds`. A world's command that names no
 * command of the kit is a bug of that world, not input: it throws.
 */
export function programCommands(worlds: readonly CliWorld[]): readonly CliCommand[] {
  const own = worlds.flatMap((world) => world.commands);
  for (const command of own) {
    if (!COMMANDS.some((kit) => commandName(kit) === command.listedAfter)) {
      throw new RangeError(`${commandName(command)}: listed after "${command.listedAfter}", which is not a command of the kit (${COMMANDS.map(commandName).join(', ')})`);
    }
  }
  return COMMANDS.flatMap((kit) => [kit, ...own.filter((command) => command.listedAfter === commandName(kit))]);
}
