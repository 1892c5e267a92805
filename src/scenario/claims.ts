import { EARLIER_SCENARIO_READINGS, PAPER_SCENARIO_READINGS, type ScenarioReadings } from './servingReadings';
import type { ClaimRow, Paper, ReadingResult, ReadingValue, SensitivityResult } from './claimsReport';
import { estimateRunCost } from './cost';
import { findPreset } from './presets';
import type { AnyScenario, PipelineLane } from './schema';
import { parseFieldPath, sweepCells, sweepMetricsOf, sweepSeeds, type Sweep, type SweepAxis, type SweepCell } from './sweep';
import { worldOf } from '../worlds';
import type { WorldLane } from '../kit/world';
import type { CellOutcome, ResultRow } from './sweepReport';
import { differencePct, higherIsBetter, meanInterval } from './sweepStats';
import { combine, judge, type Estimate, type Verdict, type VerdictRule } from './verdict';

/**
 * Every quantitative claim of the two papers the lab reproduces (ARCHITECTURE §4a), in the papers'
 * own words, with how the lab measures it and the rule that decides its verdict. Nothing
 * here is a result: a claim names swept scenarios (`claimScenarios`), any pool runs their
 * cells, and `estimateClaim` reduces the cell outcomes to the claim's number, which `judge`
 * turns into a verdict. Each claim is re-measured under every reading of the modelling
 * choices that can matter to it (its sensitivity strip), so one glance says which
 * assumption flips it.
 *
 * Pure: no DOM, no TensorFlow.js, no clock, no Node API. The page's workers and the CLI's
 * threads both run it (ARCHITECTURE §4a).
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

// ---------------------------------------------------------------------------------------
// The registry

/** ODIN §4.2's grid, both models of Figs. 5–9 (VGG16 and ResNet-50) × period × duration ∈ {2, 10, 100}². */
const ODIN_GRID: readonly SweepAxis[] = [
  { path: 'pipeline.model', name: 'model', values: ['vgg16', 'resnet50'] },
  { path: 'pipeline.interference.random.periodQueries', name: 'periodQueries', values: [2, 10, 100] },
  { path: 'pipeline.interference.random.durationQueries', name: 'durationQueries', values: [2, 10, 100] },
];

/** Lanes of the `odin-fig5-*` presets: 0 ODIN α=2, 1 ODIN α=10, 2 LLS, 3 Optimal, 4 Static. */
const G = { odin2: 0, odin10: 1, lls: 2, optimal: 3, static: 4 } as const;

const TRIAL_COST: Sensitivity = { path: 'pipeline.assumptions.trialCost', label: 'trial cost', values: ['serial', 'pipelined', 'free'] };
const LLS_READING: Sensitivity = { path: 'pipeline.assumptions.llsReading', label: 'LLS reading', values: ['literal', 'repaired'] };
const MONITOR: Sensitivity = { path: 'pipeline.assumptions.detectionSignal', label: 'monitor', values: ['bottleneck', 'anyStage'] };
const BUFFER: Sensitivity = { path: 'pipeline.assumptions.bufferCapacity', label: 'buffer', values: [1, 4] };
const THRESHOLD: Sensitivity = { path: 'pipeline.assumptions.detectionThreshold', label: 'threshold', values: [0.02, 0.05, 0.2] };
const OVERLAP: Sensitivity = { path: 'pipeline.assumptions.interferenceOverlap', label: 'overlap', values: ['stack', 'onePerEp', 'replace'] };
/**
 * Admission (ODIN §4.2 runs a saturated closed loop; the paper says nothing of open arrivals):
 * Poisson arrivals at 80 % of the pipeline's interference-free peak throughput, a share rather
 * than a rate so that VGG16 (peak ≈ 53 qps on the roofline database) and ResNet-50 (≈ 215 qps)
 * are loaded alike within one grid. An object field: `settings` gives the value each name writes.
 */
const ADMISSION: Sensitivity = {
  path: 'pipeline.assumptions.admission',
  label: 'admission',
  values: ['saturated', 'Poisson 80 %'],
  settings: { saturated: { kind: 'saturated' }, 'Poisson 80 %': { kind: 'poissonShare', shareOfPeak: 0.8 } },
};
/**
 * The layer-time database: the derived roofline one (the default) or the one measured on one
 * machine by the measure command and shipped in engine/profiles/measured/ (its record says
 * which machine, runtime, input size and repeats).
 */
const DATABASE: Sensitivity = { path: 'pipeline.assumptions.database', label: 'database', values: ['roofline', 'measured'] };
/** Only for latency claims: whether trial queries count in the headline latency. */
const LATENCY_QUERIES: Sensitivity = { path: 'pipeline.assumptions.latencyQueries', label: 'latency counts', values: ['all', 'normal'] };

/** The readings of ODIN's open modelling choices (ARCHITECTURE §2) re-measured for the grid claims. */
const ODIN_READINGS: readonly Sensitivity[] = [TRIAL_COST, LLS_READING, MONITOR, BUFFER, THRESHOLD, OVERLAP, ADMISSION, DATABASE];
const ODIN_LATENCY_READINGS: readonly Sensitivity[] = [...ODIN_READINGS, LATENCY_QUERIES];

const gridMeasure = (metric: string, compare: ClaimCompare, references: readonly number[] = [G.optimal, G.static], over: 'mean' | 'worst' = 'mean'): ClaimMeasure => ({
  preset: 'odin-fig5-vgg16',
  axes: ODIN_GRID,
  metric,
  compare,
  over,
  references,
  learns: false,
});

