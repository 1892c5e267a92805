import type { PipelineAssumptions } from '../../engine/pipeline/assumptions';
import type { PipelineScheduler } from '../../engine/pipeline/scheduler';
import { createEvict } from './evict';
import { createLls } from './lls';
import { createOdin } from './odin';
import { createOptimal } from './optimal';
import { createStatic } from './static';
import { tagged, type AlgorithmTrace } from './trace';

/** A numeric parameter a lane can set (drives validation, the CLI and the UI's sliders). */
export interface NumericParameter {
  readonly name: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  readonly default: number;
}

/** One entry of the pipeline-world registry. */
export interface PipelineSchedulerEntry {
  readonly id: PipelineSchedulerId;
  readonly label: string;
  /** One sentence for menus and the presets gallery. */
  readonly description: string;
  readonly parameters: readonly NumericParameter[];
  /**
   * Builds the scheduler with validated parameters under the scenario's assumptions; `trace`
   * receives its line-by-line steps (only ODIN and LLS have a teaching trace).
   */
  create(params: Readonly<Record<string, number>>, assumptions: PipelineAssumptions, trace?: AlgorithmTrace): PipelineScheduler;
}

export const PIPELINE_SCHEDULER_IDS = ['odin', 'lls', 'optimal', 'static', 'evict'] as const;
export type PipelineSchedulerId = (typeof PIPELINE_SCHEDULER_IDS)[number];

const ALPHA: NumericParameter = { name: 'alpha', label: 'α (exploration)', min: 1, max: 30, integer: true, default: 10 };

/** Every pipeline scheduler, in menu order. */
export const PIPELINE_SCHEDULERS: Readonly<Record<PipelineSchedulerId, PipelineSchedulerEntry>> = {
  odin: {
    id: 'odin',
    label: 'ODIN',
    description: 'Algorithm 1 of the ODIN paper: moves layers off the slowest stage, explores until α trials fail in a row.',
    parameters: [ALPHA],
    create: (params, _assumptions, trace) => createOdin({ alpha: params.alpha ?? ALPHA.default }, trace === undefined ? undefined : tagged(trace, 'odin')),
  },
  lls: {
    id: 'lls',
    label: 'LLS',
    description: 'Least-loaded scheduler: moves a layer from the most to the least utilized stage while throughput holds.',
    parameters: [],
    create: (_params, assumptions, trace) => createLls({ reading: assumptions.llsReading }, trace === undefined ? undefined : tagged(trace, 'lls')),
  },
  optimal: {
    id: 'optimal',
    label: 'Optimal',
    description: 'The exhaustive-search optimum for the current interference, installed instantly at no cost.',
    parameters: [],
    create: () => createOptimal(),
  },
  static: {
    id: 'static',
    label: 'Static',
    description: 'Never rebalances: keeps the interference-free configuration.',
    parameters: [],
    create: () => createStatic(),
  },
  evict: {
    id: 'evict',
    label: 'Evict',
    description: 'Hands each interfered execution place to its co-located workload and repartitions over the rest (ODIN Fig. 1c).',
    parameters: [],
    create: () => createEvict(),
  },
};

/** A lane's display name, e.g. "ODIN α=10". */
export function laneLabel(id: PipelineSchedulerId, params: Readonly<Record<string, number>>): string {
  const entry = PIPELINE_SCHEDULERS[id];
  const shown = entry.parameters.map((p) => `${p.name === 'alpha' ? 'α' : p.name}=${params[p.name] ?? p.default}`);
  return [entry.label, ...shown].join(' ');
}
