import type { PipelineScheduler } from '../engine/scheduler';

/**
 * `optimal`: the exhaustive-search optimum of ODIN §2 (Figure 1(d)), computed exactly by
 * dynamic programming for the modes of every query and installed at no cost — the
 * reference every online scheduler is measured against.
 */
export function createOptimal(): PipelineScheduler {
  return {
    id: 'optimal',
    onModesChange: ({ modes, optimum }) => optimum(modes).counts.slice(),
  };
}
