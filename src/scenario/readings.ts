import { EARLIER_SERVING_READINGS, PAPER_SERVING_READINGS } from '../engine/serving/readings';

/**
 * The readings of BCEdge as a scenario names them (`serving.assumptions`, ARCHITECTURE §3):
 * the engine's (engine/serving/readings.ts) and the one the scenario reads itself, `rateBasis`
 * (how `rateRps` is shared, schema `totalRateRps`).
 */
export interface ScenarioReadings {
  readonly rateBasis: 'perModel' | 'total';
  readonly batching: 'form' | 'cap';
  readonly throughputTerm: 'configuration' | 'completed';
  readonly reward: 'withinSlo' | 'utility';
  readonly latencyProfile: 'tensorrt' | 'lab';
  readonly interference: 'coLocated' | 'ownModel';
  readonly slot: 'eq1' | 'fixed';
}

/** What an absent reading means: the paper's text. */
export const PAPER_SCENARIO_READINGS: ScenarioReadings = { rateBasis: 'perModel', ...PAPER_SERVING_READINGS };

/**
 * The lab's readings before they were named: a version-3 scenario runs under these, bit for
 * bit (the migration to version 4 gives it the first six, the one to version 5 the `slot`).
 */
export const EARLIER_SCENARIO_READINGS: ScenarioReadings = { rateBasis: 'total', ...EARLIER_SERVING_READINGS };

/** The readings' names, in the order the Assumptions panel and the claims list them. */
export const READING_NAMES = ['rateBasis', 'batching', 'throughputTerm', 'reward', 'latencyProfile', 'interference', 'slot'] as const satisfies readonly (keyof ScenarioReadings)[];

/** What the rate of the models without a schedule of their own is read from. */
export interface RateBlock {
  readonly rateRps: number;
  readonly models: readonly { readonly weight: number }[];
  readonly assumptions?: { readonly rateBasis?: 'perModel' | 'total' | undefined } | undefined;
}

/**
 * The total rate the models without a schedule of their own share by weight, rps. BCEdge
 * §V-A sets "the request arrival rate … to 30 requests per second" with "a request queue
 * for each model" (§III-A1); `rateBasis: "perModel"` (the default) reads it per model: the
 * models that send (weight > 0) send `rateRps` each on average (n × `rateRps` in total,
 * shared by weight, so equal weights give each `rateRps`); `"total"` splits `rateRps` over
 * them (the earlier reading).
 */
export function totalRateRps(v: RateBlock): number {
  if ((v.assumptions?.rateBasis ?? 'perModel') === 'total') return v.rateRps;
  return v.rateRps * v.models.filter((m) => m.weight > 0).length;
}
