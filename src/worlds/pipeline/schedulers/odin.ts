import { moveUnits, type Configuration } from '../engine/configuration';
import type { PipelineScheduler, RebalanceContext, Rebalancing, TraceSink } from '../engine/scheduler';
import { argMax, maxValue, sameBottleneck } from './util';

export interface OdinParams {
  /** α: how many non-improving trials in a row end the exploration (Algorithm 1, line 5). */
  readonly alpha: number;
  /** ε of "better" (assumptions.betterTolerance; absent: 0, the strict comparison). */
  readonly betterTolerance?: number;
}

export type Direction = 'left' | 'right';

/** The live variables of Algorithm 1 at one line, for the teaching view and tests. */
export interface OdinStep {
  /** Line number of Algorithm 1 as printed in the paper. */
  readonly line: number;
  readonly configuration: readonly number[];
  readonly stageTimesMs: readonly number[];
  /** T, as the bottleneck time it stands for (T = 1000 / bottleneckMs). */
  readonly bottleneckMs: number;
  readonly newBottleneckMs: number | null;
  readonly gamma: number;
  readonly alpha: number;
  readonly affected: number | null;
  readonly sLeftMs: number | null;
  readonly sRightMs: number | null;
  readonly direction: Direction | null;
  readonly lightest: number | null;
  /** C_opt, the best configuration found so far. */
  readonly best: readonly number[];
}

/** Where the steps go: a callback (tests), or a sink that can be switched off (the lab). */
export type OdinTrace = ((step: OdinStep) => void) | TraceSink<OdinStep>;

/**
 * ODIN (Soomro et al., §3.2, Algorithm 1). Readings of the pseudocode, each decided here
 * and tested in odin.test.ts:
 * - t(C) is what was last *observed*: the detecting query's stage times, then each trial's.
 *   Lines 8–10 and 26–27 change C without a new measurement, so lines 12–19 work on the
 *   times of the last measured configuration. One query is spent per loop iteration, at
 *   line 22 only; that gives the paper's ≈α + (improvements) serial queries per phase (§4.2).
 * - Line 6: ties for the slowest stage go to the lowest index.
 * - Lines 8–10 at the edges of the pipeline: only a neighbour that exists receives a unit,
 *   and PS_affected gives only what it holds (the tail unit goes right first, then the head
 *   unit goes left). A stage may become empty.
 * - Lines 12–13: S_left = Σ_{j<PS_affected} t_j and S_right = Σ_{j>PS_affected} t_j (half-open
 *   ranges on both sides, the symmetric reading of `sum(t(C[0], C[PS_affected]))` and
 *   `sum(t(C[PS_affected+1], C[N]))`). When the chosen side has no stage (PS_affected is the
 *   first or last), the other side is used.
 * - Line 19: PS_lightest is the stage with the smallest t on that side; ties go to the one
 *   nearest PS_affected (fewest stages shifted by the move).
 * - Lines 20–21 move one unit even to a non-adjacent stage: the stages in between shift.
 * - Lines 23–25: T_new = T when the bottleneck times agree to a relative 1e-9 (floating sums
 *   of the same layers in another order differ in the last bits).
 * - "Better" (line 23, T_new > T) is strict by default; with a tolerance ε
 *   (`assumptions.betterTolerance`, the paper is silent) a trial must be faster by more than
 *   ε to count as improving: on measured times noise alone would otherwise reset γ.
 * - C is not reset to C_opt after a non-improving trial: exploration goes on from the trial
 *   configuration, as §3.2 ("deliberately move more layers") describes; C_opt is returned.
 */
