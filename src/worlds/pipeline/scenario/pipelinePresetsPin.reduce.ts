import { pipelinePresets } from '../presets';
import type { PipelineScenario } from '../schema';
import { runPipelineScenario } from './pipelineRunner';

/**
 * The reduction the pipeline presets' pin runs (pipelinePresetsPin.test.ts): each preset at
 * 400 queries (the paper's 4000 would make the test slow), Fig. 10's EP axis thinned to 4,
 * 16 and 52, seed 1, every lane and cell. The fixture holds every number the summaries had
 * before the interference-overlap and trial-latency assumptions were added (ARCHITECTURE §2).
 */
export function reducedPreset(scenario: PipelineScenario): PipelineScenario {
  const s = structuredClone(scenario);
  s.pipeline.queries = Math.min(s.pipeline.queries, 400);
  if (s.sweep?.axes.some((a) => a.path === 'pipeline.executionPlaces')) s.sweep = { axes: [{ path: 'pipeline.executionPlaces', values: [4, 16, 52] }] };
  return s;
}

export const PIN_KEYS = [
  'queries',
  'latencyMeanMs',
  'latencyP50Ms',
  'latencyP99Ms',
  'throughputMeanQps',
  'configThroughputMeanQps',
  'configLatencyMeanMs',
  'configLatencyP99Ms',
  'peakThroughputQps',
  'resourceConstrainedThroughputMeanQps',
  'optimalRatioMean',
  'rebalancings',
  'rebalancingQueries',
  'freeTrials',
  'queriesPerRebalance',
  'overheadPct',
  'mitigationMeanQueries',
  'sloViolationPct',
  'sloViolationPctOfOptimum',
  'durationMs',
] as const;

/** Per preset id, per lane and cell, the pinned numbers. */
export function pinTable(): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const p of pipelinePresets()) {
    out[p.id] = runPipelineScenario(reducedPreset(p.scenario)).map((r) => ({
      label: r.label,
      ...(r.cell === undefined ? {} : { cell: r.cell }),
      summary: Object.fromEntries(PIN_KEYS.map((k) => [k, (r.summary as unknown as Record<string, unknown>)[k]])),
    }));
  }
  return out;
}
