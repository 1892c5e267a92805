/**
 * A pipeline scenario run for real beside its simulation (ARCHITECTURE §2, the real
 * backend): what a real lane is given (from the scenario and a layer-time database measured
 * on this machine at the same input size), the same lane simulated on that database under
 * each trial-cost reading, and the figures and errors that set the two side by side. Pure:
 * the real run itself (src/worlds/pipeline/measure/realPipeline) is brought by the caller, the command line
 * or the page's worker.
 */
import type { PipelineAssumptions } from '../engine/assumptions';
import { quantileSorted } from '../../../engine/quantiles';
import { OptimumCache } from '../engine/partition';
import { hogPlan } from '../engine/profiles/hogPlan';
import { INTERFERENCE_MODE_IDS, MODE_IDS, type LayerTimeDatabase, type ModeId } from '../engine/profiles/types';
import type { RealQuery, RealReconfiguration, RealRunOptions } from '../measure/realPipeline/pipeline';
import { laneLabel, PIPELINE_SCHEDULERS } from '../schedulers/registry';
import { buildPipelineRunSpec, createPipelineLaneRuns, pipelineLaneParameters } from './pipelineRunner';
import type { PipelineScenario } from '../schema';
import { DEFAULT_PIPELINE_ASSUMPTIONS } from '../engine/assumptions';
import { pipeline } from '../defaultPreset';

/** Input sides a real run offers (ODIN §4.1 used 224; the smaller ones keep a laptop interactive). */
export const REAL_INPUT_SIZES = [224, 112, 56] as const;
export type RealInputSize = (typeof REAL_INPUT_SIZES)[number];

/** The trial-cost readings the simulation is compared under (assumptions.ts); the real run's trials are serial. */
export const TRIAL_COST_READINGS: readonly PipelineAssumptions['trialCost'][] = ['serial', 'pipelined', 'free'];

/**
 * The memory the command line and the page let a real run's stages keep units resident in,
 * MiB (`RealRunOptions.residentBudgetMiB`): one copy of the network per stage fits for
 * VGG16 at 224 (≈ 550 MB a copy) on 4 EPs, at 112 (≈ 220 MB a copy) on up to 18.
 */
export const REAL_RESIDENT_BUDGET_MIB = 4096;

/** How execution places map onto this machine's cores. */
export interface CoreMapping {
  readonly executionPlaces: number;
  readonly cores: number;
  /** Cores one execution place stands for: the hogs a mode starts (hogPlan). */
  readonly coresPerEp: number;
  /**
   * Stages and hogs share cores: fewer cores than execution places, or than the busiest moment's
   * threads (a stage per EP and the hogs of the interference that can run at once). The
   * simulation then models the sharing (`PipelineMachine.cores`).
   */
  readonly shared: boolean;
  /** The most threads the run can have busy at once (a stage per EP plus hogs). */
  readonly peakThreads: number;
  readonly text: string;
}

/**
 * The mapping: each execution place is one stage worker (tfjs wasm runs one thread) and
 * stands for ⌊cores / EPs⌋ cores (at least 1), which sets how many hogs its modes start.
 * Nothing is pinned; the operating system places every thread. With the scenario, the hogs
 * its interference can start at once count too: 2 EPs on 2 cores with a memBW hog running
 * are 3 busy threads on 2 cores. Measured (`BENCH_ONLY=real`, 2 EPs, 5 runs a lane), the
 * simulation without that sharing was faster than the real run by +9.7 % (ODIN) and +15.3 %
 * (LLS) in throughput, the hog running for a third of the queries.
 */
