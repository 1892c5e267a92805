import { findForbiddenKey } from '../engine/forbiddenKeys';
import { EARLIER_SCENARIO_READINGS, READING_NAMES } from './readings';
import { formatPath, SCENARIO_VERSION, validateAnyScenario, validateScenario, type AnyScenarioResult, type FieldError, type ScenarioResult } from './schema';

/**
 * A migration lifts a scenario document from version `from` to `from + 1`. Old links keep
 * working because every document passes through the chain before validation (ARCHITECTURE §4).
 */
export interface Migration {
  readonly from: number;
  readonly describe: string;
  migrate(document: Record<string, unknown>): Record<string, unknown>;
}

/** The chain, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    describe: 'rename name → title (version 2 also adds the optional view)',
    migrate: (document) => {
      const { name, ...rest } = document;
      return name === undefined ? rest : { ...rest, title: name };
    },
  },
  {
    from: 2,
    describe: 'the fixed grids (pipeline.grid, serving.grid) become a sweep over the same fields, in the same cell order',
    migrate: migrateGridToSweep,
  },
  {
    from: 3,
    describe: 'the serving world names its readings of BCEdge; a version-3 serving scenario keeps the earlier ones, so it runs as before',
    migrate: migrateServingReadings,
  },
  {
    from: 4,
    describe: 'the serving world names its scheduling slot (Eq. 1 per model, or fixed); a version-4 serving scenario keeps the fixed slot, so it runs as before',
    migrate: migrateServingSlot,
  },
];

/**
 * Version 3 → 4. Version 4 names the readings of BCEdge in `serving.assumptions` and reads
 * the paper where they are absent (ARCHITECTURE §3). A version-3 serving scenario was run
 * under the earlier readings, so they are written into it: an old link reopens with the
 * same numbers. A reading the document already sets (none could be, in version 3) and a
 * malformed block are left for validation.
 */
function migrateServingReadings(document: Record<string, unknown>): Record<string, unknown> {
  if (document.world !== 'serving') return document;
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const assumptions = (body as Record<string, unknown>).assumptions;
  if (assumptions === null || typeof assumptions !== 'object' || Array.isArray(assumptions)) return document;
  return { ...document, serving: { ...body, assumptions: { ...VERSION_4_EARLIER_READINGS, ...assumptions } } };
}

/** The readings version 4 named, at their earlier values (the later ones have migrations of their own). */
const VERSION_4_EARLIER_READINGS = Object.fromEntries(READING_NAMES.filter((name) => name !== 'slot').map((name) => [name, EARLIER_SCENARIO_READINGS[name]]));

/**
 * Version 4 → 5. Version 5 names the scheduling slot in `serving.assumptions.slot` and reads
 * Eq. 1 where it is absent (each model's own slot, BCEdge §III-A2; ARCHITECTURE §3). A
 * version-4 serving scenario was run with one fixed slot of `slotMs` for every model, so
 * `slot: "fixed"` is written into it (into a block of its own if it had none: the block may
 * be left out since version 4): an old link reopens with the same numbers. A slot the
 * document already sets and a malformed block are left for validation.
 */
function migrateServingSlot(document: Record<string, unknown>): Record<string, unknown> {
  if (document.world !== 'serving') return document;
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const assumptions = (body as Record<string, unknown>).assumptions;
  if (assumptions === undefined) return { ...document, serving: { ...body, assumptions: { slot: EARLIER_SCENARIO_READINGS.slot } } };
  if (assumptions === null || typeof assumptions !== 'object' || Array.isArray(assumptions)) return document;
  return { ...document, serving: { ...body, assumptions: { slot: EARLIER_SCENARIO_READINGS.slot, ...assumptions } } };
}

/** Where each axis of a version-2 grid lives in the scenario, in the order its cells were run (outermost first). */
const PIPELINE_GRID_AXES: readonly [string, string][] = [
  ['executionPlaces', 'pipeline.executionPlaces'],
  ['periodQueries', 'pipeline.interference.random.periodQueries'],
  ['durationQueries', 'pipeline.interference.random.durationQueries'],
];

/**
 * Version 2 → 3. A grid ran its cells with the axes in a fixed order (pipeline: EPs, period,
 * duration; serving: platform, rate, batch, instances), so the sweep lists its axes in that
 * order and names them as the grid did: cells, their order and their keys in reports stay
 * the same. The serving grid's batch size and instances were applied to every lane with
 * those parameters (only `fixed` has them); the sweep sets them on the first such lane, and
 * a grid over them without such a lane (which changed nothing) is dropped.
 */
