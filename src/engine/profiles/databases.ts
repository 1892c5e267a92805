/**
 * The default layer-time databases `D[l][k]` (ODIN §3.3) for the three models of §4.1,
 * derived rather than measured: the real layer shapes (layers.ts) through the roofline
 * model of one Alder Lake execution place under each co-location mode of Table 1
 * (roofline.ts). ARCHITECTURE §2: "The default database is derived, not invented".
 */
import { getModelLayers } from './layers';
import { ALDER_LAKE_P_CORES, TABLE1_COLOCATIONS, modeResources, unitTimeMs } from './roofline';
import type { HogPlacement } from './roofline';
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

function cores(n: number): string {
  return n === 1 ? '1 core' : `${n} cores`;
}

function hogLabel(kind: HogPlacement['kind']): string {
  return kind === 'cpu' ? 'CPU' : 'memBW';
}

/**
 * A short human label for `mode`, read off Table 1: "alone", "memBW hog on 4 cores",
 * "CPU hog on 1 core", "CNN on 4 cores + memBW hog on 4 others", … For the palette and
 * the CLI.
 */
export function describeMode(mode: ModeId): string {
  const row = TABLE1_COLOCATIONS[mode];
  if (row.hogs.length === 0) return 'alone';
  const kinds = row.hogs.map((hog) => hogLabel(hog.kind));
  const hogs = kinds.length === 1 ? `${kinds.join('')} hog` : `${kinds.join(' and ')} hogs`;
  // Every Table 1 row puts all its hogs on the same cores; the first one stands for all.
  const hogCores = row.hogs[0]?.cores ?? [];
  const shared = hogCores.some((core) => row.cnnCores.includes(core));
  if (shared) return `${hogs} on ${cores(hogCores.length)}`;
  return `CNN on ${cores(row.cnnCores.length)} + ${hogs} on ${hogCores.length} others`;
}
