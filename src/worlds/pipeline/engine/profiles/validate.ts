/**
 * The door for user-supplied layer-time databases (ARCHITECTURE §2: "A database can also be
 * imported"; §7: bad input gets a clear message). Input is whatever JSON.parse (or a
 * hostile caller) produced; the output is either a frozen, copied database or a list of
 * field-level errors. It never throws (ARCHITECTURE §8, errors at the doors).
 */
import { MODE_IDS } from './types';
import type { HogRates, LayerTimeDatabase, MeasurementRecord, ModeId } from './types';
import { isForbiddenKey } from '../../../../engine/forbiddenKeys';

/** One problem with one field, e.g. path `database.modes.B[3]`. */
export interface DatabaseValidationError {
  readonly path: string;
  readonly message: string;
}

/** The result of {@link validateDatabase}. */
export type DatabaseValidation =
  | { readonly ok: true; readonly database: LayerTimeDatabase }
  | { readonly ok: false; readonly errors: readonly DatabaseValidationError[] };

/**
 * The physical range of one layer's time, in ms: 1 µs to 10⁷ ms (about 2.8 hours). Outside it
 * a time is not a measurement of a CNN layer, and the metrics would leave the doubles
 * (1e308 ms overflows the sums; 5e-324 ms makes throughput infinite). The built-in databases
 * lie between 0.08 and 15 ms; a layer timed in the browser is far above 1 µs.
 */
export const LAYER_TIME_RANGE_MS = { min: 0.001, max: 1e7 } as const;

/** Most units a database may have; the built-in models have at most 52. */
export const MAX_DATABASE_LAYERS = 1024;
/** Longest layer or model name accepted, so a name cannot bloat the UI or a link. */
export const MAX_NAME_LENGTH = 200;
/** Errors reported before the rest are summarized, so a huge bad file gives a short list. */
export const MAX_REPORTED_ERRORS = 50;
/** The model name of an imported database that does not give one. */
export const DEFAULT_IMPORTED_MODEL = 'custom';

const TOP_LEVEL_KEYS: readonly string[] = ['model', 'layers', 'modes', 'measurement'];
const MEASUREMENT_KEYS: readonly string[] = ['backend', 'threads', 'runtime', 'cores', 'inputSize', 'repeats', 'date', 'hogBufferMiB', 'hogs', 'hogRates', 'spreadMs'];
const HOG_RATE_KEYS: readonly string[] = ['cpuOpsPerS', 'memBytesPerS'];
/** Longest free text in a measurement record (a user agent is about 150 characters). */
const MAX_TEXT_LENGTH = 400;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Path of `key` under `base`: dotted when it is an identifier, bracketed otherwise. */
function keyPath(base: string, key: string): string {
  if (IDENTIFIER.test(key)) return `${base}.${key}`;
  const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return `${base}[${JSON.stringify(shown)}]`;
}

/** A short description of a bad value for a message: `-1`, `"abc"`, `null`, `an array`. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return JSON.stringify(shown);
    }
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class ErrorList {
  readonly errors: DatabaseValidationError[] = [];
  private dropped = 0;

  add(path: string, message: string): void {
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ path, message });
    else this.dropped += 1;
  }

  result(root: string): DatabaseValidationError[] {
    if (this.dropped === 0) return this.errors;
    return [...this.errors, { path: root, message: `${this.dropped} more errors not shown` }];
  }
}

/** Own keys of a record, rejecting forbidden ones and (if given) keys outside `allowed`. */
function checkKeys(
  record: Record<string, unknown>,
  path: string,
  allowed: readonly string[],
  unknownMessage: string,
  errors: ErrorList,
): void {
  for (const key of Object.keys(record)) {
    if (isForbiddenKey(key)) {
      errors.add(keyPath(path, key), 'forbidden key');
    } else if (!allowed.includes(key)) {
      errors.add(keyPath(path, key), unknownMessage);
    }
  }
}

