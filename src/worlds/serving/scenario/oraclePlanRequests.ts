import { isScenarioOf } from '../../../kit/world';
import type { ServingRunSpec } from '../engine/spec';
import { referencePlanKey } from '../schedulers/planKey';
import type { ReferenceSearchParams } from '../schedulers/reference';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import { servingWorld } from '../world';
import { parseAnyScenario } from '../../../scenario/parse';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { buildServingSpec, deviceCopiesOf, servingLaneParameters } from './servingRunner';

/** A reference plan a preset asks for: a lane's search on its run (one per device copy where the models are served apart). */
export interface OraclePlanRequest {
  readonly preset: string;
  readonly lane: number;
  /** The device copy (index in `deviceCopiesOf`), where the models are served apart. */
  readonly copy?: number;
  readonly kind: 'fixed-hindsight' | 'fixed-per-phase';
  readonly spec: ServingRunSpec;
  readonly params: ReferenceSearchParams;
  /** `referencePlanKey` of the three above. */
  readonly key: string;
}

/**
 * Every reference plan the serving presets ask for (their own scenario; a sweep's cells are
 * not, and a burstiness cell is the single preset of its value), each preset read through the
 * scenario door (`parseAnyScenario`) as the page and the command line read it, one request per
 * key (the first preset that asks for it), hindsight searches before the per-phase ones.
 * `npm run oracle-plans` searches them; `shippedPlans.test.ts` holds the shipped file to them.
 */
export function presetOraclePlanRequests(): OraclePlanRequest[] {
  const requests = new Map<string, OraclePlanRequest>();
  for (const preset of SERVING_PRESETS) {
    const parsed = parseAnyScenario(preset.scenario);
    if (!parsed.ok) throw new Error(`preset ${preset.id} does not parse: ${parsed.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    if (!isScenarioOf(servingWorld, parsed.scenario)) continue;
    const scenario: ServingScenario = parsed.scenario;
    const spec = buildServingSpec(scenario);
    const specs = deviceCopiesOf(scenario, spec);
    scenario.serving.lanes.forEach((lane, index) => {
      const search = SERVING_SCHEDULERS[lane.scheduler].reference;
      if (search === undefined) return;
      const params = search.params(servingLaneParameters(lane));
      (specs ?? [spec]).forEach((own, copy) => {
        const key = referencePlanKey(search.kind, own, params);
        if (!requests.has(key)) requests.set(key, { preset: preset.id, lane: index, ...(specs === null ? {} : { copy }), kind: search.kind, spec: own, params, key });
      });
    });
  }
  const order = (r: OraclePlanRequest) => (r.kind === 'fixed-hindsight' ? (r.params.perModel ? 1 : 0) : 2);
  return [...requests.values()].sort((a, b) => order(a) - order(b));
}
