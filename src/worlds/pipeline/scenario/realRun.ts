/**
 * A pipeline scenario run on this machine's cores beside its simulation (ARCHITECTURE §2,
 * the real backend): what `interference-lab real` and the page's real worker both do. Measures
 * the layer-time database at the run's input size (or reads one), runs each lane for real,
 * one after another on the same interference schedule (two lanes at once would interfere
 * with each other), and sets each beside the same lane simulated on that database under
 * every trial-cost reading. The measurement and the real run (src/worlds/pipeline/measure) are passed in
 * with the stage workers and the hogs, so this module stays in the scenario layer.
 */
import type { Tf } from '../../../lib/tf';
import { MODE_IDS, type InterferenceModeId, type LayerTimeDatabase } from '../engine/profiles/types';
import type { InterferenceEvent } from '../engine/interference';
import type { ModeIndex } from '../engine/stageTimes';
import type { measureDatabase as MeasureDatabase } from '../measure/runner';
import type { LiveInterferenceEdit, RealProgress, RealRunResult, runRealPipeline as RunRealPipeline } from '../measure/realPipeline/pipeline';
import type { PipelineMachine } from '../engine/machine';
import { compileDatabase } from '../engine/stageTimes';
import { calibrateMachine, calibrationMoves, machineText } from './realCalibration';
import { fidelityReport, type FidelityReport } from './realFidelity';
import { compareLane, coreMapping, modesNeeded, REAL_RESIDENT_BUDGET_MIB, realLaneOptions, signAgreement, TRIAL_COST_READINGS, type CoreMapping, type LaneComparison } from './realPipeline';
import type { PipelineScenario } from '../schema';
import type { SpawnHog } from '../measure/hogs';
import type { StagePort } from '../measure/realPipeline/pipeline';

export interface RealArgs {
  readonly scenario: PipelineScenario;
  readonly inputSize: number;
  /** A database measured earlier (same model and size); null: measure one now. */
  readonly database: LayerTimeDatabase | null;
  readonly repeats: number;
  readonly hogBufferMiB: number;
  readonly cores: number;
  /** Memory the stages may keep units resident in, MiB (0: every move builds what it receives); absent: REAL_RESIDENT_BUDGET_MIB. */
  readonly residentBudgetMiB?: number;
  /** Real runs of each lane, interleaved lane by lane (absent: 1). */
  readonly laneRepeats?: number;
  /** Noise seeds the calibrated machine is simulated over (absent: REAL_NOISE_SEEDS). */
  readonly noiseSeeds?: number;
  /** Queries of the calibration lane (absent: REAL_CALIBRATION_QUERIES; 0: no calibration, the ideal machine only). */
  readonly calibrationQueries?: number;
  /**
   * A calibration lane before every round of the lanes' repeats, each repeat simulated on its
   * own round's machine and the errors paired by repeat (realFidelity.ts `pairedErrors`);
   * absent or false: one calibration before the first round. This machine's speed drifts by
   * up to ±20 % between runs minutes apart (README, "The real pipeline"), which one calibration
   * cannot follow.
   */
  readonly calibrateEachRepeat?: boolean;
}

/** Noise seeds of the simulation on the calibrated machine. */
export const REAL_NOISE_SEEDS = 20;
/**
 * Queries of the calibration lane (a static lane without hogs, a scripted move every
 * REAL_CALIBRATION_MOVE_EVERY). Spikes are a few per cent of the stage times (realCalibration.ts):
 * 60 queries on 2 EPs held about four of them; 150 hold ten, about 25 s on this machine.
 */
export const REAL_CALIBRATION_QUERIES = 150;
export const REAL_CALIBRATION_MOVE_EVERY = 15;

export interface RealDeps {
  readonly tf: Tf;
  readonly measureDatabase: typeof MeasureDatabase;
  readonly runRealPipeline: typeof RunRealPipeline;
  /** Wall clock, ms. */
  readonly now: () => number;
  /** Sees each lane's progress (the page's live charts). */
  readonly onProgress?: (laneIndex: number, progress: RealProgress) => void;
  readonly onMeasureProgress?: (fraction: number) => void;
  readonly spawnStage: (index: number) => StagePort;
  readonly spawnHog: SpawnHog;
  readonly runtime: string;
  readonly stderr: (text: string) => void;
  readonly isCancelled?: () => boolean;
  /** Workloads placed on or taken off execution places by hand since the last call (the page's drag and drop during a run). */
  readonly liveEdits?: () => readonly LiveEdit[];
}

