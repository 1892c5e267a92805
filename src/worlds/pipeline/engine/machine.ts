/**
 * The machine a pipeline runs on, beyond its layer-time database (ARCHITECTURE §2). ODIN
 * simulates an ideal machine (§3.3, §4.1: a stage's time is the sum of its layers' times in
 * the database, nothing else costs); a real pipeline on a given computer also has stage-time
 * noise, stages that run slower beside each other than alone (the database is measured one
 * layer at a time), a hand-over per stage outside the stage's own time, a cost per move, a
 * stall when interference starts, and, with fewer cores than execution places, stages and
 * hogs that share cores. `pipeline.machine` names these; absent, the ideal machine, bit for
 * bit. `worlds/pipeline/scenario/realCalibration.ts` estimates them from a real run on this machine.
 */
import { hogPlan } from './profiles/hogPlan';
import { MODE_IDS } from './profiles/types';
import { createRng, type Rng } from '../../../engine/rng';

export interface PipelineMachine {
  /** Relative standard deviation of a stage time, per query and stage (lognormal, mean 1): its typical spread. */
  readonly stageNoiseCv: number;
  /**
   * Share of a stage's queries that are spikes (absent or 0: none, the lognormal alone). A real
   * stage's time is not lognormal: it keeps within a few per cent and now and then takes a
   * quarter or a third longer (a garbage collection, the OS handing its core to another
   * thread). A monitor deciding on a window's mean fires on one such spike where it would not
   * on the lognormal spread of the same variance, and not on a spread that variance would
   * give; so the two are drawn apart (realCalibration.ts estimates both).
   */
  readonly stageSpikeShare?: number | undefined;
  /** A spike's stage time over a typical one (≥ 1; with `stageSpikeShare`). The noise keeps mean 1: typical queries run at 1 / (1 + share·(factor − 1)). */
  readonly stageSpikeFactor?: number | undefined;
  /** A stage's time in the pipelined flow over its time alone (serial trials run alone): ≥ 1 where stages contend. */
  readonly pipelinedFactor: number;
  /**
   * The pipelined factor of each execution place, in order (absent: `pipelinedFactor` for
   * every one). On a real machine the places differ in what shares their core (the
   * coordinator's thread, a hog) and in the units they hold, so one factor for all makes a
   * balanced pipeline look unbalanced and queues up queries that do not wait on the machine
   * (the calibration measures one per place: realCalibration.ts).
   */
  readonly stageFactors?: readonly number[] | undefined;
  /** The coordinator's hand-over per non-empty stage, ms: it occupies the stage but is not in the stage time the monitor reads. */
  readonly hopMs: number;
  /** A reconfiguration: the pipeline drains, then this wall time passes before the next admission, ms. */
  readonly moveMs: number;
  /** Admission waits this long when interference starts (the hogs start), ms. */
  readonly hogStartMs: number;
  /**
   * Logical cores the execution places share (absent: one core set per EP, no sharing): with k
   * busy threads (non-empty stages, one in a serial trial, plus the hogs of the EPs' modes) on
   * c cores, every stage time is stretched by max(1, k / c).
   */
  readonly cores?: number | undefined;
  /** Seed of the noise (absent: the scenario's seed); the interference trace keeps the scenario's. */
  readonly noiseSeed?: number | undefined;
}

/** RNG stream of the machine's stage-time noise. */
export const MACHINE_NOISE_STREAM = 3;

/** Applies a machine to stage times, query by query (seeded: the same seed gives the same noise). */
export class MachineModel {
  private readonly rng: Rng;
  private readonly sigma: number;
  /** Per query and stage: the typical stage time's scale and a spike's, both over the mean (spikes absent: 1 and 1). */
  private readonly typical: number;
  private readonly spike: number;
  private readonly spikeShare: number;
  private spare = Number.NaN;

  constructor(
    readonly machine: PipelineMachine,
    seed: number,
    private readonly executionPlaces: number,
  ) {
    this.rng = createRng(machine.noiseSeed ?? seed, MACHINE_NOISE_STREAM);
    // Lognormal with mean 1 and the given coefficient of variation.
    this.sigma = Math.sqrt(Math.log(1 + machine.stageNoiseCv * machine.stageNoiseCv));
    this.spikeShare = machine.stageSpikeShare ?? 0;
    const factor = machine.stageSpikeFactor ?? 1;
    this.typical = 1 / (1 + this.spikeShare * (factor - 1));
    this.spike = factor * this.typical;
  }

