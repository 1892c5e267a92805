import { averageDeep } from '../../scenario/average';
import { LIMITS } from '../../scenario/schema';
import type { CliCommand } from '../command';
import { EXIT_OK, UsageError } from '../io';
import { addAllowLongOption, addFormatOption, addOutOption, addSetOption, checkRunCost, integerOption, type OutputFormat } from '../options';
import { checkOutputPath } from '../outputPath';
import { loadScenario } from '../scenarioInput';
import { emit, gridMeans, hasLearningLane, progress, resultRows, runnerFor } from '../worldRunner';

export const MAX_SEEDS = 1000;

interface SweepOptions {
  readonly format: OutputFormat;
  readonly out?: string;
  readonly set?: string[];
  readonly allowLong?: boolean;
  readonly seeds: number;
}

/** `sweep <scenario.json | preset-id> --seeds N`: the run over N consecutive seeds, averaged (ARCHITECTURE §5). */
export const sweepCommand: CliCommand = {
  usage: 'sweep [scenario]',
  summary: 'run a scenario over several seeds and report the means',
  configure(command) {
    command.option('--seeds <n>', `number of seeds, from the scenario's seed on (1 to ${MAX_SEEDS})`, integerOption('--seeds', 1, MAX_SEEDS), 10);
    addFormatOption(command, 'json');
    addOutOption(command);
    addSetOption(command);
    addAllowLongOption(command);
  },
  needsLearning: ([source], options, io) => hasLearningLane(loadScenario(source, (options as unknown as SweepOptions).set ?? [], io)),
  run([source], rawOptions, io) {
    const options = rawOptions as unknown as SweepOptions;
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const scenario = loadScenario(source, options.set ?? [], io);
    const seeds = Array.from({ length: options.seeds }, (_, i) => scenario.seed + i);
    if (seeds.at(-1)! > LIMITS.seed.max) throw new UsageError(`--seeds: seeds would pass ${LIMITS.seed.max}`);
    checkRunCost(scenario, seeds.length, options.allowLong);
    const runner = runnerFor(scenario, io);
    const total = seeds.length * runner.cells;
    let done = 0;
    const perSeed = seeds.map((seed) => runner.run(seed, () => progress(io, ++done, total)));
    // Same order of (cell, lane) in every seed: average position by position.
    const results = perSeed[0]!.map((first, j) => ({
      scheduler: first.scheduler,
      label: first.label,
      params: first.params,
      ...(first.cell ? { cell: first.cell } : {}),
      seeds: seeds.length,
      summary: averageDeep(perSeed.map((rs) => rs[j]!.summary)),
    }));
    const means = gridMeans(results, runner);
    emit(io, options, { scenario, seeds, results, ...(means.length > 0 ? { gridMeans: means } : {}) }, resultRows(results));
    return EXIT_OK;
  },
};
