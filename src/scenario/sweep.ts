import type { AnyScenario, FieldError } from './schema';
import { worldOf } from '../kit/worlds';

/**
 * A sweep: axes over any scenario field by its path, seeds, the metric to show and an
 * optional comparison of two lanes. It is part of the scenario (and of its link): one cell
 * is (the axis values, a seed), and every cell is one pure run of the scenario with those
 * fields set, so the same cell gives the same numbers in the page, the CLI, on a pool of
 * workers or on a cluster's shard.
 */

export { SWEEP_LIMITS } from './limits';
import { SWEEP_LIMITS } from './limits';

/** A value an axis may take: the fields it sweeps are numbers, enums (strings) or switches. */
export type AxisValue = number | string | boolean;

// The sweep's zod schema is in sweepSchema.ts: the page uses these helpers without the validator (ARCHITECTURE §7a′).
export type { Sweep, SweepAxis } from './sweepSchema';
import type { SweepAxis } from './sweepSchema';

/** The summary numbers a sweep of the scenario's world can show, the default first (`World.sweepMetrics`). */
export function sweepMetricsOf(scenario: AnyScenario): readonly string[] {
  return worldOf(scenario).sweepMetrics;
}

/** The metric a scenario's sweep shows: its own, or its world's first. */
export function sweepMetric(scenario: AnyScenario): string {
  return scenario.sweep?.metric ?? sweepMetricsOf(scenario)[0]!;
}

/** Top-level fields an axis may not sweep: identity of the document, seeds (sweep.seeds), the view. */
const UNSWEEPABLE: Readonly<Record<string, string>> = {
  version: 'is the schema version, not a parameter',
  world: 'cannot be swept (one sweep stays in one world)',
  title: 'is a label, not a parameter',
  seed: 'cannot be swept: use sweep.seeds for seeds',
  sweep: 'cannot be swept',
  view: 'is how the page shows the scenario, not a parameter',
};

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);


/** `pipeline.lanes[0].params.alpha` → ['pipeline', 'lanes', 0, 'params', 'alpha']; null when it is not a path. */
export function parseFieldPath(path: string): (string | number)[] | null {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,4}\])*$/.test(path)) return null;
  const keys: (string | number)[] = [];
  for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) keys.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return keys.some((k) => typeof k === 'string' && FORBIDDEN_KEYS.has(k)) ? null : keys;
}

/**
 * The values of an axis: its list, or its range expanded (rounded to 12 significant digits, so
 * 0.1 steps stay 0.3 and not 0.30000000000000004). The first is `from` itself: nothing has
 * accumulated yet, and a `from` the swept field refuses must not be rounded into one it takes.
 */
export function axisValues(axis: SweepAxis): AxisValue[] {
  if (axis.values !== undefined) return [...axis.values];
  const { from, to, step } = axis.range!;
  const count = Math.floor((to - from) / step + 1e-9) + 1;
  const out: number[] = [];
  for (let i = 0; i < Math.min(count, SWEEP_LIMITS.values + 1); i++) out.push(i === 0 ? from : Number((from + i * step).toPrecision(12)));
  return out;
}

/** The key of an axis in a cell: its name, or the last field of its path. */
export function axisName(axis: SweepAxis): string {
  if (axis.name !== undefined) return axis.name;
  const keys = parseFieldPath(axis.path);
  const last = keys?.at(-1);
  return typeof last === 'string' ? last : axis.path;
}

/** One cell of a sweep: its place in the canonical order, the axis values and the seed. */
export interface SweepCell {
  /** Place in the canonical order: combinations in axis order (first axis outermost), seeds innermost. */
  readonly index: number;
  /** Index of the axis combination (cells of one combination differ only by seed). */
  readonly combination: number;
  readonly values: readonly AxisValue[];
  readonly seed: number;
  /** Axis name → value, as reports print it. Empty for a scenario without a sweep. */
  readonly key: Readonly<Record<string, AxisValue>>;
}

/** Every combination of the axes, first axis outermost (one empty combination without a sweep). */
export function sweepCombinations(scenario: AnyScenario): AxisValue[][] {
  let combinations: AxisValue[][] = [[]];
  for (const axis of scenario.sweep?.axes ?? []) {
    const values = axisValues(axis);
    combinations = combinations.flatMap((c) => values.map((v) => [...c, v]));
  }
  return combinations;
}

/** The seeds of a sweep: `count` (or sweep.seeds, or 1) from the scenario's seed on. */
export function sweepSeeds(scenario: AnyScenario, count?: number): number[] {
  const n = count ?? scenario.sweep?.seeds ?? 1;
  return Array.from({ length: n }, (_, i) => scenario.seed + i);
}

