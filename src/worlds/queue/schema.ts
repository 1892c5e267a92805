import { z } from 'zod';
import { scenarioEnvelope } from '../../scenario/envelope';
import { int, num } from '../../scenario/fieldBounds';
import { SCENARIO_VERSION } from '../../scenario/limits';
import { QUEUE_MAX_SERVERS } from './schedulers/registry';

/** The queue world's block of a scenario inside the envelope every world shares (ARCHITECTURE §7b). */
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
export type QueueLane = QueueScenario['queue']['lanes'][number];

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
