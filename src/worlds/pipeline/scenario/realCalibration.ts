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
 * - the stage-time noise is read from that ratio within each steady run, stage by stage over
 *   its own mean: a typical spread and spikes apart (`stageNoise`);
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
const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const median = (v: readonly number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

/** A spike stands this many typical spreads above its neighbours' median. */
export const CALIBRATION_SPIKE_SIGMAS = 4;
/** Neighbours each side whose median a query's stage time is read against (within its run). */
const SPIKE_NEIGHBOURS = 2;

/**
 * The stage-time noise of steady runs, each stage's times over its own mean: the typical
 * spread, and the spikes apart (machine.ts, `stageSpikeShare`). Measured on this machine, a
 * stage keeps within a few per cent and now and then takes 25–35 % longer; one coefficient of
 * variation for both over-states the typical spread and under-states the spikes.
 * - The typical spread, first robustly: the median absolute successive difference (for
 *   normal draws 0.6745·√2·σ), so that neither the spikes nor a slow drift of the machine
 *   enter it.
 * - A spike: a time more than `CALIBRATION_SPIKE_SIGMAS` of that spread above the median of
 *   its run's neighbours (two each side); its factor is its time over that median.
 * - Then the typical spread itself from the successive differences between non-spikes (von
 *   Neumann: for independent draws E[(x_t − x_{t−1})²] = 2σ²), the efficient estimate.
 * A machine without spikes gives a share of about 0 (a normal draw beyond 4σ: 3·10⁻⁵).
 */
export function stageNoise(runs: readonly (readonly (readonly number[])[])[]): { readonly cv: number; readonly spikeShare: number; readonly spikeFactor: number } {
  const steps = runs.flatMap((stage) => stage.flatMap((run) => run.slice(1).map((x, t) => Math.abs(x - run[t]!))));
  if (steps.length === 0) return { cv: 0, spikeShare: 0, spikeFactor: 1 };
  const robust = (1.4826 * median(steps)) / Math.SQRT2;
  const threshold = 1 + CALIBRATION_SPIKE_SIGMAS * robust;
  let judged = 0;
  const spikeFactors: number[] = [];
  let squares = 0;
  let pairs = 0;
  for (const stage of runs) {
    for (const run of stage) {
      const spike = run.map((x, t) => {
        if (run.length < 2 * SPIKE_NEIGHBOURS + 1) return false;
        const from = Math.max(0, Math.min(t - SPIKE_NEIGHBOURS, run.length - 2 * SPIKE_NEIGHBOURS - 1));
        const neighbours = run.slice(from, from + 2 * SPIKE_NEIGHBOURS + 1).filter((_, k) => from + k !== t);
        const level = median(neighbours);
        judged += 1;
        if (robust <= 0 || x <= level * threshold) return false;
        spikeFactors.push(x / level);
        return true;
      });
      for (let t = 1; t < run.length; t++) {
        if (spike[t] || spike[t - 1]) continue;
        squares += (run[t]! - run[t - 1]!) ** 2 / 2;
        pairs += 1;
      }
    }
  }
  return {
    cv: pairs > 0 ? Math.sqrt(squares / pairs) : robust,
    spikeShare: judged > 0 ? spikeFactors.length / judged : 0,
    spikeFactor: spikeFactors.length > 0 ? mean(spikeFactors) : 1,
  };
}

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
  // Per stage, its ratios in runs of one configuration's consecutive steady queries (the short-term noise is read within a run).
  const runs: number[][][] = Array.from({ length: n }, () => []);
  const inRun = new Uint8Array(n);
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
      inRun.fill(0);
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
        inRun[i] = 0;
        continue;
      }
      const ratio = q.stageTimesMs[i]! / (base[i]! * stretch);
      ratios[i]!.push(ratio);
      if (inRun[i] === 0) runs[i]!.push([]);
      runs[i]!.at(-1)!.push(ratio);
      inRun[i] = 1;
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
  const factor = mean(all);
  // Each place's own factor, where it ran steady queries (else the pooled one).
  const stageFactors = ratios.map((stage) => (stage.length >= 2 ? mean(stage) : factor));
  const noise = stageNoise(
    runs.map((stageRuns, i) => stageRuns.map((run) => run.map((r) => r / stageFactors[i]!))),
  );
  const hopMs = Math.max(0, mean(gaps) - mean(bottlenecks));
  const moves = trace.reconfigurations.map((r) => r.wallMs);
  const stalls = trace.hogStallsMs ?? [];
  return {
    machine: {
      stageNoiseCv: noise.cv,
      ...(noise.spikeShare > 0 ? { stageSpikeShare: noise.spikeShare, stageSpikeFactor: noise.spikeFactor } : {}),
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
  const spikes = (m.stageSpikeShare ?? 0) > 0 ? ` and ${(100 * m.stageSpikeShare!).toFixed(1)} % spikes at ×${(m.stageSpikeFactor ?? 1).toFixed(2)}` : '';
  return `stage noise ${(100 * m.stageNoiseCv).toFixed(1)} %${spikes}, pipelined ×${m.pipelinedFactor.toFixed(3)}${perPlace}, hop ${m.hopMs.toFixed(2)} ms, move ${m.moveMs.toFixed(1)} ms, hog start ${m.hogStartMs.toFixed(1)} ms, ${m.cores === undefined ? 'no core sharing' : `${m.cores} shared cores`}`;
}