/** A workload dragged onto (`add`) or off (`end`) an execution place during a real run, in the scenario's terms. */
export type LiveEdit = { readonly kind: 'add'; readonly id: number; readonly executionPlace: number; readonly mode: InterferenceModeId } | { readonly kind: 'end'; readonly id: number };

/** A live workload as it ran: from the query it was placed at to the query it was taken off at (null: to the end). */
export interface LiveEvent {
  readonly id: number;
  readonly executionPlace: number;
  readonly mode: InterferenceModeId;
  readonly fromQuery: number;
  toQuery: number | null;
}

/** The units a lane's stages held for the whole run (a move of one is an ownership change) and the memory they took. */
export interface RealLaneResidency {
  readonly budgetMiB: number;
  /** Per stage. */
  readonly units: readonly number[];
  /** Per stage, the tfjs bytes of its resident units. */
  readonly bytes: readonly number[];
}

/** What `real` prints (JSON), one object per lane in `lanes`. */
export interface RealReport {
  readonly kind: 'real-pipeline';
  readonly machine: { readonly runtime: string; readonly cores: number; readonly mapping: CoreMapping; readonly date: string };
  readonly scenario: { readonly title: string; readonly model: string; readonly executionPlaces: number; readonly queries: number; readonly inputSize: number; readonly seed: number; readonly bufferCapacity: number };
  readonly database: { readonly source: 'measured' | 'file'; readonly modes: readonly string[]; readonly measureMs: number | null; readonly measurement: LayerTimeDatabase['measurement'] | null };
  /**
   * Each lane, with the workloads placed by hand while it ran or before it (they stay for the
   * lanes after, from the same query): a lane is simulated on the schedule it ran, so lanes
   * before a drag ran another schedule than lanes after it.
   */
  readonly lanes: readonly (LaneComparison & { readonly realWallMs: number; readonly liveEvents: readonly LiveEvent[]; readonly resident: RealLaneResidency })[];
  /** The reading with the least mean absolute error over the lanes. */
  readonly closestReading: string;
  readonly mapeByReading: Readonly<Record<string, number>>;
  /** ODIN's measured and simulated throughput against LLS's, % (when both lanes ran). */
  readonly odinVsLls: ReturnType<typeof signAgreement> | null;
  /** The machine calibrated on this machine (null: no calibration lane), with and without core sharing when stages share cores. */
  readonly calibration: { readonly machine: PipelineMachine; readonly noSharing: PipelineMachine | null; readonly queriesUsed: number; readonly movesUsed: number; readonly wallMs: number } | null;
  /** With `calibrateEachRepeat`: each round's calibration, the first being `calibration` (empty otherwise). */
  readonly calibrations?: readonly NonNullable<RealReport['calibration']>[];
  /** Every lane's repeats against the ideal and the calibrated machine, with intervals (with `calibrateEachRepeat`, each repeat on its round's machine, paired). */
  readonly fidelity: FidelityReport;
  /** With `calibrateEachRepeat`: the same repeats against the first round's machine alone, as without it (absent otherwise). */
  readonly fidelityFirstCalibration?: FidelityReport;
}

