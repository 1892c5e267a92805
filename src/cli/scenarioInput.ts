import { findForbiddenKey, isForbiddenKey } from '../engine/forbiddenKeys';
import { parseAnyScenario } from '../scenario/parse';
import { findPreset } from '../scenario/presets';
import { formatErrors, formatPath, type AnyScenario } from '../scenario/schema';
import { UsageError, type CliIo } from './io';

/** A scenario file larger than this is refused before it is parsed. */
export const MAX_SCENARIO_BYTES = 10 * 1024 * 1024;

/** A canonical array index: `0`, `12`; not `01`, `-1`, `1.5` or `length`. */
const INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * Applies `path=value` to a plain JSON document (value parsed as JSON when it can be).
 * Only fields can be set: every key on the way must be an own field of an object, or an
 * index of an array up to its length (one past the end appends). `length`, `-1`, `1.5`,
 * `__proto__` and friends are refused with a message naming the path (issue 17 part 1:
 * `pipeline.lanes.length=-1` used to throw `RangeError: Invalid array length`).
 */
export function applySet(document: unknown, assignment: string): void {
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
  const keys = path.split(/\.|\[([^\]]*)\]/).filter((k) => k !== undefined && k !== '');
  if (keys.length === 0) throw new UsageError(`--set: "${path}" is not a scenario field`);
  if (keys.some(isForbiddenKey)) throw new UsageError(`--set: ${path}: is not a scenario field`);
  let target: unknown = document;
  keys.forEach((key, depth) => {
    const last = depth === keys.length - 1;
    const where = keys.slice(0, depth).join('.') || '(scenario)';
    if (Array.isArray(target)) {
      if (!INDEX.test(key) || Number(key) > target.length || (!last && Number(key) === target.length)) {
        throw new UsageError(`--set: ${path}: "${key}" is not an index of ${where} (an array of ${target.length})`);
      }
    } else if (target === null || typeof target !== 'object') {
      throw new UsageError(`--set: ${path}: ${where} is not an object in this scenario`);
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
  for (const s of sets) applySet(document, s);
  const parsed = parseAnyScenario(document);
  if (!parsed.ok) throw new UsageError(formatErrors(parsed.errors));
  return parsed.scenario;
}
