import { BATCH_SIZES, INSTANCE_COUNTS, type ModelAction, type ServingAction, type ServingScheduler } from '../engine/scheduler';
import { drawServingArrivals, ServingRun, type ServingRunSnapshot } from '../engine/simulation';
import { phaseBoundariesMs, type ServingArrivals, type ServingRunSpec } from '../engine/spec';

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
  const actionAt = planActions(plan);
  return {
    id,
    decide: (observation) => actionAt(observation.nowMs),
    // The phase is found from the time at each decision: nothing to keep.
    snapshot: () => null,
    restore: () => {},
    ...(report === undefined ? {} : { report }),
  };
}

/** The actions of the phase a time falls in. */
function planActions(plan: readonly PhasePlan[]): (nowMs: number) => ServingAction {
  return (nowMs) => {
    let k = 0;
    while (k + 1 < plan.length && plan[k + 1]!.fromMs <= nowMs) k++;
    return plan[k]!.actions.map((a) => ({ ...a }));
  };
}

/**
 * The plan as a search's runs replay it: `createPlanned`'s decisions, also as `actionAt`, so that
 * the engine builds no observation for them (it reads only the time; issue 38). Only the search's
 * own runs get it: a lane's scheduler is wrapped and probed through `decide`. `actionAt` gives
 * one frozen copy of the phase's actions, made when the phase's actions are first asked for, not a
 * copy a decision (a search never changes a plan's actions in place: a run decides hundreds of
 * thousands of times, and the engine checks a frozen action it was given before only once).
 */