export async function runReal(args: RealArgs, deps: RealDeps): Promise<RealReport | null> {
  const { scenario } = args;
  const p = scenario.pipeline;
  const mapping = coreMapping(p.executionPlaces, args.cores, scenario);
  const now = deps.now;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  let database = args.database;
  let measureMs: number | null = null;
  if (database === null) {
    const modes = modesNeeded(scenario);
    deps.stderr(`real: measuring ${p.model} at ${args.inputSize} px, modes ${modes.join(', ')} (${args.repeats} repeats) for the simulation…\n`);
    const t0 = now();
    const measured = await deps.measureDatabase(
      { model: p.model, modes, repeats: args.repeats, inputSize: args.inputSize, hogBufferMiB: args.hogBufferMiB },
      // Hogs per mode as the real run starts them: the cores one EP stands for.
      { tf: deps.tf, now, sleep, spawnHog: deps.spawnHog, cores: mapping.coresPerEp, runtime: deps.runtime, date: () => new Date().toISOString() },
      (progress) => deps.onMeasureProgress?.(progress.fraction),
      deps.isCancelled,
    );
    if (!measured.ok) return null;
    database = measured.database;
    measureMs = now() - t0;
  }
  deps.stderr(`real: ${mapping.text}\n`);
  // The calibration lane: the interference-free optimum held still, no hogs, a scripted move every few queries.
  const calibrationQueries = args.calibrationQueries ?? REAL_CALIBRATION_QUERIES;
  const calibrate = async (round: string): Promise<NonNullable<RealReport['calibration']> | undefined> => {
    deps.stderr(`real: calibration lane${round}, ${calibrationQueries} queries without hogs…\n`);
    const t0 = now();
    const staticScenario: PipelineScenario = { ...scenario, pipeline: { ...p, lanes: [{ scheduler: 'static' }] } };
    const base = realLaneOptions(staticScenario, 0, database, args.inputSize, mapping, args.hogBufferMiB, args.residentBudgetMiB ?? REAL_RESIDENT_BUDGET_MIB);
    const result = await deps.runRealPipeline(
      { ...base, queries: calibrationQueries, events: [], random: null, scriptedMoves: calibrationMoves(base.initialConfiguration, calibrationQueries, REAL_CALIBRATION_MOVE_EVERY) },
      { now, sleep, spawnStage: deps.spawnStage, spawnHog: deps.spawnHog },
      undefined,
      deps.isCancelled,
    );
    if (deps.isCancelled?.() === true) return undefined;
    const compiled = compileDatabase(database);
    const withSharing = calibrateMachine(result, compiled, p.executionPlaces, mapping.shared ? args.cores : undefined);
    const noSharing = mapping.shared ? calibrateMachine(result, compiled, p.executionPlaces).machine : null;
    deps.stderr(`real: calibrated: ${machineText(withSharing.machine)}\n`);
    return { machine: withSharing.machine, noSharing, queriesUsed: withSharing.queriesUsed, movesUsed: withSharing.movesUsed, wallMs: now() - t0 };
  };
  const laneRepeats = Math.max(1, args.laneRepeats ?? 1);
  const eachRepeat = calibrationQueries > 0 && args.calibrateEachRepeat === true && laneRepeats > 1;
  const calibrations: NonNullable<RealReport['calibration']>[] = [];
  let calibration: RealReport['calibration'] = null;
  if (calibrationQueries > 0) {
    const first = await calibrate(eachRepeat ? `, round 1/${laneRepeats}` : '');
    if (first === undefined) return null;
    calibration = first;
    calibrations.push(first);
  }
  const runs: RealRunResult[][] = p.lanes.map(() => []);
  const lanes: (LaneComparison & { realWallMs: number; liveEvents: readonly LiveEvent[]; resident: RealLaneResidency })[] = [];
  // The workloads placed by hand so far, carried to the lanes after, from the same query.
  const live: LiveEvent[] = [];
  // A mode the database lacks cannot be simulated (nor decided on by an oracle): such a workload is not placed.
  const measurable = (edit: LiveEdit) => edit.kind === 'end' || database.modes[edit.mode] !== undefined;
  const liveEdits =
    deps.liveEdits === undefined
      ? undefined
      : () =>
          deps.liveEdits!()
            .filter((edit) => {
              if (!measurable(edit)) deps.stderr(`real: mode ${edit.kind === 'add' ? edit.mode : ''} is not in the run's database: the workload was not placed\n`);
              return measurable(edit);
            })
            .map(engineEdit);
  for (let repeat = 0; repeat < laneRepeats; repeat += 1) for (let laneIndex = 0; laneIndex < p.lanes.length; laneIndex += 1) {
    if (eachRepeat && repeat > 0 && laneIndex === 0) {
      const again = await calibrate(`, round ${repeat + 1}/${laneRepeats}`);
      if (again === undefined) return null;
      calibrations.push(again);
    }
    const lane = p.lanes[laneIndex]!;
    const carried: InterferenceEvent[] = live.map((e) => ({ executionPlace: e.executionPlace, mode: MODE_IDS.indexOf(e.mode) as ModeIndex, fromQuery: e.fromQuery, toQuery: e.toQuery, id: e.id }));
    const base = realLaneOptions(scenario, laneIndex, database, args.inputSize, mapping, args.hogBufferMiB, args.residentBudgetMiB ?? REAL_RESIDENT_BUDGET_MIB);
    deps.stderr(`real: lane ${laneIndex + 1}/${p.lanes.length} (${lane.scheduler})${laneRepeats > 1 ? `, repeat ${repeat + 1}/${laneRepeats}` : ''}, ${p.queries} queries on ${p.executionPlaces} stage threads…\n`);
    const t0 = now();
    let served = 0;
    const result = await deps.runRealPipeline(
      { ...base, events: [...base.events, ...carried] },
      // Workloads placed by hand join the first repeat only: the repeats after run the scenario's schedule.
      { now, sleep, spawnStage: deps.spawnStage, spawnHog: deps.spawnHog, ...(liveEdits === undefined || repeat > 0 ? {} : { liveEdits }) },
      (progress: RealProgress) => {
        deps.onProgress?.(laneIndex, progress);
        if (progress.kind === 'query' && ++served % 100 === 0) deps.stderr(`real:   ${served} queries\n`);
      },
      deps.isCancelled,
    );
    if (deps.isCancelled?.() === true) return null;
    runs[laneIndex]!.push(result);
    if (repeat > 0) continue;
    for (const { edit, atQuery } of result.liveEdits) {
      if (edit.kind === 'add') live.push({ id: edit.id, executionPlace: edit.executionPlace, mode: MODE_IDS[edit.mode] as InterferenceModeId, fromQuery: atQuery, toQuery: null });
      else for (const e of live) if (e.id === edit.id && (e.toQuery === null || e.toQuery > atQuery)) e.toQuery = atQuery;
    }
    const ran = live.filter((e) => e.toQuery === null || e.toQuery > e.fromQuery).map((e) => ({ ...e }));
    // Simulated on the schedule this lane ran: the scenario's events and the workloads placed by hand.
    const asRan: PipelineScenario = ran.length === 0 ? scenario : { ...scenario, pipeline: { ...p, interference: { ...p.interference, events: [...p.interference.events, ...ran.map(({ executionPlace, mode, fromQuery, toQuery }) => ({ executionPlace, mode, fromQuery, toQuery }))] } } };
    lanes.push({ ...compareLane(asRan, laneIndex, database, result), realWallMs: now() - t0, liveEvents: ran, resident: result.resident });
  }
  const mapeByReading: Record<string, number> = {};
  for (const reading of TRIAL_COST_READINGS) {
    const values = lanes.map((l) => l.readings.find((r) => r.trialCost === reading)!.mapePct);
    mapeByReading[reading] = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  }
  const closestReading = TRIAL_COST_READINGS.reduce((best, r) => (mapeByReading[r]! < mapeByReading[best]! ? r : best));
  const odin = lanes.find((l) => l.scheduler === 'odin');
  const lls = lanes.find((l) => l.scheduler === 'lls');
  return {
    kind: 'real-pipeline',
    machine: { runtime: deps.runtime, cores: args.cores, mapping, date: new Date().toISOString() },
    scenario: { title: scenario.title, model: p.model, executionPlaces: p.executionPlaces, queries: p.queries, inputSize: args.inputSize, seed: scenario.seed, bufferCapacity: p.assumptions.bufferCapacity },
    database: { source: args.database === null ? 'measured' : 'file', modes: Object.keys(database.modes), measureMs, measurement: database.measurement ?? null },
    lanes,
    closestReading,
    mapeByReading,
    odinVsLls: odin !== undefined && lls !== undefined ? signAgreement(odin, lls, p.assumptions.trialCost) : null,
    calibration,
    calibrations: eachRepeat ? calibrations : [],
    fidelity: fidelityReport(
      scenario,
      database,
      runs,
      calibration?.machine ?? null,
      calibration?.noSharing ?? null,
      args.noiseSeeds ?? REAL_NOISE_SEEDS,
      eachRepeat ? calibrations.map((c) => ({ machine: c.machine, noSharing: c.noSharing })) : undefined,
    ),
    ...(eachRepeat ? { fidelityFirstCalibration: fidelityReport(scenario, database, runs, calibration?.machine ?? null, calibration?.noSharing ?? null, args.noiseSeeds ?? REAL_NOISE_SEEDS) } : {}),
  };
}