/** The claims of the ODIN paper (seed 000). */
export const ODIN_CLAIMS: readonly Claim[] = [
  {
    id: 'odin-fig1-interference',
    paper: 'odin',
    where: 'Fig. 1(b), §1',
    quote:
      'Assuming a workload is colocated on the execution place which executes the fourth stage of the pipeline, the execution time of this stage increases due to interference, causing the throughput to decrease by 46% (Figure 1(b)).',
    paperNumber: '−46 %',
    labNumber: "the static pipeline's configuration throughput against the interference-free peak, %",
    measure: {
      preset: 'odin-fig1-vgg16',
      // The workload is there from the first query: Fig. 1(b) is the pipeline under it.
      set: { 'pipeline.interference.events[0].fromQuery': 0 },
      metric: 'configThroughputMeanQps',
      compare: { kind: 'diffPct', a: 0, b: 0, bMetric: 'peakThroughputQps' },
      over: 'mean',
      learns: false,
    },
    rule: { kind: 'sign', sign: -1, paperValue: -46, tolerance: 15 },
    sensitivity: [DATABASE],
    learns: false,
  },
  {
    id: 'odin-fig1-evict',
    paper: 'odin',
    where: 'Fig. 1(c), §1',
    quote:
      'A static solution would dedicate the resources to the colocated workload, and would use only 3 execution places. To maintain high throughput, the pipeline stages would also be reduced to 3, leading to a suboptimal solution (Figure 1(c)).',
    labNumber: 'evict (the best 3-EP pipeline) against the exhaustive optimum on 4 EPs, configuration throughput, %',
    measure: {
      preset: 'odin-fig1-vgg16',
      set: { 'pipeline.interference.events[0].fromQuery': 0 },
      metric: 'configThroughputMeanQps',
      compare: { kind: 'diffPct', a: 1, b: 2 },
      over: 'mean',
      references: [0],
      learns: false,
    },
    rule: { kind: 'sign', sign: -1 },
    sensitivity: [DATABASE],
    learns: false,
  },
  {
    id: 'odin-fig1-optimal',
    paper: 'odin',
    where: 'Fig. 1(d), §1',
    quote: 'An exhaustive search for an optimal new configuration is able to restore the initial throughput loss (Figure 1(d))',
    paperNumber: '≈ 0 % loss',
    labNumber: "the exhaustive optimum's configuration throughput under the workload against the interference-free peak, %",
    measure: {
      preset: 'odin-fig1-vgg16',
      set: { 'pipeline.interference.events[0].fromQuery': 0 },
      metric: 'configThroughputMeanQps',
      compare: { kind: 'diffPct', a: 2, b: 2, bMetric: 'peakThroughputQps' },
      over: 'mean',
      learns: false,
    },
    // "Restore" read as: within 10 % of the peak (the paper shows the bars, not a number).
    rule: { kind: 'near', paperValue: 0, tolerance: 10 },
    sensitivity: [DATABASE],
    learns: false,
  },
  {
    id: 'odin-fig3-recovery',
    paper: 'odin',
    where: 'Fig. 3, §3',
    quote: 'At each of these time steps, ODIN automatically detects the throughput degradation and rebalances the pipeline until it finds a successful solution.',
    paperNumber: 'recovers each time',
    labNumber: "ODIN α=10's mean ratio of configuration throughput to the current optimum over the timeline",
    measure: {
      preset: 'odin-fig3-timeline',
      metric: 'optimalRatioMean',
      compare: { kind: 'value', a: 0 },
      over: 'mean',
      references: [1, 2, 3],
      learns: false,
    },
    // "A successful solution": read as 90 % of the optimum on average (the paper gives no number).
    rule: { kind: 'atLeast', bound: 0.9 },
    sensitivity: [TRIAL_COST, MONITOR, THRESHOLD, DATABASE],
    learns: false,
  },
  {
    id: 'odin-fig5-latency',
    paper: 'odin',
    where: 'Fig. 5, §4.2',
    quote: 'Overall, however, ODIN outperforms LLS in all scenarios, offering 15.8% better latency on average with α=10 and 14.1% with α=2.',
    paperNumber: '−15.8 % (α=10)',
    labNumber: 'ODIN α=10 against LLS, measured mean latency, difference of the grid means (both models), %',
    measure: gridMeasure('latencyMeanMs', { kind: 'diffPct', a: G.odin10, b: G.lls }),
    rule: { kind: 'sign', sign: -1, paperValue: -15.8, tolerance: 10 },
    sensitivity: ODIN_LATENCY_READINGS,
    learns: false,
  },
  {
    id: 'odin-fig5-latency-alpha2',
    paper: 'odin',
    where: 'Fig. 5, §4.2',
    quote: 'Overall, however, ODIN outperforms LLS in all scenarios, offering 15.8% better latency on average with α=10 and 14.1% with α=2.',
    paperNumber: '−14.1 % (α=2)',
    labNumber: 'ODIN α=2 against LLS, measured mean latency, difference of the grid means (both models), %',
    measure: gridMeasure('latencyMeanMs', { kind: 'diffPct', a: G.odin2, b: G.lls }),
    rule: { kind: 'sign', sign: -1, paperValue: -14.1, tolerance: 10 },
    sensitivity: ODIN_LATENCY_READINGS,
    learns: false,
  },
  {
    id: 'odin-fig6-throughput',
    paper: 'odin',
    where: 'Fig. 6, §4.2',
    quote: 'Overall, on average, ODIN achieves 19% higher throughput than LLS with any choice of α.',
    paperNumber: '+19 % (α=10)',
    labNumber: 'ODIN α=10 against LLS, measured throughput, difference of the grid means (both models), %',
    measure: gridMeasure('throughputMeanQps', { kind: 'diffPct', a: G.odin10, b: G.lls }),
    rule: { kind: 'sign', sign: 1, paperValue: 19, tolerance: 10 },
    sensitivity: ODIN_READINGS,
    learns: false,
  },
  {
    id: 'odin-fig6-throughput-alpha2',
    paper: 'odin',
    where: 'Fig. 6, §4.2',
    quote: 'Overall, on average, ODIN achieves 19% higher throughput than LLS with any choice of α.',
    paperNumber: '+19 % (α=2)',
    labNumber: 'ODIN α=2 against LLS, measured throughput, difference of the grid means (both models), %',
    measure: gridMeasure('throughputMeanQps', { kind: 'diffPct', a: G.odin2, b: G.lls }),
    rule: { kind: 'sign', sign: 1, paperValue: 19, tolerance: 10 },
    sensitivity: ODIN_READINGS,
    learns: false,
  },
  {
    id: 'odin-fig7-tail',
    paper: 'odin',
    where: 'Fig. 7, §4.2',
    quote: 'On average, ODIN results in 14% lower tail latencies than LLS.',
    paperNumber: '−14 %',
    labNumber: 'ODIN α=10 against LLS, measured p99 latency, difference of the grid means (both models), %',
    measure: gridMeasure('latencyP99Ms', { kind: 'diffPct', a: G.odin10, b: G.lls }),
    rule: { kind: 'sign', sign: -1, paperValue: -14, tolerance: 10 },
    sensitivity: ODIN_LATENCY_READINGS,
    learns: false,
  },
  {
    id: 'odin-s42-queries-alpha10',
    paper: 'odin',
    where: '§4.2 (Exploration overhead)',
    quote: 'On average, the number of queries that will be processed serially during a rebalancing phase is 1 for LLS, and 4 and 12 for ODIN with α=2 and α=10 respectively.',
    paperNumber: '12 (α=10)',
    labNumber: 'ODIN α=10, trial queries per rebalancing, grid mean (both models)',
    measure: gridMeasure('queriesPerRebalance', { kind: 'value', a: G.odin10 }, [G.lls]),
    rule: { kind: 'near', paperValue: 12, tolerance: 3 },
    sensitivity: [TRIAL_COST, MONITOR, THRESHOLD, OVERLAP, ADMISSION, DATABASE],
    learns: false,
  },
  {
    id: 'odin-s42-queries-alpha2',
    paper: 'odin',
    where: '§4.2 (Exploration overhead)',
    quote: 'On average, the number of queries that will be processed serially during a rebalancing phase is 1 for LLS, and 4 and 12 for ODIN with α=2 and α=10 respectively.',
    paperNumber: '4 (α=2)',
    labNumber: 'ODIN α=2, trial queries per rebalancing, grid mean (both models)',
    measure: gridMeasure('queriesPerRebalance', { kind: 'value', a: G.odin2 }, [G.lls]),
    rule: { kind: 'near', paperValue: 4, tolerance: 1.5 },
    sensitivity: [TRIAL_COST, MONITOR, THRESHOLD, ADMISSION, DATABASE],
    learns: false,
  },
  {
    id: 'odin-s42-queries-lls',
    paper: 'odin',
    where: '§4.2 (Exploration overhead)',
    quote: 'On average, the number of queries that will be processed serially during a rebalancing phase is 1 for LLS',
    paperNumber: '1',
    labNumber: 'LLS, trial queries per rebalancing, grid mean (both models)',
    measure: gridMeasure('queriesPerRebalance', { kind: 'value', a: G.lls }, []),
    rule: { kind: 'near', paperValue: 1, tolerance: 0.5 },
    sensitivity: [TRIAL_COST, LLS_READING, MONITOR, THRESHOLD, ADMISSION, DATABASE],
    learns: false,
  },
  {
    id: 'odin-fig8-overhead',
    paper: 'odin',
    where: 'Fig. 8, §4.2',
    quote: 'It is evident that, if the type of interference changes frequently and is short-lived, the overhead of ODIN is higher, as the system is almost continuously in a rebalancing phase.',
    labNumber: "ODIN α=10's rebalancing overhead (% of time) at period = duration = 2 against period = duration = 100, VGG16, %",
    measure: {
      preset: 'odin-fig5-vgg16',
      axes: [
        { path: 'pipeline.interference.random.periodQueries', name: 'periodQueries', values: [2, 100] },
        { path: 'pipeline.interference.random.durationQueries', name: 'durationQueries', values: [2, 100] },
      ],
      metric: 'overheadPct',
      // Combination 0 is (2, 2), combination 3 is (100, 100).
      compare: { kind: 'cells', a: G.odin10, from: 0, to: 3 },
      over: 'mean',
      learns: false,
    },
    rule: { kind: 'sign', sign: 1 },
    sensitivity: [TRIAL_COST, MONITOR, DATABASE],
    learns: false,
  },
  {
    id: 'odin-fig9-sustain70',
    paper: 'odin',
    where: 'Fig. 9, §4.3 and §5',
    quote: 'ODIN results in less than 20% of SLO violations for SLO levels lower than 85%, and can sustain 70% of the original throughput for any interference scenario',
    paperNumber: '≈ 0 % below 70 % of peak',
    labNumber: "ODIN α=10's share of queries below 70 % of the peak throughput, worst cell of the grid (both models), %",
    measure: gridMeasure('sloViolationPct/0.70', { kind: 'value', a: G.odin10 }, [G.optimal, G.lls, G.static], 'worst'),
    // "Sustain 70 % … for any interference scenario" read as at most 5 % of queries below it in every cell.
    rule: { kind: 'atMost', bound: 5 },
    sensitivity: ODIN_READINGS,
    learns: false,
  },
  {
    id: 'odin-fig9-slo80',
    paper: 'odin',
    where: 'Fig. 9, §4.3',
    quote: 'ODIN results in less than 20% of SLO violations for SLO levels lower than 85%',
    paperNumber: '< 20 % at 80 %',
    labNumber: "ODIN α=10's share of queries below 80 % of the peak (the highest level under 85 %), grid mean (both models), %",
    measure: gridMeasure('sloViolationPct/0.80', { kind: 'value', a: G.odin10 }, [G.optimal, G.lls, G.static]),
    rule: { kind: 'atMost', bound: 20 },
    sensitivity: ODIN_READINGS,
    learns: false,
  },
  {
    id: 'odin-fig10-scaling',
    paper: 'odin',
    where: 'Fig. 10, §4.4',
    quote: 'throughput increases with the number of EPs, suggesting high parallelism of the pipeline, and for 52 EPs, the achieved throughput is comparable to the peak throughput of the inference pipeline, under no interference.',
    paperNumber: '≈ peak at 52 EPs',
    labNumber: "ODIN α=10's configuration throughput at 52 EPs against the interference-free peak, %",
    measure: {
      preset: 'odin-fig10-resnet152',
      lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'optimal' }, { scheduler: 'static' }] satisfies PipelineLane[],
      axes: [{ path: 'pipeline.executionPlaces', values: [52] }],
      metric: 'configThroughputMeanQps',
      compare: { kind: 'diffPct', a: 0, b: 0, bMetric: 'peakThroughputQps' },
      over: 'mean',
      references: [1, 2],
      learns: false,
    },
    // "Comparable" read as within 20 % of the peak.
    rule: { kind: 'atLeast', bound: -20 },
    sensitivity: [TRIAL_COST],
    learns: false,
  },
];

