import { z } from 'zod';

/**
 * The schema as the one source of every numeric bound (ARCHITECTURE §4). Each numeric field
 * of the scenario schema is built with `int`/`num`/`above` here, which both check the value and
 * record its range in a zod registry, so the range can be read back from the schema itself:
 * `numericFields` walks a scenario document beside its schema and lists every numeric field it
 * holds (or could hold: optional fields under objects it has) with its bounds, and
 * `schemaFieldAt` says what the schema expects at a path (the command line's `--set` uses it to
 * create absent optional objects and to name the nearest known field). A scheduler's parameters
 * are bounded by its registry entry; the lane schemas register where those ranges come from.
 * Cross-field rules (an event's EP below the number of EPs, a tenant's end after its start)
 * stay in the schemas' `superRefine`s and name every field they involve.
 */

/** The range of one numeric field, as the schema checks it. */
export interface NumberBounds {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** True when `min` itself is refused: the value must be above it. */
  readonly minExclusive?: boolean;
}

/** Every numeric schema built by `int`, `num` and `above`, with its bounds. */
const numberBounds = z.registry<NumberBounds>();

/** An integer from `min` to `max`, both included. */
export function int(min: number, max: number): z.ZodNumber {
  const schema = z.number({ error: 'must be a number' }).refine((v) => Number.isInteger(v) && v >= min && v <= max, {
    message: `must be an integer from ${min} to ${max}`,
  });
  numberBounds.add(schema, { min, max, integer: true });
  return schema;
}

/** A finite number from `min` to `max`, both included. */
export function num(min: number, max: number): z.ZodNumber {
  const schema = z.number({ error: 'must be a number' }).refine((v) => Number.isFinite(v) && v >= min && v <= max, {
    message: `must be a number from ${min} to ${max}`,
  });
  numberBounds.add(schema, { min, max, integer: false });
  return schema;
}

/** A finite number above `min` (excluded) and at most `max`: a duration or rate the engine divides by, or waits, and that 0 would stall. */
export function above(min: number, max: number): z.ZodNumber {
  const schema = z.number({ error: 'must be a number' }).refine((v) => Number.isFinite(v) && v > min && v <= max, {
    message: max >= Number.MAX_VALUE ? `must be a number above ${min}` : `must be a number above ${min} and at most ${max}`,
  });
  numberBounds.add(schema, { min, max, integer: false, minExclusive: true });
  return schema;
}

/** The bounds of a registry's numeric parameter (`kit/parameter.ts`), as a field's. */
export const boundsOf = (p: { readonly min: number; readonly max: number; readonly integer: boolean }): NumberBounds => ({ min: p.min, max: p.max, integer: p.integer });

/** Where a lane's parameters take their ranges: the registry entry named by a sibling field (`scheduler`). */
export interface ParameterSource {
  /** The record of parameters (`params`). */
  readonly field: string;
  /** The sibling that names the entry (`scheduler`). */
  readonly by: string;
  /** The entries, for listing every field the schema knows. */
  readonly entries: readonly string[];
  /** The parameters an entry knows, with their ranges (per-model forms included where the entry reads them). */
  parameters(entry: string): readonly { readonly name: string; readonly bounds: NumberBounds }[];
}

/** Lane schemas and where their parameters' ranges come from. */
const parameterSources = z.registry<ParameterSource>();

/** Records on `lane` (an object schema) that its `source.field` holds parameters bounded by `source`. */
export function withParameters<T extends z.ZodType>(lane: T, source: ParameterSource): T {
  parameterSources.add(lane, source);
  return lane;
}

/**
 * Numbers whose range is the range of another field, named by a path in a sibling: a sweep
 * axis's values (and its range's ends) take the range of the field the axis sweeps.
 */
export interface BoundsOfField {
  /** The field of the object `up` levels above that holds the path (`path`). */
  readonly pathField: string;
  readonly up: number;
}
const boundsOfField = z.registry<BoundsOfField>();

/** Records that the numbers of `schema` take the range of the field named by `source`. */
export function boundedByField<T extends z.ZodType>(schema: T, source: BoundsOfField): T {
  boundsOfField.add(schema, source);
  return schema;
}

/** Any finite number (no field of its own bounds it further). */
export const ANY_FINITE: NumberBounds = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, integer: false };

