/**
 * Per-unit slowdowns of a layer-time database, as the ODIN paper's Figure 4 shows them
 * (time under a co-location mode over time alone), and whether a unit is memory- or
 * compute-bound, so a chart can tell the two apart (the Measure panel's, ARCHITECTURE §2). Pure: works on any
 * database, derived or measured.
 */
import { quantileSorted } from '../../../../engine/quantiles';
import { getModelLayers } from './layers';
import { ALDER_LAKE_P_CORES, modeResources } from './roofline';
import type { ExecutionPlaceSpec } from './roofline';
import { MODE_IDS } from './types';
import type { LayerTimeDatabase, ModeId, ModelId } from './types';

/** D[l][mode] / D[l][A] for every unit (empty when the mode is absent). */
export function unitSlowdowns(db: LayerTimeDatabase, mode: ModeId): number[] {
  const alone = db.modes.A;
  const times = db.modes[mode];
  if (!alone || !times) return [];
  return times.map((ms, l) => ms / (alone[l] ?? Number.NaN));
}

/** The median and the largest per-unit slowdown of one mode. */
export interface SlowdownSummary {
  readonly mode: ModeId;
  readonly median: number;
  readonly max: number;
}

/** Per mode present in `db` (A–L order, A included: 1 and 1), the median and largest slowdown over units. */
export function slowdownSummaries(db: LayerTimeDatabase): SlowdownSummary[] {
  return MODE_IDS.filter((mode) => db.modes[mode] !== undefined).map((mode) => {
    const sorted = unitSlowdowns(db, mode).sort((a, b) => a - b);
    return { mode, median: quantileSorted(sorted, 0.5), max: sorted.at(-1) ?? Number.NaN };
  });
}

/** What bounds a unit on the roofline. */
export type Boundness = 'memory' | 'compute';

/**
 * Per unit of `model` at `inputSize`, whether its arithmetic intensity (FLOPs per byte
 * moved, layers.ts) lies below the ridge point of the execution place alone (compute roof
 * over bandwidth roof, roofline.ts): then it is memory-bound. The classification comes
 * from the shapes, so the same units are marked alike in a measured database and in the
 * derived one, whatever the measurement says.
 */
export function unitBoundness(model: ModelId, inputSize?: number, ep: ExecutionPlaceSpec = ALDER_LAKE_P_CORES): Boundness[] {
  const alone = modeResources('A', ep);
  const ridge = alone.computeGflops / alone.bandwidthGBs;
  return getModelLayers(model, inputSize).map((u) => (u.flops / u.bytes < ridge ? 'memory' : 'compute'));
}