/**
 * The lanes of the BCEdge comparisons: 0 BCEdge and 1 TAC from the shipped agents (learning
 * online from there), 2 DeepRT, 3 Triton (fixed). PPO, DDQN and GA are left out of these
 * rows: no claim compares them, and each learner lane costs seconds per simulated minute.
 */
const BCEDGE_LANES = [{ scheduler: 'bcedge', params: { pretrained: 1 } }, { scheduler: 'tac', params: { pretrained: 1 } }, { scheduler: 'deeprt' }, { scheduler: 'fixed' }];
const B = { bcedge: 0, tac: 1, deeprt: 2, fixed: 3 } as const;

/**
 * Learning claims run 300 s instead of the paper's 3000 s and at most 4 seeds (they read
 * "noise" at 2): one learning lane costs about 4 s of CPU per 300 s of serving on the
 * project's 2-core machine and the learning rows need about 60 such lane-runs per seed, so 4
 * seeds are about 16 minutes of CPU: half an hour of wall time on the two cores alone, far
 * more when other work shares them. Each row states its seeds and run length.
 */
const SHORT = { 'serving.durationS': 300 } as const;
const SHORT_NOTE = 'shorter runs and fewer seeds than the rest of the report: learning lanes cost seconds per simulated minute';
const LEARNING_SEEDS = 4;

/**
 * How long the learning rows run and with how many seeds at most: the registry's 300 s and 4
 * by default; a report may ask for the paper's 3000 s (`claims --learning-length 3000
 * --learning-seeds 5`, on shards: README), and says so in its provenance.
 */
export interface LearningRuns {
  /** Run length of the learning rows, s (the two-length row of Figs. 8–9 runs this and twice this). */
  readonly lengthS: number;
  /** Seeds at most (never more than the report's). */
  readonly seeds: number;
  /**
   * Run length of the learning rows' readings (their sensitivity strip), s; absent: `lengthS`.
   * At the paper's 3000 s the strip is nine tenths of the report's cost (about 500 of its 560
   * learning cells), so a report may measure each row's own number at the paper's length and
   * which readings flip it at a shorter one; the strip's default-reading cell then runs at that
   * length too, so every reading is compared with a default of its own length.
   */
  readonly readingsLengthS?: number;
}

export const DEFAULT_LEARNING_RUNS: LearningRuns = { lengthS: SHORT['serving.durationS'], seeds: LEARNING_SEEDS };

/** The bounds of `LearningRuns` (the command line's options name them). */
export const LEARNING_RUNS_LIMITS = { lengthS: { min: 10, max: 100_000 }, seeds: { min: 1, max: 100 } } as const;

/**
 * The claims with their learning rows run as `runs` says: the run length they set (and the
 * run lengths they sweep, scaled alike) and their seed cap. The default runs give the claims
 * back as they are.
 */
export function withLearningRuns(claims: readonly Claim[], runs: LearningRuns): Claim[] {
  const readingsLengthS = runs.readingsLengthS ?? runs.lengthS;
  const same = runs.lengthS === DEFAULT_LEARNING_RUNS.lengthS && runs.seeds === DEFAULT_LEARNING_RUNS.seeds && readingsLengthS === runs.lengthS;
  if (same) return [...claims];
  return claims.map((claim) => {
    if (!claim.learns) return claim;
    const m = claim.measure;
    const at = atLength(m, runs.lengthS);
    const readings = readingsLengthS === runs.lengthS ? undefined : atLength(m, readingsLengthS);
    const strip = readings === undefined ? '' : `, their readings ${readingsLengthS} s (--learning-readings-length)`;
    const note = m.note === SHORT_NOTE ? `learning rows run ${runs.lengthS} s with at most ${runs.seeds} seeds (claims --learning-length, --learning-seeds)${strip}` : m.note;
    const measure: ClaimMeasure = {
      ...m,
      ...at,
      ...(readings === undefined ? {} : { readingsAt: readings }),
      ...(m.maxSeeds === undefined ? {} : { maxSeeds: runs.seeds }),
      ...(note === undefined ? {} : { note }),
    };
    return { ...claim, measure };
  });
}

/** A learning measure's run length set to `lengthS`, and the run lengths it sweeps scaled alike. */
function atLength(m: ClaimMeasure, lengthS: number): Pick<ClaimMeasure, 'set' | 'axes'> {
  const scale = lengthS / DEFAULT_LEARNING_RUNS.lengthS;
  const set = m.set?.['serving.durationS'] === undefined ? m.set : { ...m.set, 'serving.durationS': lengthS };
  const axes = m.axes?.map((a) => (a.path === 'serving.durationS' && a.values !== undefined ? { ...a, values: a.values.map((v) => Number(v) * scale) } : a));
  return { ...(set === undefined ? {} : { set }), ...(axes === undefined ? {} : { axes }) };
}

const RATE: Sensitivity = { path: 'serving.rateRps', label: 'rate (rps)', values: [10, 30, 50] };
const PLATFORM: Sensitivity = { path: 'serving.platform', label: 'platform', values: ['xavier-nx', 'tx2', 'nano'] };
const SLO_JITTER: Sensitivity = { path: 'serving.assumptions.sloJitter', label: 'SLO jitter', values: [0, 0.1] };
// Two readings each of the slot and the entropy target: a third would add minutes of learning per seed.
// `slotMs` is the fixed slot under `slot: "fixed"` and, under Eq. 1's per-model slots (the
// default), the reporting interval over which the metrics (and the reference lanes' search)
// are taken; the learners' training cadence is their own parameter (trainEveryMs).
const SLOT: Sensitivity = { path: 'serving.assumptions.slotMs', label: 'slot (ms)', values: [1000, 2000] };
const ENTROPY: Sensitivity = { path: 'serving.lanes[0].params.targetEntropyRatio', label: 'entropy target', values: [0.3, 0.6] };
const PREDICTOR_BUDGET: Sensitivity = { path: 'serving.lanes[0].params.predictorBudget', label: 'predictor budget', values: [0.5, 0.8, 1] };
/** Whether the predictor's predictions mask actions (1, §IV-F) or it only learns (0): lane 0 then acts as BCEdge without it. */
const PREDICTOR_MASK: Sensitivity = { path: 'serving.lanes[0].params.predictorMask', label: 'predictor masks', values: [1, 0] };
/**
 * The readings of BCEdge (ARCHITECTURE §3, scenario/servingReadings.ts): every BCEdge row is measured
 * under the paper's reading of each (the default) and under the lab's earlier one.
 */
const reading = (name: keyof ScenarioReadings, label: string): Sensitivity => ({
  path: `serving.assumptions.${name}`,
  label,
  values: [PAPER_SCENARIO_READINGS[name], EARLIER_SCENARIO_READINGS[name]],
  absent: PAPER_SCENARIO_READINGS[name],
});
const BCEDGE_READINGS: readonly Sensitivity[] = [
  reading('rateBasis', 'rate basis'),
  reading('batching', 'batching'),
  reading('throughputTerm', 'T of Eq. 3'),
  reading('reward', 'reward'),
  reading('latencyProfile', 'latency profile'),
  // Changes only runs of several models on Nano or TX2 (Figs. 11–12, and the platform strip's
  // Nano and TX2); elsewhere both readings are the same cells, run once (`cellsKey`).
  reading('platformSetting', 'Nano/TX2 setup'),
  reading('slot', 'scheduling slot'),
];
/** What the interference predictor judges (predictor rows only: no other lane has one). */
const INTERFERENCE: Sensitivity = reading('interference', 'predictor judges');
/** The predictor claims' readings: its masking and budget, the SLO jitter and the slot length (both lanes alike). */
const PREDICTOR_READINGS: readonly Sensitivity[] = [PREDICTOR_MASK, PREDICTOR_BUDGET, SLO_JITTER, SLOT, INTERFERENCE, ...BCEDGE_READINGS];

const fig7Measure = (metric: string, compare: ClaimCompare): ClaimMeasure => ({
  preset: 'bcedge-fig7-utility',
  lanes: BCEDGE_LANES,
  set: SHORT,
  metric,
  compare,
  over: 'mean',
  references: [B.fixed],
  learns: true,
  maxSeeds: LEARNING_SEEDS,
  note: SHORT_NOTE,
  paperRun: '3000 s',
});