/** The cells in canonical order: for each combination (first axis outermost), each seed. */
export function sweepCells(scenario: AnyScenario, seeds: readonly number[] = sweepSeeds(scenario)): SweepCell[] {
  const axes = scenario.sweep?.axes ?? [];
  const names = axes.map(axisName);
  const cells: SweepCell[] = [];
  sweepCombinations(scenario).forEach((values, combination) => {
    const key = Object.fromEntries(values.map((v, i) => [names[i]!, v]));
    for (const seed of seeds) cells.push({ index: cells.length, combination, values, seed, key });
  });
  return cells;
}

/** A stable text key of a cell: the same cell has the same key in any process. */
export function cellKey(cell: Pick<SweepCell, 'values' | 'seed'>): string {
  return JSON.stringify([cell.values, cell.seed]);
}

/** `document` with the field at `keys` set to `value`: the spine is copied, everything else shared (the input is not changed). */
function setAt(document: unknown, keys: readonly (string | number)[], value: unknown): unknown {
  if (keys.length === 0) return value;
  const [key, ...rest] = keys;
  if (typeof key === 'number') {
    const array = Array.isArray(document) ? [...(document as unknown[])] : [];
    array[key] = setAt(array[key], rest, value);
    return array;
  }
  const object = document !== null && typeof document === 'object' && !Array.isArray(document) ? { ...(document as Record<string, unknown>) } : {};
  object[key!] = setAt(object[key!], rest, value);
  return object;
}

/**
 * The plain scenario of one axis combination: the sweep removed and each axis's field set.
 * This is what one cell runs (with the cell's seed): the page's "open this run" loads it too.
 */
export function applyCombination<S extends AnyScenario>(scenario: S, values: readonly AxisValue[]): S {
  const { sweep, ...rest } = scenario;
  let document: unknown = rest;
  (sweep?.axes ?? []).forEach((axis, i) => {
    document = setAt(document, parseFieldPath(axis.path)!, values[i]);
  });
  return document as S;
}

/** The scenario a cell runs: its combination applied and its seed set (no sweep). */
export function cellScenario<S extends AnyScenario>(scenario: S, cell: Pick<SweepCell, 'values' | 'seed'>): S {
  return { ...applyCombination(scenario, cell.values), seed: cell.seed };
}

/** Why a path cannot be swept in this scenario, or null when it can. */
function pathProblem(scenario: AnyScenario, path: string): string | null {
  const keys = parseFieldPath(path);
  if (keys === null) return `${JSON.stringify(path)} is not a field path (write it like pipeline.lanes[0].params.alpha)`;
  const first = keys[0] as string;
  if (UNSWEEPABLE[first] !== undefined) return `${first} ${UNSWEEPABLE[first]}`;
  let value: unknown = scenario;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const at = formatKeys(keys.slice(0, i + 1));
    const isArray = Array.isArray(value);
    if (typeof key === 'number' ? !isArray : value === null || typeof value !== 'object' || isArray) return `${at} is not a field of this scenario`;
    const container = value as Record<string | number, unknown>;
    const present = Object.prototype.hasOwnProperty.call(container, key);
    if (typeof key === 'number' && !present) return `${at} does not exist (the list has ${(value as unknown[]).length})`;
    // A lane's `params` is optional and its parameters have defaults: sweeping
    // `lanes[i].params.alpha` sets what the lane would otherwise take by default.
    const optionalParams = key === 'params' && i === keys.length - 2;
    const optionalParameter = keys[i - 1] === 'params' && i === keys.length - 1;
    // A world's optional fields (absent: the behaviour before they were named): a sweep over
    // one sets what the scenario would otherwise take by default (`World.optionalFields`).
    const optionalAssumption = i === keys.length - 1 && keys[0] === scenario.world && worldOf(scenario).optionalFields.has(keys.slice(1).join('.'));
    if (!present && !optionalParams && !optionalParameter && !optionalAssumption) return `${at} is not a field of this scenario`;
    value = container[key];
    if (!present && optionalParams) value = {};
  }
  if (value !== undefined && (value === null || typeof value === 'object')) return `${path} is not a single value (it holds ${Array.isArray(value) ? 'a list' : 'an object'})`;
  return null;
}

/**
 * The document an axis value is checked in: the scenario without its sweep, and without the
 * lists no other field is checked against (the pipeline's events, the serving background)
 * unless the axis is a field they depend on (the EP count) or lies inside them. Each value
 * costs one validation of the scenario; this keeps that cheap for scenarios with many events.
 */
function checkingBase(scenario: AnyScenario, path: string): Record<string, unknown> {
  const { sweep: _sweep, ...base } = scenario;
  void _sweep;
  return worldOf(scenario).checkingBase(base, path);
}

