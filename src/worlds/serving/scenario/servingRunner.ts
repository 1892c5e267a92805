import type { ServingSummary } from '../engine/metrics';
import type { PlatformId } from '../engine/platforms';
import { wrapDecide, type ServingScheduler } from '../engine/scheduler';
import { ServingRun } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS, type ServingAssumptions } from '../engine/assumptions';
import { perModelParameter, SERVING_SCHEDULERS, servingLaneLabel, servingSchedulerContext, type LearningFactory } from '../schedulers/registry';
import type { ReferenceResult } from '../schedulers/reference';
import type { RateSchedule } from '../engine/load';
import { percentileOptionsOf } from '../../../scenario/schema';
import { modelRateSpec, totalRateRps, type RateScheduleSpec, type ServingScenario } from '../schema';
import { cellScenario, sweepCells, type AxisValue, type SweepCell } from '../../../scenario/sweep';
import { DeviceCopiesRun, deviceCopySpecs, servedApart, type LaneRun } from './deviceCopies';

/** Field overrides of one run (the sweep sets fields in the scenario instead: `cellScenario`). */
export interface ServingCell {
  readonly platform?: PlatformId;
  readonly rateRps?: number;
  readonly batchSize?: number;
  readonly instances?: number;
}

export interface ServingLaneResult {
  readonly scheduler: string;
  readonly label: string;
  readonly params: Readonly<Record<string, number>>;
  /** The sweep cell's axis values by axis name (absent without a sweep). */
  readonly cell?: Readonly<Record<string, AxisValue>>;
  readonly seed: number;
  readonly summary: ServingSummary;
}

type Lane = ServingScenario['serving']['lanes'][number];

/** The engine's spec for a scenario, a grid cell and a seed. */
export function buildServingSpec(scenario: ServingScenario, cell: ServingCell = {}, seed = scenario.seed): ServingRunSpec {
  const v = scenario.serving;
  return {
    platform: cell.platform ?? v.platform,
    models: v.models.map((m) => ({
      model: m.model,
      weight: m.weight,
      ...(m.sloMs === undefined ? {} : { sloMs: m.sloMs }),
      ...withRate(modelRateSpec(v, m)),
      ...(m.serviceFromS === undefined ? {} : { serviceFromMs: m.serviceFromS * 1000 }),
      ...(m.serviceToS === undefined ? {} : { serviceToMs: m.serviceToS === null ? null : m.serviceToS * 1000 }),
      ...(m.classes === undefined ? {} : { classes: m.classes }),
    })),
    rateRps: totalRateRps(cell.rateRps === undefined ? v : { ...v, rateRps: cell.rateRps }),
    durationMs: v.durationS * 1000,
    seed,
    background: v.background.map((b) => ({
      fromMs: b.fromS * 1000,
      toMs: b.toS === null ? null : b.toS * 1000,
      intensity: b.intensity,
      ...(b.memoryMb === undefined ? {} : { memoryMb: b.memoryMb }),
    })),
    assumptions: servingAssumptionsOf(scenario),
    ...(v.trace === undefined
      ? {}
      : {
          trace: v.trace.requests.map((r) => ({
            sentMs: r.tS * 1000,
            model: v.models.findIndex((m) => m.model === r.model),
            ...(r.sloMs === undefined ? {} : { sloMs: r.sloMs }),
            ...(r.shapeClass === undefined ? {} : { shapeClass: r.shapeClass }),
          })),
        }),
    percentiles: percentileOptionsOf(scenario),
    ...(v.closedLoop === undefined ? {} : { closedLoop: v.closedLoop }),
  };
}

/** The modelling choices a serving scenario runs with: its own, each one it leaves out at its default. */
export function servingAssumptionsOf(scenario: ServingScenario): ServingAssumptions {
  const a = scenario.serving.assumptions;
  const d = DEFAULT_SERVING_ASSUMPTIONS;
  return {
    slotMs: a?.slotMs ?? d.slotMs,
    linkBandwidthMbps: a?.linkBandwidthMbps ?? d.linkBandwidthMbps,
    linkLatencyMs: a?.linkLatencyMs ?? d.linkLatencyMs,
    sloJitter: a?.sloJitter ?? d.sloJitter,
    serializationMBps: a?.serializationMBps ?? d.serializationMBps,
    oomRecoveryMs: a?.oomRecoveryMs ?? d.oomRecoveryMs,
    // 0 draws nothing: the deterministic model, bit for bit (worlds/serving/engine/assumptions.ts).
    interferenceNoise: a?.interferenceNoise ?? 0,
    contention: a?.contention ?? d.contention,
    // The readings of BCEdge: absent is the paper's (worlds/serving/engine/readings.ts).
    batching: a?.batching ?? d.batching,
    throughputTerm: a?.throughputTerm ?? d.throughputTerm,
    reward: a?.reward ?? d.reward,
    latencyProfile: a?.latencyProfile ?? d.latencyProfile,
    interference: a?.interference ?? d.interference,
    slot: a?.slot ?? d.slot,
    credit: a?.credit ?? d.credit,
    lateRequests: a?.lateRequests ?? d.lateRequests,
  };
}