/**
 * Fig. 11's setting: YOLO-v5, ResNet-18 and TinyBERT at 30 rps on each platform (Nano, TX2,
 * Xavier NX). Under the paper's platform setting (§V-D's "respectively",
 * scenario/deviceCopies.ts) each model is served alone on its own Nano or TX2, with one
 * scheduler per device, and the three together on Xavier NX, as in §V-A; a lane's number adds
 * its copies up (utility: the mean over every model's slots; latency: over every request).
 * The strip's `mixed` puts the three on one Nano, which 90 rps overloads.
 */
const platformsMeasure = (metric: string, compare: ClaimCompare): ClaimMeasure => ({
  preset: 'bcedge-fig7-utility',
  lanes: BCEDGE_LANES,
  set: { ...SHORT, 'serving.models': [{ model: 'yolo', weight: 1 }, { model: 'res', weight: 1 }, { model: 'bert', weight: 1 }] },
  axes: [{ path: 'serving.platform', values: ['nano', 'tx2', 'xavier-nx'] }],
  metric,
  compare,
  over: 'mean',
  learns: true,
  maxSeeds: LEARNING_SEEDS,
  note: SHORT_NOTE,
  paperRun: '3000 s',
});

/** Fig. 14's two lanes: 0 BCEdge with the interference predictor, 1 without (both from the shipped agent). */
const predictorMeasure = (metric: string, compare: ClaimCompare, scale?: number): ClaimMeasure => ({
  preset: 'bcedge-fig14-slo',
  set: SHORT,
  metric,
  ...(scale === undefined ? {} : { scale }),
  compare,
  over: 'mean',
  learns: true,
  maxSeeds: LEARNING_SEEDS,
  note: SHORT_NOTE,
  paperRun: '3000 s',
});

const fig15Measure = (compare: ClaimCompare): ClaimMeasure => ({
  preset: 'bcedge-fig7-utility',
  lanes: BCEDGE_LANES.slice(0, 3),
  set: SHORT,
  axes: [{ path: 'serving.rateRps', values: [10, 20, 30, 40, 50] }],
  metric: 'sloViolationPct',
  compare,
  over: 'mean',
  learns: true,
  maxSeeds: LEARNING_SEEDS,
  note: SHORT_NOTE,
  paperRun: '3000 s',
});

/** The batch × instances grid of Fig. 1, thinned to 4 × 4 (its last cell is b = 128, m_c = 8). */
const FIG1_AXES: readonly SweepAxis[] = [
  { path: 'serving.lanes[0].params.batchSize', name: 'batchSize', values: [1, 4, 16, 128] },
  { path: 'serving.lanes[0].params.instances', name: 'instances', values: [1, 2, 4, 8] },
];

