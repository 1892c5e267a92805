/**
 * The simulator learns the machine (ARCHITECTURE §2, the real backend): from a calibration
 * lane run for real on this machine — the interference-free optimum held still, no hogs,
 * a few scripted moves of one unit — and the layer-time database measured here, it
 * estimates the `pipeline.machine` block (worlds/pipeline/engine/machine.ts) the simulation then
 * runs with, seeded. Pure: the run is brought by the caller.
 *
 * The estimators (the paper is silent; the lab's choices):
 * - the pipelined factor is the mean, over the steady normal queries (the first
 *   `CALIBRATION_WARM_QUERIES` after a start or a move left out) and their non-empty
 *   stages, of measured stage time over the database's time of the same units alone,
 *   divided by the core-sharing stretch when sharing is modelled;
 * - the stage-time noise is the pooled standard deviation of that ratio, stage by stage
 *   around each stage's own mean, over the factor (a coefficient of variation);
 * - the hand-over is what the steady completion interval has beyond the slowest measured
 *   stage, per query (at least 0);
 * - the move cost is the mean wall time of the scripted moves; the hog start stall the mean
 *   of the stalls measured (0 when none was).
 */
import type { PipelineMachine } from '../engine/machine';
import { MachineModel } from '../engine/machine';
import { computeStageTimes, type CompiledDatabase } from '../engine/stageTimes';

/** Queries after a start or a move that calibration leaves out (the pipeline fills). */
export const CALIBRATION_WARM_QUERIES = 3;

/** What calibration reads of a real run (`RealRunResult` has these fields). */
export interface CalibrationTrace {
  readonly queries: readonly { readonly query: number; readonly kind: 'normal' | 'trial'; readonly admittedMs: number; readonly completionMs: number; readonly stageTimesMs: Float64Array; readonly configuration: string; readonly modes?: Uint8Array }[];
  readonly reconfigurations: readonly { readonly wallMs: number }[];
  /** Admission stalls while hogs started, ms. */
  readonly hogStallsMs?: readonly number[];
}

export interface MachineCalibration {
  readonly machine: PipelineMachine;
  /** Steady queries and stage samples the estimates rest on. */
  readonly queriesUsed: number;
  readonly stageSamples: number;
  readonly movesUsed: number;
}

const parseKey = (key: string): Int32Array => Int32Array.from(key.split(','), Number);

/**
 * Estimates the machine from a calibration lane on `database` (mode A, interference-free);
 * `cores`: model core sharing on that many cores (absent: none). Throws naming what is
 * missing when the lane has too few steady queries.
 */
