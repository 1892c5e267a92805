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
}

/** What an absent reading means: the paper's text. */
export const PAPER_SCENARIO_READINGS: ScenarioReadings = { rateBasis: 'perModel', ...PAPER_SERVING_READINGS };

/** The lab's readings before they were named (a version-3 scenario runs under these, bit for bit). */
export const EARLIER_SCENARIO_READINGS: ScenarioReadings = { rateBasis: 'total', ...EARLIER_SERVING_READINGS };

/** The readings' names, in the order the Assumptions panel and the claims list them. */
export const READING_NAMES = ['rateBasis', 'batching', 'throughputTerm', 'reward', 'latencyProfile', 'interference'] as const satisfies readonly (keyof ScenarioReadings)[];