/** A page's edit in the engine's terms (mode letters become indices). */
function engineEdit(edit: LiveEdit): LiveInterferenceEdit {
  return edit.kind === 'add' ? { kind: 'add', id: edit.id, executionPlace: edit.executionPlace, mode: MODE_IDS.indexOf(edit.mode) as ModeIndex } : edit;
}

const fmt = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : String(v));
const signed = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(1)} %` : String(v));

const interval = (m: { mean: number; halfWidth95: number }, digits = 2) => `${fmt(m.mean, digits)} ± ${fmt(m.halfWidth95, digits)}`;
const errorText = (e: { mean: number; halfWidth95: number } | undefined) => (e === undefined ? '—' : `${signed(e.mean)} ± ${fmt(e.halfWidth95)}`);

/** The fidelity section: intervals, counts, per-phase errors, the time breakdown, or why there is no verdict. */
export function fidelityMarkdown(report: Pick<RealReport, 'fidelity' | 'calibration' | 'calibrations' | 'fidelityFirstCalibration'>): string[] {
  const f = report.fidelity;
  const rounds = report.calibrations ?? [];
  const lines = [`## Fidelity: ${f.repeats} real run${f.repeats === 1 ? '' : 's'} a lane, the calibrated machine over ${f.noiseSeeds} noise seed${f.noiseSeeds === 1 ? '' : 's'} (95 % intervals)`, ''];
  if (rounds.length > 1) {
    lines.push(`A calibration before each round of repeats; each repeat simulated on its round's machine, the errors paired by repeat:`, '', ...rounds.map((c, k) => `- round ${k + 1}: ${machineText(c.machine)}`), '');
    const single = report.fidelityFirstCalibration;
    if (single !== undefined) lines.push(`On the first round's machine alone (one calibration), the errors would be: ${single.lanes.map((l) => `${l.label} throughput ${errorText(l.error.machine?.throughputPct)}, latency ${errorText(l.error.machine?.latencyMeanPct)}`).join('; ')}.`, '');
  } else if (report.calibration !== null) {
    lines.push(`Calibrated machine: ${machineText(report.calibration.machine)}${report.calibration.noSharing === null ? '' : `; without core sharing: ${machineText(report.calibration.noSharing)}`} (${report.calibration.queriesUsed} steady queries, ${report.calibration.movesUsed} moves).`, '');
  }
  if (f.tooShort !== null) lines.push(`**No verdict:** ${f.tooShort}.`, '');
  lines.push(
    '| lane | measured q/s | ideal q/s | machine q/s | throughput error (ideal) | throughput error (machine) | mean latency error (ideal) | mean latency error (machine) | phases real / sim | trials real / sim | moves real / sim |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...f.lanes.map((l) => {
      const sim = l.machine ?? l.ideal;
      return `| ${l.label} | ${interval(l.measured.throughputQps)} | ${fmt(l.ideal.throughputQps.mean, 2)} | ${l.machine === null ? '—' : interval(l.machine.throughputQps)} | ${errorText(l.error.ideal.throughputPct)} | ${errorText(l.error.machine?.throughputPct)} | ${errorText(l.error.ideal.latencyMeanPct)} | ${errorText(l.error.machine?.latencyMeanPct)} | ${fmt(l.measured.phases.mean)} / ${fmt(sim.phases.mean)} | ${fmt(l.measured.trials.mean)} / ${fmt(sim.trials.mean)} | ${fmt(l.measured.moves.mean)} / ${fmt(sim.moves.mean)} |`;
    }),
  );
  for (const l of f.lanes.filter((x) => x.machineNoSharing !== null)) {
    lines.push('', `${l.label} without core sharing modelled: throughput error ${errorText(l.error.machineNoSharing?.throughputPct)}, mean latency error ${errorText(l.error.machineNoSharing?.latencyMeanPct)}.`);
  }
  for (const l of f.lanes) {
    lines.push('', `${l.label}, per phase (measured against simulated, means): ${l.phases.map((p) => `queries ${p.fromQuery}–${p.toQuery - 1} [${p.modes}] ${fmt(p.measuredQps, 2)} / ${fmt(p.simulatedQps, 2)} q/s (${signed(p.throughputErrorPct)}, latency ${signed(p.latencyMeanErrorPct)})`).join('; ')}.`);
    const t = l.time;
    lines.push(`${l.label}, where the real time went (mean a run): normal queries ${fmt(t.normal / 1000)} s, trials ${fmt(t.trials / 1000)} s, moves ${fmt(t.moves / 1000, 2)} s, drains ${fmt(t.drains / 1000)} s, hog starts ${fmt(t.hogStalls / 1000, 2)} s.`);
  }
  if (f.odinVsLls !== null && f.tooShort === null) {
    const o = f.odinVsLls;
    lines.push('', `ODIN against LLS in throughput: measured ${signed(o.measuredPct.mean)} ± ${fmt(o.measuredPct.halfWidth95)}, simulated ${signed(o.simulatedPct.mean)} ± ${fmt(o.simulatedPct.halfWidth95)}: the sign ${o.agrees ? 'agrees' : 'does not agree'}.`);
  }
  return lines;
}