function checkName(value: unknown, path: string, errors: ErrorList): value is string {
  if (typeof value !== 'string' || value.length === 0) {
    errors.add(path, `must be a non-empty string, got ${describeValue(value)}`);
    return false;
  }
  if (value.length > MAX_NAME_LENGTH) {
    errors.add(path, `must be at most ${MAX_NAME_LENGTH} characters, got ${value.length}`);
    return false;
  }
  return true;
}

function checkLayers(value: unknown, path: string, errors: ErrorList): string[] | undefined {
  if (value === undefined) {
    errors.add(path, 'is required: an array of layer names');
    return undefined;
  }
  if (!Array.isArray(value)) {
    errors.add(path, `must be an array of layer names, got ${describeValue(value)}`);
    return undefined;
  }
  const length = value.length;
  if (length === 0) {
    errors.add(path, 'must name at least one layer');
    return undefined;
  }
  if (length > MAX_DATABASE_LAYERS) {
    errors.add(path, `must have at most ${MAX_DATABASE_LAYERS} layers, got ${length}`);
    return undefined;
  }
  const names: string[] = [];
  let ok = true;
  for (let i = 0; i < length; i += 1) {
    const name: unknown = value[i];
    if (checkName(name, `${path}[${i}]`, errors)) names.push(name);
    else ok = false;
  }
  return ok ? names : undefined;
}

function checkTimes(
  value: unknown,
  path: string,
  layerCount: number | undefined,
  errors: ErrorList,
): number[] | undefined {
  if (!Array.isArray(value)) {
    errors.add(path, `must be an array of times in ms, got ${describeValue(value)}`);
    return undefined;
  }
  const length = value.length;
  let ok = true;
  if (layerCount !== undefined && length !== layerCount) {
    errors.add(path, `must have ${layerCount} values (one per layer), got ${length}`);
    ok = false;
  } else if (length > MAX_DATABASE_LAYERS) {
    errors.add(path, `must have at most ${MAX_DATABASE_LAYERS} values, got ${length}`);
    return undefined;
  }
  const times: number[] = [];
  // A wrong length is already an error; still check the values, but never walk past the
  // largest legal database, whatever length a hostile array claims.
  const checked = Math.min(length, MAX_DATABASE_LAYERS);
  for (let i = 0; i < checked; i += 1) {
    const time: unknown = value[i];
    if (typeof time === 'number' && Number.isFinite(time) && time > 0) {
      if (time >= LAYER_TIME_RANGE_MS.min && time <= LAYER_TIME_RANGE_MS.max) {
        times.push(time);
      } else {
        errors.add(`${path}[${i}]`, `must be a layer time from ${LAYER_TIME_RANGE_MS.min} ms (1 µs) to ${LAYER_TIME_RANGE_MS.max} ms, got ${describeValue(time)}`);
        ok = false;
      }
    } else {
      errors.add(`${path}[${i}]`, `must be a positive finite number, got ${describeValue(time)}`);
      ok = false;
    }
  }
  return ok ? times : undefined;
}

function checkModes(
  value: unknown,
  path: string,
  layerCount: number | undefined,
  errors: ErrorList,
): Partial<Record<ModeId, readonly number[]>> | undefined {
  if (value === undefined) {
    errors.add(path, 'is required: an object of times per mode, with at least mode A');
    return undefined;
  }
  if (!isRecord(value)) {
    errors.add(path, `must be an object of times per mode (A–L), got ${describeValue(value)}`);
    return undefined;
  }
  const before = errors.errors.length;
  checkKeys(value, path, MODE_IDS, 'unknown mode; modes are A–L', errors);
  if (!Object.prototype.hasOwnProperty.call(value, 'A')) {
    errors.add(keyPath(path, 'A'), 'is required: the times of each layer alone');
  }
  const modes: Partial<Record<ModeId, readonly number[]>> = {};
  for (const mode of MODE_IDS) {
    if (!Object.prototype.hasOwnProperty.call(value, mode)) continue;
    const times = checkTimes(value[mode], keyPath(path, mode), layerCount, errors);
    if (times) modes[mode] = Object.freeze(times);
  }
  return errors.errors.length === before ? modes : undefined;
}