export function coreMapping(executionPlaces: number, cores: number, scenario?: PipelineScenario): CoreMapping {
  const coresPerEp = Math.max(1, Math.floor(cores / executionPlaces));
  const peakThreads = executionPlaces + (scenario === undefined ? 0 : peakHogThreads(scenario, coresPerEp));
  const shared = cores < peakThreads;
  const perEp = `${coresPerEp} core${coresPerEp === 1 ? '' : 's'} per EP for its hogs`;
  const text =
    cores < executionPlaces
      ? `${executionPlaces} execution places on ${cores} logical cores: stages share cores (about ${(executionPlaces / cores).toFixed(1)} per core), and a hog on one EP slows the stages it shares a core with; nothing is pinned`
      : shared
        ? `${executionPlaces} execution places on ${cores} logical cores: one stage thread each, ${perEp}; with the hogs running, up to ${peakThreads} busy threads share the ${cores} cores (the simulation models it); nothing is pinned`
        : `${executionPlaces} execution places on ${cores} logical cores: one stage thread each, ${perEp}; the operating system places threads (nothing is pinned), so a hog on one EP may slow another`;
  return { executionPlaces, cores, coresPerEp, shared, peakThreads, text };
}

/**
 * The most hog threads the scenario's interference can run at once: over its explicit events,
 * those overlapping at each one's start; random interference, every EP at its busiest mode.
 */
export function peakHogThreads(scenario: PipelineScenario, coresPerEp: number): number {
  const p = scenario.pipeline;
  const threads = (mode: ModeId) => {
    const plan = hogPlan(mode, coresPerEp);
    return plan.cpu + plan.memBW;
  };
  if (p.interference.random.enabled) {
    const modes = p.interference.random.modes ?? INTERFERENCE_MODE_IDS;
    return p.executionPlaces * Math.max(0, ...modes.map(threads));
  }
  const events = p.interference.events;
  let peak = 0;
  for (const at of events) {
    let sum = 0;
    for (const e of events) if (e.fromQuery <= at.fromQuery && (e.toQuery === null || e.toQuery > at.fromQuery)) sum += threads(e.mode);
    peak = Math.max(peak, sum);
  }
  return peak;
}

/** Why a scenario cannot run for real, naming the field; null when it can. */
export function realRunRefusal(scenario: PipelineScenario): { readonly field: string; readonly message: string } | null {
  const a = scenario.pipeline.assumptions;
  if (a.admission.kind !== 'saturated') return { field: 'pipeline.assumptions.admission', message: 'a real run admits queries saturated (the closed loop of ODIN §4.2); Poisson arrivals are simulated only' };
  if (scenario.pipeline.database !== undefined) return { field: 'pipeline.database', message: 'a real run measures its own database on this machine; leave the embedded one out' };
  return null;
}

/** The modes a real run's scenario needs in its measured database: A, every event's, and the random draw's. */
export function modesNeeded(scenario: PipelineScenario): ModeId[] {
  const p = scenario.pipeline;
  const modes = new Set<ModeId>(['A']);
  for (const e of p.interference.events) modes.add(e.mode);
  if (p.interference.random.enabled) for (const m of p.interference.random.modes ?? INTERFERENCE_MODE_IDS) modes.add(m);
  return MODE_IDS.filter((m) => modes.has(m));
}

/** The scenario on a database measured on this machine (the simulation's side of the comparison). */
export function onMeasuredDatabase(scenario: PipelineScenario, database: LayerTimeDatabase, trialCost?: PipelineAssumptions['trialCost']): PipelineScenario {
  // The embedded database replaces the reading (the schema refuses both at once).
  const assumptions: PipelineAssumptions = { ...scenario.pipeline.assumptions };
  delete (assumptions as { database?: unknown }).database;
  return {
    ...scenario,
    pipeline: { ...scenario.pipeline, database, assumptions: { ...assumptions, ...(trialCost === undefined ? {} : { trialCost }) } },
  };
}