export function* odinRebalance(context: RebalanceContext, params: OdinParams, trace?: OdinTrace): Rebalancing {
  const alpha = params.alpha;
  const epsilon = params.betterTolerance ?? 0;
  const n = context.configuration.length;
  const config: Configuration = context.configuration.slice();
  let times: Float64Array = context.stageTimesMs.slice();
  let bottleneck = maxValue(times); // line 2: T ← throughput(C)
  let best: Configuration = config.slice(); // line 3
  let gamma = 0; // line 4
  let newBottleneck: number | null = null;
  let affected: number | null = null;
  let sLeft: number | null = null;
  let sRight: number | null = null;
  let direction: Direction | null = null;
  let lightest: number | null = null;
  const push = trace === undefined ? null : typeof trace === 'function' ? { enabled: true, push: trace } : trace;
  const emit = (line: number): void => {
    if (push === null || !push.enabled) return;
    push.push({
      line,
      configuration: Array.from(config),
      stageTimesMs: Array.from(times),
      bottleneckMs: bottleneck,
      newBottleneckMs: newBottleneck,
      gamma,
      alpha,
      affected,
      sLeftMs: sLeft,
      sRightMs: sRight,
      direction,
      lightest,
      best: Array.from(best),
    });
  };
  emit(2);
  emit(3);
  emit(4);
  while (gamma < alpha) {
    emit(5);
    affected = argMax(times); // line 6
    emit(6);
    emit(7);
    if (gamma === 0) {
      if (affected + 1 < n) moveUnits(config, affected, affected + 1, 1); // line 8
      emit(8);
      if (affected - 1 >= 0) moveUnits(config, affected, affected - 1, 1); // line 9
      emit(9);
      emit(10); // line 10 (C[PS_affected] −= 2) is the other half of lines 8–9 in counts.
    }
    sLeft = 0;
    for (let j = 0; j < affected; j++) sLeft += times[j]!;
    emit(12);
    sRight = 0;
    for (let j = affected + 1; j < n; j++) sRight += times[j]!;
    emit(13);
    emit(14);
    direction = sLeft < sRight ? 'left' : 'right';
    if (direction === 'left' && affected === 0) direction = 'right';
    if (direction === 'right' && affected === n - 1) direction = 'left';
    emit(direction === 'left' ? 15 : 17);
    lightest = lightestToward(times, affected, direction);
    emit(19);
    if (lightest !== null) {
      moveUnits(config, affected, lightest, 1); // lines 20–21
    }
    emit(20);
    emit(21);
    times = yield config.slice(); // line 22: one query runs on C
    newBottleneck = maxValue(times);
    emit(22);
    emit(23);
    // With ε > 0 a trial that is faster by less than ε counts as not improving (line 24's branch).
    if (!sameBottleneck(newBottleneck, bottleneck) && (newBottleneck > bottleneck || (epsilon > 0 && newBottleneck >= (1 - epsilon) * bottleneck))) {
      gamma += 1; // line 24: T_new < T
      emit(24);
    } else if (sameBottleneck(newBottleneck, bottleneck)) {
      emit(25);
      if (lightest !== null) moveUnits(config, affected, lightest, 1); // lines 26–27
      emit(26);
      emit(27);
      gamma += 1; // line 28
      emit(28);
    } else {
      emit(29);
      gamma = 0; // line 30
      emit(30);
      bottleneck = newBottleneck; // line 31
      emit(31);
      best = config.slice(); // line 32
      emit(32);
    }
  }
  emit(35);
  return best;
}

/** PS_lightest (line 19): the smallest t on one side of `affected`; ties nearest to it. */
function lightestToward(times: Float64Array, affected: number, direction: Direction): number | null {
  let best: number | null = null;
  if (direction === 'left') {
    for (let j = affected - 1; j >= 0; j--) if (best === null || times[j]! < times[best]!) best = j;
  } else {
    for (let j = affected + 1; j < times.length; j++) if (best === null || times[j]! < times[best]!) best = j;
  }
  return best;
}

/** The `odin` scheduler with a fixed α. */
export function createOdin(params: OdinParams, trace?: OdinTrace): PipelineScheduler {
  const checkAlpha = (alpha: number): number => {
    if (!Number.isInteger(alpha) || alpha < 1) throw new RangeError(`odin.alpha must be an integer ≥ 1, got ${alpha}`);
    return alpha;
  };
  const tolerance = params.betterTolerance === undefined ? {} : { betterTolerance: params.betterTolerance };
  let current: OdinParams = { alpha: checkAlpha(params.alpha), ...tolerance };
  return {
    id: 'odin',
    rebalance: (context) => odinRebalance(context, current, trace),
    setParameter(name, value) {
      if (name !== 'alpha') throw new RangeError(`odin has no parameter ${name}`);
      current = { alpha: checkAlpha(value), ...tolerance };
    },
    parameters: () => ({ alpha: current.alpha }),
  };
}
