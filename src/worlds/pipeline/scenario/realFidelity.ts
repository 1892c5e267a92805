/**
 * How close the simulation comes to a real run, with intervals (ARCHITECTURE §2, the real
 * backend): each lane run for real several times (interleaved with the other lanes, so the
 * machine's drift falls on all alike) and simulated on the database measured here, on the
 * paper's ideal machine and on the machine calibrated here over many noise seeds; 95 %
 * intervals on the measured, the simulated and the error; per-phase errors; the counts of
 * phases, trials and moves on both sides; where the real time went. A run that never
 * reached an interference event, or in which no lane rebalanced, says so instead of a
 * verdict on the simulation's fidelity. Pure: the real runs are brought by the caller.
 */
import { configurationKey } from '../engine/configuration';
import type { PipelineMachine } from '../engine/machine';
import { MODE_IDS, type LayerTimeDatabase } from '../engine/profiles/types';
import type { RealQuery } from '../measure/realPipeline/pipeline';
import { laneLabel } from '../schedulers/registry';
import { createPipelineLaneRuns, pipelineLaneParameters } from './pipelineRunner';
import { figuresOf, onMeasuredDatabase, phasesOf, servedReal, type ServedQuery } from './realPipeline';
import type { PipelineScenario } from '../schema';
import { meanInterval, type MeanInterval } from '../../../scenario/sweepStats';

/** One real run of a lane, as fidelity reads it (`RealRunResult` has these fields). */
export interface RealLaneRun {
  readonly queries: readonly RealQuery[];
  readonly reconfigurations: readonly { readonly wallMs: number; readonly trial: boolean }[];
  readonly rebalancings: number;
  readonly durationMs: number;
  readonly overheadMs: { readonly drains: number; readonly moves: number; readonly hogStalls: number };
}

/** What a run of a lane did, counted alike on both sides. */
export interface LaneCounts {
  /** Rebalancing phases. */
  readonly phases: number;
  readonly trials: number;
  /** Configuration changes between consecutive queries (trials included). */
  readonly moves: number;
}

/** A lane's figures over repeats or noise seeds. */
export interface FigureIntervals {
  readonly throughputQps: MeanInterval;
  readonly latencyMeanMs: MeanInterval;
  readonly phases: MeanInterval;
  readonly trials: MeanInterval;
  readonly moves: MeanInterval;
}

/** Signed error of the simulation, % of the measured, with its 95 % interval. */
export interface ErrorInterval {
  readonly mean: number;
  /** From the two intervals in quadrature (delta method on the ratio of means). */
  readonly halfWidth95: number;
}

export interface PhaseFidelity {
  readonly fromQuery: number;
  readonly toQuery: number;
  readonly modes: string;
  readonly measuredQps: number;
  readonly simulatedQps: number;
  readonly throughputErrorPct: number;
  readonly latencyMeanErrorPct: number;
}

/** Where the real lane's wall time went, ms (means over the repeats). */
export interface TimeBreakdown {
  readonly normal: number;
  readonly trials: number;
  readonly moves: number;
  readonly drains: number;
  readonly hogStalls: number;
}

export interface LaneFidelity {
  readonly scheduler: string;
  readonly label: string;
  readonly measured: FigureIntervals;
  /** The paper's ideal machine (deterministic: one run). */
  readonly ideal: FigureIntervals;
  /** The calibrated machine over the noise seeds (null: no calibration). */
  readonly machine: FigureIntervals | null;
  /** The calibrated machine without core sharing (only when the calibrated one models it). */
  readonly machineNoSharing: FigureIntervals | null;
  readonly error: { readonly ideal: { readonly throughputPct: ErrorInterval; readonly latencyMeanPct: ErrorInterval }; readonly machine: { readonly throughputPct: ErrorInterval; readonly latencyMeanPct: ErrorInterval } | null; readonly machineNoSharing: { readonly throughputPct: ErrorInterval; readonly latencyMeanPct: ErrorInterval } | null };
  /** Per interference phase (the first repeat's phases, by their queries): means over the repeats against means over the seeds (the calibrated machine, else the ideal). */
  readonly phases: readonly PhaseFidelity[];
  readonly time: TimeBreakdown;
  /** A simulated per-query trace (the machine's first seed, or the ideal machine): latency by query, for the page. */
  readonly simulatedTrace: readonly { readonly query: number; readonly latencyMs: number; readonly kind: string }[];
}

