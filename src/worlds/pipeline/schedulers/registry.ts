import type { PipelineAssumptions } from '../engine/assumptions';
import type { PipelineScheduler } from '../engine/scheduler';
import { createEvict } from './evict';
import { createLls } from './lls';
import { createOdin } from './odin';
import { createOptimal } from './optimal';
import { ALPHA, PIPELINE_SCHEDULER_INFO, type PipelineSchedulerId, type PipelineSchedulerInfo } from './registryInfo';
import { createStatic } from './static';
import { tagged, type AlgorithmTrace } from './algorithmTrace';

export { laneLabel, PIPELINE_SCHEDULER_IDS, type PipelineSchedulerId } from './registryInfo';

/** One entry of the pipeline-world registry: its description (`registryInfo.ts`) and how to build it. */
export interface PipelineSchedulerEntry extends PipelineSchedulerInfo {
  /**
   * Builds the scheduler with validated parameters under the scenario's assumptions; `trace`
   * receives its line-by-line steps (only ODIN and LLS have a teaching trace).
   */
  create(params: Readonly<Record<string, number>>, assumptions: PipelineAssumptions, trace?: AlgorithmTrace): PipelineScheduler;
}

const CREATE: Readonly<Record<PipelineSchedulerId, PipelineSchedulerEntry['create']>> = {
  odin: (params, assumptions, trace) =>
    createOdin({ alpha: params.alpha ?? ALPHA.default, ...(assumptions.betterTolerance === undefined ? {} : { betterTolerance: assumptions.betterTolerance }) }, trace === undefined ? undefined : tagged(trace, 'odin')),
  lls: (_params, assumptions, trace) => createLls({ reading: assumptions.llsReading }, trace === undefined ? undefined : tagged(trace, 'lls')),
  optimal: () => createOptimal(),
  static: () => createStatic(),
  evict: () => createEvict(),
};

/** Every pipeline scheduler, in menu order. */
export const PIPELINE_SCHEDULERS: Readonly<Record<PipelineSchedulerId, PipelineSchedulerEntry>> = {
  odin: { ...PIPELINE_SCHEDULER_INFO.odin, create: CREATE.odin },
  lls: { ...PIPELINE_SCHEDULER_INFO.lls, create: CREATE.lls },
  optimal: { ...PIPELINE_SCHEDULER_INFO.optimal, create: CREATE.optimal },
  static: { ...PIPELINE_SCHEDULER_INFO.static, create: CREATE.static },
  evict: { ...PIPELINE_SCHEDULER_INFO.evict, create: CREATE.evict },
};
