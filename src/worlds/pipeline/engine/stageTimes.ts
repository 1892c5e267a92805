import { MODE_IDS, type LayerTimeDatabase, type ModeId } from './profiles/types';

/** Mode index: 0 for A … 11 for L (the position in `MODE_IDS`). */
export type ModeIndex = number;

/** Mode id to its index in `MODE_IDS`. */
export function modeIndex(mode: ModeId): ModeIndex {
  return MODE_IDS.indexOf(mode);
}

/**
 * A layer-time database compiled for the hot path: per mode, prefix sums of unit times, so
 * that a stage's time is one subtraction whatever its length. Absent modes are `undefined`.
 */
export interface CompiledDatabase {
  readonly source: LayerTimeDatabase;
  /** L, the number of units (layers or residual blocks). */
  readonly unitCount: number;
  /** `prefixMs[k][l]` = Σ_{j<l} D[j][k], length L+1. */
  readonly prefixMs: readonly (Float64Array | undefined)[];
  /** Modes present in the database, as indices, A first. */
  readonly presentModes: readonly ModeIndex[];
}

/** Compiles a (validated) database; throws on the impossible (mode A missing). */
export function compileDatabase(db: LayerTimeDatabase): CompiledDatabase {
  const unitCount = db.layers.length;
  const prefixMs: (Float64Array | undefined)[] = [];
  const presentModes: ModeIndex[] = [];
  MODE_IDS.forEach((mode, k) => {
    const times = db.modes[mode];
    if (times === undefined) {
      prefixMs.push(undefined);
      return;
    }
    if (times.length !== unitCount) {
      throw new RangeError(`mode ${mode} has ${times.length} times for ${unitCount} units`);
    }
    const prefix = new Float64Array(unitCount + 1);
    for (let l = 0; l < unitCount; l++) prefix[l + 1] = prefix[l]! + times[l]!;
    prefixMs.push(prefix);
    presentModes.push(k);
  });
  if (prefixMs[0] === undefined) throw new RangeError('a layer-time database needs mode A');
  return { source: db, unitCount, prefixMs, presentModes };
}

/**
 * Time of one stage holding units [start, end) on an EP in mode `mode` (ODIN §3.3: the sum
 * of D[l][k] over its units). A non-empty stage that is not the last EP also pays `hopMs`
 * to hand its activations on; an empty stage costs nothing (the query passes through).
 */
export function stageTimeMs(
  db: CompiledDatabase,
  mode: ModeIndex,
  start: number,
  end: number,
  isLastStage: boolean,
  hopMs: number,
): number {
  if (end <= start) return 0;
  const prefix = db.prefixMs[mode];
  if (prefix === undefined) throw new RangeError(`mode ${MODE_IDS[mode] ?? mode} is not in the database`);
  return prefix[end]! - prefix[start]! + (isLastStage ? 0 : hopMs);
}

/**
 * Writes the stage times t_i of configuration `counts` under per-EP `modes` into `out` and
 * returns the bottleneck max_i t_i. Allocation-free: this runs once per simulated query.
 */
export function computeStageTimes(
  db: CompiledDatabase,
  counts: Int32Array,
  modes: Uint8Array,
  hopMs: number,
  out: Float64Array,
): number {
  const n = counts.length;
  let start = 0;
  let bottleneck = 0;
  for (let i = 0; i < n; i++) {
    const end = start + counts[i]!;
    const t = stageTimeMs(db, modes[i]!, start, end, i === n - 1, hopMs);
    out[i] = t;
    if (t > bottleneck) bottleneck = t;
    start = end;
  }
  return bottleneck;
}

/** Model throughput T(C) = 1 / max_i t_i (ODIN §3.3), in queries per second. */
export function throughputQps(bottleneckMs: number): number {
  return bottleneckMs > 0 ? 1000 / bottleneckMs : Number.POSITIVE_INFINITY;
}