export interface FidelityReport {
  readonly repeats: number;
  readonly noiseSeeds: number;
  readonly lanes: readonly LaneFidelity[];
  /** ODIN's throughput over LLS's, % (both lanes ran): measured, and simulated on the machine used for the verdict. */
  readonly odinVsLls: { readonly measuredPct: MeanInterval; readonly simulatedPct: MeanInterval; readonly agrees: boolean } | null;
  /** Why no verdict can be given (null: one can). */
  readonly tooShort: string | null;
}

/** Counts of a simulated or real lane. */
function countsOf(records: readonly { readonly kind: string; readonly configuration: string }[], phases: number): LaneCounts {
  let moves = 0;
  let trials = 0;
  for (let i = 0; i < records.length; i++) {
    if (records[i]!.kind === 'trial') trials += 1;
    if (i > 0 && records[i]!.configuration !== records[i - 1]!.configuration) moves += 1;
  }
  return { phases, trials, moves };
}

interface SimulatedLane {
  readonly served: ServedQuery[];
  readonly kinds: string[];
  readonly counts: LaneCounts;
}

/** Lane `laneIndex` simulated on `database` on a machine (undefined: the ideal one) with a noise seed. */
export function simulateOnMachine(scenario: PipelineScenario, laneIndex: number, database: LayerTimeDatabase, machine: PipelineMachine | undefined, noiseSeed: number): SimulatedLane {
  const base = onMeasuredDatabase(scenario, database);
  const withMachine: PipelineScenario = machine === undefined ? base : { ...base, pipeline: { ...base.pipeline, machine: { ...machine, stageFactors: machine.stageFactors?.slice(), noiseSeed } } };
  const { run } = createPipelineLaneRuns(withMachine)[laneIndex]!;
  const served: ServedQuery[] = [];
  const records: { kind: string; configuration: string }[] = [];
  run.advance(withMachine.pipeline.queries, (r) => {
    served.push({ query: r.query, admittedMs: r.arrivalMs, completionMs: r.completionMs, modes: Array.from(r.modes, (m) => MODE_IDS[m] ?? '?').join(',') });
    records.push({ kind: r.kind, configuration: configurationKey(r.configuration) });
  });
  return { served, kinds: records.map((r) => r.kind), counts: countsOf(records, run.summary().rebalancings) };
}

function intervalsOf(runs: readonly { figures: ReturnType<typeof figuresOf>; counts: LaneCounts }[]): FigureIntervals {
  return {
    throughputQps: meanInterval(runs.map((r) => r.figures.throughputQps)),
    latencyMeanMs: meanInterval(runs.map((r) => r.figures.latencyMeanMs)),
    phases: meanInterval(runs.map((r) => r.counts.phases)),
    trials: meanInterval(runs.map((r) => r.counts.trials)),
    moves: meanInterval(runs.map((r) => r.counts.moves)),
  };
}

/** Signed % error of `simulated` against `measured`, the interval from both in quadrature. */
export function errorInterval(simulated: MeanInterval, measured: MeanInterval): ErrorInterval {
  if (!(measured.mean > 0)) return { mean: Number.NaN, halfWidth95: Number.NaN };
  const ratio = simulated.mean / measured.mean;
  const rel = Math.hypot(simulated.mean === 0 ? 0 : simulated.halfWidth95 / simulated.mean, measured.halfWidth95 / measured.mean);
  return { mean: 100 * (ratio - 1), halfWidth95: 100 * ratio * rel };
}

const mean = (v: readonly number[]) => (v.length === 0 ? 0 : v.reduce((a, b) => a + b, 0) / v.length);

/** A machine calibrated just before one round of the lanes' repeats (`RealArgs.calibrateEachRepeat`). */
export interface RepeatMachine {
  readonly machine: PipelineMachine;
  readonly noSharing: PipelineMachine | null;
}

/**
 * The error of the simulation paired by repeat: repeat k's measured figures against the mean
 * over the seeds of the simulation on repeat k's own machine; mean and 95 % interval over the
 * repeats. The machine's drift between rounds then falls on both sides of each pair instead of
 * widening (or biasing) the comparison of two means.
 */
function pairedErrors(measured: readonly ReturnType<typeof figuresOf>[], simulated: readonly (readonly SimulatedLane[])[]): { throughputPct: ErrorInterval; latencyMeanPct: ErrorInterval } {
  const pct = (key: 'throughputQps' | 'latencyMeanMs') => {
    const errors = measured.map((m, k) => {
      const sim = mean(simulated[k]!.map((l) => figuresOf(l.served)[key]));
      return m[key] > 0 ? 100 * (sim / m[key] - 1) : Number.NaN;
    });
    const interval = meanInterval(errors);
    return { mean: interval.mean, halfWidth95: interval.halfWidth95 };
  };
  return { throughputPct: pct('throughputQps'), latencyMeanPct: pct('latencyMeanMs') };
}