function checkText(value: unknown, path: string, errors: ErrorList): value is string {
  if (typeof value !== 'string' || value.length > MAX_TEXT_LENGTH) {
    errors.add(path, `must be a string of at most ${MAX_TEXT_LENGTH} characters, got ${describeValue(value)}`);
    return false;
  }
  return true;
}

function checkCount(value: unknown, path: string, min: number, max: number, errors: ErrorList): value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    errors.add(path, `must be an integer from ${min} to ${max}, got ${describeValue(value)}`);
    return false;
  }
  return true;
}

/** Per-mode record of `check`ed values: only keys A–L. */
function checkPerMode<T>(
  value: unknown,
  path: string,
  errors: ErrorList,
  check: (entry: unknown, path: string) => T | undefined,
): Partial<Record<ModeId, T>> | undefined {
  if (!isRecord(value)) {
    errors.add(path, `must be an object keyed by mode (A–L), got ${describeValue(value)}`);
    return undefined;
  }
  checkKeys(value, path, MODE_IDS, 'unknown mode; modes are A–L', errors);
  const out: Partial<Record<ModeId, T>> = {};
  for (const mode of MODE_IDS) {
    if (!Object.prototype.hasOwnProperty.call(value, mode)) continue;
    const checked = check(value[mode], keyPath(path, mode));
    if (checked !== undefined) out[mode] = checked;
  }
  return out;
}

/**
 * The optional record of a measured database (ARCHITECTURE §2): every field required, spreads
 * non-negative (a unit may time identically on every repeat), one per layer.
 */
function checkMeasurement(value: unknown, path: string, layerCount: number | undefined, errors: ErrorList): MeasurementRecord | undefined {
  if (!isRecord(value)) {
    errors.add(path, `must be an object describing how the database was measured, got ${describeValue(value)}`);
    return undefined;
  }
  const before = errors.errors.length;
  checkKeys(value, path, MEASUREMENT_KEYS, `unknown key; expected ${MEASUREMENT_KEYS.join(', ')}`, errors);
  const own = (key: string): unknown => (Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined);
  const backend = own('backend');
  const runtime = own('runtime');
  const date = own('date');
  const threads = own('threads');
  const cores = own('cores');
  const inputSize = own('inputSize');
  const repeats = own('repeats');
  const hogBufferMiB = own('hogBufferMiB');
  checkText(backend, `${path}.backend`, errors);
  checkText(runtime, `${path}.runtime`, errors);
  checkText(date, `${path}.date`, errors);
  checkCount(threads, `${path}.threads`, 1, 1024, errors);
  checkCount(cores, `${path}.cores`, 1, 4096, errors);
  checkCount(inputSize, `${path}.inputSize`, 1, 4096, errors);
  checkCount(repeats, `${path}.repeats`, 1, 10_000, errors);
  checkCount(hogBufferMiB, `${path}.hogBufferMiB`, 0, 65_536, errors);
  const hogs = checkPerMode(own('hogs'), `${path}.hogs`, errors, (entry, p) => (checkText(entry, p, errors) ? entry : undefined));
  const hogRates = checkPerMode(own('hogRates'), `${path}.hogRates`, errors, (entry, p): HogRates | undefined => {
    if (!isRecord(entry)) {
      errors.add(p, `must be an object with cpuOpsPerS and/or memBytesPerS, got ${describeValue(entry)}`);
      return undefined;
    }
    checkKeys(entry, p, HOG_RATE_KEYS, 'unknown key; expected cpuOpsPerS, memBytesPerS', errors);
    const rates: { cpuOpsPerS?: number; memBytesPerS?: number } = {};
    for (const key of HOG_RATE_KEYS) {
      if (!Object.prototype.hasOwnProperty.call(entry, key)) continue;
      const rate = entry[key];
      if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0) errors.add(`${p}.${key}`, `must be a non-negative finite number, got ${describeValue(rate)}`);
      else rates[key as keyof HogRates] = rate;
    }
    return Object.freeze(rates);
  });
  const spreadMs = checkPerMode(own('spreadMs'), `${path}.spreadMs`, errors, (entry, p) => {
    if (!Array.isArray(entry)) {
      errors.add(p, `must be an array of spreads in ms, got ${describeValue(entry)}`);
      return undefined;
    }
    if (layerCount !== undefined && entry.length !== layerCount) {
      errors.add(p, `must have ${layerCount} values (one per layer), got ${entry.length}`);
      return undefined;
    }
    const spreads: number[] = [];
    for (let i = 0; i < Math.min(entry.length, MAX_DATABASE_LAYERS); i += 1) {
      const spread: unknown = entry[i];
      if (typeof spread === 'number' && Number.isFinite(spread) && spread >= 0) spreads.push(spread);
      else errors.add(`${p}[${i}]`, `must be a non-negative finite number, got ${describeValue(spread)}`);
    }
    return Object.freeze(spreads);
  });
  if (errors.errors.length !== before || !hogs || !hogRates || !spreadMs) return undefined;
  return Object.freeze({
    backend: backend as string,
    threads: threads as number,
    runtime: runtime as string,
    cores: cores as number,
    inputSize: inputSize as number,
    repeats: repeats as number,
    date: date as string,
    hogBufferMiB: hogBufferMiB as number,
    hogs: Object.freeze(hogs),
    hogRates: Object.freeze(hogRates),
    spreadMs: Object.freeze(spreadMs),
  });
}

