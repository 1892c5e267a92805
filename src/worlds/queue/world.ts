import type { World, WorldResultRow } from '../../kit/world';
import { validatorOf } from '../../scenario/schema';
import { cellScenario, type SweepCell } from '../../scenario/sweep';
import { QueueLaneRun, runQueueToEnd, type QueueRunSpec, type QueueSummary } from './engine/queueRun';
import { QUEUE_SCHEDULERS, serversPolicy, type QueueSchedulerId } from './schedulers/registry';
import { queueScenarioSchema, type QueueScenario } from './schema';

/**
 * A small third world (ARCHITECTURE §7b): an M/M/c queue whose schedulers choose c, the servers
 * in use. It is not a paper's world and is not in the page's list: its tests register it
 * (`registerWorld`) to show that the kit — the scenario door, links, sweeps, cost, claims'
 * estimates, Explore's fields, the live session, the store and the page shell — runs a world
 * it was never told of, and its engine is checked against the exact M/M/c answer (Erlang C).
 */

/** The run of lane `laneIndex` of a scenario: its rates, seed and scheduler. */
export function queueRunSpec(scenario: QueueScenario, laneIndex: number): QueueRunSpec {
  const q = scenario.queue;
  return { seed: scenario.seed, arrivalRps: q.arrivalRps, serviceRps: q.serviceRps, durationS: q.durationS, servers: serversPolicy(q.lanes[laneIndex]!) };
}

/** A lane's run of a scenario, from time 0. */
export function queueLaneRun(scenario: QueueScenario, laneIndex: number): QueueLaneRun {
  return new QueueLaneRun(queueRunSpec(scenario, laneIndex));
}

/** Runs one lane for `durationS`. */
export function runQueueLane(scenario: QueueScenario, laneIndex: number): QueueSummary {
  return runQueueToEnd(queueRunSpec(scenario, laneIndex));
}

/** The queue world as the kit sees it. */
export const queueWorld: World<QueueScenario> = {
  id: 'queue',
  labName: 'the queue lab',
  eventName: 'requests',
  sweepMetrics: ['waitMeanMs', 'servedRps', 'serverSeconds', 'requests'],
  optionalFields: new Set(),
  migrations: {},
  papers: [],
  presets: () => [],
  claims: () => [],
  hasLearners: false,
  validate: validatorOf(queueScenarioSchema),
  schema: () => queueScenarioSchema,
  lanes: (s) => s.queue.lanes,
  withLanes: (s, lanes) => ({ ...s, queue: { ...s.queue, lanes: lanes as QueueScenario['queue']['lanes'] } }),
  asCellsRun: (s) => s,
  withOptionalDefaults: (s) => s,
  parameters: (scheduler) => QUEUE_SCHEDULERS[scheduler as QueueSchedulerId]?.parameters ?? [],
  learns: () => false,
  cellCost: (s) => ({ events: s.queue.arrivalRps * s.queue.durationS, weightedLanes: s.queue.lanes.length }),
  runCell: (s, cell: SweepCell): WorldResultRow[] => {
    const plain = cellScenario(s as never, cell) as unknown as QueueScenario;
    return plain.queue.lanes.map((lane, k) => ({ scheduler: lane.scheduler, label: `${lane.scheduler} ${k + 1}`, params: lane.params ?? {}, seed: cell.seed, summary: runQueueLane(plain, k) }));
  },
  runLength: (s) => `${s.queue.durationS} s of queueing`,
  lengthAxis: (s) => ({ path: 'queue.durationS', values: [s.queue.durationS] }),
  defaultSweep: () => ({ axes: [{ path: 'queue.arrivalRps', values: [1, 2, 3] }], seeds: 2 }),
  checkingBase: (base) => ({ ...base }),
};
