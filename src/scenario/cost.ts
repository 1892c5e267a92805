import { isLearningScheduler } from '../schedulers/serving/learningIds';
import type { AnyScenario } from './schema';
import { applyCombination, sweepCombinations, type AxisValue } from './sweep';

/**
 * What a run will cost before it starts (issue 17 part 4), in lane-events: a pipeline query
 * or a serving request through one lane. the sum over the sweep's combinations of (queries or
 * requests) × lanes, a learning lane weighted by `LEARNING_LANE_WEIGHT`, times the seeds.
 */
export interface RunCost {
  readonly laneEvents: number;
  readonly cells: number;
  /** Queries (pipeline) or requests (serving) of one cell, the mean over the sweep's combinations. */
  readonly eventsPerCell: number;
  readonly eventName: 'queries' | 'requests';
  /** Lanes, a learning lane counted `LEARNING_LANE_WEIGHT` times (the mean over the combinations). */
  readonly weightedLanes: number;
  readonly seeds: number;
  /** Rough wall time at `NOMINAL_LANE_EVENTS_PER_S`. */
  readonly seconds: number;
}

/**
 * A learning lane (SAC, TAC, PPO, DDQN) costs about this many plain lanes per request: its
 * networks act on every slot and train between slots (our reading of the bench's update
 * times against the heuristic schedulers; a choice, stated here, not a paper figure).
 */
export const LEARNING_LANE_WEIGHT = 50;

/**
 * Lane-events per second this engine runs at on a modest machine (the bench's simulated
 * queries per second, rounded down): only for the rough time shown beside the estimate.
 */
export const NOMINAL_LANE_EVENTS_PER_S = 1_000_000;

/**
 * The bound above which the CLI refuses a run without `--allow-long` and the page asks
 * before starting: 10⁹ lane-events, about a quarter of an hour at the nominal rate. Every
 * preset is below it, swept over 10 seeds (the largest, bcedge-fig7-utility with its learners,
 * is 1.8·10⁸).
 */
export const COST_BOUND_LANE_EVENTS = 1e9;

/** One combination's events (queries or requests) and weighted lanes. */
function cellCost(scenario: AnyScenario): { events: number; weightedLanes: number } {
  if (scenario.world === 'serving') {
    const v = scenario.serving;
    return {
      events: v.rateRps * v.durationS,
      weightedLanes: v.lanes.reduce((sum, lane) => sum + (isLearningScheduler(lane.scheduler) ? LEARNING_LANE_WEIGHT : 1), 0),
    };
  }
  return { events: scenario.pipeline.queries, weightedLanes: scenario.pipeline.lanes.length };
}

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
    eventName: scenario.world === 'serving' ? 'requests' : 'queries',
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

/** A rough duration for people: `40 s`, `12 minutes`, `3.5 hours`, `4 days`. */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} minutes`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} hours`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** One line: `4.1e+11 lane-queries (4096 cells × 10000000 queries × 8 lanes), about 4 days`. */
export function describeRunCost(cost: RunCost): string {
  const parts = [`${cost.cells} cell${cost.cells === 1 ? '' : 's'}`, `${Math.round(cost.eventsPerCell)} ${cost.eventName}`, `${cost.weightedLanes} lane${cost.weightedLanes === 1 ? '' : 's'}${cost.eventName === 'requests' ? ` (a learner counts ${LEARNING_LANE_WEIGHT})` : ''}`];
  if (cost.seeds !== 1) parts.push(`${cost.seeds} seeds`);
  return `${cost.laneEvents.toPrecision(2)} lane-${cost.eventName} (${parts.join(' × ')}), about ${formatDuration(cost.seconds)} at ${NOMINAL_LANE_EVENTS_PER_S / 1e6} M per second`;
}