type Key = string | number;
type Def = z.core.$ZodTypeDef & Record<string, unknown>;

const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as Def;

/** The schema without its optional and nullable wrappers, and whether it may be left out. */
function unwrap(schema: z.core.$ZodType): { inner: z.core.$ZodType; optional: boolean; nullable: boolean } {
  let inner = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'optional' || def.type === 'default') optional = true;
    else if (def.type === 'nullable') nullable = true;
    else return { inner, optional, nullable };
    inner = def['innerType'] as z.core.$ZodType;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The option of a discriminated union a value takes (by its discriminator), or every option when it has none yet. */
function unionOptions(def: Def, value: unknown): readonly z.core.$ZodType[] {
  const options = def['options'] as readonly z.core.$ZodType[];
  const discriminator = def['discriminator'] as string | undefined;
  if (discriminator === undefined) {
    // A plain union (a sweep value: number, string or boolean): the options that take this kind of value.
    if (value === undefined) return options;
    return options.filter((o) => kindOf(unwrap(o).inner) === typeof value || (kindOf(unwrap(o).inner) === 'object' && isRecord(value)));
  }
  if (!isRecord(value)) return options;
  const chosen = options.filter((o) => literalOf(o, discriminator) === value[discriminator]);
  return chosen.length > 0 ? chosen : options;
}

/** The literal an object option gives its discriminator (`kind: 'mmpp'`). */
function literalOf(option: z.core.$ZodType, discriminator: string): unknown {
  const shape = defOf(unwrap(option).inner)['shape'] as Record<string, z.core.$ZodType> | undefined;
  const field = shape?.[discriminator];
  if (field === undefined) return undefined;
  const values = defOf(field)['values'] as unknown[] | undefined;
  return values?.[0];
}

