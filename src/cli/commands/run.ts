import type { CliCommand } from '../command';
import { PIPELINE_LIMITS } from '../../scenario/schema';
import { addAllowLongOption, addFormatOption, addOutOption, addSetOption, checkRunCost, integerOption, type OutputFormat } from '../options';
import { checkOutputPath } from '../outputPath';
import { loadScenario } from '../scenarioInput';
import { commandRun } from '../sweepCommand';
import { hasLearningLane } from '../worldRunner';

interface RunOptions {
  readonly format: OutputFormat;
  readonly out?: string;
  readonly set?: string[];
  readonly allowLong?: boolean;
  readonly seed?: number;
}

/** `--seed N` is `--set seed=N`, applied after the other `--set`s. */
const setsOf = (options: RunOptions): string[] => [...(options.set ?? []), ...(options.seed === undefined ? [] : [`seed=${options.seed}`])];

/** `run <scenario.json | preset-id>`: every lane (and sweep combination) once, for the scenario's seed (ARCHITECTURE §5). */
export const runCommand: CliCommand = {
  usage: 'run [scenario]',
  summary: 'run every lane (and sweep combination) of a scenario file or preset once',
  configure(command) {
    addFormatOption(command, 'json');
    addOutOption(command);
    addSetOption(command);
    command.option('--seed <n>', "run with this seed instead of the scenario's (the same as --set seed=N)", integerOption('--seed', PIPELINE_LIMITS.seed.min, PIPELINE_LIMITS.seed.max));
    addAllowLongOption(command);
    command.addHelpText('after', "\nscenario: a scenario .json file or a preset id (npx interference-lab presets).\nWith a sweep, every axis combination for the scenario's seed, and gridMeans: the per-lane mean over them.");
  },
  needsLearning: ([source], options, io) => hasLearningLane(loadScenario(source, setsOf(options as unknown as RunOptions), io)),
  run([source], rawOptions, io) {
    const options = rawOptions as unknown as RunOptions;
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const scenario = loadScenario(source, setsOf(options), io);
    checkRunCost(scenario, 1, options.allowLong);
    return commandRun(scenario, { format: options.format, out: options.out, seeds: null, workers: null, shard: null, shards: null }, io);
  },
};
