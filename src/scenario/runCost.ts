/**
 * The cost of one run of a scenario (no sweep, one seed), without the sweep machinery: what
 * the page checks before it plays (`store/longRun.ts`), on its first load (ARCHITECTURE §7a′).
 * `cost.ts` adds the sweeps' combinations and the seeds.
 */
import { worldOf } from '../kit/worlds';
import type { AnyScenario } from './schema';

/**
 * What a run will cost before it starts, in lane-events (a pipeline query or a serving
 * request through one lane): the sum over the sweep's combinations of (queries or
 * requests) × lanes, a learning lane weighted by `LEARNING_LANE_WEIGHT`, times the seeds.
 */
export interface RunCost {
  readonly laneEvents: number;
  readonly cells: number;
  /** Queries (pipeline) or requests (serving) of one cell, the mean over the sweep's combinations. */
  readonly eventsPerCell: number;
  readonly eventName: string;
  /** Whether the world weighs learning lanes (`LEARNING_LANE_WEIGHT`), which the description then says. */
  readonly learnerWeighted: boolean;
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
 * preset is below it swept over 10 seeds, but the learning presets at 3000 s and 30 rps a
 * model, which are below it over 5 (bcedge-fig10-convergence: 1.09·10⁹ at 10 seeds).
 */
export const COST_BOUND_LANE_EVENTS = 1e9;

/** One combination's events (queries or requests) and weighted lanes. */
export function cellCost(scenario: AnyScenario): { events: number; weightedLanes: number } {
  return worldOf(scenario).cellCost(scenario);
}

/** The cost of one run of `scenario` as it is, once (its sweep, if any, left out): `estimateRunCost` of a sweepless scenario. */
export function singleRunCost(scenario: AnyScenario): RunCost {
  const { events, weightedLanes } = cellCost(scenario);
  const laneEvents = events * weightedLanes;
  return { laneEvents, cells: 1, eventsPerCell: events, eventName: worldOf(scenario).eventName, learnerWeighted: worldOf(scenario).hasLearners, weightedLanes, seeds: 1, seconds: laneEvents / NOMINAL_LANE_EVENTS_PER_S };
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
  const parts = [`${cost.cells} cell${cost.cells === 1 ? '' : 's'}`, `${Math.round(cost.eventsPerCell)} ${cost.eventName}`, `${cost.weightedLanes} lane${cost.weightedLanes === 1 ? '' : 's'}${cost.learnerWeighted ? ` (a learner counts ${LEARNING_LANE_WEIGHT})` : ''}`];
  if (cost.seeds !== 1) parts.push(`${cost.seeds} seeds`);
  return `${cost.laneEvents.toPrecision(2)} lane-${cost.eventName} (${parts.join(' × ')}), about ${formatDuration(cost.seconds)} at ${NOMINAL_LANE_EVENTS_PER_S / 1e6} M per second`;
}
