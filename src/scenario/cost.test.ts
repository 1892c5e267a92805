import { describe, expect, it } from 'vitest';
import { COST_BOUND_LANE_EVENTS, describeRunCost, estimateRunCost, LEARNING_LANE_WEIGHT, singleRunCost } from './cost';
import { parseAnyScenario } from './parse';
import { allPresets, findPreset, type Preset } from './presets';
import type { AnyScenario } from './schema';
import type { ServingScenario } from '../worlds/serving/schema';
import type { PipelineScenario } from '../worlds/pipeline/schema';

function valid(document: unknown): AnyScenario {
  const parsed = parseAnyScenario(document);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

describe('run cost estimate', () => {
  it('costs one run without the sweep machinery as estimateRunCost costs the sweepless scenario, in both worlds', () => {
    for (const preset of allPresets()) {
      const { sweep: _sweep, ...played } = structuredClone(preset.scenario);
      void _sweep;
      expect(singleRunCost(played as AnyScenario), preset.id).toEqual(estimateRunCost(played as AnyScenario));
    }
    const swept = structuredClone(findPreset('odin-fig5-vgg16')!.scenario);
    expect(singleRunCost(swept).cells).toBe(1);
    expect(singleRunCost(swept).laneEvents).toBe(swept.world === 'pipeline' ? swept.pipeline.queries * swept.pipeline.lanes.length : NaN);
  });

  it('counts cells × queries × lanes', () => {
    const s = structuredClone(findPreset('odin-fig5-vgg16')!.scenario) as PipelineScenario;
    const cost = estimateRunCost(s);
    const lanes = s.pipeline.lanes.length;
    expect(cost.cells).toBe(9);
    expect(cost.laneEvents).toBe(9 * s.pipeline.queries * lanes);
    expect(estimateRunCost(s, 10).laneEvents).toBe(10 * cost.laneEvents);
  });

  it('weights learners and sums requests over a sweep of rates', () => {
    const s = structuredClone(findPreset('serving-default')!.scenario) as ServingScenario;
    s.serving.lanes = [{ scheduler: 'fixed' }, { scheduler: 'bcedge' }];
    s.sweep = {
      axes: [
        { path: 'serving.rateRps', values: [10, 30] },
        { path: 'serving.lanes[0].params.batchSize', values: [1, 2, 4] },
      ],
    };
    s.serving.durationS = 100;
    const cost = estimateRunCost(valid(s));
    expect(cost.cells).toBe(6);
    // Six models at each rate (rateBasis perModel): 6 × rateRps requests a second.
    expect(cost.laneEvents).toBe(3 * 6 * (10 + 30) * 100 * (1 + LEARNING_LANE_WEIGHT));
  });

  it('puts the 100-hour scenario above the bound, and every preset below it (10 seeds; 5 for the learners at 3000 s)', () => {
    const huge = structuredClone(findPreset('default')!.scenario) as PipelineScenario;
    const values = Array.from({ length: 64 }, (_, i) => i + 1);
    huge.sweep = {
      axes: [
        { path: 'pipeline.interference.random.periodQueries', values },
        { path: 'pipeline.interference.random.durationQueries', values },
      ],
    };
    huge.pipeline.queries = 10_000_000;
    huge.pipeline.lanes = Array.from({ length: 8 }, () => ({ scheduler: 'lls' as const }));
    const cost = estimateRunCost(valid(huge));
    expect(cost.laneEvents).toBe(64 * 64 * 1e7 * 8);
    expect(cost.laneEvents).toBeGreaterThan(COST_BOUND_LANE_EVENTS);
    expect(describeRunCost(cost)).toBe('3.3e+11 lane-queries (4096 cells × 10000000 queries × 8 lanes), about 4 days at 1 M per second');
    // The learning presets at the paper's 3000 s and 30 rps a model pass the bound from about
    // 10 seeds on (bcedge-fig10-convergence: 1.09·10⁹): 5 seeds stay below it.
    const learns = (p: Preset) => p.scenario.world === 'serving' && p.scenario.serving.lanes.some((l) => ['bcedge', 'tac', 'ppo', 'ddqn'].includes(l.scheduler));
    for (const p of allPresets()) expect(estimateRunCost(p.scenario, learns(p) ? 5 : 10).laneEvents, p.id).toBeLessThan(COST_BOUND_LANE_EVENTS);
  });
});