/** What real lane `laneIndex` of `scenario` is given (its scheduler built from the registry, as the simulation builds it). */
export function realLaneOptions(scenario: PipelineScenario, laneIndex: number, database: LayerTimeDatabase, inputSize: number, mapping: CoreMapping, hogBufferMiB: number, residentBudgetMiB: number = REAL_RESIDENT_BUDGET_MIB): RealRunOptions {
  const simulated = onMeasuredDatabase(scenario, database);
  const spec = buildPipelineRunSpec(simulated);
  const lane = scenario.pipeline.lanes[laneIndex];
  if (lane === undefined) throw new RangeError(`lane ${laneIndex} is not one of the scenario's ${scenario.pipeline.lanes.length}`);
  const assumptions = simulated.pipeline.assumptions;
  const n = scenario.pipeline.executionPlaces;
  return {
    source: { kind: 'model', model: scenario.pipeline.model, inputSize },
    seed: scenario.seed,
    executionPlaces: n,
    queries: scenario.pipeline.queries,
    assumptions,
    // The simulation starts on the interference-free optimum of its database (ODIN §3.1): so does the real run.
    initialConfiguration: new OptimumCache(spec.database, assumptions.hopMs).get(new Uint8Array(n)).counts.slice(),
    scheduler: PIPELINE_SCHEDULERS[lane.scheduler].create(pipelineLaneParameters(lane), assumptions),
    events: spec.events,
    random: spec.random,
    traceSeed: spec.seed,
    coresPerEp: mapping.coresPerEp,
    hogBufferMiB,
    oracleDatabase: spec.database,
    hopMs: assumptions.hopMs,
    residentBudgetMiB,
  };
}

/** One query as the figures read it (real or simulated). */
export interface ServedQuery {
  readonly query: number;
  readonly admittedMs: number;
  readonly completionMs: number;
  readonly modes: string;
}

/** Throughput and latency of a run or a phase of it. */
export interface RunFigures {
  readonly queries: number;
  /** Completed queries per second from the first admission to the last completion. */
  readonly throughputQps: number;
  readonly latencyMeanMs: number;
  readonly latencyP99Ms: number;
}

/** A stretch of queries under one set of per-EP modes ("A,B" = EP 0 alone, EP 1 in mode B). */
export interface PhaseFigures extends RunFigures {
  readonly fromQuery: number;
  readonly toQuery: number;
  readonly modes: string;
}

export function figuresOf(queries: readonly ServedQuery[]): RunFigures {
  if (queries.length === 0) return { queries: 0, throughputQps: 0, latencyMeanMs: 0, latencyP99Ms: 0 };
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const latencies = new Float64Array(queries.length);
  queries.forEach((q, i) => {
    first = Math.min(first, q.admittedMs);
    last = Math.max(last, q.completionMs);
    latencies[i] = q.completionMs - q.admittedMs;
  });
  latencies.sort();
  const span = last - first;
  return {
    queries: queries.length,
    throughputQps: span > 0 ? (1000 * queries.length) / span : 0,
    latencyMeanMs: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    latencyP99Ms: quantileSorted(latencies, 0.99),
  };
}

/** The figures of each interference phase (maximal runs of queries with the same modes). */
export function phasesOf(queries: readonly ServedQuery[]): PhaseFigures[] {
  const sorted = [...queries].sort((a, b) => a.query - b.query);
  const phases: PhaseFigures[] = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i += 1) {
    if (i === sorted.length || sorted[i]!.modes !== sorted[start]!.modes) {
      const part = sorted.slice(start, i);
      phases.push({ ...figuresOf(part), fromQuery: part[0]!.query, toQuery: part[part.length - 1]!.query + 1, modes: part[0]!.modes });
      start = i;
    }
  }
  return phases;
}

const modesKey = (modes: ArrayLike<number>): string => Array.from(modes, (m) => MODE_IDS[m] ?? '?').join(',');

/** Real queries as the figures read them. */
export function servedReal(queries: readonly RealQuery[]): ServedQuery[] {
  return queries.map((q) => ({ query: q.query, admittedMs: q.admittedMs, completionMs: q.completionMs, modes: modesKey(q.modes) }));
}

