import { BATCH_SIZES, INSTANCE_COUNTS, type ModelAction, type ServingAction, type ServingScheduler } from '../../engine/serving/scheduler';
import { phaseBoundariesMs, ServingRun, type ServingRunSpec } from '../../engine/serving/simulation';

/**
 * Reference lanes (oracles) for the serving world: what a fixed configuration could have
 * done had it known the run in advance. The learners are judged against these, not only
 * against Triton's default (issue 16). They are not schedulers one could deploy: they
 * search by re-running the lane's own trace (same spec, same seed: the same requests, the
 * same tenants, the same noise stream) many times before the run, and then replay what
 * they found.
 *
 * Search space: the grid of `BATCH_SIZES` up to `maxBatch` × `INSTANCE_COUNTS` up to
 * `maxInstances` (defaults b ≤ 32, m_c ≤ 3: beyond those no configuration wins on these
 * presets and each one more column costs a run per model; the parameters widen it).
 *
 * - `fixed-hindsight`: per model, one (b, m_c) for the whole run. First every uniform
 *   configuration (all models the same; this alone is "Triton at its best uniform
 *   setting", `perModel: 0`), then coordinate ascent from the best of them: for each model
 *   in turn every grid point with the others held, keeping a change only when the run's
 *   utility rises strictly; `rounds` passes, stopping early when a pass changes nothing.
 *   Objective: the run's mean utility (Eq. 3, the summary's `utilityMean`). Cost:
 *   |grid| + rounds × models × |grid| runs of the whole trace.
 * - `fixed-per-phase`: one (b, m_c) per model per phase, the phases cut at the schedule's
 *   known boundaries (rate steps and ramp corners, tenants arriving and leaving, services
 *   starting and stopping; `phaseS` > 0 also cuts every phaseS seconds). Starting from the
 *   hindsight configuration everywhere, phase by phase in time order, the same coordinate
 *   ascent over that phase's configuration, the objective being the mean utility of that
 *   phase's slots (earlier phases at what they found, later ones at the hindsight
 *   configuration; each evaluation runs the trace up to the phase's end). Greedy per phase,
 *   so it can lose overall to hindsight (a queue left for the next phase): the whole plan is
 *   evaluated at the end and, if it does worse than hindsight, hindsight's configuration is
 *   kept (reported). Cost: the hindsight search plus Σ_phases rounds × models × |grid|
 *   runs up to the phase's end.
 *
 * Both are therefore at least as good as every uniform fixed configuration of the grid on
 * their own trace (tested), and per phase at least as good as hindsight.
 */
export interface ReferenceSearchParams {
  readonly maxBatch: number;
  readonly maxInstances: number;
  /** Coordinate-ascent passes over the models. */
  readonly rounds: number;
  /** 0: every model the same configuration (Triton's best uniform setting). */
  readonly perModel: boolean;
  /** Also cut phases every this many seconds (0: only at the schedule's boundaries). */
  readonly phaseS?: number;
}

/**
 * Called after each evaluation (one run of the trace, whole or up to a phase's end) with the
 * evaluations so far and `total`, an upper bound fixed before the search starts
 * (`referenceSearchBound`: coordinate ascent may stop early, after a pass that changed nothing,
 * and the last call then has `done` below it). The page shows it while a reference lane searches.
 */
export type SearchProgress = (done: number, total: number) => void;

/** One phase of a plan: from `fromMs` on, these actions. */
export interface PhasePlan {
  readonly fromMs: number;
  readonly actions: ServingAction;
}

export interface ReferenceResult {
  readonly plan: readonly PhasePlan[];
  /** The run's mean utility under the plan (the search's own evaluation). */
  readonly utility: number;
  /** Runs of the trace the search took (each whole, or up to a phase's end). */
  readonly evaluations: number;
  /** Per phase, whether the plan kept hindsight's configuration because its own did worse overall. */
  readonly fellBackToHindsight?: boolean;
}

/** A scheduler that replays a plan: the actions of the phase each decision falls in. */
export function createPlanned(id: string, plan: readonly PhasePlan[], report?: () => Readonly<Record<string, unknown>>): ServingScheduler {
  if (plan.length === 0 || plan[0]!.fromMs !== 0) throw new RangeError('a plan starts at 0 ms');
  return {
    id,
    decide: (observation) => {
      let k = 0;
      while (k + 1 < plan.length && plan[k + 1]!.fromMs <= observation.nowMs) k++;
      return plan[k]!.actions.map((a) => ({ ...a }));
    },
    ...(report === undefined ? {} : { report }),
  };
}

