import { findForbiddenKey } from '../engine/forbiddenKeys';
import type { World, WorldScenario, WorldValidation } from '../kit/world';
import { worldOfDocument } from '../kit/worlds';
import { formatPath, SCENARIO_VERSION, validateAnyScenario, type AnyScenarioResult, type FieldError } from './schema';

/**
 * A migration lifts a scenario document from version `from` to `from + 1`. Old links keep
 * working because every document passes through the chain before validation (ARCHITECTURE §4).
 */
export interface Migration {
  readonly from: number;
  readonly describe: string;
  migrate(document: Record<string, unknown>): Record<string, unknown>;
}

/**
 * The chain, oldest first. A step lifts every document by one version: what all worlds share
 * (version 1 → 2), then the document's own world's step for that version, if it has one
 * (`World.migrations`, in `src/worlds/<id>/`).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    describe: 'rename name → title (version 2 also adds the optional view)',
    migrate: (document) => {
      const { name, ...rest } = document;
      return name === undefined ? rest : { ...rest, title: name };
    },
  },
  { from: 2, describe: 'the fixed grids (pipeline.grid, serving.grid) become a sweep over the same fields, in the same cell order', migrate: worldStep(2) },
  { from: 3, describe: 'the serving world names its readings of BCEdge; a version-3 serving scenario keeps the earlier ones, so it runs as before', migrate: worldStep(3) },
  {
    from: 4,
    describe: 'the serving world names Figs. 11–12’s platform setting; a version-4 serving scenario keeps the models together on every platform (`mixed`), so it runs as before',
    migrate: worldStep(4),
  },
  {
    from: 5,
    describe: 'the serving world names its scheduling slot (Eq. 1 per model, or fixed); a version-5 serving scenario keeps the fixed slot, so it runs as before',
    migrate: worldStep(5),
  },
  {
    from: 6,
    describe: 'the serving world names its reward credit and what happens to late requests, and its learners gain named choices (discount per second, reward standardization, the temperature’s own optimizer, a random warm-up, balanced replay, TAC’s advantage actor, the joint mask); a version-6 serving scenario keeps the earlier ones, so it runs as before',
    migrate: worldStep(6),
  },
  {
    from: 7,
    describe: 'the serving world’s PPO and DDQN get SAC’s reward terms (discount per second, reward standardization; DDQN balanced replay) and SAC the paper’s minibatch of 512; a version-7 serving scenario keeps its learners’ earlier values, so it runs as before',
    migrate: worldStep(7),
  },
  {
    from: 8,
    describe: 'the serving world’s learners read the last slot’s arrivals per second of the slot (`stateRates`), the same under every slot reading; a version-8 serving scenario keeps them per slot, so it runs as before',
    migrate: worldStep(8),
  },
  {
    from: 9,
    describe: 'a serving BCEdge lane started from a saved agent collects `fineTuneAfter` transitions before it learns online; a version-9 serving scenario keeps learning after its warm-up, so it runs as before',
    migrate: worldStep(9),
  },
  {
    from: 10,
    describe: 'a serving BCEdge lane aims its temperature at 0.15 of ln|A| instead of 0.05 (at 0.05 a lane from scratch was lost for the whole 60 rps phase of bcedge-dynamic); a version-10 serving scenario keeps 0.05, so it runs as before',
    migrate: worldStep(10),
  },
  {
    from: 11,
    describe: 'a serving BCEdge lane started from a saved agent acts greedily until it first learns online, and under the fixed slot starts from the agent trained under it; a version-11 serving scenario keeps sampling from the first decision and the Eq. 1 agent, so it runs as before',
    migrate: worldStep(11),
  },
];

/** The step of the document's world from version `from`, or none. */
function worldStep(from: number): Migration['migrate'] {
  return (document) => worldOfDocument(document).migrations[from]?.(document) ?? document;
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
    // here, before migrations copy the document, wherever in it they sit.
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
 * The door of one world's lab from anywhere (URL, import, worker message): any value in, a
 * valid current-version scenario of `world` or field-level errors out. A scenario of another
 * world is refused by its `world`. Never throws.
 */
export function parseWorldScenario<S extends WorldScenario>(world: World<S>, input: unknown, migrations: readonly Migration[] = MIGRATIONS): WorldValidation<S> {
  const migrated = migrateInput(input, migrations);
  if (!migrated.ok) return migrated;
  const named = migrated.document.world;
  if (named !== world.id && typeof named === 'string' && worldOfDocument(migrated.document).id === named) {
    return { ok: false, errors: [{ path: 'world', message: `is ${JSON.stringify(named)}: this door takes ${world.id} scenarios (the page opens each world's scenarios in its own lab, the command line runs every world)` }] };
  }
  return world.validate(migrated.document);
}

/** Parses JSON text and validates it as `parseWorldScenario` does; a syntax error is reported like any other. */
export function parseWorldScenarioJson<S extends WorldScenario>(world: World<S>, text: string): WorldValidation<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [{ path: '(file)', message: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  return parseWorldScenario(world, value);
}

/** The same door for a scenario of any world (the command line runs every world). Never throws. */
export function parseAnyScenario(input: unknown, migrations: readonly Migration[] = MIGRATIONS): AnyScenarioResult {
  const migrated = migrateInput(input, migrations);
  return migrated.ok ? validateAnyScenario(migrated.document) : migrated;
}