/** Lane `laneIndex` simulated on `database` under a trial-cost reading: its queries, as the figures read them. */
export function simulateLane(scenario: PipelineScenario, laneIndex: number, database: LayerTimeDatabase, trialCost: PipelineAssumptions['trialCost']): { queries: ServedQuery[]; rebalancings: number } {
  const simulated = onMeasuredDatabase(scenario, database, trialCost);
  const { run } = createPipelineLaneRuns(simulated)[laneIndex]!;
  const queries: ServedQuery[] = [];
  run.advance(simulated.pipeline.queries, (r) => queries.push({ query: r.query, admittedMs: r.arrivalMs, completionMs: r.completionMs, modes: modesKey(r.modes) }));
  return { queries, rebalancings: run.summary().rebalancings };
}

/** Signed error of the simulation against the measurement, % ((simulated − measured) / measured). */
export function signedErrorPct(simulated: number, measured: number): number {
  return measured === 0 ? (simulated === 0 ? 0 : Number.POSITIVE_INFINITY) : (100 * (simulated - measured)) / measured;
}

export interface FigureErrors {
  readonly throughputQps: number;
  readonly latencyMeanMs: number;
  readonly latencyP99Ms: number;
}

function errorsOf(simulated: RunFigures, measured: RunFigures): FigureErrors {
  return {
    throughputQps: signedErrorPct(simulated.throughputQps, measured.throughputQps),
    latencyMeanMs: signedErrorPct(simulated.latencyMeanMs, measured.latencyMeanMs),
    latencyP99Ms: signedErrorPct(simulated.latencyP99Ms, measured.latencyP99Ms),
  };
}

/** Mean absolute % error over the three figures of the run and of every phase both runs have. */
function mape(errors: readonly FigureErrors[]): number {
  const values = errors.flatMap((e) => [e.throughputQps, e.latencyMeanMs, e.latencyP99Ms]).filter(Number.isFinite);
  return values.length === 0 ? 0 : values.reduce((a, b) => a + Math.abs(b), 0) / values.length;
}

/** The simulation of one reading beside the measurement. */
export interface ReadingComparison {
  readonly trialCost: PipelineAssumptions['trialCost'];
  readonly simulated: RunFigures & { readonly rebalancings: number; readonly phases: readonly PhaseFigures[] };
  /** Signed %, the whole run. */
  readonly error: FigureErrors;
  /** Signed %, per phase (the phases of the measured run, matched by their queries). */
  readonly phaseErrors: readonly (FigureErrors & { readonly fromQuery: number; readonly toQuery: number; readonly modes: string })[];
  /** Mean absolute % over the run's and the phases' figures. */
  readonly mapePct: number;
}

export interface LaneComparison {
  readonly scheduler: string;
  readonly label: string;
  readonly measured: RunFigures & {
    readonly rebalancings: number;
    readonly phases: readonly PhaseFigures[];
    readonly reconfigurations: readonly RealReconfiguration[];
    /** Mean wall time of a move, ms: the cost the simulation does not model. */
    readonly reconfigurationMeanMs: number;
    readonly reconfigurationTotalMs: number;
  };
  /** The scenario's own trial-cost reading. */
  readonly simulated: ReadingComparison['simulated'];
  readonly error: FigureErrors;
  /** Every trial-cost reading, and which comes closest (least MAPE). */
  readonly readings: readonly ReadingComparison[];
  readonly closestReading: PipelineAssumptions['trialCost'];
}

