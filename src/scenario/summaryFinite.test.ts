import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyTimeout, runs } from '../testing/propertySeed';
import { LAYER_TIME_RANGE_MS } from '../worlds/pipeline/engine/profiles/validate';
import { scenarioArbitrary } from './testing/arbitraries';
import { parseAnyScenario } from './parse';
import { runPipelineScenario } from '../worlds/pipeline/scenario/pipelineRunner';
import { findPreset } from './presets';
import { runServingScenario } from '../worlds/serving/scenario/servingRunner';
import type { ServingScenario } from '../worlds/serving/schema';
import type { PipelineScenario } from '../worlds/pipeline/schema';

/** Paths of every number in a summary that is not finite (JSON would write it as `null`). */
function nonFinite(value: unknown, path = 'summary'): string[] {
  if (value === null || value === undefined) return [path];
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${path} = ${value}`];
  if (typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nonFinite(v, `${path}.${k}`));
  return [];
}

const database = (timeMs: number) => ({ model: 'edge', layers: ['a', 'b', 'c', 'd', 'e'], modes: { A: [timeMs, timeMs, timeMs, timeMs, timeMs], D: [timeMs, 2 * timeMs, timeMs, timeMs, timeMs].map((t) => Math.min(t, LAYER_TIME_RANGE_MS.max)) } });

function pipelineSummaries(scenario: PipelineScenario): unknown[] {
  const parsed = parseAnyScenario(scenario);
  if (!parsed.ok || parsed.scenario.world !== 'pipeline') throw new Error(JSON.stringify(parsed));
  return runPipelineScenario(parsed.scenario, parsed.scenario.seed).map((r) => r.summary);
}

describe('no summary field is ever null or NaN for a valid scenario', () => {
  it.each([LAYER_TIME_RANGE_MS.min, LAYER_TIME_RANGE_MS.max, 1])('pipeline on a database of %d ms per layer', (timeMs) => {
    const s = structuredClone(findPreset('default')!.scenario) as PipelineScenario;
    s.pipeline.database = database(timeMs);
    s.pipeline.queries = 300;
    s.pipeline.interference.events = [{ executionPlace: 1, mode: 'D', fromQuery: 50, toQuery: 200 }];
    s.pipeline.interference.random = { enabled: true, periodQueries: 20, durationQueries: 10, modes: ['D'] };
    for (const summary of pipelineSummaries(s)) expect(nonFinite(summary)).toEqual([]);
  });

  it('pipeline scenarios drawn at random within the schema (property test)', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.integer({ min: 1, max: 120 }), (scenario, queries) => {
        // One run per lane, not per sweep cell: a sweep multiplies the time, not the cases.
        const small: PipelineScenario = { ...scenario, pipeline: { ...scenario.pipeline, queries } };
        delete small.sweep;
        for (const summary of pipelineSummaries(small)) expect(nonFinite(summary)).toEqual([]);
      }),
      { numRuns: runs(20) },
    );
  }, propertyTimeout(60_000));

  it.each([
    ['one second at the lowest rate (perhaps no request at all)', { durationS: 1, rateRps: 0.1 }],
    ['a model with weight 0', { durationS: 5 }],
  ])('serving: %s', (_name, change) => {
    const s = structuredClone(findPreset('serving-default')!.scenario) as ServingScenario;
    Object.assign(s.serving, change);
    s.serving.models[0]!.weight = 0;
    s.serving.lanes = [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }, { scheduler: 'ga' }];
    const parsed = parseAnyScenario(s);
    if (!parsed.ok || parsed.scenario.world !== 'serving') throw new Error(JSON.stringify(parsed));
    for (const row of runServingScenario(parsed.scenario, parsed.scenario.seed, () => 0)) expect(nonFinite(row.summary)).toEqual([]);
  });
});
