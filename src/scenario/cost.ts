import type { AnyScenario } from './schema';
import { worldOf } from '../kit/worlds';
import { cellCost, NOMINAL_LANE_EVENTS_PER_S, type RunCost } from './runCost';
import { applyCombination, sweepCombinations, type AxisValue } from './sweep';

export { COST_BOUND_LANE_EVENTS, describeRunCost, formatDuration, LEARNING_LANE_WEIGHT, NOMINAL_LANE_EVENTS_PER_S, singleRunCost, type RunCost } from './runCost';

/**
 * The cost of running a scenario once per seed for `seeds` seeds: every combination of its
 * sweep's axes (an axis may change the queries, the rate or the lanes, so each combination is
 * costed on its own scenario).
 */
export function estimateRunCost(scenario: AnyScenario, seeds = 1): RunCost {
  const combinations = sweepCombinations(scenario);
  let laneEventsPerSeed = 0;
  let events = 0;
  let weightedLanes = 0;
  for (const values of combinations) {
    const cost = cellCost(applyCombination(scenario, values));
    laneEventsPerSeed += cost.events * cost.weightedLanes;
    events += cost.events;
    weightedLanes += cost.weightedLanes;
  }
  const cells = combinations.length;
  const laneEvents = laneEventsPerSeed * seeds;
  return {
    laneEvents,
    cells,
    // Means over the combinations, so that cells × eventsPerCell is the total.
    eventsPerCell: events / cells,
    eventName: worldOf(scenario).eventName,
    learnerWeighted: worldOf(scenario).hasLearners,
    weightedLanes: weightedLanes / cells,
    seeds,
    seconds: laneEvents / NOMINAL_LANE_EVENTS_PER_S,
  };
}

/**
 * The cells in the order a pool should start them: the costliest first (longest processing
 * time first), so that a pool does not end on one long cell while its other workers idle.
 * Ties keep canonical order. Where a cell's outcome goes does not change: only when it starts.
 */
export function costliestFirst<C extends { readonly index: number; readonly values: readonly AxisValue[] }>(scenario: AnyScenario, cells: readonly C[]): C[] {
  const cost = (cell: C) => {
    const c = cellCost(applyCombination(scenario, cell.values));
    return c.events * c.weightedLanes;
  };
  const costs = new Map(cells.map((cell) => [cell.index, cost(cell)]));
  return [...cells].sort((a, b) => costs.get(b.index)! - costs.get(a.index)! || a.index - b.index);
}
