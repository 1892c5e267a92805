import type { PipelineScheduler } from '../engine/scheduler';

/** `static`: keeps the interference-free configuration for ever (ODIN Figure 1(b)). */
export function createStatic(): PipelineScheduler {
  return { id: 'static' };
}