function valueAtKeys(document: unknown, keys: readonly (string | number)[]): unknown {
  let value = document;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function formatKeys(keys: readonly (string | number)[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/**
 * The checks of a sweep the schema cannot express alone: each axis path exists in this
 * scenario, each value is one that field accepts (the scenario with that value is validated
 * by `validateBase`), names are unique, the cell count is bounded, the metric and the compared
 * lanes exist. Returns field errors (empty when the sweep is sound).
 */
export function checkSweep(scenario: AnyScenario, validateBase: (document: unknown) => readonly FieldError[]): FieldError[] {
  const sweep = scenario.sweep;
  if (sweep === undefined) return [];
  const errors: FieldError[] = [];
  const names = new Map<string, number>();
  const paths = new Map<string, number>();
  let combinations = 1;
  sweep.axes.forEach((axis, k) => {
    const at = `sweep.axes[${k}]`;
    const problem = pathProblem(scenario, axis.path);
    if (problem !== null) {
      errors.push({ path: `${at}.path`, message: problem });
      return;
    }
    const values = axisValues(axis);
    // A range's problems name each of its fields that would mend them (whichever was just changed).
    const inRange = (fields: readonly string[], message: string) => {
      for (const f of fields) errors.push({ path: `${at}.range.${f}`, message });
    };
    if (values.length > SWEEP_LIMITS.values) {
      inRange(['from', 'to', 'step'], `gives more than ${SWEEP_LIMITS.values} values`);
      return;
    }
    if (values.length === 0) {
      inRange(['from', 'to'], 'gives no value (to is below from)');
      return;
    }
    combinations *= values.length;
    const name = axisName(axis);
    if (names.has(name)) errors.push({ path: `${at}.name`, message: `"${name}" is also the name of axis ${names.get(name)}; give one a distinct name` });
    names.set(name, k);
    if (paths.has(axis.path)) errors.push({ path: `${at}.path`, message: `is also the path of axis ${paths.get(axis.path)}` });
    paths.set(axis.path, k);
    const keys = parseFieldPath(axis.path)!;
    const base = checkingBase(scenario, axis.path);
    const current = valueAtKeys(scenario, keys);
    const checked = new Set<AxisValue>([current as AxisValue]);
    for (let i = 0; i < values.length; i++) {
      // The scenario's own value is valid already, and a repeated value gives the same answer.
      if (checked.has(values[i]!)) continue;
      checked.add(values[i]!);
      const bad = validateBase(setAt(base, keys, values[i]));
      if (bad.length > 0) {
        const message = `${describe(values[i]!)} is not a value of ${bad[0]!.path}: ${bad[0]!.message}`;
        // A range's first value is its `from`; a later one is reached by its `step` up to its `to`.
        if (axis.values !== undefined) errors.push({ path: `${at}.values[${i}]`, message });
        else inRange(i === 0 ? ['from'] : ['to', 'step'], message);
        break;
      }
    }
  });
  const seeds = sweep.seeds ?? 1;
  if (errors.length === 0 && combinations * seeds > SWEEP_LIMITS.cells) {
    const message = `has ${combinations * seeds} cells (${combinations} combinations × ${seeds} seeds); at most ${SWEEP_LIMITS.cells}`;
    errors.push({ path: 'sweep', message });
    // The numbers that set the count: the seeds and each range's end and step.
    if (sweep.seeds !== undefined) errors.push({ path: 'sweep.seeds', message });
    sweep.axes.forEach((axis, k) => {
      if (axis.range !== undefined) for (const f of ['to', 'step']) errors.push({ path: `sweep.axes[${k}].range.${f}`, message });
    });
  }
  if (scenario.seed + seeds - 1 > 0xffffffff) {
    errors.push({ path: 'sweep.seeds', message: `would take the seeds past 4294967295 (from seed ${scenario.seed})` });
    errors.push({ path: 'seed', message: `would take the sweep's ${seeds} seeds past 4294967295` });
  }
  const metrics = sweepMetricsOf(scenario);
  if (sweep.metric !== undefined && !metrics.includes(sweep.metric)) {
    errors.push({ path: 'sweep.metric', message: `must be one of ${metrics.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(sweep.metric)}` });
  }
  if (sweep.compare !== undefined) {
    const lanes = worldOf(scenario).lanes(scenario).length;
    for (const side of ['a', 'b'] as const) {
      if (sweep.compare[side] >= lanes) errors.push({ path: `sweep.compare.${side}`, message: `must be a lane index below ${lanes}, got ${sweep.compare[side]}` });
    }
    if (sweep.compare.a === sweep.compare.b) {
      errors.push({ path: 'sweep.compare.b', message: 'must be another lane than a' });
      errors.push({ path: 'sweep.compare.a', message: 'must be another lane than b' });
    }
  }
  return errors;
}

function describe(value: AxisValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
