import type { PipelineAssumptions } from '../engine/assumptions';
import type { InterferenceEvent, RandomInterference } from '../engine/interference';
import type { PipelineSummary } from '../engine/metrics';
import { OptimumCache } from '../engine/partition';
import { PipelineRun, type PipelineRunSpec } from '../engine/simulation';
import { compileDatabase, modeIndex, type CompiledDatabase } from '../engine/stageTimes';
import { getDatabase } from '../engine/profiles/databases';
import { INTERFERENCE_MODE_IDS, type ModeId } from '../engine/profiles/types';
import { laneLabel, PIPELINE_SCHEDULERS } from '../schedulers/registry';
import type { AlgorithmTrace } from '../schedulers/algorithmTrace';
import { percentileOptionsOf } from '../../../scenario/schema';
import { scenarioDatabase, type PipelineLane, type PipelineSpec, type PipelineScenario } from '../schema';
import { cellScenario, sweepCells, type AxisValue, type SweepCell } from '../../../scenario/sweep';

/** Field overrides of one run (the sweep sets fields in the scenario instead: `cellScenario`). */
export interface PipelineGridCell {
  readonly periodQueries?: number;
  readonly durationQueries?: number;
  readonly executionPlaces?: number;
}

/** What a lane ran under: its scheduler's parameters and every modelling choice (ARCHITECTURE §5). */
export type PipelineLaneParams = Readonly<Record<string, number | string>>;

export interface PipelineLaneResult {
  readonly scheduler: string;
  readonly label: string;
  readonly params: PipelineLaneParams;
  /** The sweep cell's axis values by axis name (absent without a sweep). */
  readonly cell?: Readonly<Record<string, AxisValue>>;
  readonly seed: number;
  readonly summary: PipelineSummary;
}

const compiledCache = new WeakMap<object, CompiledDatabase>();

/** The compiled database of a scenario (cached per database object). */
export function compiledDatabaseOf(pipeline: PipelineSpec): CompiledDatabase {
  const db = scenarioDatabase(pipeline, getDatabase);
  let compiled = compiledCache.get(db);
  if (compiled === undefined) {
    compiled = compileDatabase(db);
    compiledCache.set(db, compiled);
  }
  return compiled;
}

/** The engine's run spec for a scenario, a grid cell and a seed. */
export function buildPipelineRunSpec(scenario: PipelineScenario, cell: PipelineGridCell = {}, seed = scenario.seed): PipelineRunSpec {
  const p = scenario.pipeline;
  const database = compiledDatabaseOf(p);
  const random = p.interference.random;
  const presentModes = new Set(database.presentModes);
  const randomModes: ModeId[] = random.modes ?? INTERFERENCE_MODE_IDS.filter((m) => presentModes.has(modeIndex(m)));
  const randomSpec: RandomInterference | null =
    random.enabled && randomModes.length > 0
      ? {
          periodQueries: cell.periodQueries ?? random.periodQueries,
          durationQueries: cell.durationQueries ?? random.durationQueries,
          modes: randomModes.map(modeIndex),
          ...(p.assumptions.interferenceOverlap === undefined ? {} : { overlap: p.assumptions.interferenceOverlap }),
        }
      : null;
  const events: InterferenceEvent[] = p.interference.events.map((e) => ({
    executionPlace: e.executionPlace,
    mode: modeIndex(e.mode),
    fromQuery: e.fromQuery,
    toQuery: e.toQuery,
  }));
  return {
    database,
    executionPlaces: cell.executionPlaces ?? p.executionPlaces,
    queries: p.queries,
    seed,
    events,
    random: randomSpec,
    assumptions: p.assumptions,
    percentiles: percentileOptionsOf(scenario),
    ...(p.machine === undefined ? {} : { machine: p.machine }),
  };
}

/** Resolved numeric parameters of a lane (defaults filled in). */
export function pipelineLaneParameters(lane: PipelineLane): Record<string, number> {
  const entry = PIPELINE_SCHEDULERS[lane.scheduler];
  const params: Record<string, number> = {};
  for (const p of entry.parameters) params[p.name] = lane.params?.[p.name] ?? p.default;
  return params;
}

