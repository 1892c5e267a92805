import { EARLIER_SERVING_READINGS, PAPER_SERVING_READINGS } from '../engine/readings';

/**
 * The readings of BCEdge as a scenario names them (`serving.assumptions`, ARCHITECTURE §3):
 * the engine's (worlds/serving/engine/readings.ts) and the one the scenario reads itself, `rateBasis`
 * (how `rateRps` is shared, schema `totalRateRps`).
 */
export interface ScenarioReadings {
  readonly rateBasis: 'perModel' | 'total';
  readonly batching: 'form' | 'cap';
  readonly throughputTerm: 'configuration' | 'completed';
  readonly reward: 'withinSlo' | 'utility';
  readonly latencyProfile: 'tensorrt' | 'lab';
  readonly interference: 'coLocated' | 'ownModel';
  /** Figs. 11–12's platforms (§V-D): each model alone on its own Nano or TX2 (`perModel`), or the models together on every platform (`mixed`); worlds/serving/scenario/deviceCopies.ts. */
  readonly platformSetting: 'perModel' | 'mixed';
  /** The scheduling slot (§III-A2, Eq. 1): each model's own t_i = Σ SLO / m_c (`eq1`), or one fixed slot for all (`fixed`). */
  readonly slot: 'eq1' | 'fixed';
  /** Which requests a decision's reward is the utility of: those it governed, or those completed in its slot (worlds/serving/engine/readings.ts). */
  readonly credit: 'governed' | 'slot';
  /** A queued request that can no longer meet its SLO: rejected, or kept until served (worlds/serving/engine/readings.ts). */
  readonly lateRequests: 'reject' | 'keep';
}

/** What an absent reading means: the paper's text. */
export const PAPER_SCENARIO_READINGS: ScenarioReadings = { rateBasis: 'perModel', ...PAPER_SERVING_READINGS, platformSetting: 'perModel' };

/**
 * The lab's readings before they were named: a version-3 scenario runs under these, bit for
 * bit (the migration to version 4 gives it the first six, the one to version 5 the platform
 * setting, the one to version 6 the `slot`, the one to version 7 the `credit` and `lateRequests`).
 */
export const EARLIER_SCENARIO_READINGS: ScenarioReadings = { rateBasis: 'total', ...EARLIER_SERVING_READINGS, platformSetting: 'mixed' };

/** The readings' names, in the order the Assumptions panel and the claims list them. */
export const READING_NAMES = ['rateBasis', 'batching', 'throughputTerm', 'reward', 'latencyProfile', 'interference', 'platformSetting', 'slot', 'credit', 'lateRequests'] as const satisfies readonly (keyof ScenarioReadings)[];

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

/** The platforms BCEdge §V-D adds to Xavier NX (Table V): under `platformSetting: "perModel"` each model is served alone on its own copy of one (worlds/serving/scenario/deviceCopies.ts). */
export const SCALABILITY_PLATFORMS: readonly string[] = ['nano', 'tx2'];

/**
 * Whether a run on `platform` with these models serves each model on its own copy of the
 * device under `setting` (absent: the paper's `perModel`): on Nano and TX2, with more than one
 * model (one model is alone already). Xavier NX is always shared (§V-A).
 */
export function servedApart(run: { readonly platform: string; readonly models: readonly unknown[] }, setting: 'perModel' | 'mixed' | undefined): boolean {
  return (setting ?? 'perModel') === 'perModel' && SCALABILITY_PLATFORMS.includes(run.platform) && run.models.length > 1;
}
