import { Option, type Command } from 'commander';
import { COST_BOUND_LANE_EVENTS, describeRunCost, estimateRunCost } from '../scenario/cost';
import type { AnyScenario } from '../scenario/schema';
import { UsageError } from './io';

/**
 * Option builders shared by the commands, so that `--format`, `--out`, `--set` and the
 * integer options read and fail alike everywhere (messages of ARCHITECTURE §5: `--flag: problem`).
 */

/** A parser for an integer option from `min` to `max`; digits only (no `1e3`, no `+1`). */
export function integerOption(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${flag}: must be an integer from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

/** A parser for an option that takes one of a few words. */
export function choiceOption<T extends string>(flag: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value)) {
      const list = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`;
      throw new UsageError(`${flag}: must be ${list}, got "${value}"`);
    }
    return value as T;
  };
}

export type OutputFormat = 'json' | 'csv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'csv'];

/** `--format json|csv`; without `fallback` the option stays undefined when not given (profile prints a table). */
export function addFormatOption(command: Command, fallback?: OutputFormat): Command {
  const option = new Option('--format <format>', `output format: ${OUTPUT_FORMATS.join(' or ')}`).argParser(choiceOption('--format', OUTPUT_FORMATS));
  if (fallback !== undefined) option.default(fallback);
  return command.addOption(option);
}

/** `--out FILE`: written instead of standard output (checked before any work starts). */
export function addOutOption(command: Command, description = 'write the output to FILE instead of standard output'): Command {
  return command.option('--out <file>', description);
}

/** The parser of a repeatable option: its values in the order given. */
export function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--set PATH=VALUE`, repeatable, applied in order before validation. */
export function addSetOption(command: Command): Command {
  return command.option(
    '--set <path=value>',
    'change one scenario field before validation (repeatable), e.g. --set pipeline.assumptions.trialCost=pipelined',
    repeatable,
  );
}

/** `--allow-long`: run even when the cost estimate is above the bound (scenario/cost.ts). */
export function addAllowLongOption(command: Command): Command {
  return command.option('--allow-long', `run even if the estimated cost is above ${COST_BOUND_LANE_EVENTS.toExponential()} lane-events (about a quarter of an hour)`);
}

/**
 * Refuses, before any work, a run whose estimate is above the bound unless `--allow-long`
 * was given: the message states the estimate and the flag.
 */
export function checkRunCost(scenario: AnyScenario, seeds: number, allowLong: boolean | undefined): void {
  const cost = estimateRunCost(scenario, seeds);
  if (cost.laneEvents > COST_BOUND_LANE_EVENTS && allowLong !== true) {
    throw new UsageError(`the scenario would cost ${describeRunCost(cost)}; above the bound of ${COST_BOUND_LANE_EVENTS.toExponential()} lane-events: pass --allow-long to run it anyway`);
  }
}

/** `--hog-buffer-mib N` and `--cores N`: the hogs' buffer and the cores the mode → hogs mapping assumes (measure, real). */
export function addHogOptions(command: Command, coresDescription: string): Command {
  command.addOption(new Option('--hog-buffer-mib <n>', "each memBW hog's buffer, MiB (default: 4 × the last-level cache, 256–1024)").argParser(integerOption('--hog-buffer-mib', 16, 4096)));
  return command.addOption(new Option('--cores <n>', coresDescription).argParser(integerOption('--cores', 1, 1024)));
}