function withRate(r: RateScheduleSpec | undefined): { rate?: RateSchedule } {
  return r === undefined ? {} : { rate: rateScheduleMs(r) };
}

/** A scenario's rate schedule (seconds) as the engine's (milliseconds). */
export function rateScheduleMs(r: RateScheduleSpec): RateSchedule {
  switch (r.kind) {
    case 'constant':
      return r;
    case 'steps':
      return { kind: 'steps', steps: r.steps.map((x) => ({ fromMs: x.fromS * 1000, rateRps: x.rateRps })) };
    case 'linear':
      return { kind: 'linear', points: r.points.map((x) => ({ atMs: x.atS * 1000, rateRps: x.rateRps })) };
    case 'sine':
      return { kind: 'sine', meanRps: r.meanRps, amplitudeRps: r.amplitudeRps, periodMs: r.periodS * 1000, phaseMs: r.phaseS * 1000 };
    case 'mmpp':
      return { kind: 'mmpp', onRps: r.onRps, offRps: r.offRps, meanOnMs: r.meanOnS * 1000, meanOffMs: r.meanOffS * 1000, startOn: r.startOn };
  }
}

/** A lane's parameters with defaults filled in and the grid's batch × instances applied where the lane has them. */
export function servingLaneParameters(lane: Lane, cell: ServingCell = {}): Record<string, number> {
  const params: Record<string, number> = {};
  for (const p of SERVING_SCHEDULERS[lane.scheduler].parameters) {
    const fromCell = p.name === 'batchSize' ? cell.batchSize : p.name === 'instances' ? cell.instances : undefined;
    params[p.name] = fromCell ?? lane.params?.[p.name] ?? p.default;
  }
  // Per-model values (`batchSize.yolo`) pass through, unless a grid cell sets every model.
  for (const [name, v] of Object.entries(lane.params ?? {})) {
    const per = perModelParameter(name);
    if (per !== null && !(per.base === 'batchSize' && cell.batchSize !== undefined) && !(per.base === 'instances' && cell.instances !== undefined)) params[name] = v;
  }
  return params;
}

/**
 * Times every decision of a scheduler with `clock` (wall-clock µs for BCEdge Fig. 16); the
 * engine has no clock, so this wrapper lives here. Tests pass a constant clock so that runs
 * stay bit-for-bit comparable.
 */
function timed(scheduler: ServingScheduler, clock: () => number, tally: { totalMs: number; decisions: number } = { totalMs: 0, decisions: 0 }): { scheduler: ServingScheduler; meanUs: () => number } {
  const wrapped = wrapDecide(scheduler, (observation, decide) => {
    const t0 = clock();
    const action = decide(observation);
    tally.totalMs += clock() - t0;
    tally.decisions++;
    return action;
  });
  return { scheduler: wrapped, meanUs: () => (tally.decisions > 0 ? (1000 * tally.totalMs) / tally.decisions : 0) };
}

/**
 * The engine specs of a run's device copies when the scenario serves its models apart on the
 * spec's platform (`platformSetting`, BCEdge §V-D: worlds/serving/scenario/deviceCopies.ts), else null.
 */
export function deviceCopiesOf(scenario: ServingScenario, spec: ServingRunSpec): ServingRunSpec[] | null {
  return servedApart(spec, scenario.serving.assumptions?.platformSetting) ? deviceCopySpecs(spec) : null;
}

/**
 * A lane's run on `spec`: one `ServingRun`, or the device copies of `copies` (each with its own
 * scheduler from `create`, given the copy's spec and index). Schedulers already made are
 * disposed when building fails.
 */
export function buildLaneRun(spec: ServingRunSpec, copies: readonly ServingRunSpec[] | null, create: (spec: ServingRunSpec, copy: number) => ServingScheduler, disposeAll: () => void): LaneRun {
  try {
    if (copies === null) return new ServingRun(spec, create(spec, 0));
    return new DeviceCopiesRun(copies, copies.map((c, i) => create(c, i)));
  } catch (error) {
    disposeAll();
    throw error;
  }
}

/** The learning report of a lane: its scheduler's, or per model, each copy's (device copies). */
export function laneReport(reports: readonly (Readonly<Record<string, unknown>> | undefined)[], copies: readonly ServingRunSpec[] | null): Readonly<Record<string, unknown>> | undefined {
  if (copies === null) return reports[0];
  if (reports.every((r) => r === undefined)) return undefined;
  return { copies: Object.fromEntries(copies.map((c, i) => [c.models[0]!.model, reports[i] ?? null])) };
}

