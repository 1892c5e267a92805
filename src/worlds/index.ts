import type { World, WorldPaper, WorldScenario } from '../kit/world';
import { pipelineWorld } from './pipeline/world';
import { servingWorld } from './serving/world';

/**
 * The one list of worlds (ARCHITECTURE §7b). Everything that handles "a scenario of any
 * world" — the scenario door, links, sweeps, claims, the cost guard, Explore, the presets
 * gallery, the command line — finds the world here by the scenario's `world`; nothing outside
 * `src/worlds/` compares a world id (lint). The first world is the one a document that names
 * none belongs to.
 */
const list = () => [pipelineWorld, servingWorld] as const;
// Built on first use: the worlds' modules import kit modules that import this one, so the
// list cannot be read while those modules are still loading.
let built: readonly World<WorldScenario>[] | undefined;
/** Worlds added from outside the list (`registerWorld`): the queue world (src/worlds/queue/), which its tests register. */
const added: World<WorldScenario>[] = [];

/** The worlds, in order. */
export function worlds(): readonly World<AnyScenario>[] {
  built ??= [...(list() as unknown as readonly World<WorldScenario>[]), ...added];
  return built as unknown as readonly World<AnyScenario>[];
}

/**
 * Adds a world after the list's (the queue world, src/worlds/queue/, proves that the kit runs a world
 * it was never told of); returns what removes it again. A world is found by its id: adding an
 * id the list has is refused.
 */
export function registerWorld<S extends WorldScenario>(world: World<S>): () => void {
  if (worlds().some((w) => w.id === world.id)) throw new RangeError(`a world "${world.id}" is in the list already`);
  added.push(world as unknown as World<WorldScenario>);
  built = undefined;
  return () => {
    added.splice(added.indexOf(world as unknown as World<WorldScenario>), 1);
    built = undefined;
  };
}

type ScenarioOf<W> = W extends World<infer S> ? S : never;

/** A scenario of any world of the list. */
export type AnyScenario = ScenarioOf<ReturnType<typeof list>[number]>;
/** The id of a world of the list. */
export type WorldId = AnyScenario['world'];

/** The world of a valid scenario. */
export function worldOf<S extends AnyScenario>(scenario: S): World<S> {
  return worldById(scenario.world) as unknown as World<S>;
}

/** The world with this id, or undefined. */
export function findWorld(id: unknown): World<AnyScenario> | undefined {
  return worlds().find((w) => w.id === id);
}

/** The world with this id; throws on an id that is not in the list (a bug, not input). */
export function worldById(id: WorldId): World<AnyScenario> {
  const world = findWorld(id);
  if (world === undefined) throw new RangeError(`no world "${String(id)}" in the list`);
  return world;
}

/** The world a document says it belongs to: its `world` when the list has it, else the first world (whose door then names the field). */
export function worldOfDocument(document: unknown): World<AnyScenario> {
  const id = document !== null && typeof document === 'object' ? (document as { world?: unknown }).world : undefined;
  return findWorld(id) ?? worlds()[0]!;
}

/** The papers the worlds reproduce, in the list's order (each world declares its own, `World.papers`). */
export function papers(): readonly WorldPaper[] {
  return worlds().flatMap((w) => w.papers);
}

/** How people name a paper (`ODIN`); its id when no world declares it. */
export function paperName(id: string): string {
  return papers().find((p) => p.id === id)?.name ?? id;
}

/** The ids of the list, in order. */
export function worldIds(): readonly WorldId[] {
  return worlds().map((w) => w.id);
}
