// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import type { ServingRunSpec } from '../src/worlds/serving/engine/spec';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { servingLaneParameters } from '../src/worlds/serving/scenario/servingRunner';
import { fixedInHindsightSearch, fixedPerPhaseSearch, runSearch, type ReferenceResult, type ReferenceSearchParams } from '../src/worlds/serving/schedulers/reference';
import { SERVING_SCHEDULERS } from '../src/worlds/serving/schedulers/registry';

/** `bcedge-dynamic`'s reference lanes, in order: their search kind and parameters, phases cut every `phaseS` (0: at the schedule's boundaries only). */
export function oracleLaneParams(phaseS: number): { kind: 'fixed-hindsight' | 'fixed-per-phase'; params: ReferenceSearchParams }[] {
  const preset = findPreset('bcedge-dynamic')!.scenario as ServingScenario;
  return preset.serving.lanes
    .filter((l) => SERVING_SCHEDULERS[l.scheduler].reference !== undefined)
    .map((lane) => {
      const search = SERVING_SCHEDULERS[lane.scheduler].reference!;
      return { kind: search.kind, params: { ...search.params(servingLaneParameters(lane)), phaseS } as ReferenceSearchParams };
    });
}

/** The lanes' searches as the command line runs them: each starting from the search before it when that is the one it begins with. */
export function oracleLaneSearches(spec: ServingRunSpec, phaseS: number): ReferenceResult[] {
  const found: { params: ReferenceSearchParams; result: ReferenceResult }[] = [];
  const prior = (params: ReferenceSearchParams) => found.find((f) => f.params.maxBatch === params.maxBatch && f.params.maxInstances === params.maxInstances && f.params.perModel === params.perModel && (!params.perModel || f.params.rounds === params.rounds))?.result;
  return oracleLaneParams(phaseS).map(({ kind, params }) => {
    const result =
      kind === 'fixed-hindsight'
        ? runSearch(fixedInHindsightSearch(spec, params, params.perModel ? prior({ ...params, perModel: false }) : undefined))
        : runSearch(fixedPerPhaseSearch(spec, params, prior(params)));
    if (kind === 'fixed-hindsight') found.push({ params, result });
    return result;
  });
}
