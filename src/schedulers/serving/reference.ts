import { BATCH_SIZES, INSTANCE_COUNTS, type ModelAction, type ServingAction, type ServingScheduler } from '../../engine/serving/scheduler';
import { phaseBoundariesMs, ServingRun, type ServingRunSpec } from '../../engine/serving/simulation';

/**
 * Reference lanes (oracles) for the serving world: what a fixed configuration could have
 * done had it known the run in advance. The learners are judged against these, not only
 * against Triton's default. They are not schedulers one could deploy: they search by
 * re-running the lane's own trace (same spec, same seed: the same requests, the same
 * tenants, the same noise stream) many times, and then replay what they found from time 0.
 * The command line searches before the lane runs (`runSearch`); the page's serving worker
 * runs the same search in slices beside the other lanes, and the lane joins once its plan
 * is known (ARCHITECTURE §3).
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
    // The phase is found from the time at each decision: nothing to keep.
    snapshot: () => null,
    restore: () => {},
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

/** Slots of the trace an evaluation runs between two yields of a search (about a millisecond of work on the presets, a few while the worker is still cold: a slice of the serving worker stays near its tick budget). */
export const SEARCH_STRETCH_SLOTS = 2;

/** How far a search is: the evaluations finished so far, of at most `total` (`referenceSearchBound`). */
export interface SearchStep {
  readonly done: number;
  readonly total: number;
}

/**
 * A search as a generator: it yields after every evaluation and, inside one, after every
 * `SEARCH_STRETCH_SLOTS` slots of the trace, so that a caller can run it in slices (the serving
 * worker, between the live run's ticks: ARCHITECTURE §3); its return value is the result.
 * `runSearch` runs one to the end in one go (the command line). One search, two ways to drive it.
 */
export type ReferenceSearch = Generator<SearchStep, ReferenceResult, void>;

/** A search's steps toward a number (an evaluation, or an ascent), yielding as `ReferenceSearch` does. */
type Steps<T> = Generator<SearchStep, T, void>;

/** The evaluations of one search so far, against the bound fixed before it started. */
interface Tally {
  done: number;
  readonly total: number;
}

/** Runs `run` up to `toMs` in stretches, yielding between them (without a yield after the last). */
function* advanceInStretches(run: ServingRun, spec: ServingRunSpec, toMs: number, tally: Tally): Steps<void> {
  const end = Math.min(toMs, spec.durationMs);
  const stretch = SEARCH_STRETCH_SLOTS * spec.assumptions.slotMs;
  for (;;) {
    // The engine's run gives the same numbers however its advance is cut (it only processes events up to each target).
    run.advanceTo(Math.min(end, run.timeMs + stretch));
    if (run.done || run.timeMs >= end) return;
    yield { done: tally.done, total: tally.total };
  }
}

/** One evaluation done: counted, and yielded so that the caller sees it. */
function* counted<T>(value: T, tally: Tally): Steps<T> {
  tally.done++;
  yield { done: tally.done, total: tally.total };
  return value;
}

/** Mean utility over the run (the summary's utilityMean) of a plan. */
function* runUtility(spec: ServingRunSpec, plan: readonly PhasePlan[], tally: Tally): Steps<number> {
  const run = new ServingRun(spec, createPlanned('reference', plan));
  yield* advanceInStretches(run, spec, spec.durationMs, tally);
  return yield* counted(run.summary().utilityMean, tally);
}

/** Mean per-model utility of the slots ending in (fromMs, toMs], running the trace up to toMs. */
function* phaseUtility(spec: ServingRunSpec, plan: readonly PhasePlan[], fromMs: number, toMs: number, tally: Tally): Steps<number> {
  const slots = Math.ceil(spec.durationMs / spec.assumptions.slotMs) + 2;
  const run = new ServingRun({ ...spec, seriesCap: Math.max(2, slots) }, createPlanned('reference', plan));
  yield* advanceInStretches(run, spec, toMs, tally);
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
  return yield* counted(count > 0 ? sum / count : 0, tally);
}

const uniform = (models: number, a: ModelAction): ServingAction => Array.from({ length: models }, () => ({ ...a }));

/**
 * Coordinate ascent over one phase's actions: `evaluate(actions)` is the objective; starts at
 * `start` (whose value is `startValue`) and returns the best found.
 */
