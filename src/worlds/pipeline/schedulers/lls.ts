import { moveUnits, type Configuration } from '../engine/configuration';
import type { PipelineScheduler, RebalanceContext, Rebalancing, TraceSink } from '../engine/scheduler';
import { maxValue, sameBottleneck } from './util';

/**
 * How to read LLS's utilization formula (ODIN §3.3), a scenario parameter (ARCHITECTURE §2):
 * - `literal`: w_0 = 0, w_i = w_{i−1} + t_{i−1} − t_i exactly as printed (w may go negative),
 *   υ_i = 1 − w_i / (w_i + t_i), ties broken by stage index (lowest first).
 * - `repaired`: w_i clamped at 0 (a stage cannot wait a negative time), ties broken by stage
 *   time (most utilized: the slower stage; least utilized: the faster one), then index.
 */
export type LlsReading = 'literal' | 'repaired';

/**
 * Per-stage utilization υ_i. Note that in the literal reading the recurrence telescopes:
 * w_i + t_i = w_{i−1} + t_{i−1} = … = t_0, so υ_i = t_i / t_0 — the ordering of stages by
 * utilization is the ordering by stage time. When w_i + t_i = 0 (only an empty first stage
 * can cause it) the formula is 0/0; we take υ_i = 1 for a non-empty stage and 0 for an
 * empty one.
 */
export function llsUtilization(stageTimesMs: ArrayLike<number>, reading: LlsReading): Float64Array {
  return llsWaitsAndUtilization(stageTimesMs, reading).utilization;
}

/** Per-stage waiting time w_i and utilization υ_i (see `llsUtilization`). */
export function llsWaitsAndUtilization(stageTimesMs: ArrayLike<number>, reading: LlsReading): { readonly waitMs: Float64Array; readonly utilization: Float64Array } {
  const n = stageTimesMs.length;
  const u = new Float64Array(n);
  const waits = new Float64Array(n);
  let w = 0;
  for (let i = 0; i < n; i++) {
    const t = stageTimesMs[i]!;
    if (i > 0) {
      w = w + stageTimesMs[i - 1]! - t;
      if (reading === 'repaired' && w < 0) w = 0;
    }
    waits[i] = w;
    const denominator = w + t;
    u[i] = denominator === 0 ? (t > 0 ? 1 : 0) : 1 - w / denominator;
  }
  return { waitMs: waits, utilization: u };
}

/**
 * The live variables of LLS at one line of the lab's pseudocode (`LLS_PSEUDOCODE` in
 * teaching.ts: the paper prints no pseudocode for LLS, §3.3 describes it in words).
 */
export interface LlsStep {
  readonly line: number;
  /** C, the configuration kept so far. */
  readonly configuration: readonly number[];
  /** C_trial, the configuration being tried (null before line 7). */
  readonly trialConfiguration: readonly number[] | null;
  /** t(C) the algorithm is looking at (the last measured configuration). */
  readonly stageTimesMs: readonly number[];
  readonly waitMs: readonly number[];
  readonly utilization: readonly number[];
  readonly most: number | null;
  readonly least: number | null;
  /** T, as the bottleneck time it stands for. */
  readonly bottleneckMs: number;
  readonly newBottleneckMs: number | null;
  /** Which move of at most L this is (1-based; 0 before the loop). */
  readonly move: number;
}

export type LlsTrace = ((step: LlsStep) => void) | TraceSink<LlsStep>;

/** The most and least utilized stages under a reading's tie rule. */
export function llsSourceAndTarget(
  stageTimesMs: ArrayLike<number>,
  reading: LlsReading,
): { readonly most: number; readonly least: number } {
  const u = llsUtilization(stageTimesMs, reading);
  let most = 0;
  let least = 0;
  for (let i = 1; i < u.length; i++) {
    const t = stageTimesMs[i]!;
    if (u[i]! > u[most]! || (reading === 'repaired' && u[i] === u[most] && t > stageTimesMs[most]!)) most = i;
    if (u[i]! < u[least]! || (reading === 'repaired' && u[i] === u[least] && t < stageTimesMs[least]!)) least = i;
  }
  return { most, least };
}

/**
 * The least-loaded scheduler as ODIN §3.3 implements it: move one unit from the most to the
 * least utilized stage, measure (one query), and repeat while throughput does not fall;
 * the last configuration before a fall is installed. Equal throughput continues ("until
 * the throughput starts decreasing"); at most L moves per phase, so equal-throughput moves
 * cannot cycle for ever.
 */
export function* llsRebalance(context: RebalanceContext, reading: LlsReading, trace?: LlsTrace): Rebalancing {
  let config: Configuration = context.configuration.slice();
  let times: Float64Array = context.stageTimesMs.slice();
  let bottleneck = maxValue(times);
  const sink = trace === undefined ? null : typeof trace === 'function' ? { enabled: true, push: trace } : trace;
  let trial: Configuration | null = null;
  let most: number | null = null;
  let least: number | null = null;
  let newBottleneck: number | null = null;
  let move = 0;
  const emit = (line: number): void => {
    if (sink === null || !sink.enabled) return;
    const { waitMs, utilization } = llsWaitsAndUtilization(times, reading);
    sink.push({
      line,
      configuration: Array.from(config),
      trialConfiguration: trial === null ? null : Array.from(trial),
      stageTimesMs: Array.from(times),
      waitMs: Array.from(waitMs),
      utilization: Array.from(utilization),
      most,
      least,
      bottleneckMs: bottleneck,
      newBottleneckMs: newBottleneck,
      move,
    });
  };
  emit(1);
  for (let moves = 0; moves < context.unitCount; moves++) {
    move = moves + 1;
    trial = null;
    newBottleneck = null;
    emit(2);
    emit(3);
    emit(4);
    ({ most, least } = llsSourceAndTarget(times, reading));
    emit(5);
    emit(6);
    if (most === least || config[most] === 0) break;
    trial = config.slice();
    moveUnits(trial, most, least, 1);
    emit(7);
    const observed = yield trial.slice();
    const observedBottleneck = maxValue(observed);
    newBottleneck = observedBottleneck;
    emit(8);
    emit(9);
    if (observedBottleneck > bottleneck && !sameBottleneck(observedBottleneck, bottleneck)) break;
    config = trial;
    times = observed.slice();
    bottleneck = observedBottleneck;
    trial = null;
    emit(10);
  }
  emit(12);
  return config;
}

export interface LlsParams {
  readonly reading: LlsReading;
}

/** The `lls` scheduler under one reading of its formula. */
export function createLls(params: LlsParams, trace?: LlsTrace): PipelineScheduler {
  return { id: 'lls', rebalance: (context) => llsRebalance(context, params.reading, trace), parameters: () => ({}) };
}