/** The kind of value a schema takes, as `typeof` says it ('object' for objects, arrays and records). */
function kindOf(schema: z.core.$ZodType): string {
  switch (defOf(schema).type) {
    case 'number':
      return 'number';
    case 'string':
    case 'enum':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** One numeric field of a scenario document. */
export interface NumericField {
  /** Where it is: `['serving', 'models', 0, 'rate', 'onRps']`. */
  readonly path: readonly Key[];
  /**
   * The field as the schema knows it, whatever the indices: array indices are `[]` and the
   * option of a discriminated union or a lane's scheduler is in braces after its field,
   * e.g. `serving.models[].rate{mmpp}.onRps`, `pipeline.lanes[]{odin}.params.alpha`.
   */
  readonly key: string;
  readonly bounds: NumberBounds;
  /** The document holds it (false: an optional field it could hold, under an object it has). */
  readonly present: boolean;
}

/** Text of a schema key: `serving.models[].weight`. */
function joinKey(key: string, part: Key | '[]'): string {
  if (part === '[]') return `${key}[]`;
  return key === '' ? String(part) : `${key}.${String(part)}`;
}

interface Walk {
  readonly out: NumericField[];
  /** Fields bounded by another field, resolved once every direct field is known. */
  readonly indirect: { readonly field: Omit<NumericField, 'bounds'>; readonly target: unknown }[];
}

/**
 * Walks `value` (the document's value at `path`, undefined when absent) beside `schema`.
 * `ancestors` are the document's values above it, nearest last.
 */
function walk(schema: z.core.$ZodType, value: unknown, path: Key[], key: string, ancestors: unknown[], acc: Walk): void {
  const { inner } = unwrap(schema);
  const def = defOf(inner);
  const present = value !== undefined;
  const bounds = numberBounds.get(inner as z.ZodType);
  const indirect = boundsOfField.get(inner as z.ZodType);
  if (def.type === 'number' || bounds !== undefined) {
    if (present && typeof value !== 'number') return;
    if (indirect !== undefined) {
      const holder = ancestors[ancestors.length - indirect.up];
      acc.indirect.push({ field: { path, key, present }, target: isRecord(holder) ? holder[indirect.pathField] : undefined });
    } else {
      acc.out.push({ path, key, bounds: bounds ?? ANY_FINITE, present });
    }
    return;
  }
  if (def.type === 'union') {
    const options = unionOptions(def, value);
    const discriminator = def['discriminator'] as string | undefined;
    // An absent union (a rate schedule not given) has no option to walk: it cannot be set field by field.
    if (!present && discriminator !== undefined) return;
    for (const option of options) {
      const tag = discriminator === undefined ? '' : `{${String(literalOf(option, discriminator))}}`;
      walk(option, value, path, `${key}${tag}`, ancestors, acc);
    }
    return;
  }
  if (def.type === 'array') {
    if (!Array.isArray(value)) return;
    const element = def['element'] as z.core.$ZodType;
    value.forEach((v, i) => walk(element, v, [...path, i], joinKey(key, '[]'), [...ancestors, value], acc));
    return;
  }
  if (def.type === 'object') {
    if (present && !isRecord(value)) return;
    // An absent object is walked only when it may be empty: then setting one of its fields creates it.
    if (!present && !mayBeEmpty(inner)) return;
    const shape = def['shape'] as Record<string, z.core.$ZodType>;
    const source = parameterSources.get(inner as z.ZodType);
    const here = isRecord(value) ? value : {};
    let own = key;
    if (source !== undefined && typeof here[source.by] === 'string') own = `${key}{${String(here[source.by])}}`;
    for (const [name, field] of Object.entries(shape)) {
      const child = Object.prototype.hasOwnProperty.call(here, name) ? here[name] : undefined;
      if (source !== undefined && name === source.field) {
        walkParameters(source, here, child, [...path, name], joinKey(own, name), acc);
      } else {
        walk(field, child, [...path, name], joinKey(own, name), [...ancestors, here], acc);
      }
    }
  }
}

/** A lane's parameters: the ones it sets, and those its scheduler knows that it could set. */
function walkParameters(source: ParameterSource, lane: Record<string, unknown>, params: unknown, path: Key[], key: string, acc: Walk): void {
  const entry = lane[source.by];
  if (typeof entry !== 'string' || !source.entries.includes(entry)) return;
  if (params !== undefined && !isRecord(params)) return;
  const known = source.parameters(entry);
  const given = isRecord(params) ? params : {};
  for (const p of known) {
    const v = Object.prototype.hasOwnProperty.call(given, p.name) ? given[p.name] : undefined;
    if (v !== undefined && typeof v !== 'number') continue;
    acc.out.push({ path: [...path, p.name], key: joinKey(key, p.name), bounds: p.bounds, present: v !== undefined });
  }
}

/** Whether an object schema accepts `{}` (every field optional). */
function mayBeEmpty(schema: z.core.$ZodType): boolean {
  const shape = defOf(schema)['shape'] as Record<string, z.core.$ZodType> | undefined;
  return shape !== undefined && Object.values(shape).every((f) => unwrap(f).optional);
}

/** `pipeline.lanes[0].params.alpha` as keys. */
function pathText(path: readonly Key[]): string {
  let out = '';
  for (const k of path) out += typeof k === 'number' ? `[${k}]` : out === '' ? k : `.${k}`;
  return out;
}

/**
 * Every numeric field of `document` under `schema`, with the bounds the schema gives it: the
 * fields it holds, and the optional ones it could hold under the objects it has (a lane's
 * unset parameters, a model's `sloMs`). Never throws; parts that do not fit the schema are
 * skipped (validation names them).
 */
export function numericFields(schema: z.ZodType, document: unknown): NumericField[] {
  const acc: Walk = { out: [], indirect: [] };
  walk(schema, document, [], '', [], acc);
  const byPath = new Map(acc.out.map((f) => [pathText(f.path), f.bounds]));
  for (const { field, target } of acc.indirect) {
    acc.out.push({ ...field, bounds: (typeof target === 'string' ? byPath.get(target) : undefined) ?? ANY_FINITE });
  }
  return acc.out;
}

/**
 * Every numeric field the schema knows, as keys (`serving.models[].rate{mmpp}.onRps`): what a
 * test of the bounds must reach. Optional parts are included, arrays once, each option of a
 * discriminated union and each lane scheduler's parameters.
 */
export function schemaNumericKeys(schema: z.ZodType): string[] {
  const out: string[] = [];
  const visit = (node: z.core.$ZodType, key: string): void => {
    const { inner } = unwrap(node);
    const def = defOf(inner);
    if (def.type === 'number' || numberBounds.has(inner as z.ZodType)) {
      out.push(key);
      return;
    }
    if (def.type === 'union') {
      const discriminator = def['discriminator'] as string | undefined;
      for (const option of def['options'] as z.core.$ZodType[]) visit(option, discriminator === undefined ? key : `${key}{${String(literalOf(option, discriminator))}}`);
    } else if (def.type === 'array') {
      visit(def['element'] as z.core.$ZodType, joinKey(key, '[]'));
    } else if (def.type === 'object') {
      const source = parameterSources.get(inner as z.ZodType);
      for (const [name, field] of Object.entries(def['shape'] as Record<string, z.core.$ZodType>)) {
        if (source !== undefined && name === source.field) {
          for (const entry of source.entries) for (const p of source.parameters(entry)) out.push(joinKey(joinKey(`${key}{${entry}}`, name), p.name));
        } else {
          visit(field, joinKey(key, name));
        }
      }
    }
  };
  visit(schema, '');
  return [...new Set(out)];
}

/** What the schema expects at a path of a document. */
export interface SchemaPlace {
  /** What the value there is: an object (fields known), an array, a record of parameters, or a plain value. */
  readonly kind: 'object' | 'array' | 'parameters' | 'value';
  /** The fields an object (or a lane's parameters) may have, in the schema's order. */
  readonly fields: readonly string[];
  /** The field may be left out. */
  readonly optional: boolean;
}

/**
 * What the schema expects at `keys` of `document` (the document's own values choose the
 * option of a union and the scheduler of a lane's parameters), or undefined when the schema
 * has no such field. Never throws.
 */
export function schemaFieldAt(schema: z.ZodType, document: unknown, keys: readonly Key[]): SchemaPlace | undefined {
  let node: z.core.$ZodType = schema;
  let value: unknown = document;
  let optional = false;
  let parameters: readonly string[] | null = null;
  for (const k of keys) {
    if (parameters !== null) {
      // Inside a lane's parameters: a known parameter is a plain value.
      if (typeof k !== 'string' || !parameters.includes(k)) return undefined;
      return { kind: 'value', fields: [], optional: true };
    }
    const here = resolve(node, value);
    const def = defOf(here.inner);
    if (def.type === 'array') {
      if (typeof k !== 'number') return undefined;
      node = def['element'] as z.core.$ZodType;
      value = Array.isArray(value) ? value[k] : undefined;
      optional = false;
      continue;
    }
    if (def.type !== 'object' || typeof k !== 'string') return undefined;
    const shape = def['shape'] as Record<string, z.core.$ZodType>;
    const field = shape[k];
    if (field === undefined) return undefined;
    const source = parameterSources.get(here.inner as z.ZodType);
    if (source !== undefined && k === source.field) {
      const entry = isRecord(value) ? value[source.by] : undefined;
      parameters = typeof entry === 'string' && source.entries.includes(entry) ? source.parameters(entry).map((p) => p.name) : [];
    }
    node = field;
    optional = unwrap(field).optional;
    value = isRecord(value) && Object.prototype.hasOwnProperty.call(value, k) ? value[k] : undefined;
  }
  if (parameters !== null) return { kind: 'parameters', fields: parameters, optional };
  const here = resolve(node, value);
  const def = defOf(here.inner);
  if (def.type === 'array') return { kind: 'array', fields: [], optional };
  if (def.type === 'object') return { kind: 'object', fields: Object.keys(def['shape'] as Record<string, z.core.$ZodType>), optional };
  return { kind: 'value', fields: [], optional };
}

/** A schema unwrapped and, for a union, narrowed to the option the value takes (the first, if it takes none yet, with every option's fields). */
function resolve(node: z.core.$ZodType, value: unknown): { inner: z.core.$ZodType } {
  const { inner } = unwrap(node);
  const def = defOf(inner);
  if (def.type !== 'union') return { inner };
  const options = unionOptions(def, value).map((o) => unwrap(o).inner);
  if (options.length === 1) return { inner: options[0]! };
  // Several options (a schedule without its kind yet): an object of every option's fields.
  const shapes = options.map((o) => defOf(o)['shape'] as Record<string, z.core.$ZodType> | undefined);
  if (shapes.every((s) => s !== undefined)) return { inner: z.object(Object.assign({}, ...shapes) as Record<string, z.ZodType>) };
  return { inner: options[0] ?? inner };
}
