import type { Claim, ClaimCompare, ClaimMeasure, Sensitivity } from '../../scenario/claimModel';
import type { PipelineLane } from './schema';
import type { SweepAxis } from '../../scenario/sweep';

/** The ODIN paper's claims, with how the lab measures each (ARCHITECTURE §4a; the model: scenario/claimModel.ts). */

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
 * machine by the measure command and shipped in worlds/pipeline/engine/profiles/measured/ (its record says
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
