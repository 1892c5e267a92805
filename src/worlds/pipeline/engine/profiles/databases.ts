/**
 * The default layer-time databases `D[l][k]` (ODIN §3.3) for the three models of §4.1,
 * derived rather than measured: the real layer shapes (layers.ts) through the roofline
 * model of one Alder Lake execution place under each co-location mode of Table 1
 * (roofline.ts). ARCHITECTURE §2: "The default database is derived, not invented".
 */
import { getModelLayers } from './layers';
import { ALDER_LAKE_P_CORES, modeResources, unitTimeMs } from './roofline';
import { MODE_IDS } from './types';
import type { LayerTimeDatabase, ModeId, ModelId } from './types';

const cache = new Map<ModelId, LayerTimeDatabase>();

/**
 * The layer-time database of `model`: for every unit, its time in ms under each of the 12
 * modes A–L of Table 1. Computed once per model; the database and its arrays are frozen,
 * so callers may share it freely.
 */
export function getDatabase(model: ModelId): LayerTimeDatabase {
  const cached = cache.get(model);
  if (cached) return cached;
  const units = getModelLayers(model);
  const modes: Partial<Record<ModeId, readonly number[]>> = {};
  for (const mode of MODE_IDS) {
    const resources = modeResources(mode, ALDER_LAKE_P_CORES);
    modes[mode] = Object.freeze(units.map((u) => unitTimeMs(u, resources, ALDER_LAKE_P_CORES)));
  }
  const database: LayerTimeDatabase = Object.freeze({
    model,
    layers: Object.freeze(units.map((u) => u.name)),
    modes: Object.freeze(modes),
  });
  cache.set(model, database);
  return database;
}

export { describeMode } from './modeLabels';