function searchPlanned(plan: readonly PhasePlan[]): ServingScheduler {
  // The phase's actions frozen (a run checks a frozen action once, not at every decision), copied
  // when the phase's actions change (the run along a per-phase search reads its plan as it grows).
  let given: ServingAction | null = null;
  let frozen: ServingAction = [];
  // The phase of the last decision: a run's decisions go forward in time (the phases' starts never change).
  let last = 0;
  return {
    ...createPlanned('reference', plan),
    actionAt: (nowMs) => {
      let k = plan[last]!.fromMs <= nowMs ? last : 0;
      while (k + 1 < plan.length && plan[k + 1]!.fromMs <= nowMs) k++;
      last = k;
      const actions = plan[k]!.actions;
      if (actions !== given) {
        given = actions;
        frozen = Object.freeze(actions.map((a) => Object.freeze({ batchSize: a.batchSize, instances: a.instances })));
      }
      return frozen;
    },
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
  /**
   * A batch of evaluations running elsewhere (an asynchronous `SearchEvaluator`): the search
   * goes on once this settles, so its driver awaits it before the next step (`runSearchAsync`).
   */
  readonly wait?: Promise<unknown>;
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

/**
 * Whether the search is being run to its end in one go (`runSearch`, `evaluateJob`): then an
 * evaluation runs in one stretch, as nothing waits between its stretches (the yields through a
 * search's nested generators were ~4 % of its time, issue 38). Set only while they drive it.
 */
let inOneGo = false;

/** Runs `run` up to `toMs` in stretches, yielding between them (without a yield after the last). */
function* advanceInStretches(run: ServingRun, spec: ServingRunSpec, toMs: number, tally: Tally): Steps<void> {
  const end = Math.min(toMs, spec.durationMs);
  const stretch = inOneGo ? Number.POSITIVE_INFINITY : SEARCH_STRETCH_SLOTS * spec.assumptions.slotMs;
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

/**
 * The spec every run of a search runs (an evaluation, the run along the phases): the lane's,
 * keeping as few latency samples as the engine allows (they serve the summary's percentiles
 * only, which no objective reads; a streaming histogram costs a logarithm per request and
 * sample, ~10 % of a run) and as few slot records (no objective reads them either: a whole
 * run's utility is the summary's, added up as the run goes, and a phase's is watched,
 * `ServingRun.watchUtility`; the records of a whole run, kept and copied with every
 * checkpoint, were a good part of a phase's run, issue 38).
 */
function searchSpec(spec: ServingRunSpec): ServingRunSpec {
  const rest: { -readonly [K in keyof ServingRunSpec]?: ServingRunSpec[K] } = { ...spec };
  delete rest.percentiles;
  // The credit reading says which requests a decision's reward is the utility of; only a
  // learner's observation reads it, and a plan reads none (`createPlanned`'s `actionAt`): its
  // accounting (an eighth of a run, issue 38) is left out. The records, the summary and the
  // run itself are the same bit for bit under either reading (reference.test.ts).
  return { ...(rest as ServingRunSpec), latencySampleCap: 16, seriesCap: 2, assumptions: { ...spec.assumptions, credit: 'slot' } };
}

/**
 * The most requests a search draws once and keeps (about 70 MB; `bcedge-dynamic`'s 3000 s send
 * about 600 000): a longer or busier run's search draws them in each run as before.
 */
export const DRAWN_ARRIVALS_LIMIT = 4_000_000;

/** The spec whose requests `drawnArrivals` holds: the object, and its JSON (a thread is sent a copy with each batch). */
let drawnFor: { spec: ServingRunSpec; json: string } | null = null;
let drawnArrivals: ServingArrivals | null = null;

/**
 * The requests every run of `spec` sends, drawn once and kept for the spec searched last
 * (`drawServingArrivals`): a search's runs differ in their plan only, never in their requests,
 * so each of them reads these instead of drawing its own (issue 38: about a fifth of a run),
 * with the same numbers bit for bit. Undefined for a trace or a closed loop, or past
 * `DRAWN_ARRIVALS_LIMIT`.
 */
function arrivalsOf(spec: ServingRunSpec): ServingArrivals | undefined {
  // A trace is drawn already (and may be long to compare), a closed loop draws nothing.
  if (spec.trace !== undefined || (spec.closedLoop?.outstanding ?? 0) > 0) return undefined;
  if (drawnFor === null || drawnFor.spec !== spec) {
    const json = JSON.stringify(spec);
    if (drawnFor === null || drawnFor.json !== json) drawnArrivals = drawServingArrivals(spec, DRAWN_ARRIVALS_LIMIT);
    drawnFor = { spec, json };
  }
  return drawnArrivals ?? undefined;
}

/** A run of the search: `searchSpec` of `spec`, the plan, and the requests of `spec` drawn once. */
function searchRun(spec: ServingRunSpec, plan: readonly PhasePlan[]): ServingRun {
  return new ServingRun(searchSpec(spec), searchPlanned(plan), arrivalsOf(spec), { observed: false });
}

/** Mean utility over the run (the summary's utilityMean) of a plan. */
function* runUtility(spec: ServingRunSpec, plan: readonly PhasePlan[], tally: Tally): Steps<number> {
  const run = searchRun(spec, plan);
  yield* advanceInStretches(run, spec, spec.durationMs, tally);
  return yield* counted(run.summary().utilityMean, tally);
}

/**
 * Mean per-model utility of the slots ending in (fromMs, toMs], running the trace up to toMs
 * under `plan`: from time 0, or from `start`, a checkpoint of a run of `searchSpec(spec)` taken
 * before the phase's first decision under a plan that agrees with `plan` before fromMs (the
 * run up to there is then the same whatever the phase's actions: the engine's restore gives
 * bit for bit what running on would have given).
 */
function* phaseUtility(spec: ServingRunSpec, plan: readonly PhasePlan[], fromMs: number, toMs: number, tally: Tally, start?: ServingRunSnapshot): Steps<number> {
  const run = searchRun(spec, plan);
  if (start !== undefined) run.restore(start);
  // Each slot's per-model utilities in the order of the records and their models: the same sum.
  run.watchUtility(fromMs, toMs);
  yield* advanceInStretches(run, spec, toMs, tally);
  const { sum, count } = run.watchedUtility;
  return yield* counted(count > 0 ? sum / count : 0, tally);
}

const uniform = (models: number, a: ModelAction): ServingAction => Array.from({ length: models }, () => ({ ...a }));

/**
 * Evaluates candidates in order, one value each: here one after the other, or all at once on
 * the `SearchEvaluator` in use (the command line's threads). `ahead`: candidates the search may
 * ask for next, evaluated beside them only where a thread would otherwise wait (`keptEvaluations`).
 */
type EvaluateAll = (candidates: readonly ServingAction[], ahead?: readonly ServingAction[]) => Steps<number[]>;

/** Model m's turn of coordinate ascent with `others` held: every other grid point, in grid order. */
function turnCandidates(grid: readonly ModelAction[], others: ServingAction, m: number): ServingAction[] {
  const held = others[m]!;
  return grid.filter((g) => g.batchSize !== held.batchSize || g.instances !== held.instances).map((g) => others.map((a, j) => (j === m ? { ...g } : a)));
}

/**
 * Coordinate ascent over one phase's actions: `evaluateAll(candidates)` gives the objective of
 * each; starts at `start` (whose value is `startValue`) and returns the best found. A model's
 * turn evaluates every other grid point with the other models held: the candidates of a turn
 * do not depend on one another's values (a change found in the turn changes only that model's
 * entry, which every candidate of the turn sets), so they are evaluated together and then
 * taken in grid order, keeping a change only when the value rises strictly: the same result
 * as one at a time.
 *
 * A turn's candidates rarely share the threads out evenly (9 on 2 threads leave one idle for
 * the last): the next turn's first candidates, as they will be if this turn changes nothing,
 * are evaluated on the threads that would wait (`ahead`, `keptEvaluations`).
 */
function* ascend(
  start: ServingAction,
  startValue: number,
  grid: readonly ModelAction[],
  rounds: number,
  evaluateAll: EvaluateAll,
): Steps<{ actions: ServingAction; value: number; evaluations: number }> {
  let best: ServingAction = start.map((a) => ({ ...a }));
  let bestValue = startValue;
  let evaluations = 0;
  const turn = (others: ServingAction, m: number) => turnCandidates(grid, others, m);
  for (let round = 0; round < rounds; round++) {
    let changed = false;
    for (let m = 0; m < best.length; m++) {
      // The model's configuration when its turn began: its value is known (a change found
      // earlier in the turn must not send the search back to evaluate it again).
      const candidates = turn(best, m);
      // The next turn's, should this one change nothing.
      const next = m + 1 < best.length ? turn(best, m + 1) : round + 1 < rounds ? turn(best, 0) : [];
      const values = yield* evaluateAll(candidates, next);
      candidates.forEach((candidate, i) => {
        evaluations++;
        if (values[i]! > bestValue) {
          best = candidate;
          bestValue = values[i]!;
          changed = true;
        }
      });
    }
    if (!changed) break;
  }
  return { actions: best, value: bestValue, evaluations };
}

/**
 * One evaluation a search asks for: the run's mean utility under `plan` (`phase` absent), or
 * the mean per-model utility of the slots ending in (fromMs, toMs] (see `phaseUtility`).
 */
export interface EvaluationJob {
  readonly plan: readonly PhasePlan[];
  readonly phase?: { readonly fromMs: number; readonly toMs: number };
}

/**
 * Runs a batch of evaluations of one spec at once and gives their values in order: blocking
 * until all are done (the command line's threads: cli/searchThreads.ts), or as a promise (the
 * page's evaluation workers, worker/evaluationPool.ts: a search run by `runSearchAsync`).
 * `checkpoint`: the phase's start, for phase jobs (see `phaseUtility`).
 */
export interface SearchEvaluator {
  /** Threads the batches are shared out on. */
  readonly threads: number;
  evaluate(spec: ServingRunSpec, jobs: readonly EvaluationJob[], checkpoint?: ServingRunSnapshot): number[] | Promise<number[]>;
}

let searchEvaluator: SearchEvaluator | null = null;

/**
 * Where searches run their batches of evaluations from now on: null (the default, and the
 * page's serving worker) one after the other in this thread, yielding between stretches.
 */
export function useSearchEvaluator(evaluator: SearchEvaluator | null): void {
  searchEvaluator = evaluator;
}

/** One evaluation, counted (a step of `ReferenceSearch`). */
function evaluation(spec: ServingRunSpec, job: EvaluationJob, tally: Tally, checkpoint?: ServingRunSnapshot): Steps<number> {
  return job.phase === undefined ? runUtility(spec, job.plan, tally) : phaseUtility(spec, job.plan, job.phase.fromMs, job.phase.toMs, tally, checkpoint);
}

/** One evaluation, run to its end here (a thread of the command line's `SearchEvaluator`). */
export function evaluateJob(spec: ServingRunSpec, job: EvaluationJob, checkpoint?: ServingRunSnapshot): number {
  const steps = evaluation(spec, job, { done: 0, total: 0 }, checkpoint);
  return inOneGoRun(() => {
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  });
}

/** Runs `drive` with `inOneGo` set (restored after, also when it throws). */
function inOneGoRun<T>(drive: () => T): T {
  const before = inOneGo;
  inOneGo = true;
  try {
    return drive();
  } finally {
    inOneGo = before;
  }
}

/**
 * The jobs' values, evaluated on the evaluator in use or one after the other; counted one by one
 * on `tally`. `ahead`: jobs evaluated beside them on the evaluator's threads that would otherwise
 * wait for the batch's last (as many as make the batch a multiple of its threads; none when
 * evaluating one after the other), not counted: the values of those evaluated follow the jobs'.
 */
function* evaluateJobs(spec: ServingRunSpec, jobs: readonly EvaluationJob[], tally: Tally, checkpoint?: ServingRunSnapshot, ahead: readonly EvaluationJob[] = []): Steps<number[]> {
  if (searchEvaluator !== null) {
    const threads = searchEvaluator.threads;
    const batch = [...jobs, ...ahead.slice(0, (threads - (jobs.length % threads)) % threads)];
    if (batch.length > 1) {
      const answer = searchEvaluator.evaluate(spec, batch, checkpoint);
      const values = Array.isArray(answer) ? answer : yield* awaited(answer, tally);
      for (const v of values.slice(0, jobs.length)) yield* counted(v, tally);
      return values;
    }
  }
  const values: number[] = [];
  for (const job of jobs) values.push(yield* evaluation(spec, job, tally, checkpoint));
  return values;
}

/** A batch's values running elsewhere: one step the driver awaits (`SearchStep.wait`), then the values (its failure thrown here). */
function* awaited(answer: Promise<number[]>, tally: Tally): Steps<number[]> {
  let outcome: { readonly values: number[] } | { readonly error: unknown } | undefined;
  const wait = answer.then(
    (values) => (outcome = { values }),
    (error: unknown) => (outcome = { error }),
  );
  yield { done: tally.done, total: tally.total, wait };
  if (outcome === undefined) throw new Error('a search step that waits on a batch was resumed before the batch was done (drive it with runSearchAsync)');
  if ('error' in outcome) throw outcome.error;
  return outcome.values;
}

/**
 * A search's `EvaluateAll` over the jobs `jobOf` makes of its candidates: values found before —
 * a candidate evaluated `ahead`, or asked for twice — are kept by the candidate's actions and
 * taken instead of evaluating it again (the same value: a run is pure), counted as evaluations
 * when taken. What is evaluated ahead and never asked for is forgotten. The plan, its value and
 * the evaluations counted are the search's without it, on threads or not (reference.test.ts,
 * searchThreads.test.ts).
 */
function keptEvaluations(spec: ServingRunSpec, jobOf: (actions: ServingAction) => EvaluationJob, tally: Tally, checkpoint?: ServingRunSnapshot): EvaluateAll {
  const kept = new Map<string, number>();
  const keyOf = (actions: ServingAction): string => actions.map((a) => `${a.batchSize}x${a.instances}`).join(',');
  /** The candidates whose key is neither kept nor in `taken`, each once (adding their keys to `taken`). */
  const unknown = (candidates: readonly ServingAction[], taken: Set<string>): ServingAction[] =>
    candidates.filter((c) => {
      const key = keyOf(c);
      if (kept.has(key) || taken.has(key)) return false;
      taken.add(key);
      return true;
    });
  return function* (candidates, ahead = []) {
    const taken = new Set<string>();
    const todo = unknown(candidates, taken);
    const early = unknown(ahead, taken);
    const values = yield* evaluateJobs(spec, todo.map(jobOf), tally, checkpoint, early.map(jobOf));
    values.forEach((v, i) => kept.set(keyOf(i < todo.length ? todo[i]! : early[i - todo.length]!), v));
    for (let i = todo.length; i < candidates.length; i++) yield* counted(0, tally);
    return candidates.map((c) => kept.get(keyOf(c))!);
  };
}

/** The hindsight search, counting on `tally` (a per-phase search starts with one). */
function* hindsightSteps(spec: ServingRunSpec, params: ReferenceSearchParams, tally: Tally, uniformFound?: ReferenceResult): Steps<ReferenceResult> {
  const grid = searchGrid(params);
  const models = spec.models.length;
  const evaluateAll = keptEvaluations(spec, (actions) => ({ plan: [{ fromMs: 0, actions }] }), tally);
  let best: ServingAction = uniform(models, grid[0]!);
  let bestValue = Number.NEGATIVE_INFINITY;
  let evaluations = 0;
  if (uniformFound !== undefined) {
    // The uniform stage was searched before (`perModel: false`, same grid): its result is this stage's.
    best = uniformFound.plan[0]!.actions;
    bestValue = uniformFound.utility;
    evaluations = uniformFound.evaluations;
    tally.done += evaluations;
    yield { done: tally.done, total: tally.total };
  } else {
    const uniforms = grid.map((g) => uniform(models, g));
    const values = yield* evaluateAll(uniforms);
    uniforms.forEach((actions, i) => {
      evaluations++;
      if (values[i]! > bestValue) {
        best = actions;
        bestValue = values[i]!;
      }
    });
  }
  if (params.perModel && models > 1) {
    const found = yield* ascend(best, bestValue, grid, params.rounds, evaluateAll);
    best = found.actions;
    bestValue = found.value;
    evaluations += found.evaluations;
  }
  return { plan: [{ fromMs: 0, actions: best }], utility: bestValue, evaluations };
}

/**
 * `fixed-hindsight` as a generator (see `ReferenceSearch`): the best single configuration per
 * model (or uniform) over the whole run. `uniformFound`, when given, is the result of the
 * uniform search of the same grid (`perModel: false`), found before: a per-model search
 * starts its ascent from it instead of evaluating the grid again, counting its evaluations as
 * its own: the result is the same either way.
 */
export function fixedInHindsightSearch(spec: ServingRunSpec, params: ReferenceSearchParams, uniformFound?: ReferenceResult): ReferenceSearch {
  return hindsightSteps(spec, params, { done: 0, total: referenceSearchBound('fixed-hindsight', spec, params) }, uniformFound);
}

/**
 * `fixed-per-phase` as a generator (see `ReferenceSearch`): the best configuration per model
 * for each phase of the known schedule. It starts with the hindsight search of the same
 * parameters; `hindsight`, when given, is that search's result, found before (the serving
 * worker keeps results), and the search goes on from it, counting its evaluations as its own:
 * the result is the same either way.
 */
export function* fixedPerPhaseSearch(spec: ServingRunSpec, params: ReferenceSearchParams, hindsight?: ReferenceResult, options: PerPhaseOptions = {}): ReferenceSearch {
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
  // One run goes along the phases under the plan as found so far (it reads `plan` at each
  // decision): before phase k's first decision it is checkpointed, and each of the phase's
  // evaluations starts from there instead of from 0 (issue 38: the phases before it are the
  // same in every one of them). It is not an evaluation: it runs each stretch of the trace once.
  // It starts once the first phase is found, not before: its decision at time 0 must be that
  // phase's (a run started under hindsight's configuration there went on from another state
  // than a run of the plan from 0, and its checkpoints with it).
  const fromZero = options.fromZero === true;
  let along: ServingRun | null = null;
  const alongRun = (): ServingRun => (along ??= searchRun(spec, plan));
  for (let k = 0; k < starts.length; k++) {
    const fromMs = starts[k]!;
    const toMs = starts[k + 1] ?? spec.durationMs;
    let checkpoint: ServingRunSnapshot | undefined;
    if (!fromZero && fromMs > 0) {
      const run = alongRun();
      // Any time before fromMs will do (a run gives the same numbers however its advance is cut); the
      // decision at fromMs itself must be left to each evaluation. Within a millisecond of it: under
      // Eq. 1 a model's slot may end in between, and is then decided after the checkpoint, by the
      // phase before (the plan is looked up by the decision's time), as in a run from 0.
      yield* advanceInStretches(run, spec, fromMs - Math.min(1, spec.assumptions.slotMs / 2), tally);
      checkpoint = run.snapshot();
    }
    const withPhase = (actions: ServingAction): PhasePlan[] => plan.map((p, j) => (j === k ? { fromMs: p.fromMs, actions } : p));
    const evaluateAll = keptEvaluations(spec, (actions) => ({ plan: withPhase(actions), phase: { fromMs, toMs } }), tally, checkpoint);
    // The phase's start (hindsight's configuration), then its best uniform configuration, then per model (as hindsight does).
    const first = [plan[k]!.actions, ...grid.map((g) => uniform(spec.models.length, g))];
    const ascending = params.perModel && spec.models.length > 1;
    // Ahead: the ascent's first turn, should none of them beat the phase's start.
    const firstValues = yield* evaluateAll(first, ascending ? turnCandidates(grid, first[0]!, 0) : []);
    let start = first[0]!;
    let startValue = firstValues[0]!;
    evaluations += first.length;
    first.forEach((actions, i) => {
      if (i > 0 && firstValues[i]! > startValue) {
        start = actions;
        startValue = firstValues[i]!;
      }
    });
    const ascended = ascending ? yield* ascend(start, startValue, grid, params.rounds, evaluateAll) : { actions: start, evaluations: 0 };
    evaluations += ascended.evaluations;
    plan[k] = { fromMs, actions: ascended.actions };
  }
  // The whole plan's run: the run along the phases is that run (every phase's actions were
  // known before it got there), so it goes on to the end instead of a run from 0 (issue 38).
  let utility: number;
  if (fromZero) utility = yield* runUtility(spec, plan, tally);
  else {
    const run = alongRun();
    yield* advanceInStretches(run, spec, spec.durationMs, tally);
    utility = yield* counted(run.summary().utilityMean, tally);
  }
  evaluations++;
  if (utility < found.utility) return { plan: [{ fromMs: 0, actions: fixed }], utility: found.utility, evaluations, fellBackToHindsight: true };
  return { plan, utility, evaluations, fellBackToHindsight: false };
}

/** How `fixedPerPhaseSearch` runs its evaluations (the default is the fast way; the results are the same). */
export interface PerPhaseOptions {
  /** Run each of a phase's evaluations from time 0, as the search did before it checkpointed the phase's start (tests and the bench's baseline). */
  readonly fromZero?: boolean;
}

/** Runs a search to its end, telling `progress` after each evaluation. */
export function runSearch(search: ReferenceSearch, progress?: SearchProgress): ReferenceResult {
  const tell = progressTeller(progress);
  return inOneGoRun(() => {
    for (;;) {
      const step = search.next();
      if (step.done === true) return step.value;
      if (step.value.wait !== undefined) throw new Error('the search evaluator in use is asynchronous: run the search with runSearchAsync');
      tell(step.value);
    }
  });
}

/** Tells `progress` of a step when its count of evaluations moved (a search yields several steps per evaluation). */
function progressTeller(progress: SearchProgress | undefined): (step: SearchStep) => void {
  let told = 0;
  return (step) => {
    if (step.done === told) return;
    told = step.done;
    progress?.(step.done, step.total);
  };
}

/**
 * `runSearch` for a search whose evaluator answers with promises (the page's evaluation
 * workers): in one go between the batches, awaiting each batch. The same plan and counts.
 */
export async function runSearchAsync(search: ReferenceSearch, progress?: SearchProgress): Promise<ReferenceResult> {
  const tell = progressTeller(progress);
  for (;;) {
    const step = inOneGoRun(() => search.next());
    if (step.done === true) return step.value;
    if (step.value.wait !== undefined) await step.value.wait;
    tell(step.value);
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