/** Whether the repeats are simulated each on its own round's machine: one machine per repeat at least. */
function pairedBy(perRepeat: readonly RepeatMachine[] | undefined, runs: readonly unknown[]): perRepeat is readonly RepeatMachine[] {
  return perRepeat !== undefined && runs.length > 0 && perRepeat.length >= runs.length;
}

/**
 * Fidelity of each lane: `runs[lane]` its real repeats; simulated on `database` on the ideal
 * machine and, when given, on `machine` (and `machineNoSharing`) over `noiseSeeds` seeds — or,
 * with `perRepeat` (a machine per repeat), each repeat on its own machine, the errors paired
 * by repeat (`pairedErrors`).
 */
export function laneFidelity(
  scenario: PipelineScenario,
  laneIndex: number,
  database: LayerTimeDatabase,
  runs: readonly RealLaneRun[],
  machine: PipelineMachine | null,
  machineNoSharing: PipelineMachine | null,
  noiseSeeds: number,
  perRepeat?: readonly RepeatMachine[],
): LaneFidelity {
  const lane = scenario.pipeline.lanes[laneIndex]!;
  const measuredRuns = runs.map((r) => {
    const served = servedReal(r.queries);
    return { figures: figuresOf(served), counts: { phases: r.rebalancings, trials: r.queries.filter((q) => q.kind === 'trial').length, moves: r.reconfigurations.length } };
  });
  const measured = intervalsOf(measuredRuns);
  const simulate = (m: PipelineMachine | null) => {
    const seeds = m === null ? [1] : Array.from({ length: noiseSeeds }, (_, k) => k + 1);
    const lanes = seeds.map((seed) => simulateOnMachine(scenario, laneIndex, database, m ?? undefined, seed));
    return { lanes, intervals: intervalsOf(lanes.map((l) => ({ figures: figuresOf(l.served), counts: l.counts }))) };
  };
  const ideal = simulate(null);
  const errors = (s: FigureIntervals) => ({ throughputPct: errorInterval(s.throughputQps, measured.throughputQps), latencyMeanPct: errorInterval(s.latencyMeanMs, measured.latencyMeanMs) });
  const paired = pairedBy(perRepeat, runs);
  // Each repeat on its own machine: the simulated figures pooled over repeats and seeds, the errors paired by repeat.
  const onRepeatMachines = (pick: (r: RepeatMachine) => PipelineMachine | null) => {
    const byRepeat = runs.map((_, k) => simulate(pick(perRepeat![k]!)).lanes);
    const lanes = byRepeat.flat();
    return { lanes, intervals: intervalsOf(lanes.map((l) => ({ figures: figuresOf(l.served), counts: l.counts }))), error: pairedErrors(measuredRuns.map((r) => r.figures), byRepeat) };
  };
  const onMachine = paired ? onRepeatMachines((r) => r.machine) : machine === null ? null : simulate(machine);
  const noSharing = paired ? (perRepeat!.every((r) => r.noSharing !== null) ? onRepeatMachines((r) => r.noSharing) : null) : machineNoSharing === null ? null : simulate(machineNoSharing);
  const errorOf = (s: { intervals: FigureIntervals; error?: ReturnType<typeof pairedErrors> } | null) => (s === null ? null : (s.error ?? errors(s.intervals)));
  // Per phase: the measured repeats' phases (by their queries) against the same queries simulated, means over repeats and seeds.
  const reference = onMachine ?? ideal;
  const firstServed = servedReal(runs[0]?.queries ?? []);
  const phases = phasesOf(firstServed).map((p): PhaseFidelity => {
    const inPhase = (served: readonly ServedQuery[]) => served.filter((q) => q.query >= p.fromQuery && q.query < p.toQuery);
    const meas = runs.map((r) => figuresOf(inPhase(servedReal(r.queries))));
    const sim = reference.lanes.map((l) => figuresOf(inPhase(l.served)));
    const mq = mean(meas.map((f) => f.throughputQps));
    const sq = mean(sim.map((f) => f.throughputQps));
    const ml = mean(meas.map((f) => f.latencyMeanMs));
    const sl = mean(sim.map((f) => f.latencyMeanMs));
    return { fromQuery: p.fromQuery, toQuery: p.toQuery, modes: p.modes, measuredQps: mq, simulatedQps: sq, throughputErrorPct: mq > 0 ? 100 * (sq / mq - 1) : Number.NaN, latencyMeanErrorPct: ml > 0 ? 100 * (sl / ml - 1) : Number.NaN };
  });
  const time: TimeBreakdown = {
    trials: mean(runs.map((r) => r.queries.filter((q) => q.kind === 'trial').reduce((a, q) => a + q.completionMs - q.admittedMs, 0))),
    moves: mean(runs.map((r) => r.overheadMs.moves)),
    drains: mean(runs.map((r) => r.overheadMs.drains)),
    hogStalls: mean(runs.map((r) => r.overheadMs.hogStalls)),
    normal: 0,
  };
  const total = mean(runs.map((r) => r.durationMs));
  const first = reference.lanes[0]!;
  return {
    scheduler: lane.scheduler,
    label: laneLabel(lane.scheduler, pipelineLaneParameters(lane)),
    measured,
    ideal: ideal.intervals,
    machine: onMachine?.intervals ?? null,
    machineNoSharing: noSharing?.intervals ?? null,
    error: { ideal: errors(ideal.intervals), machine: errorOf(onMachine), machineNoSharing: errorOf(noSharing) },
    phases,
    time: { ...time, normal: Math.max(0, total - time.trials - time.moves - time.drains - time.hogStalls) },
    simulatedTrace: first.served.map((q, i) => ({ query: q.query, latencyMs: q.completionMs - q.admittedMs, kind: first.kinds[i]! })),
  };
}

