import type { Paper, ReadingValue } from './claimsReport';
import type { SweepAxis } from './sweep';
import type { VerdictRule } from './verdict';
import type { WorldLane } from '../kit/world';

/**
 * What a claim is (ARCHITECTURE §4a): the paper's words, how the lab measures it, the rule
 * that decides its verdict and the modelling choices it is re-measured under. Each world's
 * table of claims is in its folder (`worlds/<id>/claims.ts`); the machinery that turns a
 * claim into scenarios, runs and a verdict is `claims.ts`.
 */

/** A modelling choice a claim is re-measured under: a scenario field and its readings. */
export interface Sensitivity {
  /** The field, as `--set` and the sweep's axes name it, e.g. `pipeline.assumptions.trialCost`. */
  readonly path: string;
  /** A short name for the strip's column. */
  readonly label: string;
  /** The readings by name (what the strip shows). */
  readonly values: readonly ReadingValue[];
  /**
   * For a field whose value is an object (ODIN's admission): the value each reading's name
   * writes into the scenario. Absent: the name is the value.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The reading a scenario that leaves the field out runs under (an optional reading). */
  readonly absent?: ReadingValue;
}

/** The value a reading writes into the scenario. */
export function readingSetting(s: Sensitivity, value: ReadingValue): unknown {
  const setting = s.settings?.[String(value)];
  return setting === undefined ? value : structuredClone(setting);
}

/**
 * What number of a cell's lanes a claim compares. Lanes are indices into the claim's
 * scenario (after `lanes` replaced the preset's), so two lanes of one scheduler (BCEdge with
 * and without its predictor) stay apart.
 * - `value`: lane a's metric;
 * - `diffPct`: lane a's metric against lane b's (`bMetric`, default the same metric) in % of b,
 *   e.g. a lane's configuration throughput against its own `peakThroughputQps`;
 *   with `at`, only that combination of the sweep counts (BCEdge at 40 rps, on Jetson Nano);
 * - `ratioPct`: like `diffPct`, for utilities (ln-valued, Eq. 3): exp(U_a − U_b) − 1, in %, the
 *   ratio of the two utilities' arguments, which has no unit (a percent difference of ln
 *   values changes with the unit of T, ARCHITECTURE §3);
 * - `cells`: lane a's metric in combination `from` against combination `to` of the sweep, in % of `to`;
 * - `lastVsBest`: lane a's metric in the sweep's last combination against the best combination
 *   (highest when higher is better, else lowest), in % of the best;
 * - `laterVsEarlier`: the sweep's one axis is a run length [D1, D2] on the same trace; the rate
 *   over (D1, D2] (from the two runs' means) against the rate over [0, D1], in %.
 */
export type ClaimCompare =
  | { readonly kind: 'value'; readonly a: number; readonly at?: number }
  | {
      readonly kind: 'diffPct';
      readonly a: number;
      readonly b: number;
      readonly bMetric?: string;
      readonly at?: number;
      /**
       * A baseline near 0 makes a % of it meaningless (a violation rate of 0.02 % turns a
       * difference of 5 points into +25,000 %). With a threshold, lane b's mean over the seeds
       * (of its grid mean) decides: at or above it, the difference per seed is in % of that
       * mean; below it, the difference is in the metric's own unit (percentage points for a
       * share in %), the estimate says so (`unit: 'points'`) and only its sign is judged.
       */
      readonly pointsBelow?: number;
    }
  | { readonly kind: 'ratioPct'; readonly a: number; readonly b: number; readonly at?: number }
  | { readonly kind: 'cells'; readonly a: number; readonly from: number; readonly to: number }
  | { readonly kind: 'lastVsBest'; readonly a: number }
  | { readonly kind: 'laterVsEarlier'; readonly a: number };

/** How the lab's number for a claim is computed from its runs. */
export interface ClaimMeasure {
  /** The preset the claim starts from (`npm run sim -- presets`). */
  readonly preset: string;
  /** Replaces the preset's lanes (a claim's lanes are indices into these). */
  readonly lanes?: readonly WorldLane[];
  /** Fields set before the run (the same paths as `--set`; a value may be a list, e.g. the models). */
  readonly set?: Readonly<Record<string, unknown>>;
  /** The claim's grid as sweep axes; absent: the preset's own sweep (or one combination). */
  readonly axes?: readonly SweepAxis[];
  /**
   * The summary number compared: a top-level key of the world's summary, or a path into it
   * with `/` (`sloViolationPct/0.70`, `learning/predictor/mlp/p95`).
   */
  readonly metric: string;
  /** Multiplies the metric (a fraction shown in %: 100). */
  readonly scale?: number;
  readonly compare: ClaimCompare;
  /**
   * `mean`: per seed, each lane's metric is averaged over the grid's combinations and then
   *   compared (the papers' "on average" over their scenarios: the difference of grid means);
   * `worst`: each combination is estimated over seeds and the one farthest on the wrong side
   *   of the rule is the claim's number (the papers' "in any scenario").
   */
  readonly over: 'mean' | 'worst';
  /**
   * Reference lanes measured the same way as lane a (against lane b for `diffPct`): the
   * Static and Optimal lanes of ODIN claims, so the reader sees what no rebalancing and the
   * exhaustive optimum deliver under the same readings.
   */
  readonly references?: readonly number[];
  /** Whether the runs train learners (minutes each): the page shows the shipped report for these. */
  readonly learns: boolean;
  /** At most this many seeds (learning claims are costly): the row says so. */
  readonly maxSeeds?: number;
  /** What was shortened or changed against the paper's setting, and why, said in the row (seeds and run length are written from the scenario). */
  readonly note?: string;
  /** How long the paper's runs are (`3000 s`), beside the row's own run length. */
  readonly paperRun?: string;
  /** The run length of the readings when it differs from the row's own (`LearningRuns.readingsLengthS`): what `set` and `axes` become for them. */
  readonly readingsAt?: Pick<ClaimMeasure, 'set' | 'axes'>;
}

export interface Claim {
  /** Stable id: paper, figure and what is claimed (`odin-fig6-throughput`). */
  readonly id: string;
  readonly paper: Paper;
  /** Where the paper says it: `Fig. 6`, `§4.2`. */
  readonly where: string;
  /** The paper's words, quoted. */
  readonly quote: string;
  /** The paper's number as it states it (absent when it states only a direction). */
  readonly paperNumber?: string;
  /** What the lab's number means, in one line (with its unit). */
  readonly labNumber: string;
  readonly measure: ClaimMeasure;
  readonly rule: VerdictRule;
  readonly sensitivity: readonly Sensitivity[];
  readonly learns: boolean;
}
