import type { AnyScenario } from '../scenario/schema';
import { afterWorlds } from '../kit/worlds';

/** Asks the person whether to start; true to start. The page's is the browser's confirm dialog. */
export type AskToStart = (message: string) => boolean;

/** The browser's confirm dialog (true where there is none: tests, Node). */
export const browserAsk: AskToStart = (message) => (typeof globalThis.confirm === 'function' ? globalThis.confirm(message) : true);

type RunCostModule = typeof import('../scenario/runCost');
let runCost: RunCostModule | null = null;
let loading: Promise<RunCostModule> | null = null;

/**
 * The run's cost asks its world (`scenario/runCost.ts` → the list of worlds, whose root brings
 * both worlds' engines and the validator), which the page's first screen does not carry (its
 * first load, ARCHITECTURE §7a′): it loads, after the root (`afterWorlds`), on the first Play,
 * or earlier when asked (`preloadRunCost`, the page when it is first idle).
 */
export function preloadRunCost(): Promise<RunCostModule> {
  loading ??= afterWorlds(() => import('../scenario/runCost')).then(
    (m) => (runCost = m),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * Before a run starts playing (the long-run guard, ARCHITECTURE §1, step 3): a scenario whose
 * estimate is above the bound (scenario/cost.ts, the CLI's `--allow-long` bound) is started
 * only if the person agrees, once per scenario; below it, it starts at once. The guard runs
 * `start` when allowed and returns what it returns: in the same task when the cost is at hand
 * (a load that plays tells the worker before the page renders it, `liveStore.ts`), else once it
 * has loaded.
 */
export function longRunGuard(ask: AskToStart): (scenario: AnyScenario | null, start: () => Promise<void>) => Promise<void> {
  let approved: string | null = null;
  const allowed = (cost: RunCostModule, scenario: AnyScenario): boolean => {
    // Play runs the scenario itself, not its sweep's cells (those run in the Explore view, which shows its own estimate).
    const { sweep: _sweep, ...played } = scenario;
    void _sweep;
    const estimate = cost.singleRunCost(played as AnyScenario);
    if (estimate.laneEvents <= cost.COST_BOUND_LANE_EVENTS) return true;
    const key = JSON.stringify(scenario);
    if (approved === key) return true;
    const ok = ask(`This run is estimated at ${cost.describeRunCost(estimate)}, above ${cost.COST_BOUND_LANE_EVENTS.toExponential()} lane-events.\nStart it anyway?`);
    if (ok) approved = key;
    return ok;
  };
  return (scenario, start) => {
    if (scenario === null) return start();
    if (runCost !== null) return allowed(runCost, scenario) ? start() : Promise.resolve();
    return preloadRunCost().then((cost) => (allowed(cost, scenario) ? start() : undefined));
  };
}
