/**
 * Builds a layer-time database the way the ODIN paper built its own (§4.1, Table 1): each
 * unit timed alone (mode A) and beside the hogs of each other mode, on the tfjs wasm
 * backend, median of repeats after warm-up, with the spread (ARCHITECTURE §2). Runs in the
 * measure worker (page) and in the CLI; the caller brings tfjs, a clock and the hogs.
 */
import type { Tensor } from '@tensorflow/tfjs';
import type { Tf } from '../../../lib/tf';
import { quantileSorted } from '../../../engine/quantiles';
import { getDatabase } from '../engine/profiles/databases';
import { MODE_IDS } from '../engine/profiles/types';
import type { HogRates, LayerTimeDatabase, MeasurementRecord, ModeId, ModelId } from '../engine/profiles/types';
import { describeHogPlan, hogPlan, startHogs, type RunningHogs, type SpawnHog } from './hogs';
import { buildTfUnits, unitInputs, type TfUnit } from './units';

/** What to measure. */
export interface MeasureOptions {
  readonly model: ModelId;
  /** Modes to measure; A is always measured (every slowdown is relative to it). */
  readonly modes: readonly ModeId[];
  /** Timed runs per unit and mode (the time is their median). */
  readonly repeats: number;
  /** Input side: 224 as in the paper, 112 for quick runs (smaller in tests). */
  readonly inputSize: number;
  /** Untimed runs per unit and mode before the timed ones. */
  readonly warmups?: number;
  /** Each memBW hog's buffer, MiB. */
  readonly hogBufferMiB: number;
  /** Wait after the hogs start before timing, ms (a memBW hog's first pass fills its buffer). */
  readonly settleMs?: number;
  /** Seed of the weights and inputs. */
  readonly seed?: number;
}

/** Where it runs. */
export interface MeasureEnvironment {
  readonly tf: Tf;
  readonly now: () => number;
  /** Gives the event loop a turn (so a cancel message can arrive) and waits `ms`. */
  readonly sleep: (ms: number) => Promise<void>;
  readonly spawnHog: SpawnHog;
  /** Logical cores (hogs per mode scale with them, hogs.ts). */
  readonly cores: number;
  /** User agent, or the Node version and platform. */
  readonly runtime: string;
  /** ISO time of the end of the run. */
  readonly date: () => string;
}

/** Progress of a run, for a progress bar and a live chart. */
export interface MeasureProgress {
  /** Fraction of the estimated work done, 0–1. */
  readonly fraction: number;
  readonly elapsedMs: number;
  /** Estimated time left, ms (null until there is something to estimate from). */
  readonly remainingMs: number | null;
  readonly mode: ModeId;
  readonly unit: string;
  /** Per mode, the medians measured so far (a mode's array fills up unit by unit). */
  readonly partial: Readonly<Partial<Record<ModeId, readonly number[]>>>;
  /** The hogs of the current mode and their latest rates. */
  readonly hogs: string;
  readonly hogRates: HogRates;
}

/** The result: a database (scenario format), or the run was cancelled. */
export type MeasureResult = { readonly ok: true; readonly database: LayerTimeDatabase } | { readonly ok: false; readonly cancelled: true };

/** The modes a run measures: A first, then the asked ones in A–L order, once each. */
export function modesToMeasure(modes: readonly ModeId[]): ModeId[] {
  return MODE_IDS.filter((m) => m === 'A' || modes.includes(m));
}

function interquartileRange(sorted: readonly number[]): number {
  return quantileSorted(sorted, 0.75) - quantileSorted(sorted, 0.25);
}

/**
 * Measures `options.model`. `isCancelled` is checked between units; a cancelled run stops
 * its hogs, frees every tensor and returns `{ ok: false, cancelled: true }`.
 *
 * Order (a choice; the paper does not say): mode by mode, hogs started once per mode; per
 * unit, `warmups` untimed runs then `repeats` timed ones, back to back. A whole untimed
 * forward pass first warms the backend (kernel setup, weight packing). The wasm and cpu
 * backends run each op synchronously, so the clock read after the op covers its work.
 */