/**
 * The whole run's fidelity: each lane's, ODIN against LLS (paired by repeat and by seed), and
 * whether the run reached what it is meant to show.
 */
export function fidelityReport(
  scenario: PipelineScenario,
  database: LayerTimeDatabase,
  runs: readonly (readonly RealLaneRun[])[],
  machine: PipelineMachine | null,
  machineNoSharing: PipelineMachine | null,
  noiseSeeds: number,
  perRepeat?: readonly RepeatMachine[],
): FidelityReport {
  const lanes = scenario.pipeline.lanes.map((_, i) => laneFidelity(scenario, i, database, runs[i] ?? [], machine, machineNoSharing, noiseSeeds, perRepeat));
  const odin = lanes.findIndex((l) => l.scheduler === 'odin');
  const lls = lanes.findIndex((l) => l.scheduler === 'lls');
  let odinVsLls: FidelityReport['odinVsLls'] = null;
  if (odin >= 0 && lls >= 0) {
    const measuredPct = meanInterval((runs[odin] ?? []).map((r, k) => {
      const other = runs[lls]?.[k];
      if (other === undefined) return Number.NaN;
      const a = figuresOf(servedReal(r.queries)).throughputQps;
      const b = figuresOf(servedReal(other.queries)).throughputQps;
      return 100 * (a / b - 1);
    }));
    // Simulated on the machine of the verdict: each repeat's own (paired), else the one calibrated.
    const machines: (PipelineMachine | undefined)[] = pairedBy(perRepeat, runs[odin] ?? []) ? perRepeat.map((r) => r.machine) : [machine ?? undefined];
    const seeds = machines[0] === undefined ? [1] : Array.from({ length: noiseSeeds }, (_, k) => k + 1);
    const simulatedPct = meanInterval(machines.flatMap((m) => seeds.map((seed) => {
      const a = figuresOf(simulateOnMachine(scenario, odin, database, m, seed).served).throughputQps;
      const b = figuresOf(simulateOnMachine(scenario, lls, database, m, seed).served).throughputQps;
      return 100 * (a / b - 1);
    })));
    odinVsLls = { measuredPct, simulatedPct, agrees: Math.sign(measuredPct.mean) === Math.sign(simulatedPct.mean) };
  }
  const reached = (runs.flat()).some((r) => r.queries.some((q) => Array.from(q.modes).some((mode) => mode !== 0)));
  const rebalanced = runs.flat().some((r) => r.rebalancings > 0 || r.reconfigurations.length > 0) || lanes.some((l) => (l.machine ?? l.ideal).phases.mean > 0);
  const tooShort = !reached
    ? `the run is too short to say: no query ran under interference (${scenario.pipeline.queries} queries a lane), so neither the monitor nor the schedulers had anything to react to`
    : !rebalanced
      ? `the run is too short to say: no lane rebalanced, measured or simulated (${scenario.pipeline.queries} queries a lane)`
      : null;
  return { repeats: Math.min(...runs.map((r) => r.length)), noiseSeeds: machine === null ? 1 : noiseSeeds, lanes, odinVsLls, tooShort };
}
