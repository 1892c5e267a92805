import type { ReferenceResult } from './reference';

/** One shipped plan (oraclePlans.generated.ts): where it comes from, and the search's result. */
export interface ShippedOraclePlan {
  /** The preset and lane (index in its `serving.lanes`) it was searched for; `copy`: the device copy, where the models are served apart. */
  readonly preset: string;
  readonly lane: number;
  readonly copy?: number;
  readonly kind: 'fixed-hindsight' | 'fixed-per-phase';
  readonly result: ReferenceResult;
}