/** One lane of a cell, built and not yet run: advance `run` as far as wanted, then `finish` (or `dispose`). */
export interface ServingLaneRunner {
  /** One `ServingRun`, or the device copies of §V-D's platforms (worlds/serving/scenario/deviceCopies.ts). */
  readonly run: LaneRun;
  /** Runs to the end, returns the lane's result and frees its scheduler (a learner's tensors). */
  finish(): ServingLaneResult;
  /** Frees the scheduler without a result (a sweep cancelled half-way). */
  dispose(): void;
}

/**
 * The lanes of one sweep cell (its fields set, its seed), each built only when called, so that
 * at most one lane's learners live at a time: every lane on the identical arrival trace. A learning
 * lane builds its agent from `learning` for this cell: from scratch with the cell's seed, or
 * from the shipped agent when the lane says `pretrained` (one per device copy where the
 * scenario serves its models apart, worlds/serving/scenario/deviceCopies.ts). `runServingCell` runs them in one
 * go; the serving worker's sweeps advance them in slices (ARCHITECTURE §3).
 */
export function servingCellLanes(scenario: ServingScenario, cell: SweepCell, clock: () => number = () => 0, learning?: LearningFactory): (() => ServingLaneRunner)[] {
  const plain = cellScenario(scenario, cell);
  const seed = cell.seed;
  const spec = buildServingSpec(plain, {}, seed);
  const copies = deviceCopiesOf(plain, spec);
  // The reference searches of this cell, per device copy's spec: a per-phase lane starts from the hindsight lane's search.
  const searches = new Map<ServingRunSpec, Map<string, ReferenceResult>>();
  const searchesOf = (own: ServingRunSpec) => {
    let found = searches.get(own);
    if (found === undefined) searches.set(own, (found = new Map()));
    return found;
  };
  return plain.serving.lanes.map((lane) => () => {
    const params = servingLaneParameters(lane);
    // One scheduler per device copy (worlds/serving/scenario/deviceCopies.ts), timed together.
    const inners: ServingScheduler[] = [];
    const tally = { totalMs: 0, decisions: 0 };
    let meanUs = () => 0;
    let disposed = false;
    const dispose = () => {
      if (disposed) return;
      disposed = true;
      for (const inner of inners) inner.dispose?.();
    };
    const run = buildLaneRun(
      spec,
      copies,
      (own) => {
        const inner = SERVING_SCHEDULERS[lane.scheduler].create(params, { ...servingSchedulerContext(seed, own.models.map((m) => m.model), learning, own), referenceSearches: searchesOf(own) });
        inners.push(inner);
        const t = timed(inner, clock, tally);
        meanUs = t.meanUs;
        return t.scheduler;
      },
      dispose,
    );
    return {
      run,
      dispose,
      finish: () => {
        let summary: ServingSummary;
        let report: Readonly<Record<string, unknown>> | undefined;
        try {
          summary = run.runToEnd();
          report = laneReport(
            inners.map((inner) => inner.report?.()),
            copies,
          );
        } finally {
          dispose();
        }
        return {
          scheduler: lane.scheduler,
          label: servingLaneLabel(lane.scheduler, params),
          params,
          ...(scenario.sweep === undefined ? {} : { cell: cell.key }),
          seed,
          summary: { ...summary, decisionMeanUs: meanUs(), ...(report === undefined ? {} : { learning: report }) },
        };
      },
    };
  });
}

/**
 * Runs one sweep cell (its fields set, its seed): every lane on the identical arrival trace,
 * one after the other (see `servingCellLanes`).
 */
export function runServingCell(
  scenario: ServingScenario,
  cell: SweepCell,
  clock: () => number = () => 0,
  learning?: LearningFactory,
  /** Called with each lane's finished run (its per-slot series), e.g. for per-window figures (bench/timeline.ts). */
  onLaneRun?: (lane: number, run: LaneRun) => void,
): ServingLaneResult[] {
  return servingCellLanes(scenario, cell, clock, learning).map((start, lane) => {
    const runner = start();
    const result = runner.finish();
    onLaneRun?.(lane, runner.run);
    return result;
  });
}

/** Runs every axis combination and lane of a serving scenario for one seed (lanes share the arrival trace). */
export function runServingScenario(
  scenario: ServingScenario,
  seed = scenario.seed,
  clock: () => number = () => 0,
  onCell?: (done: number, total: number) => void,
  learning?: LearningFactory,
): ServingLaneResult[] {
  const cells = sweepCells(scenario, [seed]);
  return cells.flatMap((cell, i) => {
    const results = runServingCell(scenario, cell, clock, learning);
    onCell?.(i + 1, cells.length);
    return results;
  });
}