  /** A standard normal draw (Box–Muller, both halves used). */
  private normal(): number {
    if (!Number.isNaN(this.spare)) {
      const z = this.spare;
      this.spare = Number.NaN;
      return z;
    }
    const u = 1 - this.rng.nextFloat();
    const v = this.rng.nextFloat();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** The stretch of core sharing with these modes, for a pipelined flow (or one stage alone). */
  sharing(config: ArrayLike<number>, modes: ArrayLike<number>, alone: boolean): number {
    const cores = this.machine.cores;
    if (cores === undefined) return 1;
    let threads = 0;
    const coresPerEp = Math.max(1, Math.floor(cores / this.executionPlaces));
    for (let i = 0; i < this.executionPlaces; i++) {
      if (!alone && config[i]! > 0) threads += 1;
      const plan = hogPlan(MODE_IDS[modes[i]!]!, coresPerEp);
      threads += plan.cpu + plan.memBW;
    }
    if (alone) threads += 1;
    return Math.max(1, threads / cores);
  }

  /**
   * Writes into `out` the stage times this machine gives for the database's `base` times of
   * one query (alone: a serial trial); returns their maximum.
   */
  apply(base: Float64Array, config: ArrayLike<number>, modes: ArrayLike<number>, alone: boolean, out: Float64Array): number {
    const m = this.machine;
    const sharing = this.sharing(config, modes, alone);
    const stretch = (alone ? 1 : m.pipelinedFactor) * sharing;
    const perPlace = alone ? undefined : m.stageFactors;
    let max = 0;
    for (let i = 0; i < base.length; i++) {
      let t = base[i]! * (perPlace === undefined ? stretch : (perPlace[i] ?? m.pipelinedFactor) * sharing);
      if (t > 0 && m.stageNoiseCv > 0) t *= Math.exp(this.sigma * this.normal() - (this.sigma * this.sigma) / 2);
      // One more draw only where spikes are modelled: a machine without them keeps its stream, bit for bit.
      if (t > 0 && this.spikeShare > 0) t *= this.rng.nextFloat() < this.spikeShare ? this.spike : this.typical;
      out[i] = t;
      if (t > max) max = t;
    }
    return max;
  }

  state(): { readonly rng: Uint32Array; readonly spare: number } {
    return { rng: this.rng.state(), spare: this.spare };
  }

  restore(s: { readonly rng: Uint32Array; readonly spare: number }): void {
    this.rng.setState(s.rng);
    this.spare = s.spare;
  }
}

/** Why a machine block is not usable, naming the field; null when it is. */
export function machineProblem(m: PipelineMachine): { readonly field: string; readonly message: string } | null {
  const checks: [keyof PipelineMachine, number | undefined, number, number][] = [
    ['stageNoiseCv', m.stageNoiseCv, 0, 2],
    ['pipelinedFactor', m.pipelinedFactor, 0.1, 100],
    ['hopMs', m.hopMs, 0, 100_000],
    ['moveMs', m.moveMs, 0, 1_000_000],
    ['hogStartMs', m.hogStartMs, 0, 1_000_000],
  ];
  for (const [field, value, min, max] of checks) {
    if (value === undefined || !Number.isFinite(value) || value < min || value > max) return { field, message: `must be a number from ${min} to ${max}, got ${String(value)}` };
  }
  if (m.stageSpikeShare !== undefined && (!Number.isFinite(m.stageSpikeShare) || m.stageSpikeShare < 0 || m.stageSpikeShare > 0.5)) return { field: 'stageSpikeShare', message: `must be a number from 0 to 0.5, got ${String(m.stageSpikeShare)}` };
  if (m.stageSpikeFactor !== undefined && (!Number.isFinite(m.stageSpikeFactor) || m.stageSpikeFactor < 1 || m.stageSpikeFactor > 20)) return { field: 'stageSpikeFactor', message: `must be a number from 1 to 20, got ${String(m.stageSpikeFactor)}` };
  if ((m.stageSpikeShare ?? 0) > 0 && m.stageSpikeFactor === undefined) return { field: 'stageSpikeFactor', message: 'must be given with stageSpikeShare (a spike\'s stage time over a typical one)' };
  const factor = m.stageFactors?.find((f) => !Number.isFinite(f) || f < 0.1 || f > 100);
  if (factor !== undefined) return { field: 'stageFactors', message: `must hold numbers from 0.1 to 100, got ${String(factor)}` };
  if (m.cores !== undefined && (!Number.isInteger(m.cores) || m.cores < 1 || m.cores > 4096)) return { field: 'cores', message: `must be an integer from 1 to 4096, got ${String(m.cores)}` };
  return null;
}
