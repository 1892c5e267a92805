import { z } from 'zod';
import { DEFAULT_PERCENTILE_RELATIVE_ERROR, type PercentileMethod, type PercentileOptions } from '../engine/quantiles';
import { checkSweep } from './sweep';
import { worldOfDocument, type AnyScenario } from '../kit/worlds';

// The version, bounds and view options live in limits.ts, without zod, so that the page can read
// them without loading the validator (ARCHITECTURE §7a′).
export { HIDEABLE_CONTROLS, MOMENT_LIMITS, PIPELINE_LIMITS, SCENARIO_VERSION, SERVING_LIMITS, VIEW_MODES, type HideableControl } from './limits';

/** One problem with one field of a scenario. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

/** A JSON-ish path: `pipeline.lanes[0].params.alpha`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(scenario)' : out;
}

/** A short rendering of a bad value: `1000`, `"abc"`, `null`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Whether the object holding the last key of `path` exists and has that key (undefined: no parent). */
function parentHas(root: unknown, path: readonly PropertyKey[]): boolean | undefined {
  if (path.length === 0) return undefined;
  const parent = valueAt(root, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(parent, path.at(-1)!);
}

/** Runs a schema at a door: never throws, and turns zod's issues into field errors. */
/** Validates `input` against `schema`; field errors as `path: message, got value` (every world's door uses it). */
export function checkWith<T>(schema: z.ZodType<T>, input: unknown): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  let parsed;
  try {
    parsed = schema.safeParse(input);
  } catch (error) {
    // A hostile object (a throwing getter, a proxy) must not escape the door.
    return { ok: false, errors: [{ path: '(scenario)', message: `could not be read: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: FieldError[] = parsed.error.issues.slice(0, 50).map((issue) => {
    if (issue.code === 'custom' && (issue as { params?: { preformatted?: boolean } }).params?.preformatted) {
      const [path, ...rest] = issue.message.split(': ');
      return { path: path ?? '(scenario)', message: rest.join(': ') };
    }
    if (issue.code === 'unrecognized_keys') {
      return { path: formatPath(issue.path), message: `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` };
    }
    const got = valueAt(input, issue.path);
    const missing = got === undefined && parentHas(input, issue.path) === false;
    const message = missing ? (issue.code === 'invalid_type' ? 'is required' : `is required (${issue.message})`) : `${issue.message}, got ${describeValue(got)}`;
    return { path: formatPath(issue.path), message };
  });
  return { ok: false, errors };
}

/** What a world's validator gives: the scenario, or every field error. */
export type ValidatedScenario<S> = { ok: true; scenario: S } | { ok: false; errors: readonly FieldError[] };

/**
 * A world's validator from its schema, the one every world uses: the schema, then its sweep's
 * rules (each axis value through the same schema, `checkSweep`). Never throws. A world's module
 * calls this while it loads, when this module may not have run yet (a program that imports a
 * world's schema first: the list of worlds, which this module asks, imports the world); so
 * nothing runs here until the validator's first call: it only returns it.
 */
export function validatorOf<S extends { readonly world: string; readonly seed: number }>(schema: z.ZodType<S>): (input: unknown) => ValidatedScenario<S> {
  return (input) => {
    const checked = checkWith(schema, input);
    if (!checked.ok) return checked;
    // checkSweep finds the world in the list by the scenario's id: a world's scenario is one of
    // the list's once the world is registered (the queue world, registered by its tests, is added at run time).
    const sweepErrors = checkSweep(checked.value as unknown as AnyScenario, (document) => {
      const base = checkWith(schema, document);
      return base.ok ? [] : base.errors;
    });
    return sweepErrors.length > 0 ? { ok: false, errors: sweepErrors } : { ok: true, scenario: checked.value };
  };
}

/** A scenario of any world of the list (`src/kit/worlds.ts`, named by the composition root, `src/worlds/index.ts`). */
export type { AnyScenario } from '../kit/worlds';
export type AnyScenarioResult = { readonly ok: true; readonly scenario: AnyScenario } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Validates a scenario of any world, by its `world` (a document naming no world of the list goes to the first, whose schema names the field). Never throws. */
export function validateAnyScenario(input: unknown): AnyScenarioResult {
  return worldOfDocument(input).validate(input);
}

/** Lines `path: message` for people. */
export function formatErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

/** The percentile method a scenario runs with: its `metrics`, or streaming within 0.1 %. */
export function percentileOptionsOf(scenario: { readonly metrics?: { readonly percentiles: PercentileMethod; readonly relativeError?: number | undefined } | undefined }): PercentileOptions {
  return { method: scenario.metrics?.percentiles ?? 'streaming', relativeError: scenario.metrics?.relativeError ?? DEFAULT_PERCENTILE_RELATIVE_ERROR };
}
