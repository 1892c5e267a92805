import type { Tf } from '../lib/tf';
import type { Claim } from '../scenario/claimModel';
import type { FieldError } from '../scenario/schema';
import type { Sweep, SweepAxis } from '../scenario/sweepSchema';
import type { AxisValue, SweepCell } from '../scenario/sweep';

/**
 * What every world is to the headless kit (ARCHITECTURE §7b): the scenario door, the sweeps,
 * the cost guard, the claims and the command line reach a world only through this, found in
 * the one list of worlds (`src/kit/worlds.ts`, handed over by the composition root,
 * `src/worlds/index.ts`). The kit names no world: a third world is one more folder under
 * `src/worlds/` and one more entry in the root's list.
 */

/** What a scenario of any world has in common: its world's id, its seed and its sweep. */
export interface WorldScenario {
  readonly world: string;
  readonly seed: number;
  readonly sweep?: Sweep | undefined;
}

/** A paper a world reproduces: its id in claims and reports (`odin`), and how people name it (`ODIN`). */
export interface WorldPaper {
  readonly id: string;
  readonly name: string;
}

/** A named scenario of a world: a figure of a paper it reproduces, a lesson's scenario, or its lab's first impression. */
export interface WorldPreset<S extends WorldScenario = WorldScenario> {
  readonly id: string;
  /** The paper figure it reproduces, e.g. "ODIN Fig. 5(b)"; `lesson` for a lesson's; empty for the lab's own. */
  readonly figure: string;
  /** One line for the gallery and `npm run sim -- presets`. */
  readonly description: string;
  readonly scenario: S;
}

/** A lane as the kit sees it: a scheduler of the world's registry and its parameters. */
export interface WorldLane {
  readonly scheduler: string;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
}

/** A scheduler parameter with its default (the sweepable fields list it whether set or not). */
export interface WorldParameter {
  readonly name: string;
  readonly default: number;
  /** How people name it, with its unit (`α (exploration)`, `batch size b`); the name when absent. */
  readonly label?: string;
}

/** One lane's result in one cell, as `run` prints it. */
export interface WorldResultRow {
  readonly scheduler: string;
  readonly label: string;
  readonly params: unknown;
  readonly cell?: Readonly<Record<string, AxisValue>>;
  readonly seed?: number;
  readonly summary: object;
}

export type WorldValidation<S> = { readonly ok: true; readonly scenario: S } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** A step of a world's part in the scenario migrations (ARCHITECTURE §4): from version `from` to `from + 1`. */
export type WorldMigration = (document: Record<string, unknown>) => Record<string, unknown>;

/**
 * One world, headless: no React, no worker. The composition root (`src/worlds/index.ts`) hands
 * the list of them to the kit (`src/kit/worlds.ts`).
 */
export interface World<S extends WorldScenario = WorldScenario> {
  /** The scenario's `world`, and the key of its body (`scenario[id]`). */
  readonly id: S['world'];
  /** How people name its lab: `the pipeline lab`. */
  readonly labName: string;
  /** The papers whose claims it measures (none for a world without claims); ids are unique across the worlds. */
  readonly papers: readonly WorldPaper[];
  /** Its presets, in the gallery's order (ids are unique across the worlds). */
  presets(): readonly WorldPreset<S>[];
  /** The claims of its papers, each with how the lab measures it (ARCHITECTURE §4a); none for a world without papers. */
  claims(): readonly Claim[];
  /** What flows through a lane, plural: `queries`, `requests`. */
  readonly eventName: string;
  /** The summary numbers a sweep can show (top-level numbers of the lanes' summaries; sweeps: ARCHITECTURE §4), the default first. */
  readonly sweepMetrics: readonly string[];
  /** Fields of the body that a scenario may leave out and a sweep may still set (`assumptions.latencyQueries`), as paths from the body. */
  readonly optionalFields: ReadonlySet<string>;
  /** The world's steps of the migration chain, by the version they lift from. */
  readonly migrations: Readonly<Record<number, WorldMigration>>;
  /** Validates a current-version document of this world (schema, sweep rules); never throws. */
  validate(input: unknown): WorldValidation<S>;
  /** The zod schema of its scenarios (the command line's `--set` reads what a path expects from it). */
  schema(): unknown;
  lanes(scenario: S): readonly WorldLane[];
  withLanes(scenario: S, lanes: readonly WorldLane[]): S;
  /**
   * The scenario as its cells run it: two scenarios with the same cells give the same value
   * (what is left out read as its default, what changes no cell dropped), so the claims run them once.
   */
  asCellsRun(scenario: S): S;
  /** The scenario with the optional fields it leaves out written at their defaults (the same run, said in full). */
  withOptionalDefaults(scenario: S): S;
  /** The parameters of one of its schedulers. */
  parameters(scheduler: string): readonly WorldParameter[];
  /** How people name one of its schedulers (`ODIN`, `Triton (fixed)`); the id when absent. */
  schedulerLabel?(scheduler: string): string;
  /** Whether the world has learning schedulers (a cost estimate then says how it weighs them). */
  readonly hasLearners: boolean;
  /** Whether a lane's scheduler learns (tfjs): such lanes cost more and need the learners loaded. */
  learns(scheduler: string): boolean;
  /** One combination's events (queries, requests) and lanes, a learning lane weighted. */
  cellCost(scenario: S): { readonly events: number; readonly weightedLanes: number };
  /**
   * Runs one cell in this thread. `clock` is the wall clock where a world measures one
   * (decision times); `learning` is the world's learner factory where it has learners.
   */
  runCell(scenario: S, cell: SweepCell, clock: () => number, learning: unknown): WorldResultRow[];
  /**
   * The learner factory `runCell` takes for these scenarios (a sweep's cells, which may start
   * from different shipped agents), given TensorFlow.js and what fetches a shipped agent by its
   * key; absent in a world without learners. The Explore view's worker asks it (ARCHITECTURE §7b).
   */
  learning?(tf: Tf, agent: (key: string) => Promise<unknown>, scenarios: readonly S[]): Promise<unknown>;
  /** How long one run is, for people: `300 s of serving`, `2000 queries`. */
  runLength(scenario: S): string;
  /** An axis holding the run length's own value: a one-combination sweep of a claim (its seeds only). */
  lengthAxis(scenario: S): SweepAxis;
  /** The sweep the Explore view starts from when the scenario has none. */
  defaultSweep(scenario: S): Sweep;
  /**
   * The document an axis value at `path` is checked in: the scenario without its sweep and
   * without lists nothing else is checked against, unless the axis depends on them.
   */
  checkingBase(scenario: Omit<S, 'sweep'>, path: string): Record<string, unknown>;
}

/** Whether a scenario of `world` has a lane whose scheduler learns. */
export function hasLearningLane<S extends WorldScenario>(world: World<S>, scenario: S): boolean {
  return world.lanes(scenario).some((lane) => world.learns(lane.scheduler));
}

/** Whether a scenario belongs to `world` (a world's own code asks it of a scenario of any world). */
export function isScenarioOf<S extends WorldScenario>(world: World<S>, scenario: WorldScenario): scenario is S {
  return scenario.world === world.id;
}
