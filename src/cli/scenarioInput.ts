import { findForbiddenKey, isForbiddenKey } from '../engine/forbiddenKeys';
import type { z } from 'zod';
import { schemaFieldAt } from '../scenario/fieldBounds';
import { migrateDocument, parseAnyScenario } from '../scenario/parse';
import { findPreset } from '../scenario/presets';
import { formatErrors, formatPath, type AnyScenario } from '../scenario/schema';
import { worldOfDocument } from '../kit/worlds';
import { UsageError, type CliIo } from './io';

/** A scenario file larger than this is refused before it is parsed. */
export const MAX_SCENARIO_BYTES = 10 * 1024 * 1024;

/** A canonical array index: `0`, `12`; not `01`, `-1`, `1.5` or `length`. */
const INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * Applies `path=value` to a plain JSON document (value parsed as JSON when it can be).
 * Only fields can be set: every key on the way must be an own field of an object, or an
 * index of an array up to its length (one past the end appends). `length`, `-1`, `1.5`,
 * `__proto__` and friends are refused with a message naming the path
 * (`pipeline.lanes.length=-1` used to throw `RangeError: Invalid array length`).
 *
 * With the document's `schema`, the path is read as the schema knows it (fieldBounds.ts): an
 * optional object (or array, or a lane's parameters) the document leaves out is created on
 * the way (`metrics.percentiles=exact`), a lane's per-model parameter keeps its dot
 * (`params.batchSize.yolo`), and a field the schema does not know is refused naming the
 * nearest one it does. Validation then names whatever the new object still lacks.
 */
export function applySet(document: unknown, assignment: string, schema?: z.ZodType): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set: expected PATH=VALUE, got "${assignment}"`);
  const path = assignment.slice(0, eq);
  const raw = assignment.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  const forbiddenInValue = findForbiddenKey(value);
  if (forbiddenInValue !== undefined) {
    throw new UsageError(`--set: ${path}: the value has a forbidden field ${JSON.stringify(forbiddenInValue.key)}${forbiddenInValue.path.length > 0 ? ` at ${formatPath(forbiddenInValue.path)}` : ''}`);
  }
  const split = path.split(/\.|\[([^\]]*)\]/).filter((k) => k !== undefined && k !== '');
  if (split.length === 0) throw new UsageError(`--set: "${path}" is not a scenario field`);
  if (split.some(isForbiddenKey)) throw new UsageError(`--set: ${path}: is not a scenario field`);
  const keys = schema === undefined ? split : joinParameterNames(document, split, schema);
  let target: unknown = document;
  keys.forEach((key, depth) => {
    const last = depth === keys.length - 1;
    const where = formatPath(schemaKeys(keys.slice(0, depth)));
    if (Array.isArray(target)) {
      if (!INDEX.test(key) || Number(key) > target.length || (!last && Number(key) === target.length)) {
        throw new UsageError(`--set: ${path}: "${key}" is not an index of ${where} (an array of ${target.length})`);
      }
    } else if (target === null || typeof target !== 'object') {
      throw new UsageError(`--set: ${path}: ${where} is not an object in this scenario`);
    } else if (schema !== undefined) {
      const holder = target as Record<string, unknown>;
      const place = schemaFieldAt(schema, document, schemaKeys(keys.slice(0, depth + 1)));
      if (place === undefined) {
        const known = schemaFieldAt(schema, document, schemaKeys(keys.slice(0, depth)))?.fields ?? [];
        throw new UsageError(`--set: ${path}: ${where} has no field "${key}"${nearestField(key, known)}`);
      }
      if (!last && !Object.prototype.hasOwnProperty.call(holder, key)) {
        if (place.kind === 'value') throw new UsageError(`--set: ${path}: ${key} is not an object in this scenario`);
        // An optional part the document leaves out: created, then validation names what it still needs.
        holder[key] = place.kind === 'array' ? [] : {};
      }
    } else if (!last && !Object.prototype.hasOwnProperty.call(target, key)) {
      throw new UsageError(`--set: ${path}: ${where} has no field "${key}"`);
    }
    const holder = target as Record<string, unknown>;
    if (last) {
      holder[key] = value;
    } else {
      const next = holder[key];
      if (next === null || typeof next !== 'object') throw new UsageError(`--set: ${path}: ${key} is not an object in this scenario`);
      target = next;
    }
  });
}

/** Keys as the schema walks them: array indices as numbers. */
const schemaKeys = (keys: readonly string[]): (string | number)[] => keys.map((k) => (INDEX.test(k) ? Number(k) : k));

/** The keys with a lane's per-model parameter in one piece: `…params.batchSize.yolo` is the parameter `batchSize.yolo`. */
function joinParameterNames(document: unknown, keys: readonly string[], schema: z.ZodType): string[] {
  for (let depth = 1; depth < keys.length - 1; depth++) {
    if (schemaFieldAt(schema, document, schemaKeys(keys.slice(0, depth)))?.kind === 'parameters') return [...keys.slice(0, depth), keys.slice(depth).join('.')];
  }
  return [...keys];
}

/** `; the nearest known field is "assumptions"` (by edit distance), and the known ones when they are few. */
function nearestField(key: string, known: readonly string[]): string {
  if (known.length === 0) return ' (it has no fields to set)';
  const distance = (a: string, b: string): number => {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    let row = Array.from({ length: y.length + 1 }, (_, j) => j);
    for (let i = 1; i <= x.length; i++) {
      const next = [i];
      for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      row = next;
    }
    return row[y.length]!;
  };
  const nearest = [...known].sort((a, b) => distance(key, a) - distance(key, b))[0]!;
  return `; the nearest known field is "${nearest}"${known.length <= 16 ? ` (fields: ${known.join(', ')})` : ''}`;
}

/** The schema a document is set and validated against: its world's. */
function schemaOfDocument(document: unknown): z.ZodType | undefined {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return undefined;
  return worldOfDocument(document).schema() as z.ZodType;
}

/** Reads a preset id or a scenario file, applies the `--set`s and validates: a scenario, or a UsageError naming the field. */
export function loadScenario(source: string | undefined, sets: readonly string[], io: CliIo): AnyScenario {
  if (source === undefined) throw new UsageError('needs a scenario file or a preset id (see: npx interference-lab presets)');
  let document: unknown;
  const preset = findPreset(source);
  if (preset !== undefined) {
    document = structuredClone(preset.scenario);
  } else {
    let text: string | null;
    try {
      text = io.readFile(source);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      throw new UsageError(`${source}: could not be read${typeof code === 'string' ? ` (${code})` : ''}`);
    }
    if (text === null) throw new UsageError(`${source}: no such preset or file (see: npx interference-lab presets)`);
    if (text.length > MAX_SCENARIO_BYTES) throw new UsageError(`${source}: file is larger than ${MAX_SCENARIO_BYTES} bytes`);
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${source}: is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // Sets apply to the current version of the document, so that its paths are the schema's
  // (an old file's `name` is `title` by then); a document that cannot be migrated is left as it
  // is, and validation names why.
  if (sets.length > 0 && document !== null && typeof document === 'object' && !Array.isArray(document) && findForbiddenKey(document) === undefined) {
    try {
      const migrated = migrateDocument(document as Record<string, unknown>);
      if (migrated.ok) document = migrated.document;
    } catch {
      // Left as it is: the door's own migration reports it.
    }
  }
  const schema = schemaOfDocument(document);
  for (const s of sets) applySet(document, s, schema);
  const parsed = parseAnyScenario(document);
  if (!parsed.ok) throw new UsageError(formatErrors(parsed.errors));
  return parsed.scenario;
}
