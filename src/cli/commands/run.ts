import type { CliCommand } from '../command';
import { EXIT_OK } from '../io';
import { addAllowLongOption, addFormatOption, addOutOption, addSetOption, checkRunCost, type OutputFormat } from '../options';
import { checkOutputPath } from '../outputPath';
import { loadScenario } from '../scenarioInput';
import { emit, gridMeans, hasLearningLane, resultRows, runnerFor } from '../worldRunner';

interface RunOptions {
  readonly format: OutputFormat;
  readonly out?: string;
  readonly set?: string[];
  readonly allowLong?: boolean;
}

/** `run <scenario.json | preset-id>`: every lane (and grid cell) once (ARCHITECTURE §5). */
export const runCommand: CliCommand = {
  usage: 'run [scenario]',
  summary: 'run every lane (and grid cell) of a scenario file or preset once',
  configure(command) {
    addFormatOption(command, 'json');
    addOutOption(command);
    addSetOption(command);
    addAllowLongOption(command);
    command.addHelpText('after', '\nscenario: a scenario .json file or a preset id (npx interference-lab presets).\nWith a grid, adds gridMeans: the per-lane mean over the cells.');
  },
  needsLearning: ([source], options, io) => hasLearningLane(loadScenario(source, (options as unknown as RunOptions).set ?? [], io)),
  run([source], rawOptions, io) {
    const options = rawOptions as unknown as RunOptions;
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const scenario = loadScenario(source, options.set ?? [], io);
    checkRunCost(scenario, 1, options.allowLong);
    const runner = runnerFor(scenario, io);
    const results = runner.run(scenario.seed);
    const means = gridMeans(results, runner);
    emit(io, options, { scenario, results, ...(means.length > 0 ? { gridMeans: means } : {}) }, resultRows(results));
    return EXIT_OK;
  },
};
