import { describe, expect, it } from 'vitest';
import { PIPELINE_LESSONS, TEACHING_DATABASE } from './lessons';
import { createPipelineLaneRuns } from './scenario/pipelineRunner';
import { validatePipelineScenario } from './schema';

describe('the lessons', () => {
  it('are valid scenarios whose steps stay inside the run', () => {
    for (const lesson of PIPELINE_LESSONS) {
      expect(validatePipelineScenario(lesson.scenario)).toMatchObject({ ok: true });
      expect(lesson.steps.length).toBeGreaterThanOrEqual(3);
      for (const step of lesson.steps) {
        expect(step.query).toBeLessThanOrEqual(lesson.scenario.pipeline.queries);
        expect(step.lane ?? 0).toBeLessThan(lesson.scenario.pipeline.lanes.length);
      }
    }
  });

  it('lesson 1 says what the engine does: 6 ms stages, 12 ms under the hog, 8 ms for the optimum', () => {
    expect(TEACHING_DATABASE.modes.E).toEqual(Array.from({ length: 12 }, () => 4));
    const lesson = PIPELINE_LESSONS.find((l) => l.id === 'lesson-interference')!;
    const [still, optimal] = createPipelineLaneRuns(lesson.scenario);
    const seen = new Map<string, number[]>();
    for (const [name, lane] of [['static', still!], ['optimal', optimal!]] as const) {
      lane.run.advance(81, (r) => {
        if ([10, 20, 40, 80].includes(r.query)) seen.set(`${name}@${r.query}`, Array.from(r.stageTimesMs));
      });
    }
    expect(seen.get('static@10')).toEqual([6, 6, 6, 6]);
    expect(seen.get('static@20')).toEqual([6, 12, 6, 6]);
    expect(seen.get('static@40')).toEqual([6, 12, 6, 6]);
    expect(Math.max(...seen.get('optimal@40')!)).toBe(8);
    expect(seen.get('optimal@40')![1]).toBe(4);
    expect(seen.get('static@80')).toEqual([6, 6, 6, 6]);
  });
});
