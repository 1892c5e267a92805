import type { World } from '../../kit/world';
import { ODIN_CLAIMS } from './claims';
import { PIPELINE_WORLD_PRESETS } from './presets';
import { runPipelineCell } from './scenario/pipelineRunner';
import { pipelineScenarioSchema, validatePipelineScenario, type PipelineScenario } from './schema';
import { PIPELINE_SCHEDULERS } from './schedulers/registry';

/** Where each axis of a version-2 grid lives in the scenario, in the order its cells were run (outermost first). */
const GRID_AXES: readonly [string, string][] = [
  ['executionPlaces', 'pipeline.executionPlaces'],
  ['periodQueries', 'pipeline.interference.random.periodQueries'],
  ['durationQueries', 'pipeline.interference.random.durationQueries'],
];

/**
 * Version 2 → 3 of a pipeline document: the fixed grid ran its cells with the axes in a fixed
 * order (EPs, period, duration), so the sweep lists its axes in that order and names them as
 * the grid did: cells, their order and their keys in reports stay the same (ARCHITECTURE §4).
 * Unknown grid keys were refused by version 2 and stay refused: the grid is left for
 * validation to name.
 */
function gridToSweep(document: Record<string, unknown>): Record<string, unknown> {
  const body = document.pipeline;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const { grid, ...rest } = body as Record<string, unknown>;
  if (grid === undefined || grid === null || typeof grid !== 'object' || Array.isArray(grid)) return document;
  const g = grid as Record<string, unknown>;
  if (Object.keys(g).some((k) => !GRID_AXES.some(([n]) => n === k))) return document;
  const axes = GRID_AXES.filter(([name]) => g[name] !== undefined).map(([name, path]) => ({ path, name, values: g[name] }));
  return axes.length === 0 ? { ...document, pipeline: rest } : { ...document, pipeline: rest, sweep: { axes } };
}

/** The pipeline world (ODIN): a CNN split into stages over execution places, rebalanced under interference. */
export const pipelineWorld: World<PipelineScenario> = {
  id: 'pipeline',
  labName: 'the pipeline lab',
  eventName: 'queries',
  sweepMetrics: [
    'throughputMeanQps',
    'latencyMeanMs',
    'latencyP50Ms',
    'latencyP99Ms',
    'configThroughputMeanQps',
    'configLatencyMeanMs',
    'configLatencyP99Ms',
    'peakThroughputQps',
    'resourceConstrainedThroughputMeanQps',
    'optimalRatioMean',
    'rebalancings',
    'rebalancingQueries',
    'queriesPerRebalance',
    'overheadPct',
    'mitigationMeanQueries',
    'queries',
    'normalLatencyMeanMs',
    'trialLatencyMeanMs',
  ],
  // The pipeline's newer modelling choices (worlds/pipeline/engine/assumptions.ts): absent, the behaviour before they were named.
  optionalFields: new Set(['assumptions.interferenceOverlap', 'assumptions.latencyQueries', 'assumptions.monitorReference', 'assumptions.detectionWindow', 'assumptions.betterTolerance']),
  migrations: { 2: gridToSweep },
  validate: validatePipelineScenario,
  schema: () => pipelineScenarioSchema,
  lanes: (s) => s.pipeline.lanes,
  withLanes: (s, lanes) => ({ ...s, pipeline: { ...s.pipeline, lanes: lanes as PipelineScenario['pipeline']['lanes'] } }),
  asCellsRun: (s) => s,
  withOptionalDefaults: (s) => {
    const a = s.pipeline.assumptions;
    return { ...s, pipeline: { ...s.pipeline, assumptions: { ...a, interferenceOverlap: a.interferenceOverlap ?? 'stack', latencyQueries: a.latencyQueries ?? 'all', database: a.database ?? 'roofline' } } };
  },
  parameters: (scheduler) => PIPELINE_SCHEDULERS[scheduler as keyof typeof PIPELINE_SCHEDULERS]?.parameters ?? [],
  schedulerLabel: (scheduler) => PIPELINE_SCHEDULERS[scheduler as keyof typeof PIPELINE_SCHEDULERS]?.label ?? scheduler,
  papers: [{ id: 'odin', name: 'ODIN' }],
  presets: () => PIPELINE_WORLD_PRESETS,
  claims: () => ODIN_CLAIMS,
  hasLearners: false,
  learns: () => false,
  cellCost: (s) => ({ events: s.pipeline.queries, weightedLanes: s.pipeline.lanes.length }),
  runCell: (s, cell) => runPipelineCell(s, cell),
  runLength: (s) => `${s.pipeline.queries} queries`,
  lengthAxis: (s) => ({ path: 'pipeline.queries', values: [s.pipeline.queries] }),
  defaultSweep: (s) => {
    const odin = s.pipeline.lanes.findIndex((l) => l.scheduler === 'odin');
    return {
      axes: [
        ...(odin >= 0 ? [{ path: `pipeline.lanes[${odin}].params.alpha`, values: [2, 10, 20] }] : [{ path: 'pipeline.executionPlaces', values: [2, 4, 8] }]),
        { path: 'pipeline.assumptions.detectionThreshold', values: [0.02, 0.05, 0.1] },
      ],
      seeds: 3,
    };
  },
  checkingBase: (base, path) => {
    if (path === 'pipeline.executionPlaces' || path.startsWith('pipeline.interference.events')) return { ...base };
    return { ...base, pipeline: { ...base.pipeline, interference: { ...base.pipeline.interference, events: [] } } };
  },
};
