import { getDatabase } from '../../engine/profiles/databases';
import { formatProfileTable } from '../../engine/profiles/format';
import { MODEL_IDS, type LayerTimeDatabase, type ModelId } from '../../engine/profiles/types';
import { formatValidationErrors } from '../../engine/profiles/validate';
import { parseDatabaseFile } from '../../scenario/databaseFile';
import type { WorldCommand } from '../../../../cli/command';
import { EXIT_OK, UsageError, type CliIo } from '../../../../cli/io';
import { addFormatOption, addOutOption, type OutputFormat } from '../../../../cli/options';
import { checkOutputPath, writeOutput } from '../../../../cli/outputPath';
import { emit } from '../../../../cli/worldRunner';

interface ProfileOptions {
  readonly format?: OutputFormat;
  readonly out?: string;
  readonly database?: string;
}

/** The database of `profile --database FILE` (JSON or CSV), or a usage error naming the file and field. */
function readDatabaseFile(path: string, io: CliIo): LayerTimeDatabase {
  const text = io.readFile(path);
  if (text === null) throw new UsageError(`--database: ${path}: no such file`);
  const parsed = parseDatabaseFile(text, 'database');
  if (!parsed.ok) throw new UsageError(`--database: ${path}:\n${formatValidationErrors(parsed.errors)}`);
  return parsed.database;
}

/** `profile <model>`: the layer-time database, layers × modes (ms); a table unless --format is given. */
export const profileCommand: WorldCommand = {
  usage: 'profile [model]',
  listedAfter: 'presets',
  summary: `print the layer-time database of ${MODEL_IDS.join(', ')} (layers × modes, ms)`,
  configure(command) {
    addFormatOption(command);
    addOutOption(command);
    command.option('--database <file>', 'print a database file (JSON or CSV, e.g. from measure) instead of a model’s');
    command.addHelpText('after', '\nWithout --format: a table for people; --format json|csv for machine-readable output.');
  },
  run([model], rawOptions, io) {
    const options = rawOptions as unknown as ProfileOptions;
    if (options.database !== undefined && model !== undefined) throw new UsageError('profile: give a model or --database FILE, not both');
    if (options.database === undefined && (model === undefined || !(MODEL_IDS as readonly string[]).includes(model))) {
      throw new UsageError(`profile: model must be one of ${MODEL_IDS.join(', ')}, got ${model === undefined ? 'nothing' : `"${model}"`}`);
    }
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    const db = options.database !== undefined ? readDatabaseFile(options.database, io) : getDatabase(model as ModelId);
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