export function calibrateMachine(trace: CalibrationTrace, database: CompiledDatabase, executionPlaces: number, cores?: number): MachineCalibration {
  const n = executionPlaces;
  const sharing = new MachineModel({ stageNoiseCv: 0, pipelinedFactor: 1, hopMs: 0, moveMs: 0, hogStartMs: 0, ...(cores === undefined ? {} : { cores }) }, 1, n);
  const zeros = new Uint8Array(n);
  const base = new Float64Array(n);
  const sorted = [...trace.queries].sort((a, b) => a.query - b.query);
  const ratios: number[][] = Array.from({ length: n }, () => []);
  // Per stage, the successive differences of its ratios within one steady run of a configuration (the short-term noise).
  const steps: number[][] = Array.from({ length: n }, () => []);
  const lastRatio = new Float64Array(n).fill(Number.NaN);
  const gaps: number[] = [];
  const bottlenecks: number[] = [];
  let since = 0;
  let lastKey = '';
  let previous: (typeof sorted)[number] | null = null;
  let used = 0;
  for (const q of sorted) {
    since = q.configuration === lastKey ? since + 1 : 0;
    lastKey = q.configuration;
    if (q.kind !== 'normal' || since < CALIBRATION_WARM_QUERIES) {
      previous = q;
      lastRatio.fill(Number.NaN);
      continue;
    }
    const counts = parseKey(q.configuration);
    if (counts.length !== n) throw new RangeError(`calibration: query ${q.query}'s configuration ${q.configuration} is not of ${n} EPs`);
    // The database and the sharing under the query's modes (a calibration lane has none: mode A).
    const modes = q.modes ?? zeros;
    computeStageTimes(database, counts, modes, 0, base);
    const stretch = sharing.sharing(counts, modes, false);
    let max = 0;
    for (let i = 0; i < n; i++) {
      if (counts[i]! === 0 || base[i]! <= 0) {
        lastRatio[i] = Number.NaN;
        continue;
      }
      const ratio = q.stageTimesMs[i]! / (base[i]! * stretch);
      ratios[i]!.push(ratio);
      if (!Number.isNaN(lastRatio[i]!)) steps[i]!.push(ratio - lastRatio[i]!);
      lastRatio[i] = ratio;
      max = Math.max(max, q.stageTimesMs[i]!);
    }
    if (previous !== null && previous.kind === 'normal' && previous.configuration === q.configuration) {
      gaps.push(q.completionMs - previous.completionMs);
      bottlenecks.push(max);
    }
    used += 1;
    previous = q;
  }
  const all = ratios.flat();
  if (all.length < 2 || gaps.length < 1) throw new RangeError(`calibration: the lane has ${used} steady normal queries; it needs at least 2 (run it longer)`);
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const factor = mean(all);
  // Each place's own factor, where it ran steady queries (else the pooled one).
  const stageFactors = ratios.map((stage) => (stage.length >= 2 ? mean(stage) : factor));
  // The noise per query and stage: the short-term part, from successive differences within a
  // configuration's steady run (von Neumann: for independent draws E[(x_t − x_{t−1})²] = 2σ²),
  // relative to the stage's own mean. A slow drift of the machine (its speed wanders over tens
  // of queries: measured on this machine, 8.7–12.5 % spread against 6.5–8.0 % short-term)
  // would otherwise read as per-query noise, which the simulation draws independently.
  let squares = 0;
  let count = 0;
  ratios.forEach((stage, i) => {
    const d = steps[i]!;
    if (d.length < 1) return;
    const m = mean(stage);
    for (const x of d) squares += (x / m) ** 2 / 2;
    count += d.length;
  });
  const stageNoiseCv = count > 0 ? Math.sqrt(squares / count) : 0;
  const hopMs = Math.max(0, mean(gaps) - mean(bottlenecks));
  const moves = trace.reconfigurations.map((r) => r.wallMs);
  const stalls = trace.hogStallsMs ?? [];
  return {
    machine: {
      stageNoiseCv,
      pipelinedFactor: factor,
      stageFactors,
      hopMs,
      moveMs: moves.length > 0 ? mean(moves) : 0,
      hogStartMs: stalls.length > 0 ? mean(stalls) : 0,
      ...(cores === undefined ? {} : { cores }),
    },
    queriesUsed: used,
    stageSamples: all.length,
    movesUsed: moves.length,
  };
}

/** The calibration lane's scripted moves: one unit from the first stage that can spare one to the next, and back, every `every` queries. */
export function calibrationMoves(initial: ArrayLike<number>, queries: number, every: number): { readonly beforeQuery: number; readonly configuration: Int32Array }[] {
  const home = Int32Array.from(initial);
  const away = home.slice();
  const giver = away.findIndex((c, i) => c > 1 && i + 1 < away.length);
  if (giver < 0) return [];
  away[giver] = away[giver]! - 1;
  away[giver + 1] = away[giver + 1]! + 1;
  const moves: { beforeQuery: number; configuration: Int32Array }[] = [];
  for (let q = every, out = true; q < queries; q += every, out = !out) moves.push({ beforeQuery: q, configuration: (out ? away : home).slice() });
  return moves;
}

/** The machine as one line (reports). */
export function machineText(m: PipelineMachine): string {
  const perPlace = m.stageFactors === undefined ? '' : ` (per EP ${m.stageFactors.map((f) => `×${f.toFixed(3)}`).join(', ')})`;
  return `stage noise ${(100 * m.stageNoiseCv).toFixed(1)} %, pipelined ×${m.pipelinedFactor.toFixed(3)}${perPlace}, hop ${m.hopMs.toFixed(2)} ms, move ${m.moveMs.toFixed(1)} ms, hog start ${m.hogStartMs.toFixed(1)} ms, ${m.cores === undefined ? 'no core sharing' : `${m.cores} shared cores`}`;
}

