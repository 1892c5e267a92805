import { createContext, useContext, type ComponentType } from 'react';
import type { FieldError } from '../../scenario/schema';
import type { AnyLabStore } from '../../store/liveStore';

/**
 * A world in the page (ARCHITECTURE §7b): its store with its worker, its lab, its default
 * scenario and how its scenario travels in a link. The page shell (`App`) reaches a world only
 * through this, found in the page's list of worlds (`src/worlds/pages.ts`, which the page's
 * composition root, `main.tsx`, hands to `App`).
 */
export interface PageWorldModule {
  /** Starts the world's store and its worker (once per page). */
  startStore(): AnyLabStore;
  /** The scenario the lab opens when nothing else asks (ARCHITECTURE §4). */
  defaultScenario(): unknown;
  /** The link hash of one of its scenarios, or null when it cannot travel in a link (too large). */
  linkHash(scenario: unknown): Promise<string | null>;
  /** The world's lab over its store. */
  readonly Lab: ComponentType<WorldLabProps>;
}

/** What the page gives a world's lab. */
export interface WorldLabProps {
  readonly store: AnyLabStore;
  /** Back to the page's first lab (a lab that is not the first shows a way back). */
  readonly onExit: () => void;
}

/** A world as the page lists it: its id, whether its lab has the Explore view, and its page module (loaded on first use). */
export interface PageWorld {
  readonly id: string;
  /** The lab's name in the header's switch, with the paper it reproduces ("Pipeline lab · ODIN"). */
  readonly label: string;
  /** What the lab shows, in one phrase (the switch's tooltip). */
  readonly about: string;
  /** Whether the lab has the Explore view (a preset with a sweep then says that Explore runs it). */
  readonly explore: boolean;
  load(): Promise<PageWorldModule>;
  /**
   * Starts what its lab will need first (its worker) without loading the lab: called when the
   * page opens on a link of this world, before anything renders (`main.tsx`).
   */
  prestart?(): void;
  /** The page module at hand without loading, for the first world, whose lab is the first screen. */
  readonly eager?: PageWorldModule;
}

/**
 * The page's list of worlds, handed to the shell by the page's composition root (`main.tsx`
 * gives `src/worlds/pages.ts` to `App`, which provides it here; ARCHITECTURE §7b). The first is
 * the first screen. Empty for a lab rendered outside the page (a test of one lab).
 */
export const PageWorldsContext = createContext<readonly PageWorld[]>([]);

/** The page world of a world id in `list`; the first for an id the list does not have. */
export function pageWorldIn(list: readonly PageWorld[], id: string): PageWorld {
  const world = list.find((w) => w.id === id) ?? list[0];
  if (world === undefined) throw new RangeError('the page has no list of worlds');
  return world;
}

/**
 * A scenario routed to its world's lab (from a link, a preset or a claim: `source`; `play`
 * starts it) — a link's document as opened, validated by the lab's worker at its door — or
 * the errors of a link that could not be unpacked. Either way the lab shows the errors over
 * its last good scenario (its default the first time).
 */
export type Routed =
  | { readonly world: string; readonly scenario: unknown; readonly source: 'link' | 'preset'; readonly play: boolean }
  | { readonly world: string; readonly errors: readonly FieldError[] };

/**
 * Loads what was routed to a started lab: the scenario (validated once, by the lab's worker at
 * its door) or the errors; refused before the lab held any scenario, the lab takes its default
 * and shows the errors over it. True when the routed scenario loaded (and plays if asked).
 */
export async function loadRouted(lab: { readonly store: AnyLabStore; readonly module: Pick<PageWorldModule, 'defaultScenario'> }, routed: Routed): Promise<boolean> {
  const store = lab.store;
  const ok = 'errors' in routed ? false : await store.getState().load(routed.scenario as never, routed.source, { play: routed.play });
  const errors = 'errors' in routed ? { source: 'link' as const, errors: routed.errors } : store.getState().errors;
  if (!ok && store.getState().scenario === null) await store.getState().load(lab.module.defaultScenario() as never, 'preset');
  if (!ok && errors !== null) store.getState().reject(errors.source, errors.errors);
  return ok;
}

/** Opens a scenario (or a broken link's errors) in the lab of its world, shown from then on; true once it is loaded. */
export type OpenInLab = (routed: Routed) => Promise<boolean>;

export const OpenInLabContext = createContext<OpenInLab | null>(null);

/** The page's way to open a scenario of any world in its lab (presets, claims, links). */
export function useOpenInLab(): OpenInLab {
  const open = useContext(OpenInLabContext);
  if (open === null) throw new Error('useOpenInLab outside <OpenInLabContext.Provider>');
  return open;
}

/** Shows the lab of a world (its default scenario, playing, the first time it opens). */
export type SwitchLab = (id: string) => void;

export const SwitchLabContext = createContext<SwitchLab | null>(null);

/** The id of the lab that is shown. */
export const ShownWorldContext = createContext<string | null>(null);
