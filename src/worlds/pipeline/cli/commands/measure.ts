import { Option } from 'commander';
import { MODEL_IDS } from '../../engine/profiles/types';
import type { WorldCommand } from '../../../../cli/command';
import { defaultHogBufferMiB, nodeCores, nodeRuntime, spawnNodeHog } from '../hogThreads';
import { EXIT_OK } from '../../../../cli/io';
import { cancelledExit, measureModel, measureToJson, parseModes } from '../measureModel';
import { addHogOptions, addOutOption, choiceOption, integerOption } from '../../../../cli/options';
import { checkOutputPath, writeOutput } from '../../../../cli/outputPath';

interface MeasureOptions {
  readonly modes?: string;
  readonly repeats: number;
  readonly size: '224' | '112';
  readonly out?: string;
  readonly hogBufferMib?: number;
  readonly cores?: number;
}

/** `measure <model>`: a layer-time database measured on this machine (ARCHITECTURE §5; the work is in ../measureModel.ts). */
export const measureCommand: WorldCommand = {
  usage: 'measure [model]',
  listedAfter: 'presets',
  summary: `measure the layer-time database of ${MODEL_IDS.join(', ')} on this machine (tfjs layers beside CPU and memBW hogs)`,
  configure(command) {
    command.option('--modes <list>', 'modes to measure, e.g. A,E,I (A is always measured; default: A–L)');
    command.addOption(new Option('--repeats <n>', 'timed runs per unit and mode; the median is kept').argParser(integerOption('--repeats', 1, 1000)).default(5));
    command.addOption(new Option('--size <px>', "input side: 224 (the paper's) or 112 (about 4× quicker)").argParser(choiceOption('--size', ['224', '112'] as const)).default('224'));
    addOutOption(command, 'write the database (JSON) to FILE instead of standard output');
    addHogOptions(command, "cores the mode → hogs mapping assumes (default: this machine's)");
    command.addHelpText(
      'after',
      "\nEach unit runs as real TensorFlow.js layers (wasm backend, one thread, seeded random weights) alone and\n" +
        "beside the hogs of each mode of the ODIN paper's Table 1. A mode with n hog threads on the paper's\n" +
        '8-core execution place starts max(1, round(n × cores / 8)) hogs here (worker threads, not pinned).\n' +
        'Ctrl+C stops between units (hogs included) and writes nothing.',
    );
  },
  // tfjs is loaded by main.ts for commands that need it; bad arguments are reported before.
  needsLearning: ([model], options) => {
    measureModel(model);
    if ((options as unknown as MeasureOptions).modes !== undefined) parseModes((options as unknown as MeasureOptions).modes!);
    return true;
  },
  async run([model], rawOptions, io) {
    const options = rawOptions as unknown as MeasureOptions;
    const id = measureModel(model);
    const modes = parseModes(options.modes ?? 'A,B,C,D,E,F,G,H,I,J,K,L');
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    if (io.learning === undefined) throw new Error('measure needs TensorFlow.js but it was not loaded (needsLearning)');
    let cancelled = false;
    const onInterrupt = () => (cancelled = true);
    process.once('SIGINT', onInterrupt);
    try {
      const json = await measureToJson(
        { model: id, modes, repeats: options.repeats, inputSize: options.size === '112' ? 112 : 224, hogBufferMiB: options.hogBufferMib ?? null, cores: options.cores ?? null },
        {
          tf: io.learning.tf,
          spawnHog: spawnNodeHog,
          cores: nodeCores(),
          runtime: nodeRuntime(),
          defaultHogBufferMiB: defaultHogBufferMiB(),
          stderr: io.stderr,
          progressBar: io.stderrIsTty,
          isCancelled: () => cancelled,
        },
      );
      if (json === null) return cancelledExit(io.stderr);
      if (options.out !== undefined) writeOutput(io, '--out', options.out, json);
      else io.stdout(json);
      return EXIT_OK;
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  },
};