function migrateGridToSweep(document: Record<string, unknown>): Record<string, unknown> {
  const world = document.world === 'serving' ? 'serving' : 'pipeline';
  const body = document[world];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const { grid, ...rest } = body as Record<string, unknown>;
  if (grid === undefined) return document;
  // A malformed grid stays where it was: validation then names the field.
  if (grid === null || typeof grid !== 'object' || Array.isArray(grid)) return document;
  const g = grid as Record<string, unknown>;
  const axes: { path: string; name: string; values: unknown }[] = [];
  if (world === 'pipeline') {
    for (const [name, path] of PIPELINE_GRID_AXES) if (g[name] !== undefined) axes.push({ path, name, values: g[name] });
  } else {
    if (g.platform !== undefined) axes.push({ path: 'serving.platform', name: 'platform', values: g.platform });
    if (g.rateRps !== undefined) axes.push({ path: 'serving.rateRps', name: 'rateRps', values: g.rateRps });
    const lanes = Array.isArray(rest.lanes) ? (rest.lanes as { scheduler?: unknown }[]) : [];
    const fixed = lanes.findIndex((l) => l !== null && typeof l === 'object' && l.scheduler === 'fixed');
    for (const name of ['batchSize', 'instances']) {
      if (g[name] !== undefined && fixed >= 0) axes.push({ path: `serving.lanes[${fixed}].params.${name}`, name, values: g[name] });
    }
  }
  // Unknown grid keys were refused by version 2; keep refusing them, under their new name.
  const known = world === 'pipeline' ? PIPELINE_GRID_AXES.map(([n]) => n) : ['platform', 'rateRps', 'batchSize', 'instances'];
  const unknown = Object.keys(g).filter((k) => !known.includes(k));
  if (unknown.length > 0) return { ...document, [world]: { ...rest, grid } };
  return axes.length === 0 ? { ...document, [world]: rest } : { ...document, [world]: rest, sweep: { axes } };
}

/** Applies the migrations from the document's version up to `target`. */
export function migrateDocument(
  document: Record<string, unknown>,
  migrations: readonly Migration[] = MIGRATIONS,
  target = SCENARIO_VERSION,
): { ok: true; document: Record<string, unknown> } | { ok: false; message: string } {
  let version = document.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, message: `version: must be a scenario version from 1 to ${target}, got ${JSON.stringify(version) ?? 'nothing'}` };
  }
  if (version > target) {
    return { ok: false, message: `version: ${version} is newer than this lab understands (${target}); update the lab` };
  }
  let current = document;
  while (version < target) {
    const step = migrations.find((m) => m.from === version);
    if (step === undefined) return { ok: false, message: `version: no migration from version ${version}` };
    current = step.migrate(current);
    version += 1;
    current = { ...current, version };
  }
  return { ok: true, document: current };
}

/** Checks the document's shape and runs the migrations; field errors for what cannot be. */
function migrateInput(input: unknown, migrations: readonly Migration[]): { ok: true; document: Record<string, unknown> } | { ok: false; errors: FieldError[] } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [{ path: '(scenario)', message: 'must be a JSON object' }] };
  }
  let migrated;
  try {
    // One set of forbidden keys for every door (file, link, --set, worker message): refused
    // here, before migrations copy the document, wherever in it they sit (issue 17 part 3).
    const forbidden = findForbiddenKey(input);
    if (forbidden !== undefined) {
      return { ok: false, errors: [{ path: formatPath(forbidden.path), message: `has a forbidden field ${JSON.stringify(forbidden.key)}` }] };
    }
    migrated = migrateDocument(input as Record<string, unknown>, migrations);
  } catch (error) {
    return { ok: false, errors: [{ path: '(scenario)', message: `could not be migrated: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  if (!migrated.ok) {
    const [path, ...rest] = migrated.message.split(': ');
    return { ok: false, errors: [{ path: path ?? 'version', message: rest.join(': ') }] };
  }
  return migrated;
}

/**
 * The one door for the live lab's scenarios from anywhere (URL, import, worker message):
 * any value in, a valid current-version pipeline scenario or field-level errors out.
 * Never throws.
 */
export function parseScenario(input: unknown, migrations: readonly Migration[] = MIGRATIONS): ScenarioResult {
  const migrated = migrateInput(input, migrations);
  return migrated.ok ? validateScenario(migrated.document) : migrated;
}

/** Parses JSON text and validates it; a syntax error is reported like any other. */
export function parseScenarioJson(text: string): ScenarioResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [{ path: '(file)', message: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  return parseScenario(value);
}

/** The same door for a scenario of either world (the command line runs both). Never throws. */
export function parseAnyScenario(input: unknown, migrations: readonly Migration[] = MIGRATIONS): AnyScenarioResult {
  const migrated = migrateInput(input, migrations);
  return migrated.ok ? validateAnyScenario(migrated.document) : migrated;
}
