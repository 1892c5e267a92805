import { DEFAULT_CONTENTION, type ContentionParams } from './contention';
import type { ServingReadings } from './readings';

export { EARLIER_SERVING_READINGS, PAPER_SERVING_READINGS, type ServingReadings } from './readings';
import { PAPER_SERVING_READINGS } from './readings';

/**
 * The serving world's modelling choices (ARCHITECTURE §2, "modelling choices are scenario
 * parameters"); each is a named parameter with a documented default.
 */
export interface ServingAssumptions extends ServingReadings {
  /**
   * The reporting interval, ms: the per-slot records, charts and metrics are taken every
   * `slotMs` (default 1 s: the paper's profiler records interference "with one second
   * period", §V-E). Under `slot: "fixed"` it is also the scheduling slot: every model
   * decides every `slotMs`. Under `slot: "eq1"` (the default, readings.ts) each model decides
   * at the end of its own slot of Eq. 1, t_i = Σ_batch SLO / m_c, and `slotMs` only reports
   * (and sets the learners' default training cadence, worlds/serving/agents/registry.ts `trainEveryMs`).
   * Eq. 1's Σ SLO / m_c is also the latency budget inside the utility (metrics.ts).
   */
  readonly slotMs: number;
  /** Bandwidth of the link from the IoT devices, Mbit/s (t_t of Eq. 2; assumed 200: 5 GHz Wi-Fi). */
  readonly linkBandwidthMbps: number;
  /** One-way propagation on the link, ms (added to t_t and t_o). */
  readonly linkLatencyMs: number;
  /**
   * Per-request SLO jitter: each request's SLO is drawn uniformly in SLO·[1 − j, 1 + j]
   * (§III-A1: "each request may have different SLOs"); 0 = every request has its model's.
   */
  readonly sloJitter: number;
  /** Copy rate that assembles a batch's inputs into one tensor, MB/s (t_s of Eq. 2). */
  readonly serializationMBps: number;
  /**
   * After an out-of-memory failure the instance is unavailable for this long, ms (the CUDA
   * error is caught, buffers freed, the error returned). A choice: the paper only says
   * memory can overflow (§I). Above 0: that handling takes time, and an instance free again
   * at the instant its batch failed would take the next batch into the same failure.
   */
  readonly oomRecoveryMs: number;
  /**
   * Noisy interference (ARCHITECTURE §3): each batch's contended time is multiplied by a seeded
   * mean-one log-normal factor exp(σ·z − σ²/2) with σ = noise × slowdown (capped at 2),
   * slowdown = contended / isolated time ≥ 1: the more a batch is interfered with, the
   * wider its spread (§V-E: interference is noisy and non-linear). 0 (the default) draws
   * nothing and reproduces the deterministic model bit for bit.
   */
  readonly interferenceNoise?: number;
  readonly contention: ContentionParams;
}

export const DEFAULT_SERVING_ASSUMPTIONS: ServingAssumptions = {
  slotMs: 1000,
  linkBandwidthMbps: 200,
  linkLatencyMs: 1,
  sloJitter: 0,
  serializationMBps: 2000,
  oomRecoveryMs: 50,
  interferenceNoise: 0,
  contention: DEFAULT_CONTENTION,
  ...PAPER_SERVING_READINGS,
};
