import type { PipelineScheduler } from '../engine/scheduler';

/**
 * `evict`: the static resource-partitioning answer of ODIN Figure 1(c) — every interfered EP
 * is handed to its co-located workload and the model is partitioned optimally over the
 * remaining EPs, at no cost. When every EP is interfered nothing can be handed over and
 * the optimum over all EPs is used. The hop cost is charged as if the last remaining EP
 * were the last stage.
 */
export function createEvict(): PipelineScheduler {
  return {
    id: 'evict',
    onModesChange: ({ modes, optimum }) => {
      const clean: number[] = [];
      modes.forEach((mode, i) => {
        if (mode === 0) clean.push(i);
      });
      if (clean.length === 0 || clean.length === modes.length) return optimum(modes).counts.slice();
      const sub = optimum(new Uint8Array(clean.length));
      const counts = new Int32Array(modes.length);
      clean.forEach((ep, j) => {
        counts[ep] = sub.counts[j]!;
      });
      return counts;
    },
  };
}
