import { z } from 'zod';
import type { World, WorldResultRow } from '../../kit/world';
import { EventQueue } from '../../engine/eventQueue';
import { createRng } from '../../engine/rng';
import { int, num } from '../../scenario/fieldBounds';
import { SCENARIO_VERSION } from '../../scenario/limits';
import { validatorOf } from '../../scenario/schema';
import { scenarioEnvelope } from '../../scenario/envelope';
import { cellScenario, type SweepCell } from '../../scenario/sweep';

/**
 * A small third world, in the test tree (ARCHITECTURE §7b): an M/M/c queue — Poisson arrivals
 * at `arrivalRps`, exponential service at `serviceRps` per server — whose schedulers choose c,
 * the servers in use. It is not a paper's world; it exists to show that the kit (the scenario
 * door, links, sweeps, cost, claims' estimates, Explore's fields, the live session) runs a
 * world it was never told of, once the world is registered.
 */

/** The servers a scheduler may use at most. */
export const QUEUE_MAX_SERVERS = 16;

/** Its two schedulers: `fixed` (c servers always) and `threshold` (one more server per `perServer` waiting). */
export const QUEUE_SCHEDULERS = {
  fixed: { parameters: [{ name: 'servers', label: 'servers', min: 1, max: QUEUE_MAX_SERVERS, integer: true, default: 2 }] },
  threshold: { parameters: [{ name: 'perServer', label: 'waiting per extra server', min: 1, max: 100, integer: true, default: 4 }] },
} as const;
type QueueSchedulerId = keyof typeof QUEUE_SCHEDULERS;

const laneSchema = z.strictObject({
  scheduler: z.enum(['fixed', 'threshold']),
  params: z.strictObject({ servers: int(1, QUEUE_MAX_SERVERS).optional(), perServer: int(1, 100).optional() }).optional(),
});

const ENVELOPE = scenarioEnvelope('queue', 8);
export const queueScenarioSchema = z.strictObject({
  ...ENVELOPE.head,
  queue: z.strictObject({
    arrivalRps: num(0.01, 10_000),
    serviceRps: num(0.01, 10_000),
    durationS: num(1, 100_000),
    lanes: z.array(laneSchema).min(1).max(8),
  }),
  ...ENVELOPE.tail,
});
export type QueueScenario = z.infer<typeof queueScenarioSchema>;

/** What a lane's run gives: the mean wait, the rate served and the server time it used. */
export interface QueueSummary {
  readonly requests: number;
  readonly servedRps: number;
  readonly waitMeanMs: number;
  readonly serverSeconds: number;
}

/** The servers a lane's scheduler uses with `waiting` requests in the queue. */
function servers(lane: QueueScenario['queue']['lanes'][number], waiting: number): number {
  if (lane.scheduler === 'fixed') return lane.params?.servers ?? QUEUE_SCHEDULERS.fixed.parameters[0].default;
  const per = lane.params?.perServer ?? QUEUE_SCHEDULERS.threshold.parameters[0].default;
  return Math.min(QUEUE_MAX_SERVERS, 1 + Math.floor(waiting / per));
}

type QueueEvent = { readonly kind: 'arrival' } | { readonly kind: 'done' };

/**
 * One lane run forward in simulated time (pure: a seeded generator; the arrival stream is the
 * same for every lane of a seed, the service stream too). A request starts when a server is
 * free within the lane's current c; c is read again at every arrival and completion.
 */
export class QueueLaneRun {
  private readonly arrivals: ReturnType<typeof createRng>;
  private readonly service: ReturnType<typeof createRng>;
  private readonly events = new EventQueue<QueueEvent>();
  private readonly endMs: number;
  private readonly waiting: number[] = [];
  private nowMs = 0;
  private busyNow = 0;
  private requests = 0;
  private served = 0;
  private waitSumMs = 0;
  private busyMs = 0;
  private lastMs = 0;

  constructor(
    private readonly scenario: QueueScenario,
    private readonly laneIndex: number,
  ) {
    this.arrivals = createRng(scenario.seed, 1);
    this.service = createRng(scenario.seed, 2);
    this.endMs = scenario.queue.durationS * 1000;
    this.events.push(this.arrivals.exponential(1000 / scenario.queue.arrivalRps), { kind: 'arrival' });
  }

  /** Simulated ms reached. */
  get timeMs(): number {
    return this.nowMs;
  }

  /** Requests waiting and servers busy now. */
  get queue(): { readonly waiting: number; readonly busy: number } {
    return { waiting: this.waiting.length, busy: this.busyNow };
  }

  /** Runs every event up to `timeMs` (at most the run's end). */
  advanceTo(timeMs: number): void {
    const q = this.scenario.queue;
    const lane = q.lanes[this.laneIndex]!;
    const until = Math.min(timeMs, this.endMs);
    for (let e = this.events.peek(); e !== undefined && e.timeMs <= until; e = this.events.peek()) {
      this.events.pop();
      this.busyMs += this.busyNow * (e.timeMs - this.lastMs);
      this.lastMs = e.timeMs;
      if (e.payload.kind === 'arrival') {
        this.requests++;
        this.waiting.push(e.timeMs);
        this.events.push(e.timeMs + this.arrivals.exponential(1000 / q.arrivalRps), { kind: 'arrival' });
      } else {
        this.busyNow--;
        this.served++;
      }
      while (this.waiting.length > 0 && this.busyNow < servers(lane, this.waiting.length)) {
        this.waitSumMs += e.timeMs - this.waiting.shift()!;
        this.busyNow++;
        this.events.push(e.timeMs + this.service.exponential(1000 / q.serviceRps), { kind: 'done' });
      }
    }
    this.nowMs = Math.max(this.nowMs, until);
  }

  /** The lane's summary over the time run so far (over `durationS` at the end). */
  summary(): QueueSummary {
    const seconds = this.nowMs === this.endMs ? this.scenario.queue.durationS : this.nowMs / 1000;
    const started = this.served + this.busyNow;
    return {
      requests: this.requests,
      servedRps: seconds > 0 ? this.served / seconds : 0,
      waitMeanMs: started > 0 ? this.waitSumMs / started : 0,
      serverSeconds: (this.busyMs + this.busyNow * (this.nowMs - this.lastMs)) / 1000,
    };
  }
}

/** Runs one lane for `durationS` (`QueueLaneRun` to its end). */
export function runQueueLane(scenario: QueueScenario, laneIndex: number): QueueSummary {
  const run = new QueueLaneRun(scenario, laneIndex);
  run.advanceTo(Number.POSITIVE_INFINITY);
  return run.summary();
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

/** A queue scenario at the current version: 2 rps on servers of 1 rps, a fixed lane of 3 servers and a threshold lane. */
export function queueScenario(): QueueScenario {
  return {
    version: SCENARIO_VERSION,
    world: 'queue',
    title: 'M/M/c',
    seed: 7,
    queue: { arrivalRps: 2, serviceRps: 1, durationS: 600, lanes: [{ scheduler: 'fixed', params: { servers: 3 } }, { scheduler: 'threshold' }] },
  };
}
