import type { CliCommand } from '../command';
import { addAllowLongOption, addFormatOption, addOutOption, addSetOption, checkRunCost, integerOption, type OutputFormat } from '../options';
import { checkOutputPath } from '../outputPath';
import { loadScenario } from '../scenarioInput';
import { commandSweep, DEFAULT_SWEEP_SEEDS, parseShards, parseWorkers } from '../sweepCommand';
import { hasLearningLane } from '../worldRunner';

export const MAX_SEEDS = 1000;

interface SweepCommandOptions {
  readonly format: OutputFormat;
  readonly out?: string;
  readonly set?: string[];
  readonly allowLong?: boolean;
  readonly seeds?: number;
  readonly workers?: number | 'auto';
  readonly shard?: string;
  readonly shards?: number;
}

/**
 * `sweep <scenario.json | preset-id>`: every cell of the scenario's sweep (axis values ×
 * seeds), or a shard's share, on this thread or on worker threads (ARCHITECTURE §5, docs/cluster.md).
 */
export const sweepCommand: CliCommand = {
  usage: 'sweep [scenario]',
  summary: "run every cell of a scenario's sweep (axis values × seeds) and report means with 95 % intervals",
  configure(command) {
    command.option('--seeds <n>', `seeds per axis combination, from the scenario's seed on (1 to ${MAX_SEEDS}; default: the sweep's seeds, else 10)`, integerOption('--seeds', 1, MAX_SEEDS));
    command.option('--workers <n|auto>', 'worker threads for the cells (default 1: this thread; auto: every core)', parseWorkers);
    command.option('--shard <i/n>', 'run only shard I (counted from 0) of N and write a shard file for merge');
    command.option('--shards <n>', 'N shards, the index from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID', parseShards);
    addFormatOption(command, 'json');
    addOutOption(command);
    addSetOption(command);
    addAllowLongOption(command);
    command.addHelpText(
      'after',
      '\nA Slurm array (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT) gives the shard without a flag.\nThe output does not depend on --workers or on the split into shards (merge FILE... gives the same bytes). See docs/cluster.md.',
    );
  },
  needsLearning: ([source], options, io) => hasLearningLane(loadScenario(source, (options as unknown as SweepCommandOptions).set ?? [], io)),
  run([source], rawOptions, io) {
    const options = rawOptions as unknown as SweepCommandOptions;
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const scenario = loadScenario(source, options.set ?? [], io);
    checkRunCost(scenario, options.seeds ?? scenario.sweep?.seeds ?? DEFAULT_SWEEP_SEEDS, options.allowLong);
    return commandSweep(
      scenario,
      { format: options.format, out: options.out, seeds: options.seeds ?? null, workers: options.workers ?? null, shard: options.shard ?? null, shards: options.shards ?? null },
      io,
    );
  },
};