export async function measureDatabase(
  options: MeasureOptions,
  env: MeasureEnvironment,
  onProgress: (progress: MeasureProgress) => void = () => undefined,
  isCancelled: () => boolean = () => false,
): Promise<MeasureResult> {
  const { tf } = env;
  const modes = modesToMeasure(options.modes);
  const warmups = options.warmups ?? 1;
  const settleMs = options.settleMs ?? 300;
  const seed = options.seed ?? 1;
  const units = buildTfUnits(tf, options.model, options.inputSize, seed);
  const inputs = units.map((u, i) => unitInputs(tf, u, seed * 1000 + i * 10));
  // Weights of the estimate: the derived database's times alone (same model, any size).
  const derived = getDatabase(options.model).modes.A ?? [];
  const weight = units.map((_, l) => derived[l] ?? 1);
  const perMode = weight.reduce((a, b) => a + b, 0) * (warmups + options.repeats);
  const total = perMode * modes.length;
  let doneWork = 0;
  const started = env.now();
  const medians: Partial<Record<ModeId, number[]>> = {};
  const spreads: Partial<Record<ModeId, number[]>> = {};
  const hogsByMode: Partial<Record<ModeId, string>> = {};
  const ratesByMode: Partial<Record<ModeId, HogRates>> = {};
  let running: RunningHogs | null = null;
  const runOnce = (unit: TfUnit, x: readonly Tensor[]): number => {
    const t0 = env.now();
    const y = unit.run(x);
    const ms = env.now() - t0;
    y.dispose();
    return ms;
  };
  const cleanUp = async () => {
    await running?.stop();
    running = null;
    for (const xs of inputs) for (const x of xs) x.dispose();
    for (const u of units) u.dispose();
  };
  try {
    units.forEach((u, l) => runOnce(u, inputs[l]!));
    for (const mode of modes) {
      const plan = hogPlan(mode, env.cores);
      hogsByMode[mode] = describeHogPlan(plan);
      if (plan.cpu + plan.memBW > 0) {
        running = await startHogs(plan, env.spawnHog, { bufferMiB: options.hogBufferMiB, schedule: (fn, ms) => void env.sleep(ms).then(fn) });
        await env.sleep(settleMs);
        running.resetRates();
      }
      const times: number[] = [];
      const spread: number[] = [];
      medians[mode] = times;
      spreads[mode] = spread;
      for (let l = 0; l < units.length; l += 1) {
        if (isCancelled()) {
          await cleanUp();
          return { ok: false, cancelled: true };
        }
        const unit = units[l]!;
        const x = inputs[l]!;
        for (let w = 0; w < warmups; w += 1) runOnce(unit, x);
        const samples: number[] = [];
        for (let r = 0; r < options.repeats; r += 1) samples.push(runOnce(unit, x));
        samples.sort((a, b) => a - b);
        // A time of 0 (a unit faster than the clock's resolution) would not validate: floor at 1 µs.
        times.push(Math.max(1e-3, quantileSorted(samples, 0.5)));
        spread.push(interquartileRange(samples));
        doneWork += weight[l]! * (warmups + options.repeats);
        const elapsedMs = env.now() - started;
        const fraction = doneWork / total;
        onProgress({
          fraction,
          elapsedMs,
          remainingMs: fraction > 0 ? (elapsedMs * (1 - fraction)) / fraction : null,
          mode,
          unit: unit.name,
          partial: medians,
          hogs: hogsByMode[mode] ?? 'alone',
          hogRates: running?.rates() ?? {},
        });
        await env.sleep(0);
      }
      if (running !== null) {
        await running.reported();
        ratesByMode[mode] = running.rates();
        await running.stop();
        running = null;
      } else {
        ratesByMode[mode] = {};
      }
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const names = units.map((u) => u.name);
  await cleanUp();
  const backend = tf.getBackend();
  const measurement: MeasurementRecord = {
    backend,
    // The wasm backend runs single-threaded here (WASM_HAS_MULTITHREAD_SUPPORT off).
    threads: 1,
    runtime: env.runtime,
    cores: env.cores,
    inputSize: options.inputSize,
    repeats: options.repeats,
    date: env.date(),
    hogBufferMiB: options.hogBufferMiB,
    hogs: hogsByMode,
    hogRates: ratesByMode,
    spreadMs: spreads,
  };
  return { ok: true, database: { model: options.model, layers: names, modes: medians, measurement } };
}