/** The grid searched. */
export function searchGrid(params: ReferenceSearchParams): ModelAction[] {
  const grid: ModelAction[] = [];
  for (const batchSize of BATCH_SIZES) {
    if (batchSize > params.maxBatch) continue;
    for (const instances of INSTANCE_COUNTS) if (instances <= params.maxInstances) grid.push({ batchSize, instances });
  }
  return grid;
}

/** Evaluations of one coordinate-ascent search at most: every grid point but the current one, per model, per pass. */
function ascentBound(models: number, grid: number, params: ReferenceSearchParams): number {
  return params.perModel && models > 1 ? params.rounds * models * (grid - 1) : 0;
}

/**
 * The most evaluations a search can take (the progress's total): hindsight |grid| + ascent;
 * per phase, that plus, per phase, its start, |grid| and its ascent, plus the final run.
 */
export function referenceSearchBound(kind: 'fixed-hindsight' | 'fixed-per-phase', spec: ServingRunSpec, params: ReferenceSearchParams): number {
  const grid = searchGrid(params).length;
  const models = spec.models.length;
  const hindsight = grid + ascentBound(models, grid, params);
  if (kind === 'fixed-hindsight') return hindsight;
  return hindsight + phaseStartsMs(spec, params.phaseS ?? 0).length * (1 + grid + ascentBound(models, grid, params)) + 1;
}

/** Counts evaluations and reports them; `offset` continues another search's count. */
function counter(total: number, progress: SearchProgress | undefined, offset = 0): <T extends unknown[]>(f: (...args: T) => number) => (...args: T) => number {
  let done = offset;
  return (f) =>
    (...args) => {
      const value = f(...args);
      done++;
      progress?.(done, total);
      return value;
    };
}

/** Mean utility over the run (the summary's utilityMean) of a plan. */
function runUtility(spec: ServingRunSpec, plan: readonly PhasePlan[]): number {
  return new ServingRun(spec, createPlanned('reference', plan)).runToEnd().utilityMean;
}

/** Mean per-model utility of the slots ending in (fromMs, toMs], running the trace up to toMs. */
function phaseUtility(spec: ServingRunSpec, plan: readonly PhasePlan[], fromMs: number, toMs: number): number {
  const slots = Math.ceil(spec.durationMs / spec.assumptions.slotMs) + 2;
  const run = new ServingRun({ ...spec, seriesCap: Math.max(2, slots) }, createPlanned('reference', plan));
  run.advanceTo(toMs);
  let sum = 0;
  let count = 0;
  for (const record of run.series.values) {
    if (record.endMs <= fromMs || record.endMs > toMs) continue;
    for (const m of record.perModel) {
      if (m.utility === null) continue;
      sum += m.utility;
      count++;
    }
  }
  return count > 0 ? sum / count : 0;
}

const uniform = (models: number, a: ModelAction): ServingAction => Array.from({ length: models }, () => ({ ...a }));

/**
 * Coordinate ascent over one phase's actions: `evaluate(actions)` is the objective; starts at
 * `start` (whose value is `startValue`) and returns the best found.
 */