/** Sets a real lane beside its simulation under every trial-cost reading. */
export function compareLane(scenario: PipelineScenario, laneIndex: number, database: LayerTimeDatabase, real: { readonly queries: readonly RealQuery[]; readonly reconfigurations: readonly RealReconfiguration[]; readonly rebalancings: number }): LaneComparison {
  const lane = scenario.pipeline.lanes[laneIndex]!;
  const served = servedReal(real.queries);
  const measuredPhases = phasesOf(served);
  const readings = TRIAL_COST_READINGS.map((trialCost): ReadingComparison => {
    const sim = simulateLane(scenario, laneIndex, database, trialCost);
    const figures = figuresOf(sim.queries);
    const phases = phasesOf(sim.queries);
    const byQuery = new Map(sim.queries.map((q) => [q.query, q]));
    const phaseErrors = measuredPhases.map((p) => {
      const part: ServedQuery[] = [];
      for (let q = p.fromQuery; q < p.toQuery; q += 1) {
        const s = byQuery.get(q);
        if (s !== undefined) part.push(s);
      }
      return { ...errorsOf(figuresOf(part), p), fromQuery: p.fromQuery, toQuery: p.toQuery, modes: p.modes };
    });
    const error = errorsOf(figures, figuresOf(served));
    return { trialCost, simulated: { ...figures, rebalancings: sim.rebalancings, phases }, error, phaseErrors, mapePct: mape([error, ...phaseErrors]) };
  });
  const own = readings.find((r) => r.trialCost === scenario.pipeline.assumptions.trialCost) ?? readings[0]!;
  const closest = readings.reduce((best, r) => (r.mapePct < best.mapePct ? r : best));
  const moves = real.reconfigurations;
  const total = moves.reduce((a, m) => a + m.wallMs, 0);
  return {
    scheduler: lane.scheduler,
    label: laneLabel(lane.scheduler, pipelineLaneParameters(lane)),
    measured: {
      ...figuresOf(served),
      rebalancings: real.rebalancings,
      phases: measuredPhases,
      reconfigurations: moves,
      reconfigurationMeanMs: moves.length > 0 ? total / moves.length : 0,
      reconfigurationTotalMs: total,
    },
    simulated: own.simulated,
    error: own.error,
    readings,
    closestReading: closest.trialCost,
  };
}

/** Does the simulation agree with the measurement on which of two lanes delivers more (ODIN vs LLS)? */
export function signAgreement(a: LaneComparison, b: LaneComparison, reading: PipelineAssumptions['trialCost']): { readonly measuredPct: number; readonly simulatedPct: number; readonly agrees: boolean } {
  const simA = a.readings.find((r) => r.trialCost === reading)!.simulated.throughputQps;
  const simB = b.readings.find((r) => r.trialCost === reading)!.simulated.throughputQps;
  const measuredPct = signedErrorPct(a.measured.throughputQps, b.measured.throughputQps);
  const simulatedPct = signedErrorPct(simA, simB);
  return { measuredPct, simulatedPct, agrees: Math.sign(measuredPct) === Math.sign(simulatedPct) };
}


/** The comparison's queries a lane (the setting: long enough to react to the hog and recover). */
export const REAL_COMPARISON_QUERIES = 90;

/**
 * The comparison of the real backend (README, "Run on this machine"; the bench's real row):
 * VGG16, a memory-bandwidth hog (mode B) on EP 2 for the middle third of the queries, ODIN
 * α=10 and LLS, with one monitor on both sides — a steady reference, a window of 4 queries,
 * ODIN's "better" with ε = 5 % — on `eps` execution places (2 or 4).
 */
export function realComparisonScenario(eps: number, queries: number = REAL_COMPARISON_QUERIES): PipelineScenario {
  return pipeline(`VGG16 on ${eps} EPs, a memBW hog on EP 2 for a third of the run`, {
    model: 'vgg16',
    executionPlaces: eps,
    queries,
    lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }],
    assumptions: { ...DEFAULT_PIPELINE_ASSUMPTIONS, monitorReference: 'steady', detectionWindow: 4, betterTolerance: 0.05 },
    interference: { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: [{ executionPlace: 1, mode: 'B', fromQuery: Math.round(queries / 3), toQuery: Math.round((2 * queries) / 3) }] },
  });
}
