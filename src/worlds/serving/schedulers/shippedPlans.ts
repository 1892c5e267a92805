import type { ServingRunSpec } from '../engine/spec';
import { ORACLE_PLANS } from './oraclePlans.generated';
import { referencePlanKey, shippedPlanHash } from './planKey';
import type { ReferenceResult, ReferenceSearchParams } from './reference';

/**
 * The reference lanes' plans computed ahead of time for the presets (ARCHITECTURE §3): the
 * page and the command line take a plan from here instead of searching when the lane's key
 * (`referencePlanKey`: kind, search parameters, the engine spec) hashes to a shipped one, so the
 * oracles of every preset are there within seconds of opening it. An edited scenario has
 * another key and searches again. `npm run oracle-plans` writes the file; `shippedPlans.test.ts`
 * fails when a preset's key is not in it (a stale file).
 */

/** Keys longer than this are not hashed (a traced scenario's key holds its trace; no preset has one that long). */
const SHIPPED_KEY_CHARS = 1_000_000;

/** The shipped plan of this key (`referencePlanKey`), if there is one. */
export function shippedPlan(key: string): ReferenceResult | undefined {
  if (key.length > SHIPPED_KEY_CHARS) return undefined;
  return ORACLE_PLANS[shippedPlanHash(key)]?.result;
}

/** The shipped plan of a lane of this kind and search parameters on `spec`, if there is one. */
export function shippedPlanFor(kind: 'fixed-hindsight' | 'fixed-per-phase', spec: ServingRunSpec, params: ReferenceSearchParams): ReferenceResult | undefined {
  return shippedPlan(referencePlanKey(kind, spec, params));
}
