/**
 * The pipeline-world registry's description of each scheduler (id, label, description,
 * parameters) without the schedulers themselves: what menus and labels need, so that the page's
 * first load does not carry the algorithms (they run in the worker; ARCHITECTURE §7a′).
 * `registry.ts` adds each entry's `create` (ARCHITECTURE §1, "Adding a scheduler").
 */
import type { NumericParameter } from '../../../kit/parameter';

export const PIPELINE_SCHEDULER_IDS = ['odin', 'lls', 'optimal', 'static', 'evict'] as const;
export type PipelineSchedulerId = (typeof PIPELINE_SCHEDULER_IDS)[number];

/** What a registry entry says about its scheduler. */
export interface PipelineSchedulerInfo {
  readonly id: PipelineSchedulerId;
  readonly label: string;
  /** One sentence for menus and the presets gallery. */
  readonly description: string;
  readonly parameters: readonly NumericParameter[];
}

export const ALPHA: NumericParameter = { name: 'alpha', label: 'α (exploration)', min: 1, max: 30, integer: true, default: 10 };

/** Every pipeline scheduler's description, in menu order. */
export const PIPELINE_SCHEDULER_INFO: Readonly<Record<PipelineSchedulerId, PipelineSchedulerInfo>> = {
  odin: {
    id: 'odin',
    label: 'ODIN',
    description: 'Algorithm 1 of the ODIN paper: moves layers off the slowest stage, explores until α trials fail in a row.',
    parameters: [ALPHA],
  },
  lls: {
    id: 'lls',
    label: 'LLS',
    description: 'Least-loaded scheduler: moves a layer from the most to the least utilized stage while throughput holds.',
    parameters: [],
  },
  optimal: {
    id: 'optimal',
    label: 'Optimal',
    description: 'The exhaustive-search optimum for the current interference, installed instantly at no cost.',
    parameters: [],
  },
  static: {
    id: 'static',
    label: 'Static',
    description: 'Never rebalances: keeps the interference-free configuration.',
    parameters: [],
  },
  evict: {
    id: 'evict',
    label: 'Evict',
    description: 'Hands each interfered execution place to its co-located workload and repartitions over the rest (ODIN Fig. 1c).',
    parameters: [],
  },
};

/** A lane's display name, e.g. "ODIN α=10". */
export function laneLabel(id: PipelineSchedulerId, params: Readonly<Record<string, number>>): string {
  const entry = PIPELINE_SCHEDULER_INFO[id];
  const shown = entry.parameters.map((p) => `${p.name === 'alpha' ? 'α' : p.name}=${params[p.name] ?? p.default}`);
  return [entry.label, ...shown].join(' ');
}