/** The lane's parameters plus every modelling choice, flattened for reports. */
export function reportedPipelineParams(lane: PipelineLane, assumptions: PipelineAssumptions): PipelineLaneParams {
  const admission = assumptions.admission;
  return {
    ...pipelineLaneParameters(lane),
    trialCost: assumptions.trialCost,
    ...(lane.scheduler === 'lls' ? { llsReading: assumptions.llsReading } : {}),
    bufferCapacity: assumptions.bufferCapacity,
    admission: admission.kind,
    ...(admission.kind === 'poisson' ? { rateQps: admission.rateQps } : {}),
    ...(admission.kind === 'poissonShare' ? { shareOfPeak: admission.shareOfPeak } : {}),
    detectionThreshold: assumptions.detectionThreshold,
    detectionSignal: assumptions.detectionSignal,
    hopMs: assumptions.hopMs,
    // Reported only when a scenario names them, so the reports of scenarios that do not stay as they were.
    ...(assumptions.interferenceOverlap === undefined ? {} : { interferenceOverlap: assumptions.interferenceOverlap }),
    ...(assumptions.latencyQueries === undefined ? {} : { latencyQueries: assumptions.latencyQueries }),
    ...(assumptions.database === undefined ? {} : { database: assumptions.database }),
    ...(assumptions.monitorReference === undefined ? {} : { monitorReference: assumptions.monitorReference }),
    ...(assumptions.detectionWindow === undefined ? {} : { detectionWindow: assumptions.detectionWindow }),
    ...(assumptions.betterTolerance === undefined ? {} : { betterTolerance: assumptions.betterTolerance }),
  };
}

/**
 * One `PipelineRun` per lane, all on the identical trace of the cell and seed; `traceFor`
 * gives a lane's algorithm a sink for its line-by-line steps (the teaching view).
 */
export function createPipelineLaneRuns(
  scenario: PipelineScenario,
  cell: PipelineGridCell = {},
  seed = scenario.seed,
  latencySampleCap?: number,
  traceFor?: (laneIndex: number) => AlgorithmTrace | undefined,
): { lane: PipelineLane; label: string; run: PipelineRun }[] {
  const base = buildPipelineRunSpec(scenario, cell, seed);
  // The lanes share one trace, so they share its optima too.
  const spec: PipelineRunSpec = {
    ...base,
    optimumCache: new OptimumCache(base.database, base.assumptions.hopMs),
    ...(latencySampleCap === undefined ? {} : { latencySampleCap }),
  };
  return scenario.pipeline.lanes.map((lane, index) => {
    const params = pipelineLaneParameters(lane);
    const scheduler = PIPELINE_SCHEDULERS[lane.scheduler].create(params, scenario.pipeline.assumptions, traceFor?.(index));
    return { lane, label: laneLabel(lane.scheduler, params), run: new PipelineRun(spec, scheduler) };
  });
}

/** Runs one sweep cell (its fields set, its seed) to the end: every lane on the identical trace. */
export function runPipelineCell(scenario: PipelineScenario, cell: SweepCell): PipelineLaneResult[] {
  const plain = cellScenario(scenario, cell);
  return createPipelineLaneRuns(plain).map(({ lane, label, run }) => ({
    scheduler: lane.scheduler,
    label,
    params: reportedPipelineParams(lane, plain.pipeline.assumptions),
    ...(scenario.sweep === undefined ? {} : { cell: cell.key }),
    seed: cell.seed,
    summary: run.runToEnd(),
  }));
}

/** Runs every axis combination and lane of a scenario to the end for one seed. */
export function runPipelineScenario(scenario: PipelineScenario, seed = scenario.seed, onCell?: (done: number, total: number) => void): PipelineLaneResult[] {
  const cells = sweepCells(scenario, [seed]);
  return cells.flatMap((cell, i) => {
    const results = runPipelineCell(scenario, cell);
    onCell?.(i + 1, cells.length);
    return results;
  });
}
