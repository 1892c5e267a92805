/**
 * A layer-time database as a file of its own (ARCHITECTURE §2): JSON in the scenario's
 * embedded-database format (with a measured database's record), or CSV with one row per
 * unit: `layer,A,B,…` and its times in ms. CSV carries the times only; the measurement
 * record (runtime, repeats, spreads, hog rates) travels in JSON. Every door goes through
 * validateDatabase, so a malformed file gets messages naming the field.
 */
import { csvFormatRows, csvParseRows } from 'd3';
import { getModelLayers } from '../engine/profiles/layers';
import { MODE_IDS, MODEL_IDS, type LayerTimeDatabase, type ModeId } from '../engine/profiles/types';
import { validateDatabase, type DatabaseValidation, type DatabaseValidationError } from '../engine/profiles/validate';
import type { PipelineScenario } from '../schema';

/** Largest database file read, bytes (a 1024-unit, 12-mode database with spreads is far smaller). */
export const MAX_DATABASE_FILE_BYTES = 2 * 1024 * 1024;

/** The database as JSON (what `measure --out` writes and the page downloads). */
export function databaseToJson(db: LayerTimeDatabase): string {
  return `${JSON.stringify(db, null, 2)}\n`;
}

/** The database as CSV: `layer` then its modes in A–L order; times with full precision. */
export function databaseToCsv(db: LayerTimeDatabase): string {
  const modes = MODE_IDS.filter((m) => db.modes[m] !== undefined);
  const rows = db.layers.map((layer, l) => [layer, ...modes.map((m) => String(db.modes[m]![l]))]);
  return `${csvFormatRows([['layer', ...modes], ...rows])}\n`;
}

/** The built-in model whose unit names `layers` are, if any (a CSV file names no model). */
function modelOf(layers: readonly string[]): string | undefined {
  return MODEL_IDS.find((id) => {
    const names = getModelLayers(id).map((u) => u.name);
    return names.length === layers.length && names.every((n, i) => n === layers[i]);
  });
}

function fail(path: string, message: string): DatabaseValidation {
  return { ok: false, errors: [{ path, message }] };
}

function parseCsv(text: string, path: string): DatabaseValidation {
  const rows = csvParseRows(text.replace(/^\uFEFF/, '')).filter((r) => r.some((cell) => cell.trim() !== ''));
  const header = rows[0];
  if (header === undefined) return fail(path, 'is empty: expected a header "layer,A,B,…" and one row per layer');
  if (header[0]?.trim().toLowerCase() !== 'layer') return fail(`${path} (header)`, `the first column must be "layer", got ${JSON.stringify(header[0] ?? '')}`);
  const errors: DatabaseValidationError[] = [];
  const modes: ModeId[] = [];
  header.slice(1).forEach((cell, c) => {
    const mode = cell.trim() as ModeId;
    if (!(MODE_IDS as readonly string[]).includes(mode)) errors.push({ path: `${path} (header, column ${c + 2})`, message: `must be a mode A–L, got ${JSON.stringify(cell)}` });
    else if (modes.includes(mode)) errors.push({ path: `${path} (header, column ${c + 2})`, message: `mode ${mode} appears twice` });
    modes.push(mode);
  });
  if (errors.length > 0) return { ok: false, errors };
  const layers: string[] = [];
  const times: Record<string, number[]> = Object.fromEntries(modes.map((m) => [m, []]));
  rows.slice(1).forEach((row, r) => {
    if (row.length !== header.length) errors.push({ path: `${path} (row ${r + 2})`, message: `must have ${header.length} cells, got ${row.length}` });
    layers.push(row[0] ?? '');
    modes.forEach((mode, c) => {
      const cell = (row[c + 1] ?? '').trim();
      // Number('') is 0: an empty cell must not pass as a time.
      times[mode]!.push(cell === '' ? Number.NaN : Number(cell));
    });
  });
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, 50) };
  const model = modelOf(layers);
  return validateDatabase({ ...(model === undefined ? {} : { model }), layers, modes: times }, path);
}

/**
 * Reads a database file: JSON when it starts with `{`, CSV otherwise. Errors name the
 * field (`database.modes.B[3]`) or the CSV row and column. Never throws.
 */
export function parseDatabaseFile(text: string, path = 'database'): DatabaseValidation {
  if (text.length > MAX_DATABASE_FILE_BYTES) return fail(path, `is ${text.length} characters; a database file may have at most ${MAX_DATABASE_FILE_BYTES}`);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    let document: unknown;
    try {
      document = JSON.parse(trimmed);
    } catch (error) {
      return fail(path, `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    return validateDatabase(document, path);
  }
  return parseCsv(text, path);
}

/** The result of {@link scenarioWithDatabase}. */
export type WithDatabase =
  | { readonly ok: true; readonly scenario: PipelineScenario }
  | { readonly ok: false; readonly missingModes: readonly ModeId[] };

/**
 * `scenario` running on `db`: the database embedded as `pipeline.database` and, when it is
 * a built-in model's (same model id), `pipeline.model` set to it. Refused, with the modes
 * it lacks, when the scenario's workloads (events or random modes) use a mode `db` does
 * not have: those cannot be invented.
 */
export function scenarioWithDatabase(scenario: PipelineScenario, db: LayerTimeDatabase): WithDatabase {
  const present = new Set(Object.keys(db.modes));
  const used: ModeId[] = [...scenario.pipeline.interference.events.map((e) => e.mode), ...(scenario.pipeline.interference.random.modes ?? [])];
  const missingModes = MODE_IDS.filter((m) => used.includes(m) && !present.has(m));
  if (missingModes.length > 0) return { ok: false, missingModes };
  const model = (MODEL_IDS as readonly string[]).includes(db.model) ? (db.model as PipelineScenario['pipeline']['model']) : scenario.pipeline.model;
  return { ok: true, scenario: { ...scenario, pipeline: { ...scenario.pipeline, model, database: db } } };
}
