import { getDatabase } from '../../engine/profiles/databases';
import { formatProfileTable } from '../../engine/profiles/format';
import { MODEL_IDS, type ModelId } from '../../engine/profiles/types';
import type { CliCommand } from '../command';
import { EXIT_OK, UsageError } from '../io';
import { addFormatOption, addOutOption, type OutputFormat } from '../options';
import { checkOutputPath, writeOutput } from '../outputPath';
import { emit } from '../worldRunner';

interface ProfileOptions {
  readonly format?: OutputFormat;
  readonly out?: string;
}

/** `profile <model>`: the layer-time database, layers × modes (ms); a table unless --format is given. */
export const profileCommand: CliCommand = {
  usage: 'profile [model]',
  summary: `print the layer-time database of ${MODEL_IDS.join(', ')} (layers × modes, ms)`,
  configure(command) {
    addFormatOption(command);
    addOutOption(command);
    command.addHelpText('after', '\nWithout --format: a table for people; --format json|csv for machine-readable output.');
  },
  run([model], rawOptions, io) {
    const options = rawOptions as unknown as ProfileOptions;
    if (model === undefined || !(MODEL_IDS as readonly string[]).includes(model)) {
      throw new UsageError(`profile: model must be one of ${MODEL_IDS.join(', ')}, got ${model === undefined ? 'nothing' : `"${model}"`}`);
    }
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const db = getDatabase(model as ModelId);
    if (options.format !== undefined) {
      const rows = db.layers.map((layer, l) => ({ layer, ...Object.fromEntries(Object.entries(db.modes).map(([mode, times]) => [mode, times[l]])) }));
      emit(io, { format: options.format, out: options.out }, db, rows);
    } else if (options.out !== undefined) {
      writeOutput(io, '--out', options.out, formatProfileTable(db));
    } else {
      io.stdout(formatProfileTable(db));
    }
    return EXIT_OK;
  },
};
