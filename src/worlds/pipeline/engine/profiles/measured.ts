/**
 * Measured layer-time databases shipped with the lab (the claims' `database` reading,
 * ARCHITECTURE §4a): each file in `measured/` was written by `npm run sim -- measure <model> --out …`
 * (ARCHITECTURE §2) on one machine and carries its measurement record (runtime, cores, input size,
 * repeats, date, hogs and their rates, each unit's spread). A scenario reads one with
 * `pipeline.assumptions.database: 'measured'`; the roofline databases (databases.ts) stay
 * the default. Regenerate a file with the same command and the record says where it came from.
 */
import resnet50 from './measured/resnet50.json' with { type: 'json' };
import vgg16 from './measured/vgg16.json' with { type: 'json' };
import type { LayerTimeDatabase, ModelId } from './types';
import { formatValidationErrors, validateDatabase } from './validate';

const FILES: Readonly<Partial<Record<ModelId, unknown>>> = { vgg16, resnet50 };

/** The models with a shipped measured database. */
export const MEASURED_MODELS: readonly ModelId[] = Object.keys(FILES) as ModelId[];

const cache = new Map<ModelId, LayerTimeDatabase>();

/** The shipped measured database of `model`, or undefined when none is shipped. Checked by the database door once. */
export function getMeasuredDatabase(model: ModelId): LayerTimeDatabase | undefined {
  const cached = cache.get(model);
  if (cached !== undefined) return cached;
  const file = FILES[model];
  if (file === undefined) return undefined;
  const checked = validateDatabase(file, `measured/${model}.json`);
  if (!checked.ok) throw new TypeError(`measured database of ${model}: ${formatValidationErrors(checked.errors)}`);
  if (checked.database.model !== model) throw new TypeError(`measured/${model}.json is a database of ${checked.database.model}`);
  const database = Object.freeze(checked.database);
  cache.set(model, database);
  return database;
}