/** The claims of the BCEdge paper (seed 001). */
export const BCEDGE_CLAIMS: readonly Claim[] = [
  {
    id: 'bcedge-fig1-throughput',
    paper: 'bcedge',
    where: 'Fig. 1(a), §I',
    quote:
      'Fig. 1 illustrates that higher-throughput and lower-latency appear in moderate batch size and number of concurrent models. Due to resource contention caused by model interference, excessive batch size and number of concurrent models significantly reduce throughput and increase latency or even cause memory overflow, especially when batch size and number of concurrent models are large, e.g., batch size is 128, model number is 8.',
    labNumber: "YOLO's throughput at b = 128, m_c = 8 against the best cell of the batch × instances grid (Triton fixed, Xavier NX, a closed loop at load), %",
    measure: { preset: 'bcedge-fig1-yolo', axes: FIG1_AXES, metric: 'throughputRps', compare: { kind: 'lastVsBest', a: 0 }, over: 'mean', learns: false },
    rule: { kind: 'sign', sign: -1 },
    sensitivity: [PLATFORM, ...BCEDGE_READINGS],
    learns: false,
  },
  {
    id: 'bcedge-fig1-latency',
    paper: 'bcedge',
    where: 'Fig. 1(b), §I',
    quote: 'excessive batch size and number of concurrent models significantly reduce throughput and increase latency or even cause memory overflow, especially when batch size and number of concurrent models are large, e.g., batch size is 128, model number is 8.',
    labNumber: "YOLO's mean latency at b = 128, m_c = 8 against the lowest of the batch × instances grid, %",
    measure: { preset: 'bcedge-fig1-yolo', axes: FIG1_AXES, metric: 'latencyMeanMs', compare: { kind: 'lastVsBest', a: 0 }, over: 'mean', learns: false },
    rule: { kind: 'sign', sign: 1 },
    sensitivity: [PLATFORM, ...BCEDGE_READINGS],
    learns: false,
  },
  {
    id: 'bcedge-fig7-vs-deeprt',
    paper: 'bcedge',
    where: 'Fig. 7, §V-C1',
    quote: 'To be more specific, BCEdge offers higher utility than both DeepRT and TAC by an average of 37% and 25%, respectively.',
    paperNumber: '+37 %',
    labNumber: 'BCEdge against DeepRT, mean utility as the ratio exp(ΔU) − 1 (six models, Xavier NX, 30 rps each), %',
    measure: fig7Measure('utilityMean', { kind: 'ratioPct', a: B.bcedge, b: B.deeprt }),
    rule: { kind: 'sign', sign: 1, paperValue: 37, tolerance: 15 },
    sensitivity: [RATE, PLATFORM, SLO_JITTER, SLOT, ENTROPY, ...BCEDGE_READINGS],
    learns: true,
  },
  {
    id: 'bcedge-fig7-vs-tac',
    paper: 'bcedge',
    where: 'Fig. 7, §V-C1',
    quote: 'To be more specific, BCEdge offers higher utility than both DeepRT and TAC by an average of 37% and 25%, respectively.',
    paperNumber: '+25 %',
    labNumber: 'BCEdge against TAC, mean utility as the ratio exp(ΔU) − 1 (six models, Xavier NX, 30 rps each), %',
    measure: { ...fig7Measure('utilityMean', { kind: 'ratioPct', a: B.bcedge, b: B.tac }), references: [B.deeprt, B.fixed] },
    rule: { kind: 'sign', sign: 1, paperValue: 25, tolerance: 15 },
    sensitivity: [RATE, PLATFORM, SLO_JITTER, SLOT, ENTROPY, ...BCEDGE_READINGS],
    learns: true,
  },
  {
    id: 'bcedge-fig8-9-saturate',
    paper: 'bcedge',
    where: 'Figs. 8–9, §V-C1',
    quote:
      'Both the throughput and latency increase asymptotically between 0 and 1,500 seconds, which indicates that BCEdge is continuously optimizing our proposed utility function […] Starting from 1,500 seconds, both the throughput and latency are saturated',
    labNumber: "BCEdge learning from scratch: its throughput over 300–600 s against 0–300 s, % (from runs of 300 s and 600 s on the same trace)",
    measure: {
      preset: 'bcedge-fig8-9-timeline',
      lanes: [{ scheduler: 'bcedge' }],
      // The two runs share their first 300 s (same seed, same arrivals, same agent), so the
      // later half's rate is (T₆₀₀ · 600 − T₃₀₀ · 300) / 300. The paper's halves are 1500 s.
      axes: [{ path: 'serving.durationS', values: [300, 600] }],
      metric: 'throughputRps',
      compare: { kind: 'laterVsEarlier', a: 0 },
      over: 'mean',
      learns: true,
      maxSeeds: LEARNING_SEEDS,
      note: 'the summaries have no time series, so the two halves come from two run lengths on the same trace, shorter than the paper\'s (training from scratch is the costliest row)',
      paperRun: 'halves of 1500 s',
    },
    rule: { kind: 'sign', sign: 1 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig10-convergence',
    paper: 'bcedge',
    where: 'Fig. 10, §V-C2',
    quote: 'As shown in Fig. 10, our proposed scheduling algorithm has has the convergence speed increase of 1.8×∼3.7× compared with baseline methods.',
    paperNumber: '1.8–3.7× faster',
    labNumber: "BCEdge against PPO, both learning from scratch, mean utility over the first 300 s as the ratio exp(ΔU) − 1, % (faster convergence shows as a higher early utility)",
    measure: {
      preset: 'bcedge-fig10-convergence',
      lanes: [{ scheduler: 'bcedge' }, { scheduler: 'ppo' }],
      set: SHORT,
      metric: 'utilityMean',
      compare: { kind: 'ratioPct', a: 0, b: 1 },
      over: 'mean',
      learns: true,
      maxSeeds: LEARNING_SEEDS,
      note: 'the summaries have no per-slot curve to read a convergence time from: the row compares the utility of the first part of training instead, so it judges the direction only',
      paperRun: 'a convergence curve over the whole training',
    },
    rule: { kind: 'sign', sign: 1 },
    sensitivity: [ENTROPY, ...BCEDGE_READINGS],
    learns: true,
  },
  {
    id: 'bcedge-fig11-nano-vs-deeprt',
    paper: 'bcedge',
    where: 'Fig. 11, §V-C3',
    quote: 'Even for Jetson nano with the weakest computing power, the utility of BCEdge can increases by 30% and 19% compared with DeepRT and TAC, respectively.',
    paperNumber: '+30 % (Nano)',
    labNumber: 'BCEdge against DeepRT on Jetson Nano, mean utility as the ratio exp(ΔU) − 1 (YOLO-v5, ResNet-18, TinyBERT at 30 rps each, each alone on its own Nano), %',
    measure: platformsMeasure('utilityMean', { kind: 'ratioPct', a: B.bcedge, b: B.deeprt, at: 0 }),
    rule: { kind: 'sign', sign: 1, paperValue: 30, tolerance: 15 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig11-nano-vs-tac',
    paper: 'bcedge',
    where: 'Fig. 11, §V-C3',
    quote: 'Even for Jetson nano with the weakest computing power, the utility of BCEdge can increases by 30% and 19% compared with DeepRT and TAC, respectively.',
    paperNumber: '+19 % (Nano)',
    labNumber: 'BCEdge against TAC on Jetson Nano, mean utility as the ratio exp(ΔU) − 1 (YOLO-v5, ResNet-18, TinyBERT at 30 rps each, each alone on its own Nano), %',
    measure: platformsMeasure('utilityMean', { kind: 'ratioPct', a: B.bcedge, b: B.tac, at: 0 }),
    rule: { kind: 'sign', sign: 1, paperValue: 19, tolerance: 15 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig11-tx2-vs-deeprt',
    paper: 'bcedge',
    where: 'Fig. 11, §V-C3',
    quote: 'Since Jetson TX2 has more computing resources that configure more batch size and number of concurrent models, BCEdge can achieve higher performance, and the utility is 39% and 27% higher than DeepRT and TAC, respectively.',
    paperNumber: '+39 % (TX2)',
    labNumber: 'BCEdge against DeepRT on Jetson TX2, mean utility as the ratio exp(ΔU) − 1 (YOLO-v5, ResNet-18, TinyBERT at 30 rps each, each alone on its own TX2), %',
    measure: platformsMeasure('utilityMean', { kind: 'ratioPct', a: B.bcedge, b: B.deeprt, at: 1 }),
    rule: { kind: 'sign', sign: 1, paperValue: 39, tolerance: 15 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig12-latency',
    paper: 'bcedge',
    where: 'Fig. 12, §V-C3',
    quote: 'The throughput and average latency of heterogeneous edge platforms. The more computing resources of the edge platform, the higher the throughput and the lower the average latency.',
    labNumber: "BCEdge's mean latency on Jetson Nano against Xavier NX (YOLO-v5, ResNet-18, TinyBERT at 30 rps each: each alone on its own Nano, the three together on Xavier NX), %",
    measure: platformsMeasure('latencyMeanMs', { kind: 'cells', a: B.bcedge, from: 0, to: 2 }),
    rule: { kind: 'sign', sign: 1 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig13-predictor',
    paper: 'bcedge',
    where: 'Fig. 13, §V-D',
    quote: 'The proposed model can predict up to 90% of cases within 2.69% error rate and up to 95% if 3.25% of error is allowed, which reduces the error rate by half compared to the linear regression model.',
    paperNumber: 'p95 ≤ 3.25 %',
    labNumber: "the predictor's 95th-percentile relative error, each record predicted before it is learnt from (BCEdge with the predictor), %",
    measure: predictorMeasure('learning/predictor/mlp/p95', { kind: 'value', a: 0 }, 100),
    rule: { kind: 'atMost', bound: 3.25 },
    sensitivity: PREDICTOR_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig13-vs-linear',
    paper: 'bcedge',
    where: 'Fig. 13, §V-D',
    quote: 'The proposed model can predict up to 90% of cases within 2.69% error rate and up to 95% if 3.25% of error is allowed, which reduces the error rate by half compared to the linear regression model.',
    paperNumber: '−50 %',
    labNumber: "the predictor's p95 relative error against linear regression's on the same records, %",
    measure: predictorMeasure('learning/predictor/mlp/p95', { kind: 'diffPct', a: 0, b: 0, bMetric: 'learning/predictor/linear/p95' }, 100),
    rule: { kind: 'sign', sign: -1, paperValue: -50, tolerance: 20 },
    sensitivity: PREDICTOR_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig14-predictor-slo',
    paper: 'bcedge',
    where: 'Fig. 14, §V-D',
    quote: 'The proposed model can reduce the SLO violation rate of BCEdge from 9.2% to 4.1%, compared to BCEdge without the interference prediction model.',
    paperNumber: '9.2 % → 4.1 % (−55 %)',
    labNumber: 'BCEdge with the predictor against without, SLO violations (six models, Xavier NX, 30 rps each), %',
    measure: predictorMeasure('sloViolationPct', { kind: 'diffPct', a: 0, b: 1 }),
    rule: { kind: 'sign', sign: -1, paperValue: -55.4, tolerance: 25 },
    sensitivity: PREDICTOR_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig15-vs-deeprt',
    paper: 'bcedge',
    where: 'Fig. 15, §V-D',
    quote: 'It can be seen that BCEdge has the lowest SLO violation rate for all rps, which is 53% and 25% lower than DeepRT and TAC on average, respectively.',
    paperNumber: '−53 %',
    labNumber:
      "BCEdge against DeepRT, SLO violations, difference of the means over 10–50 rps: in % of DeepRT's mean when it is at least 1 % of requests, else in percentage points (pp), judged by its sign",
    // DeepRT's violations are near 0 at these rates under the paper's readings (exactly 0 in
    // three of the four seeds of the report of commit e14e687, whose row then kept one seed):
    // a % of that divides by ≈ 0.
    measure: fig15Measure({ kind: 'diffPct', a: B.bcedge, b: B.deeprt, pointsBelow: 1 }),
    rule: { kind: 'sign', sign: -1, paperValue: -53, tolerance: 20 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig15-vs-tac',
    paper: 'bcedge',
    where: 'Fig. 15, §V-D',
    quote: 'It can be seen that BCEdge has the lowest SLO violation rate for all rps, which is 53% and 25% lower than DeepRT and TAC on average, respectively.',
    paperNumber: '−25 %',
    labNumber: 'BCEdge against TAC, SLO violations, difference of the means over 10–50 rps, %',
    measure: fig15Measure({ kind: 'diffPct', a: B.bcedge, b: B.tac }),
    rule: { kind: 'sign', sign: -1, paperValue: -25, tolerance: 15 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig15-40rps',
    paper: 'bcedge',
    where: 'Fig. 15, §V-D',
    quote: 'The SLO violation rate of BCEdge does not exceed 5% even at 40rps.',
    paperNumber: '≤ 5 % at 40 rps',
    labNumber: "BCEdge's SLO violations at 40 rps, %",
    measure: fig15Measure({ kind: 'value', a: B.bcedge, at: 3 }),
    rule: { kind: 'atMost', bound: 5 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig16-vs-deeprt',
    paper: 'bcedge',
    where: 'Fig. 16, §V-E',
    quote: 'Specifically, the average scheduling overhead of BCEdge is 26% and 43% lower than that of DeepRT and TAC, respectively.',
    paperNumber: '−26 %',
    labNumber: 'BCEdge against DeepRT, wall-clock time per scheduling decision on this machine, %',
    measure: fig7Measure('decisionMeanUs', { kind: 'diffPct', a: B.bcedge, b: B.deeprt }),
    rule: { kind: 'sign', sign: -1, paperValue: -26, tolerance: 15 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
  {
    id: 'bcedge-fig16-vs-tac',
    paper: 'bcedge',
    where: 'Fig. 16, §V-E',
    quote: 'Specifically, the average scheduling overhead of BCEdge is 26% and 43% lower than that of DeepRT and TAC, respectively.',
    paperNumber: '−43 %',
    labNumber: 'BCEdge against TAC, wall-clock time per scheduling decision on this machine, %',
    measure: fig7Measure('decisionMeanUs', { kind: 'diffPct', a: B.bcedge, b: B.tac }),
    rule: { kind: 'sign', sign: -1, paperValue: -43, tolerance: 15 },
    sensitivity: BCEDGE_READINGS,
    learns: true,
  },
];

/** Every claim, ODIN's first. */
export const CLAIMS: readonly Claim[] = [...ODIN_CLAIMS, ...BCEDGE_CLAIMS];

// ---------------------------------------------------------------------------------------
// Scenarios

type Json = Record<string, unknown> | unknown[];

/** `document` (copied along the way) with the field at `path` set to `value`. */
function setPath<T>(document: T, path: string, value: unknown): T {
  const keys = parseFieldPath(path);
  if (keys === null) throw new RangeError(`claims: ${JSON.stringify(path)} is not a field path`);
  const root = structuredClone(document) as Json;
  let at: Json = root;
  keys.slice(0, -1).forEach((key, i) => {
    const holder = at as Record<string | number, unknown>;
    // A lane's optional `params` is made when a reading sets one of its parameters.
    if (holder[key] === undefined && key === 'params' && i === keys.length - 2) holder[key] = {};
    const next = holder[key];
    if (next === null || typeof next !== 'object') throw new RangeError(`claims: ${path} is not a field of the scenario`);
    at = next as Json;
  });
  (at as Record<string | number, unknown>)[keys.at(-1)!] = value;
  return root as T;
}

/** The value of the field at `path`, or undefined. */
function getPath(document: unknown, path: string): unknown {
  let at = document;
  for (const key of parseFieldPath(path) ?? []) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Seeds a claim runs with when `seeds` are asked for. */
export function claimSeedCount(claim: Claim, seeds: number): number {
  return Math.max(1, Math.min(seeds, claim.measure.maxSeeds ?? seeds));
}

/** The claim's scenario under the default readings, its sweep set (axes, seeds, metric, comparison). */
function mainScenario(claim: Claim, seeds: number): AnyScenario {
  const m = claim.measure;
  const preset = findPreset(m.preset);
  if (preset === undefined) throw new RangeError(`claim ${claim.id}: no preset ${m.preset}`);
  let scenario = structuredClone(preset.scenario) as AnyScenario;
  if (m.lanes !== undefined) {
    scenario = worldOf(scenario).withLanes(scenario, m.lanes);
  }
  // The named choices a scenario may leave out are written at their defaults, so a reading of
  // the default is the very same scenario (run once) and the strip shows it.
  scenario = worldOf(scenario).withOptionalDefaults(scenario);
  for (const [path, value] of Object.entries(m.set ?? {})) scenario = setPath(scenario, path, value);
  // A one-combination claim still has a sweep (its seeds): one axis holding the field's own value.
  const oneCell: SweepAxis = worldOf(scenario).lengthAxis(scenario);
  const axes = m.axes ?? scenario.sweep?.axes ?? [oneCell];
  const metrics = sweepMetricsOf(scenario);
  const sweep: Sweep = {
    axes: [...axes],
    seeds: claimSeedCount(claim, seeds),
    ...(metrics.includes(m.metric) ? { metric: m.metric } : {}),
    ...((m.compare.kind === 'diffPct' || m.compare.kind === 'ratioPct') && m.compare.a !== m.compare.b ? { compare: { a: m.compare.a, b: m.compare.b } } : {}),
  };
  return { ...scenario, title: `${claim.where}: ${claim.id}`.slice(0, 80), sweep };
}

/** One scenario of a claim's sensitivity strip: the claim re-measured under one reading. */
export interface ClaimReadingScenario {
  readonly path: string;
  readonly label: string;
  readonly value: ReadingValue;
  readonly scenario: AnyScenario;
}

/**
 * Every swept scenario whose cells measure the claim: the default readings (`main`), then one
 * per reading of each sensitivity (the reading that equals the default gives the main
 * scenario again; `computeClaims` runs it once). Each is an ordinary scenario with a sweep.
 */
export function claimScenarios(claim: Claim, seeds: number): { main: AnyScenario; readings: ClaimReadingScenario[] } {
  const main = mainScenario(claim, seeds);
  const at = claim.measure.readingsAt;
  const base = at === undefined ? main : mainScenario({ ...claim, measure: { ...claim.measure, ...at } }, seeds);
  const readings = claim.sensitivity.flatMap((s) => s.values.map((value) => ({ path: s.path, label: s.label, value, scenario: setPath(base, s.path, readingSetting(s, value)) })));
  return { main, readings };
}

/**
 * The default reading of a choice: the value at `path` of the claim's main scenario, or, for
 * an object field, the name of the reading whose setting it equals.
 */
export function defaultReading(claim: Claim, path: string): ReadingValue | undefined {
  const value = getPath(mainScenario(claim, 1), path);
  const s = claim.sensitivity.find((x) => x.path === path);
  if (s?.settings !== undefined) return s.values.find((v) => JSON.stringify(readingSetting(s, v)) === JSON.stringify(value));
  return (value as ReadingValue | undefined) ?? s?.absent;
}

// ---------------------------------------------------------------------------------------
// The reduction

function metricValue(summary: object, metric: string): number {
  let at: unknown = summary;
  for (const key of metric.split('/')) {
    if (at === null || typeof at !== 'object') return Number.NaN;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'number' ? at : Number.NaN;
}

/** The outcomes of one scenario as [combination][seed] → lane rows. */
function grid(scenario: AnyScenario, seeds: readonly number[], outcomes: readonly CellOutcome[]): (readonly ResultRow[])[][] {
  const cells = sweepCells(scenario, seeds);
  if (outcomes.length !== cells.length) throw new RangeError(`estimateClaim: ${outcomes.length} outcomes for ${cells.length} cells`);
  const combinations = cells.length / seeds.length;
  const out: (readonly ResultRow[])[][] = Array.from({ length: combinations }, () => []);
  outcomes.forEach((o, i) => {
    if (o.index !== i || o.seed !== cells[i]!.seed) throw new RangeError(`estimateClaim: cell ${i} is missing or out of order`);
    out[cells[i]!.combination]!.push(o.results);
  });
  return out;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Which side of a rule is wrong for a number: higher values are worse when this is +1. */
function worseDirection(rule: VerdictRule): 1 | -1 {
  switch (rule.kind) {
    case 'atMost':
      return 1;
    case 'atLeast':
      return -1;
    case 'sign':
      return rule.sign > 0 ? -1 : 1;
    case 'near':
      return 1;
  }
}

/**
 * The claim's number from one scenario's cell outcomes (in canonical order), with lane `a`
 * replaced by `lane` when given (the reference lanes). Pure.
 */
export function estimateClaim(claim: Claim, scenario: AnyScenario, seeds: readonly number[], outcomes: readonly CellOutcome[], lane?: number): Estimate {
  const m = claim.measure;
  const scale = m.scale ?? 1;
  const byCell = grid(scenario, seeds, outcomes);
  const combos = byCell.length;
  const a = lane ?? m.compare.a;
  const value = (rows: readonly ResultRow[], index: number, metric = m.metric): number => {
    const row = rows[index];
    if (row === undefined) throw new RangeError(`claim ${claim.id}: lane ${index} is not a lane of its scenario`);
    return scale * metricValue(row.summary, metric);
  };
  const perSeed = (s: number, combination: number, index: number, metric?: string) => value(byCell[combination]![s]!, index, metric);
  const seedsIdx = seeds.map((_, s) => s);
  const compare = m.compare;
  switch (compare.kind) {
    case 'cells':
      return meanInterval(seedsIdx.map((s) => differencePct(perSeed(s, compare.from, a), perSeed(s, compare.to, a))));
    case 'lastVsBest': {
      const higher = higherIsBetter(m.metric);
      return meanInterval(
        seedsIdx.map((s) => {
          const values = byCell.map((_, c) => perSeed(s, c, a));
          const best = higher ? Math.max(...values) : Math.min(...values);
          return differencePct(values.at(-1)!, best);
        }),
      );
    }
    case 'laterVsEarlier': {
      const axis = scenario.sweep!.axes[0]!;
      const [d1, d2] = (axis.values ?? []) as number[];
      if (combos !== 2 || d1 === undefined || d2 === undefined || !(d2 > d1)) throw new RangeError(`claim ${claim.id}: laterVsEarlier needs one axis of two increasing run lengths`);
      return meanInterval(
        seedsIdx.map((s) => {
          const early = perSeed(s, 0, a);
          const later = (perSeed(s, 1, a) * d2 - early * d1) / (d2 - d1);
          return differencePct(later, early);
        }),
      );
    }
    case 'value':
    case 'diffPct':
    case 'ratioPct': {
      if (compare.at !== undefined) {
        const only = byCell[compare.at];
        if (only === undefined) throw new RangeError(`claim ${claim.id}: the sweep has no combination ${compare.at}`);
        byCell.splice(0, byCell.length, only);
      }
      const side = (s: number, c: number): number => perSeed(s, c, a);
      const other = (s: number, c: number): number =>
        compare.kind === 'diffPct' ? perSeed(s, c, compare.b, compare.bMetric) : compare.kind === 'ratioPct' ? perSeed(s, c, compare.b) : 0;
      const number = (aValue: number, bValue: number): number =>
        compare.kind === 'value' ? aValue : compare.kind === 'ratioPct' ? 100 * Math.expm1(aValue - bValue) : differencePct(aValue, bValue);
      const threshold = compare.kind === 'diffPct' ? compare.pointsBelow : undefined;
      // Per seed, lane a's and lane b's numbers → the estimate (against a threshold: `pointsBelow`).
      const estimate = (pairs: readonly (readonly [number, number])[]): Estimate => {
        if (threshold === undefined) return meanInterval(pairs.map(([x, y]) => number(x, y)));
        const baseline = mean(pairs.map(([, y]) => y));
        if (!(baseline >= threshold)) return { ...meanInterval(pairs.map(([x, y]) => x - y)), unit: 'points', baseline };
        return { ...meanInterval(pairs.map(([x, y]) => (100 * (x - y)) / baseline)), baseline };
      };
      if (m.over === 'mean') {
        return estimate(seedsIdx.map((s) => [mean(byCell.map((_, c) => side(s, c))), mean(byCell.map((_, c) => other(s, c)))] as const));
      }
      const perCombination = byCell.map((_, c) => estimate(seedsIdx.map((s) => [side(s, c), other(s, c)] as const)));
      const direction = worseDirection(claim.rule);
      const target = claim.rule.kind === 'near' ? claim.rule.paperValue : 0;
      const badness = (e: Estimate): number => (claim.rule.kind === 'near' ? Math.abs(e.mean - target) : direction * e.mean);
      return perCombination.reduce((worst, e) => (badness(e) > badness(worst) ? e : worst));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Rows

/** What was computed for one claim: the main estimate and each reading's (null: not computed). */
export interface ClaimComputation {
  readonly main: Estimate | null;
  readonly readings: readonly { readonly path: string; readonly label: string; readonly value: ReadingValue; readonly estimate: Estimate | null }[];
  /** The reference lanes under the default readings. */
  readonly references?: readonly { readonly label: string; readonly estimate: Estimate }[];
  /** Seeds each scenario ran with. */
  readonly seeds?: number;
}

const fmt = (v: number): string => {
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return `${v > 0 ? '+' : ''}${v.toFixed(digits)}`;
};

/** `−30.1 ± 2.2` (or the mean alone for one seed); `+4.2 ± 1.1 pp` for a difference in points (`Estimate.unit`). */
export function formatEstimate(e: Estimate): string {
  const shown = e.seeds > 1 ? `${fmt(e.mean)} ± ${Math.abs(e.halfWidth95) < 0.005 ? '0' : fmt(e.halfWidth95).replace('+', '')}` : fmt(e.mean);
  return e.unit === 'points' ? `${shown} pp` : shown;
}

/**
 * A claim's judgement of one estimate: its rule, except that a difference in points (`unit`,
 * the baseline below `pointsBelow`) is judged by its sign alone — the paper's size is a % of
 * the baseline, which the lab could not take.
 */
export function judgeEstimate(rule: VerdictRule, e: Estimate): ReturnType<typeof judge> {
  if (e.unit === 'points' && rule.kind === 'sign') return judge({ kind: 'sign', sign: rule.sign }, e);
  return judge(rule, e);
}

const judged = (rule: VerdictRule, e: Estimate | null): Verdict => (e === null || !Number.isFinite(e.mean) || !Number.isFinite(e.halfWidth95) ? 'noise' : judgeEstimate(rule, e).verdict);

const describeValue = (v: ReadingValue): string => (typeof v === 'string' ? v : String(v));

/** How long a claim's runs are: `300 s of serving`, or `runs of 300 and 600 s` when the sweep is over the length (`World.runLength`). */
function runLength(scenario: AnyScenario): string {
  return worldOf(scenario).runLength(scenario);
}

/**
 * The claim's row: verdict, sensitivity strip and a one-line reason written from the numbers
 * — the judgement of the default readings, then the first modelling choice whose readings
 * disagree on the verdict ("fails with trial cost = serial (−30 ± 2), holds with trial cost =
 * pipelined (+3 ± 1): trial cost flips it"), or that none of them does.
 */
export function claimRow(claim: Claim, computed: ClaimComputation): ClaimRow {
  const main = computed.main !== null && Number.isFinite(computed.main.mean) ? computed.main : null;
  const verdict = judged(claim.rule, main);
  const sensitivity: SensitivityResult[] = claim.sensitivity.map((s) => ({
    path: s.path,
    label: s.label,
    readings: s.values.map((value): ReadingResult => {
      const found = computed.readings.find((r) => r.path === s.path && r.value === value);
      // A reading whose metric is missing from its runs (NaN, null once in JSON) was not measured.
      const estimate = found?.estimate !== null && found?.estimate !== undefined && Number.isFinite(found.estimate.mean) && Number.isFinite(found.estimate.halfWidth95) ? found.estimate : null;
      return { value, estimate, verdict: judged(claim.rule, estimate) };
    }),
  }));
  const judgement = main === null ? null : judgeEstimate(claim.rule, main);
  const parts: string[] = [judgement === null ? 'not computed' : judgement.reason];
  // A comparison against a threshold says which unit the number is in, and why.
  const threshold = claim.measure.compare.kind === 'diffPct' ? claim.measure.compare.pointsBelow : undefined;
  if (main !== null && threshold !== undefined && main.baseline !== undefined) {
    // Two significant digits for a baseline near 0 (0.00033, not 0.00).
    const base = main.baseline !== 0 && Math.abs(main.baseline) < 0.01 ? main.baseline.toPrecision(2) : fmt(main.baseline).replace('+', '');
    parts.push(
      main.unit === 'points'
        ? `in percentage points: the baseline's mean, ${base}, is below ${fmt(threshold).replace('+', '')}, where a % of it would divide by ≈ 0, so the paper's size is not judged, only the sign`
        : `in % of the baseline's mean (${base}, at least ${fmt(threshold).replace('+', '')})`,
    );
  }
  const defaults = new Map(claim.sensitivity.map((s) => [s.path, defaultReading(claim, s.path)]));
  const measured = (s: SensitivityResult) => s.readings.filter((r) => r.estimate !== null);
  const flips = sensitivity.filter((s) => new Set(measured(s).map((r) => r.verdict)).size > 1);
  const [flip, ...others] = flips;
  if (flip !== undefined) {
    // The default reading is the row's own number: named, not repeated.
    const isDefault = (s: SensitivityResult, r: ReadingResult) => defaults.get(s.path) === r.value;
    const shown = measured(flip)
      .map((r) => `${r.verdict} with ${flip.label} = ${describeValue(r.value)} (${isDefault(flip, r) ? 'the default' : formatEstimate(r.estimate!)})`)
      .join(', ');
    // Each other choice that flips it, by the readings that disagree with the default's verdict.
    const also = others.map((s) => {
      const away = measured(s).filter((r) => r.verdict !== verdict);
      return `${s.label} = ${away.map((r) => `${describeValue(r.value)} (${r.verdict}, ${formatEstimate(r.estimate!)})`).join(' or ')}`;
    });
    parts.push(`${shown}: ${flip.label} flips it${also.length > 0 ? `; so ${also.length === 1 ? 'does' : 'do'} ${also.join('; ')}` : ''}`);
  } else if (sensitivity.some((s) => measured(s).length > 0)) {
    const values = sensitivity.flatMap((s) => measured(s).map((r) => r.estimate!.mean));
    const range = values.length > 1 ? ` (its readings give ${formatEstimate({ mean: Math.min(...values), halfWidth95: 0, seeds: 1 })} to ${formatEstimate({ mean: Math.max(...values), halfWidth95: 0, seeds: 1 })})` : '';
    parts.push(`no reading of ${sensitivity.filter((s) => measured(s).length > 0).map((s) => s.label).join(', ')} changes the verdict${range}`);
  }
  // Choices whose readings were not all computed say so, rather than pass for agreeing.
  const missing = sensitivity
    .filter((s) => s.readings.some((r) => r.estimate === null))
    .map((s) => `${s.label} = ${s.readings.filter((r) => r.estimate === null).map((r) => describeValue(r.value)).join(' or ')}`);
  if (main !== null && missing.length > 0) parts.push(`no number under ${missing.join('; ')} (the metric is missing from those runs)`);
  const scenario = mainScenario(claim, computed.seeds ?? main?.seeds ?? 1);
  // Learning rows say how much they ran: seeds (unless the judgement just said them) and run length against the paper's.
  if (claim.learns && computed.seeds !== undefined) {
    const seedsSaid = judgement !== null && judgement.verdict === 'noise' && judgement.reason.includes(' seed');
    const seeds = seedsSaid ? '' : `${computed.seeds} seed${computed.seeds === 1 ? '' : 's'} of `;
    parts.push(`${seeds}${runLength(scenario)}${claim.measure.paperRun === undefined ? '' : ` (the paper: ${claim.measure.paperRun})`}`);
  }
  return {
    id: claim.id,
    paper: claim.paper,
    where: claim.where,
    quote: claim.quote,
    ...(claim.paperNumber === undefined ? {} : { paperNumber: claim.paperNumber }),
    labNumber: claim.labNumber,
    estimate: main,
    verdict,
    reason: parts.join('; '),
    sensitivity,
    learns: claim.learns,
    scenario,
    ...(computed.references === undefined || computed.references.length === 0 ? {} : { references: computed.references }),
    ...(claim.measure.note === undefined ? {} : { note: claim.measure.note }),
    ...(computed.seeds === undefined ? {} : { seeds: computed.seeds }),
  };
}

/** The verdicts of several rows, combined (the report's summary line). */
export function verdictCounts(rows: readonly Pick<ClaimRow, 'verdict'>[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { holds: 0, partly: 0, fails: 0, noise: 0 };
  for (const r of rows) counts[r.verdict]++;
  return counts;
}

export { combine };

/** Runs every cell of a scenario with the given seeds: the CLI passes its thread pool, the page its Web Worker pool. */
export type RunCells = (scenario: AnyScenario, seeds: readonly number[], onCell?: (done: number) => void) => Promise<CellOutcome[]>;

/** Progress of `computeClaims`: cells done of the cells to run (each distinct scenario once). */
export type ClaimsProgress = (done: number, total: number) => void;

/**
 * Scenarios that run the same cells share them: the sweep's metric and comparison do not
 * change a cell, a reading of BCEdge left out is the paper's (so a strip's paper reading is
 * the main scenario again), and the platform setting changes nothing where no combination of
 * the sweep serves several models on Nano or TX2 (readings.ts `servedApart`).
 */
export function cellsKey(scenario: AnyScenario): string {
  const { sweep, title: _title, ...rest } = canonicalCells(scenario);
  void _title;
  return JSON.stringify([rest, sweep?.axes, sweep?.seeds]);
}

/** The scenario as its cells run it (`World.asCellsRun`: the serving readings written out, the platform setting left out where it changes nothing). */
function canonicalCells(scenario: AnyScenario): AnyScenario {
  return worldOf(scenario).asCellsRun(scenario);
}

/** The lane labels of a scenario's rows (for the references' names). */
function laneLabelOf(outcomes: readonly CellOutcome[], lane: number): string {
  return outcomes[0]?.results[lane]?.label ?? `lane ${lane}`;
}

/** One scenario of a plan: run once for every claim whose cells it holds. */
export interface PlannedScenario {
  /** `cellsKey` of the scenario. */
  readonly key: string;
  readonly scenario: AnyScenario;
  readonly seeds: readonly number[];
  /** Its cells (`sweepCells(scenario, seeds)`). */
  readonly cells: number;
  /** The plan-wide index of its first cell: its cells are `first` … `first + cells − 1` (what shards split). */
  readonly first: number;
}

/**
 * What computing `claims` takes: each claim's scenarios (main and readings) and seeds, and
 * every distinct scenario once, in the claims' order (`scenarios`), its cells numbered across
 * the plan (`cells` in all). A pure function of the claims and the seeds: a shard of the
 * claims (`claims --shard I/N`) runs the plan-wide cells i with i mod N = I of the same plan.
 */
export interface ClaimsPlan {
  readonly claims: readonly { readonly claim: Claim; readonly main: AnyScenario; readonly readings: readonly ClaimReadingScenario[]; readonly seeds: readonly number[] }[];
  readonly scenarios: readonly PlannedScenario[];
  readonly cells: number;
}

export function planClaims(claims: readonly Claim[], seeds: number): ClaimsPlan {
  const plans = claims.map((claim) => ({ claim, ...claimScenarios(claim, seeds), seeds: sweepSeeds(mainScenario(claim, seeds)) }));
  const distinct = new Map<string, PlannedScenario>();
  let first = 0;
  for (const plan of plans) {
    for (const scenario of [plan.main, ...plan.readings.map((r) => r.scenario)]) {
      const key = cellsKey(scenario);
      if (distinct.has(key)) continue;
      const cells = sweepCells(scenario, plan.seeds).length;
      distinct.set(key, { key, scenario, seeds: plan.seeds, cells, first });
      first += cells;
    }
  }
  return { claims: plans, scenarios: [...distinct.values()], cells: first };
}

/**
 * The rows of a plan from its scenarios' cell outcomes (by `cellsKey`, each in canonical
 * order): `estimateClaim` per claim, reading and reference lane, then `claimRow`. Pure: the
 * same outcomes give the same rows, however the cells were split.
 */
export function planRows(plan: ClaimsPlan, outcomes: ReadonlyMap<string, readonly CellOutcome[]>): ClaimRow[] {
  const of = (scenario: AnyScenario) => {
    const found = outcomes.get(cellsKey(scenario));
    if (found === undefined) throw new RangeError(`claims: no outcomes for the scenario ${scenario.title}`);
    return found;
  };
  return plan.claims.map((p) => {
    const main = estimateClaim(p.claim, p.main, p.seeds, of(p.main));
    const references = (p.claim.measure.references ?? []).map((lane) => ({ label: laneLabelOf(of(p.main), lane), estimate: estimateClaim(p.claim, p.main, p.seeds, of(p.main), lane) }));
    const readings = p.readings.map((r) => ({ path: r.path, label: r.label, value: r.value, estimate: estimateClaim(p.claim, r.scenario, p.seeds, of(r.scenario)) }));
    return claimRow(p.claim, { main, readings, references, seeds: p.seeds.length });
  });
}

/** Which share of a plan's cells runs: shard `index` of `count` (0-based), as sweeps are sharded. */
export interface PlanShard {
  readonly index: number;
  readonly count: number;
}

/**
 * The cells of `plan` a shard runs, per scenario in the plan's order (scenarios with none left
 * out): the plan-wide cell i belongs to shard i mod count. Round robin, as a sweep's shards
 * (cli/shards.ts): a scenario's cells (its seeds, its combinations) cost alike and go to
 * different shards, so a learning scenario of 12 cells spreads over 12 shards. Null: every cell.
 */
export function planShardCells(plan: ClaimsPlan, shard: PlanShard | null): { readonly scenario: PlannedScenario; readonly cells: readonly SweepCell[] }[] {
  return plan.scenarios
    .map((scenario) => ({ scenario, cells: sweepCells(scenario.scenario, scenario.seeds).filter((c) => shard === null || (scenario.first + c.index) % shard.count === shard.index) }))
    .filter((x) => x.cells.length > 0);
}

/** Runs some cells of a scenario (their outcomes in the cells' order): the CLI's threads or this thread. */
export type RunSomeCells = (scenario: AnyScenario, seeds: readonly number[], cells: readonly SweepCell[], onCell?: (done: number) => void) => Promise<CellOutcome[]>;

/**
 * Runs a shard's cells of a plan (every cell for null), the costliest scenarios first and all
 * handed to the runner at once (as `computeClaims`), and gives their outcomes by scenario key.
 * With every cell, `planRows` of the result is what `computeClaims` gives.
 */
export async function runPlanCells(plan: ClaimsPlan, shard: PlanShard | null, runCells: RunSomeCells, onProgress?: ClaimsProgress): Promise<Map<string, CellOutcome[]>> {
  const work = planShardCells(plan, shard);
  const total = work.reduce((sum, w) => sum + w.cells.length, 0);
  onProgress?.(0, total);
  const doneBy = new Map<string, number>();
  let done = 0;
  const report = (key: string, n: number): void => {
    done += n - (doneBy.get(key) ?? 0);
    doneBy.set(key, n);
    onProgress?.(done, total);
  };
  const cost = (w: (typeof work)[number]) => estimateRunCost(w.scenario.scenario, w.scenario.seeds.length).laneEvents;
  const ordered = [...work].sort((x, y) => cost(y) - cost(x));
  const outcomes = new Map<string, CellOutcome[]>();
  await Promise.all(
    ordered.map(async (w) => {
      const result = await runCells(w.scenario.scenario, w.scenario.seeds, w.cells, (n) => report(w.scenario.key, n));
      report(w.scenario.key, w.cells.length);
      outcomes.set(w.scenario.key, result);
    }),
  );
  return outcomes;
}

/**
 * Computes the rows of `claims`: every distinct scenario of every claim (main and readings)
 * runs once through `runCells`, with `claimSeedCount(claim, seeds)` seeds from the scenario's
 * seed on, and each claim's estimates come from `estimateClaim` on those cells.
 */
export async function computeClaims(claims: readonly Claim[], seeds: number, runCells: RunCells, onProgress?: ClaimsProgress): Promise<ClaimRow[]> {
  const plan = planClaims(claims, seeds);
  const distinct = new Map(plan.scenarios.map((d) => [d.key, d] as const));
  const total = plan.cells;
  onProgress?.(0, total);
  // Every scenario is handed to the runner at once, so a pool keeps all its workers busy even
  // when each scenario has fewer cells than workers (learning claims: one cell per seed).
  const doneBy = new Map<string, number>();
  let done = 0;
  const report = (key: string, n: number): void => {
    done += n - (doneBy.get(key) ?? 0);
    doneBy.set(key, n);
    onProgress?.(done, total);
  };
  const outcomes = new Map<string, CellOutcome[]>();
  // The costliest scenarios first (learning runs), so the pool does not end on one long cell.
  const ordered = [...distinct].sort(([, x], [, y]) => estimateRunCost(y.scenario, y.seeds.length).laneEvents - estimateRunCost(x.scenario, x.seeds.length).laneEvents);
  await Promise.all(
    ordered.map(async ([key, d]) => {
      const result = await runCells(d.scenario, d.seeds, (n) => report(key, n));
      report(key, d.cells);
      outcomes.set(key, result);
    }),
  );
  return planRows(plan, outcomes);
}