function* ascend(
  start: ServingAction,
  startValue: number,
  grid: readonly ModelAction[],
  rounds: number,
  evaluate: (actions: ServingAction) => Steps<number>,
): Steps<{ actions: ServingAction; value: number; evaluations: number }> {
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
        const value = yield* evaluate(candidate);
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

/** The hindsight search, counting on `tally` (a per-phase search starts with one). */
function* hindsightSteps(spec: ServingRunSpec, params: ReferenceSearchParams, tally: Tally): Steps<ReferenceResult> {
  const grid = searchGrid(params);
  const models = spec.models.length;
  const evaluate = (actions: ServingAction) => runUtility(spec, [{ fromMs: 0, actions }], tally);
  let best: ServingAction = uniform(models, grid[0]!);
  let bestValue = Number.NEGATIVE_INFINITY;
  let evaluations = 0;
  for (const g of grid) {
    const actions = uniform(models, g);
    const value = yield* evaluate(actions);
    evaluations++;
    if (value > bestValue) {
      best = actions;
      bestValue = value;
    }
  }
  if (params.perModel && models > 1) {
    const found = yield* ascend(best, bestValue, grid, params.rounds, evaluate);
    best = found.actions;
    bestValue = found.value;
    evaluations += found.evaluations;
  }
  return { plan: [{ fromMs: 0, actions: best }], utility: bestValue, evaluations };
}

/** `fixed-hindsight` as a generator (see `ReferenceSearch`): the best single configuration per model (or uniform) over the whole run. */
export function fixedInHindsightSearch(spec: ServingRunSpec, params: ReferenceSearchParams): ReferenceSearch {
  return hindsightSteps(spec, params, { done: 0, total: referenceSearchBound('fixed-hindsight', spec, params) });
}

/**
 * `fixed-per-phase` as a generator (see `ReferenceSearch`): the best configuration per model
 * for each phase of the known schedule. It starts with the hindsight search of the same
 * parameters; `hindsight`, when given, is that search's result, found before (the serving
 * worker keeps results), and the search goes on from it, counting its evaluations as its own:
 * the result is the same either way.
 */
export function* fixedPerPhaseSearch(spec: ServingRunSpec, params: ReferenceSearchParams, hindsight?: ReferenceResult): ReferenceSearch {
  const tally: Tally = { done: 0, total: referenceSearchBound('fixed-per-phase', spec, params) };
  let found = hindsight;
  if (found === undefined) found = yield* hindsightSteps(spec, params, tally);
  else {
    tally.done = found.evaluations;
    yield { done: tally.done, total: tally.total };
  }
  const fixed = found.plan[0]!.actions;
  const starts = phaseStartsMs(spec, params.phaseS ?? 0);
  const plan: PhasePlan[] = starts.map((fromMs) => ({ fromMs, actions: fixed }));
  const grid = searchGrid(params);
  let evaluations = found.evaluations;
  for (let k = 0; k < starts.length; k++) {
    const fromMs = starts[k]!;
    const toMs = starts[k + 1] ?? spec.durationMs;
    const withPhase = (actions: ServingAction): PhasePlan[] => plan.map((p, j) => (j === k ? { fromMs: p.fromMs, actions } : p));
    const evaluate = (actions: ServingAction) => phaseUtility(spec, withPhase(actions), fromMs, toMs, tally);
    let start = plan[k]!.actions;
    let startValue = yield* evaluate(start);
    evaluations++;
    // The phase's best uniform configuration first, then per model (as hindsight does).
    for (const g of grid) {
      const actions = uniform(spec.models.length, g);
      const value = yield* evaluate(actions);
      evaluations++;
      if (value > startValue) {
        start = actions;
        startValue = value;
      }
    }
    const ascended = params.perModel && spec.models.length > 1 ? yield* ascend(start, startValue, grid, params.rounds, evaluate) : { actions: start, evaluations: 0 };
    evaluations += ascended.evaluations;
    plan[k] = { fromMs, actions: ascended.actions };
  }
  const utility = yield* runUtility(spec, plan, tally);
  evaluations++;
  if (utility < found.utility) return { plan: [{ fromMs: 0, actions: fixed }], utility: found.utility, evaluations, fellBackToHindsight: true };
  return { plan, utility, evaluations, fellBackToHindsight: false };
}

/** Runs a search to its end, telling `progress` after each evaluation. */
export function runSearch(search: ReferenceSearch, progress?: SearchProgress): ReferenceResult {
  let told = 0;
  for (;;) {
    const step = search.next();
    if (step.done === true) return step.value;
    if (step.value.done === told) continue;
    told = step.value.done;
    progress?.(step.value.done, step.value.total);
  }
}

/** `fixed-hindsight`, in one go (the command line): `runSearch` of `fixedInHindsightSearch`. */
export function searchFixedInHindsight(spec: ServingRunSpec, params: ReferenceSearchParams, progress?: SearchProgress): ReferenceResult {
  return runSearch(fixedInHindsightSearch(spec, params), progress);
}

/** The phases' start times: 0, the schedule's boundaries, and every `phaseS` if set. */
export function phaseStartsMs(spec: ServingRunSpec, phaseS = 0): number[] {
  const times = new Set<number>([0, ...phaseBoundariesMs(spec)]);
  if (phaseS > 0) for (let t = phaseS * 1000; t < spec.durationMs; t += phaseS * 1000) times.add(t);
  // Phases begin on slot boundaries: a decision is taken only there.
  const slot = spec.assumptions.slotMs;
  return [...new Set([...times].map((t) => Math.round(t / slot) * slot))].filter((t) => t < spec.durationMs).sort((a, b) => a - b);
}

/** `fixed-per-phase`, in one go (the command line): `runSearch` of `fixedPerPhaseSearch`. */
export function searchFixedPerPhase(spec: ServingRunSpec, params: ReferenceSearchParams, progress?: SearchProgress): ReferenceResult {
  return runSearch(fixedPerPhaseSearch(spec, params), progress);
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
