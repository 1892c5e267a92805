import type { LearningFactory } from '../schedulers/registry';
import { isLearningScheduler } from '../schedulers/learningIds';
import type { LaneRun } from './deviceCopies';
import type { ServingScenario } from '../schema';
import { runServingCell } from './servingRunner';
import { sweepCells } from '../../../scenario/sweep';
import { meanInterval, type MeanInterval } from '../../../scenario/sweepStats';

/** How near the oracle a learner must come to count as there: exp(ΔU) − 1 ≥ −5 %. */
export const LEARN_CHECK_WITHIN = 0.05;

/** One lane of one seed, against the oracle lane of the same run. */
export interface LearnCheckLane {
  readonly scheduler: string;
  readonly label: string;
  readonly seed: number;
  /** Per window: the mean utility of the window (Eq. 3 over every model and reporting interval in it). */
  readonly windowUtility: readonly number[];
  /** Per window: exp(U − U_oracle) − 1, % (0 for the oracle itself). */
  readonly gapPct: readonly number[];
  /** The last window's gap, %. */
  readonly lastGapPct: number;
  /** The end of the first window from which every later window is within LEARN_CHECK_WITHIN of the oracle, s; null: never. */
  readonly withinAfterS: number | null;
  readonly utilityMean: number;
  /** The whole run against the oracle's: exp(U − U_oracle) − 1, %. */
  readonly runGapPct: number;
  readonly sloViolationPct: number;
  /** The learner's health at the end (worlds/serving/agents/health.ts), when it has one. */
  readonly health?: unknown;
}

export interface LearnCheck {
  /** The oracle lane's scheduler id (`fixed-hindsight`, else `fixed-per-phase`). */
  readonly oracle: string;
  readonly windowS: number;
  readonly lanes: readonly LearnCheckLane[];
  /** Per lane (in the scenario's order), over the seeds: means with their 95 % intervals. */
  readonly summary: readonly LearnCheckSummary[];
}

/** One lane over the seeds (Student's t interval of the mean, sweepStats.ts `meanInterval`). */
export interface LearnCheckSummary {
  readonly scheduler: string;
  readonly label: string;
  readonly lastGapPct: MeanInterval;
  readonly runGapPct: MeanInterval;
  readonly sloViolationPct: MeanInterval;
  /** Seeds whose last window is within LEARN_CHECK_WITHIN of the oracle. */
  readonly seedsWithin: number;
}

/**
 * The learners' check against a known optimum (ARCHITECTURE §3): each seed's run of the
 * scenario, every lane on the identical trace, each lane's utility per window of `windowS`
 * set against the oracle lane's of the same window as exp(ΔU) − 1 — a ratio, so the lanes are
 * compared on what the summaries score. A learner is judged on a stationary world first, where
 * the best fixed plan in hindsight is the answer, before it is trusted where none is known.
 */
export function learnCheck(scenario: ServingScenario, seeds: readonly number[], windowS: number, learning: LearningFactory | undefined, onLane?: (done: number, total: number) => void): LearnCheck {
  const lanes = scenario.serving.lanes;
  const oracleIndex = Math.max(
    lanes.findIndex((l) => l.scheduler === 'fixed-hindsight'),
    lanes.findIndex((l) => l.scheduler === 'fixed-per-phase'),
  );
  if (oracleIndex < 0) throw new RangeError('serving.lanes: a learn check needs an oracle lane (fixed-hindsight or fixed-per-phase) to measure the learners against');
  const out: LearnCheckLane[] = [];
  let done = 0;
  for (const seed of seeds) {
    const windows: number[][] = [];
    const cell = sweepCells({ ...scenario, sweep: undefined } as ServingScenario, [seed])[0]!;
    const results = runServingCell(scenario, cell, () => 0, learning, (lane, run) => {
      windows[lane] = windowUtilities(run, windowS * 1000);
      onLane?.(++done, seeds.length * lanes.length);
    });
    const oracle = windows[oracleIndex]!;
    const oracleUtility = results[oracleIndex]!.summary.utilityMean;
    results.forEach((r, lane) => {
      const u = windows[lane]!;
      const gapPct = u.map((x, i) => gapPctOf(x, oracle[i] ?? x));
      let from = gapPct.length;
      while (from > 0 && gapPct[from - 1]! >= -100 * LEARN_CHECK_WITHIN) from--;
      const health = (r.summary.learning as { health?: unknown } | undefined)?.health;
      out.push({
        scheduler: r.scheduler,
        label: r.label,
        seed,
        windowUtility: u,
        gapPct,
        lastGapPct: gapPct.at(-1) ?? 0,
        withinAfterS: from < gapPct.length ? Math.min(scenario.serving.durationS, (from + 1) * windowS) : null,
        utilityMean: r.summary.utilityMean,
        runGapPct: gapPctOf(r.summary.utilityMean, oracleUtility),
        sloViolationPct: r.summary.sloViolationPct,
        ...(health === undefined ? {} : { health }),
      });
    });
  }
  return { oracle: lanes[oracleIndex]!.scheduler, windowS, lanes: out, summary: summarize(out, lanes.length) };
}

/** exp(U − U_oracle) − 1, %: Eq. 3's utility is a logarithm, so a difference is a ratio. */
function gapPctOf(u: number, oracle: number): number {
  return 100 * (Math.exp(u - oracle) - 1);
}

/** Each lane's runs over the seeds (the runs come seed by seed, lanes in order). */
function summarize(runs: readonly LearnCheckLane[], laneCount: number): LearnCheckSummary[] {
  return Array.from({ length: laneCount }, (_, lane) => {
    const of = runs.filter((_, i) => i % laneCount === lane);
    return {
      scheduler: of[0]!.scheduler,
      label: of[0]!.label,
      lastGapPct: meanInterval(of.map((r) => r.lastGapPct)),
      runGapPct: meanInterval(of.map((r) => r.runGapPct)),
      sloViolationPct: meanInterval(of.map((r) => r.sloViolationPct)),
      seedsWithin: of.filter((r) => r.lastGapPct >= -100 * LEARN_CHECK_WITHIN).length,
    };
  });
}

/** The mean utility of each window of `windowMs` of a finished run (every model's reporting intervals in it). */
export function windowUtilities(run: LaneRun, windowMs: number): number[] {
  const records = run.series.values;
  const endMs = records.at(-1)?.endMs ?? 0;
  const n = Math.max(1, Math.ceil(endMs / windowMs));
  const sums = new Float64Array(n);
  const counts = new Float64Array(n);
  for (const r of records) {
    const w = Math.min(n - 1, Math.floor((r.endMs - 1e-9) / windowMs));
    for (const pm of r.perModel) {
      if (pm.utility === null) continue;
      sums[w]! += pm.utility;
      counts[w]!++;
    }
  }
  return Array.from(sums, (s, i) => (counts[i]! > 0 ? s / counts[i]! : Number.NaN));
}

/** The learning lanes of a check (the others are references). */
export function learningLanes(check: LearnCheck): LearnCheckLane[] {
  return check.lanes.filter((l) => isLearningScheduler(l.scheduler));
}
