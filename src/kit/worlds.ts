import type { World, WorldPaper, WorldScenario } from './world';

/**
 * The one list of worlds as the kit holds it (ARCHITECTURE §7b). Everything that handles "a
 * scenario of any world" — the scenario door, links, sweeps, claims, the cost guard, Explore, the
 * presets gallery, the command line — finds the world here by the scenario's `world`; nothing
 * outside `src/worlds/` compares a world id (lint). The kit imports no world: each program's
 * composition root (`src/worlds/index.ts`) hands the list over (`installWorlds`) before anything
 * asks it — the command line, each worker and the tests import the root first; the page loads it
 * with the first of its lazy parts that asks the list (`afterWorlds`). The first world is the one
 * a document that names none belongs to.
 */

/**
 * The worlds' scenario types, named by the composition root (declaration merging: the root adds
 * `readonly scenario: …`, the union of its list's scenarios), so that `AnyScenario` is derived
 * from the list without the kit importing a world.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the composition root
export interface WorldRegistry {}

/** A scenario of any world of the list. */
export type AnyScenario = WorldRegistry extends { readonly scenario: infer S extends WorldScenario } ? S : WorldScenario;
/** The id of a world of the list. */
export type WorldId = AnyScenario['world'];

/** The list, once the root has handed it over. */
let installed: readonly World<AnyScenario>[] | undefined;
/**
 * Worlds added after the list (`registerWorld`): the queue world (src/worlds/queue/), which its
 * tests register. Its scenarios are not in the list's `AnyScenario` (the root names the union), so
 * the kit handles them as scenarios of the list: the one cast of the seam, for a world the types
 * were never told of.
 */
const added: World<AnyScenario>[] = [];
/** How the page loads its composition root, on first need (`worldsFrom`). */
let root: (() => Promise<unknown>) | undefined;
let rootLoading: Promise<void> | undefined;

/** Hands the list to the kit: the composition root calls it once, when it loads (again on a hot reload of the root). */
export function installWorlds(list: readonly World<AnyScenario>[]): void {
  if (list.length === 0) throw new RangeError('the list of worlds is empty');
  installed = list;
}

/**
 * How the page loads its composition root (`main.tsx`: `worldsFrom(() => import('./worlds'))`):
 * the first screen carries neither the list nor the validator, so the root loads with the
 * first lazy part that asks it (`afterWorlds`).
 */
export function worldsFrom(load: () => Promise<unknown>): void {
  root = load;
}

/**
 * Loads `load` once the list is handed over (the page's lazy parts that ask the list: the link
 * codec, the cost guard, Claims, Explore, the presets gallery, a lab's door): loads the root
 * first when it has not loaded yet. A program that imported its root statically passes through.
 */
export async function afterWorlds<T>(load: () => Promise<T>): Promise<T> {
  if (installed === undefined) {
    if (root === undefined) throw new Error('no list of worlds: the program did not load its composition root (src/worlds/index.ts; ARCHITECTURE §7b)');
    const loading = (rootLoading ??= root().then(() => undefined));
    loading.catch(() => {
      // A failed load (the network) is tried again by the next part that asks.
      if (rootLoading === loading) rootLoading = undefined;
    });
    await loading;
  }
  return load();
}

/** The worlds, in order; throws when the program did not load its composition root first (a bug, not input). */
export function worlds(): readonly World<AnyScenario>[] {
  if (installed === undefined) throw new Error('no list of worlds: the program did not load its composition root (src/worlds/index.ts; ARCHITECTURE §7b)');
  return added.length === 0 ? installed : [...installed, ...added];
}

/**
 * Adds a world after the list's (the queue world, src/worlds/queue/, proves that the kit runs a world
 * it was never told of); returns what removes it again. A world is found by its id: adding an
 * id the list has is refused.
 */
export function registerWorld<S extends WorldScenario>(world: World<S>): () => void {
  if (worlds().some((w) => w.id === world.id)) throw new RangeError(`a world "${world.id}" is in the list already`);
  const entry = world as unknown as World<AnyScenario>;
  added.push(entry);
  return () => void added.splice(added.indexOf(entry), 1);
}

/** The world of a valid scenario. */
export function worldOf<S extends AnyScenario>(scenario: S): World<S> {
  return worldById(scenario.world) as World<S>;
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
