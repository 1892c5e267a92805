import type { CliCommand } from '../command';
import { addFormatOption, addOutOption, type OutputFormat } from '../options';
import { checkOutputPath } from '../outputPath';
import { commandMerge } from '../sweepCommand';

interface MergeOptions {
  readonly format: OutputFormat;
  readonly out?: string;
}

/** `merge FILE...`: shard files of one sweep → exactly the output the unsharded sweep prints (docs/cluster.md). */
export const mergeCommand: CliCommand = {
  usage: 'merge [files...]',
  summary: "combine a sweep's shard files into the output of the unsharded sweep",
  configure(command) {
    addFormatOption(command, 'json');
    addOutOption(command);
    command.addHelpText('after', '\nRefuses (exit 2, naming the file) shards of different scenarios or seeds, overlapping cells and missing shards.');
  },
  run([files], rawOptions, io) {
    const options = rawOptions as unknown as MergeOptions;
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const names = (files as unknown as string[] | undefined) ?? [];
    return commandMerge(names, { format: options.format, out: options.out, seeds: null, workers: null, shard: null, shards: null }, io);
  },
};