/**
 * Checks a user-supplied layer-time database, shaped
 * `{"model"?: string, "layers": [name, …], "modes": {"A": [ms, …], "B": […], …}}`:
 * `layers` a non-empty array (at most {@link MAX_DATABASE_LAYERS}) of non-empty names;
 * `modes` an object with only keys A–L, A present, each an array of one positive
 * finite time per layer within {@link LAYER_TIME_RANGE_MS}; `measurement` optional (a measured database's record, ARCHITECTURE §2). Unknown keys and `__proto__`/`constructor`/`prototype` are
 * rejected. Errors name the field, e.g. `database.modes.B[3]` "must be a positive finite
 * number, got -1". Never throws: getters or proxies that throw become an error at `path`.
 * On success the database is a frozen copy, modes in A–L order.
 */
export function validateDatabase(input: unknown, path = 'database'): DatabaseValidation {
  const errors = new ErrorList();
  try {
    if (!isRecord(input)) {
      errors.add(path, `must be an object with "layers" and "modes", got ${describeValue(input)}`);
      return { ok: false, errors: errors.result(path) };
    }
    checkKeys(input, path, TOP_LEVEL_KEYS, 'unknown key; expected model, layers, modes', errors);
    // Own properties only: an inherited `layers` is not part of what the user sent.
    const own = (key: string): unknown =>
      Object.prototype.hasOwnProperty.call(input, key) ? input[key] : undefined;
    const modelValue = own('model');
    const model =
      modelValue === undefined
        ? DEFAULT_IMPORTED_MODEL
        : checkName(modelValue, `${path}.model`, errors)
          ? modelValue
          : undefined;
    const layers = checkLayers(own('layers'), `${path}.layers`, errors);
    const modes = checkModes(own('modes'), `${path}.modes`, layers?.length, errors);
    const measurementValue = own('measurement');
    const measurement =
      measurementValue === undefined ? undefined : checkMeasurement(measurementValue, `${path}.measurement`, layers?.length, errors);
    if (model === undefined || !layers || !modes || errors.errors.length > 0) {
      return { ok: false, errors: errors.result(path) };
    }
    const database: LayerTimeDatabase = Object.freeze({
      model,
      layers: Object.freeze(layers),
      modes: Object.freeze(modes),
      ...(measurement === undefined ? {} : { measurement }),
    });
    return { ok: true, database };
  } catch {
    // A throwing getter, a revoked proxy, …: the input is hostile, not our bug. Its error
    // is not shown: even reading its message could run more hostile code.
    errors.add(path, 'could not be read (a property threw when accessed)');
    return { ok: false, errors: errors.result(path) };
  }
}

/** One line per error, `path: message`, for the CLI's stderr and the UI's notices. */
export function formatValidationErrors(errors: readonly DatabaseValidationError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}