function ascend(
  start: ServingAction,
  startValue: number,
  grid: readonly ModelAction[],
  rounds: number,
  evaluate: (actions: ServingAction) => number,
): { actions: ServingAction; value: number; evaluations: number } {
  let best = start.map((a) => ({ ...a }));
  let bestValue = startValue;
  let evaluations = 0;
  for (let round = 0; round < rounds; round++) {
    let changed = false;
    for (let m = 0; m < best.length; m++) {
      // The model's configuration when its turn began: its value is known (a change found
      // earlier in the turn must not send the search back to evaluate it again).
      const held = best[m]!;
      for (const g of grid) {
        if (g.batchSize === held.batchSize && g.instances === held.instances) continue;
        const candidate = best.map((a, j) => (j === m ? { ...g } : a));
        const value = evaluate(candidate);
        evaluations++;
        if (value > bestValue) {
          best = candidate;
          bestValue = value;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { actions: best, value: bestValue, evaluations };
}

/** `fixed-hindsight`: the best single configuration per model (or uniform) over the whole run. */
export function searchFixedInHindsight(
  spec: ServingRunSpec,
  params: ReferenceSearchParams,
  progress?: SearchProgress,
  /** The total reported (a per-phase search starts with this one and reports its own). */
  total = referenceSearchBound('fixed-hindsight', spec, params),
): ReferenceResult {
  const grid = searchGrid(params);
  const models = spec.models.length;
  const counted = counter(total, progress);
  const evaluate = counted((actions: ServingAction) => runUtility(spec, [{ fromMs: 0, actions }]));
  let best: ServingAction = uniform(models, grid[0]!);
  let bestValue = Number.NEGATIVE_INFINITY;
  let evaluations = 0;
  for (const g of grid) {
    const actions = uniform(models, g);
    const value = evaluate(actions);
    evaluations++;
    if (value > bestValue) {
      best = actions;
      bestValue = value;
    }
  }
  if (params.perModel && models > 1) {
    const found = ascend(best, bestValue, grid, params.rounds, evaluate);
    best = found.actions;
    bestValue = found.value;
    evaluations += found.evaluations;
  }
  return { plan: [{ fromMs: 0, actions: best }], utility: bestValue, evaluations };
}

/** The phases' start times: 0, the schedule's boundaries, and every `phaseS` if set. */
export function phaseStartsMs(spec: ServingRunSpec, phaseS = 0): number[] {
  const times = new Set<number>([0, ...phaseBoundariesMs(spec)]);
  if (phaseS > 0) for (let t = phaseS * 1000; t < spec.durationMs; t += phaseS * 1000) times.add(t);
  // Phases begin on slot boundaries: a decision is taken only there.
  const slot = spec.assumptions.slotMs;
  return [...new Set([...times].map((t) => Math.round(t / slot) * slot))].filter((t) => t < spec.durationMs).sort((a, b) => a - b);
}

/** `fixed-per-phase`: the best configuration per model for each phase of the known schedule. */
export function searchFixedPerPhase(spec: ServingRunSpec, params: ReferenceSearchParams, progress?: SearchProgress): ReferenceResult {
  const total = referenceSearchBound('fixed-per-phase', spec, params);
  const hindsight = searchFixedInHindsight(spec, params, progress, total);
  const counted = counter(total, progress, hindsight.evaluations);
  const fixed = hindsight.plan[0]!.actions;
  const starts = phaseStartsMs(spec, params.phaseS ?? 0);
  const plan: PhasePlan[] = starts.map((fromMs) => ({ fromMs, actions: fixed }));
  const grid = searchGrid(params);
  let evaluations = hindsight.evaluations;
  starts.forEach((fromMs, k) => {
    const toMs = starts[k + 1] ?? spec.durationMs;
    const withPhase = (actions: ServingAction): PhasePlan[] => plan.map((p, j) => (j === k ? { fromMs: p.fromMs, actions } : p));
    const evaluate = counted((actions: ServingAction): number => phaseUtility(spec, withPhase(actions), fromMs, toMs));
    let start = plan[k]!.actions;
    let startValue = evaluate(start);
    evaluations++;
    // The phase's best uniform configuration first, then per model (as hindsight does).
    for (const g of grid) {
      const actions = uniform(spec.models.length, g);
      const value = evaluate(actions);
      evaluations++;
      if (value > startValue) {
        start = actions;
        startValue = value;
      }
    }
    const found = params.perModel && spec.models.length > 1 ? ascend(start, startValue, grid, params.rounds, evaluate) : { actions: start, evaluations: 0 };
    evaluations += found.evaluations;
    plan[k] = { fromMs, actions: found.actions };
  });
  const utility = counted(runUtility)(spec, plan);
  evaluations++;
  if (utility < hindsight.utility) return { plan: [{ fromMs: 0, actions: fixed }], utility: hindsight.utility, evaluations, fellBackToHindsight: true };
  return { plan, utility, evaluations, fellBackToHindsight: false };
}

/** What a reference lane adds to its summary: the plan it found and what the search cost. */
export function referenceReport(result: ReferenceResult): Readonly<Record<string, unknown>> {
  return {
    evaluations: result.evaluations,
    searchUtility: result.utility,
    ...(result.fellBackToHindsight === undefined ? {} : { fellBackToHindsight: result.fellBackToHindsight }),
    plan: result.plan.map((p) => ({ fromS: p.fromMs / 1000, actions: p.actions.map((a) => [a.batchSize, a.instances]) })),
  };
}