/** Units resident and the memory they took, as a sentence (the first lane's: every lane starts the same way). */
export function residencyText(report: Pick<RealReport, 'lanes' | 'scenario'>): string {
  const r = report.lanes[0]?.resident;
  if (r === undefined) return 'No lane ran.';
  if (r.budgetMiB === 0) return 'Units not resident: every move built and warmed up the units it handed over.';
  const total = report.scenario.executionPlaces;
  const all = r.units.every((u) => u === r.units[0]) ? `${r.units[0]} units on each of the ${total} stages` : `${r.units.join(', ')} units on the ${total} stages`;
  const mib = r.bytes.reduce((a, b) => a + b, 0) / 2 ** 20;
  return `Units resident (${all}, ${fmt(mib, 0)} MiB in all of a ${fmt(r.budgetMiB, 0)} MiB budget): a move of a resident unit is an ownership change; the units that did not fit were built on the move.`;
}

/** The report as Markdown: one row per lane, measured beside simulated, then the readings. */
export function realMarkdown(report: RealReport): string {
  const s = report.scenario;
  const lines = [
    `# ${s.title}: a real pipeline on this machine beside its simulation`,
    '',
    `${s.model} at ${s.inputSize} px on ${s.executionPlaces} execution places, ${s.queries} queries, buffer ${s.bufferCapacity}, seed ${s.seed}. ${report.machine.runtime}; ${report.machine.mapping.text}.`,
    `Database: ${report.database.source === 'measured' ? `measured now (${fmt((report.database.measureMs ?? 0) / 1000)} s)` : 'read from a file'}, modes ${report.database.modes.join(', ')}.`,
    '',
    '| lane | measured qps | simulated qps | error | measured mean ms | simulated mean ms | error | measured p99 ms | simulated p99 ms | error | moves | mean move ms | closest reading |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.lanes.map(
      (l) =>
        `| ${l.label} | ${fmt(l.measured.throughputQps, 2)} | ${fmt(l.simulated.throughputQps, 2)} | ${signed(l.error.throughputQps)} | ${fmt(l.measured.latencyMeanMs)} | ${fmt(l.simulated.latencyMeanMs)} | ${signed(l.error.latencyMeanMs)} | ${fmt(l.measured.latencyP99Ms)} | ${fmt(l.simulated.latencyP99Ms)} | ${signed(l.error.latencyP99Ms)} | ${l.measured.reconfigurations.length} | ${fmt(l.measured.reconfigurationMeanMs)} | ${l.closestReading} |`,
    ),
    '',
    `Mean absolute error by trial-cost reading (run and phases): ${TRIAL_COST_READINGS.map((r) => `${r} ${fmt(report.mapeByReading[r] ?? 0)} %`).join(', ')}; closest: **${report.closestReading}**.`,
  ];
  lines.push('', residencyText(report), '', ...fidelityMarkdown(report));
  if (report.odinVsLls !== null && report.fidelity.tooShort === null) {
    const o = report.odinVsLls;
    lines.push(`ODIN against LLS in throughput, first runs on the ideal machine: measured ${signed(o.measuredPct)}, simulated ${signed(o.simulatedPct)}: the sign ${o.agrees ? 'agrees' : 'does not agree'}.`);
  }
  for (const l of report.lanes.filter((x) => x.liveEvents.length > 0)) {
    lines.push(`${l.label} ran with workloads placed by hand: ${l.liveEvents.map((e) => `EP ${e.executionPlace + 1} mode ${e.mode} from query ${e.fromQuery}${e.toQuery === null ? '' : ` to ${e.toQuery}`}`).join(', ')} (simulated on that schedule).`);
  }
  lines.push('', 'Measured on a shared machine: tfjs on wasm, one thread per stage, threads placed by the operating system (nothing pinned), not the paper\'s pinned 8-core execution places.');
  return `${lines.join('\n')}\n`;
}
