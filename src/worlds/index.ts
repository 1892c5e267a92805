import type { World } from '../kit/world';
import { installWorlds } from '../kit/worlds';
import { pipelineWorld } from './pipeline/world';
import { servingWorld } from './serving/world';

/**
 * The composition root of the worlds (ARCHITECTURE §7b): the one list, handed to the kit
 * (`installWorlds`), and the scenario type of its worlds, named in the kit's `WorldRegistry`.
 * The kit imports neither: every program loads this module before it asks the list — the
 * command line (`src/cli/main.ts`) and its worker threads, each page worker, the tests (their
 * setup), and the page, lazily (`main.tsx` names it, the page's lazy parts await it through
 * `afterWorlds`). The first world is the one a document that names none belongs to; a third
 * world is one more folder beside these and one more entry here.
 */
const WORLDS = [pipelineWorld, servingWorld] as const;

type ScenarioOf<W> = W extends World<infer S> ? S : never;

declare module '../kit/worlds' {
  interface WorldRegistry {
    readonly scenario: ScenarioOf<(typeof WORLDS)[number]>;
  }
}

installWorlds(WORLDS);
