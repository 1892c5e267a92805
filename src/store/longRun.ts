import { COST_BOUND_LANE_EVENTS, describeRunCost, singleRunCost } from '../scenario/runCost';
import type { AnyScenario } from '../scenario/schema';

/** Asks the person whether to start; true to start. The page's is the browser's confirm dialog. */
export type AskToStart = (message: string) => boolean;

/** The browser's confirm dialog (true where there is none: tests, Node). */
export const browserAsk: AskToStart = (message) => (typeof globalThis.confirm === 'function' ? globalThis.confirm(message) : true);

/**
 * Before a run starts playing (the long-run guard, ARCHITECTURE §1, step 3): a scenario whose estimate is above the
 * bound (scenario/cost.ts, the CLI's `--allow-long` bound) is started only if the person
 * agrees, once per scenario; below it, it starts at once.
 */
export function longRunGuard(ask: AskToStart): (scenario: AnyScenario | null) => boolean {
  let approved: string | null = null;
  return (scenario) => {
    if (scenario === null) return true;
    // Play runs the scenario itself, not its sweep's cells (those run in the Explore view, which shows its own estimate).
    const { sweep: _sweep, ...played } = scenario;
    void _sweep;
    const cost = singleRunCost(played as AnyScenario);
    if (cost.laneEvents <= COST_BOUND_LANE_EVENTS) return true;
    const key = JSON.stringify(scenario);
    if (approved === key) return true;
    const ok = ask(`This run is estimated at ${describeRunCost(cost)}, above ${COST_BOUND_LANE_EVENTS.toExponential()} lane-events.\nStart it anyway?`);
    if (ok) approved = key;
    return ok;
  };
}
