import type { ModelAction, ServingScheduler } from '../engine/scheduler';

export interface FixedParams {
  /** b for every model. */
  readonly batchSize: number;
  /** m_c for every model. */
  readonly instances: number;
  /** Per-model (b, m_c), in the run's model order; overrides the two above. */
  readonly perModel?: readonly ModelAction[];
}

/**
 * `fixed`: Triton's configuration (BCEdge §V-B1: "Triton only supports manually setting a
 * fixed batch size and number of concurrent models"): the configured (b, m_c) for ever,
 * whatever happens on the device.
 */
export function createFixed(params: FixedParams): ServingScheduler {
  return {
    id: 'fixed',
    // No state of its own: the page's overrides are the live session's.
    snapshot: () => null,
    restore: () => {},
    decide: (observation) =>
      observation.models.map((_, m) => {
        const own = params.perModel?.[m];
        return own === undefined ? { batchSize: params.batchSize, instances: params.instances } : { ...own };
      }),
  };
}
