import type { ModelId } from './models';
import type { PlatformId } from './platforms';
import { BATCH_SIZES, INSTANCE_COUNTS, MAX_BATCH_SIZE, MAX_INSTANCES, type ServingScheduler } from './scheduler';
import { ServingRun } from './simulation';
import { DEFAULT_SERVING_ASSUMPTIONS, type ServingAssumptions } from './assumptions';

/** Options of the Figure 1 sweep; every field has a default. */
export interface Figure1Options {
  readonly model?: ModelId;
  readonly platform?: PlatformId;
  readonly batchSizes?: readonly number[];
  readonly instanceCounts?: readonly number[];
  /**
   * The load of every cell. Default: a closed loop (BCEdge Fig. 1 measures a configuration
   * at load) of `outstanding` requests in flight, so the throughput is the configuration's
   * own. A number: a Poisson rate in rps instead (the earlier measurement, at 200 rps, whose
   * latencies grew with the queue of an overloaded run).
   */
  readonly rateRps?: number;
  /** Requests in flight under the closed loop (default: FIGURE1_OUTSTANDING). */
  readonly outstanding?: number;
  /** Simulated time per cell, ms (default 20 s: long enough for batches of 128 to form). */
  readonly durationMs?: number;
  readonly seed?: number;
  readonly assumptions?: ServingAssumptions;
}

/** The two matrices of BCEdge Figure 1, indexed [batch size][instances]. */
export interface Figure1Result {
  readonly model: ModelId;
  readonly platform: PlatformId;
  readonly batchSizes: readonly number[];
  readonly instanceCounts: readonly number[];
  /** Completed requests per second. */
  readonly throughputRps: readonly (readonly number[])[];
  /**
   * Mean end-to-end latency, ms, over the requests served and those still waiting at the
   * end (counted with their age then, a lower bound). Counting only the served ones would
   * flatter a configuration that stalls: under overload its late requests never finish and
   * drop out of the mean. Requests lost to out-of-memory are not in it: `oomBatches` marks
   * those cells (the paper's "memory overflow").
   */
  readonly latencyMeanMs: readonly (readonly number[])[];
  /** Batches that ran out of memory. */
  readonly oomBatches: readonly (readonly number[])[];
}

/**
 * BCEdge Figure 1 on the engine: one model alone on a platform, for every batch size b and
 * number of concurrent instances m_c, a fixed configuration serves a closed-loop load that
 * keeps the instances busy; the cell records throughput and mean latency. Same seed, same arrival
 * trace for every cell. Pure and deterministic.
 */
/**
 * Requests in flight in Figure 1's closed loop: enough for the largest configuration
 * (128 × 8) to run a full batch on every instance. A fixed population, as a load generator
 * keeps (Little's law: latency = population / throughput), so the cells with the highest
 * throughput have the lowest latency, as in the figure; the latencies include the queue of
 * the whole population (seconds).
 */
export const FIGURE1_OUTSTANDING = MAX_BATCH_SIZE * MAX_INSTANCES;

export function runFigure1Sweep(options: Figure1Options = {}): Figure1Result {
  const model = options.model ?? 'yolo';
  const platform = options.platform ?? 'xavier-nx';
  const batchSizes = options.batchSizes ?? BATCH_SIZES;
  const instanceCounts = options.instanceCounts ?? INSTANCE_COUNTS;
  const rateRps = options.rateRps;
  const outstanding = options.outstanding ?? FIGURE1_OUTSTANDING;
  const durationMs = options.durationMs ?? 20_000;
  const seed = options.seed ?? 1;
  const assumptions = options.assumptions ?? DEFAULT_SERVING_ASSUMPTIONS;
  const throughputRps: number[][] = [];
  const latencyMeanMs: number[][] = [];
  const oomBatches: number[][] = [];
  for (const batchSize of batchSizes) {
    const tRow: number[] = [];
    const lRow: number[] = [];
    const oRow: number[] = [];
    for (const instances of instanceCounts) {
      const fixed: ServingScheduler = { id: 'figure1', decide: () => [{ batchSize, instances }] };
      const run = new ServingRun(
        {
          platform,
          models: [{ model, weight: 1 }],
          rateRps: rateRps ?? 1,
          durationMs,
          seed,
          background: [],
          assumptions,
          ...(rateRps === undefined ? { closedLoop: { outstanding } } : {}),
        },
        fixed,
      );
      const summary = run.runToEnd();
      const backlog = run.backlog();
      tRow.push(summary.throughputRps);
      const servedMs = summary.latencyMeanMs * summary.completed;
      const counted = summary.completed + backlog.requests;
      lRow.push(counted > 0 ? (servedMs + backlog.ageSumMs) / counted : 0);
      oRow.push(summary.oomBatches);
    }
    throughputRps.push(tRow);
    latencyMeanMs.push(lRow);
    oomBatches.push(oRow);
  }
  return { model, platform, batchSizes, instanceCounts, throughputRps, latencyMeanMs, oomBatches };
}
