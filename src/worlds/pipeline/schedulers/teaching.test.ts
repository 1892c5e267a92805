import { describe, expect, it } from 'vitest';
import { findPipelineLesson } from '../lessons';
import { createPipelineLaneRuns } from '../scenario/pipelineRunner';
import { narrate, watchList } from './narration';
import { ODIN_PSEUDOCODE } from './teaching';
import type { AlgorithmStep } from './algorithmTrace';

/** Runs a lesson's scenario and collects lane 0's algorithm steps, per query that produced them. */
function stepsOf(lessonId: string, queries: number): Map<number, AlgorithmStep[]> {
  const lesson = findPipelineLesson(lessonId)!;
  const byQuery = new Map<number, AlgorithmStep[]>();
  let current = 0;
  const sink = {
    enabled: true,
    push: (step: AlgorithmStep) => {
      const list = byQuery.get(current) ?? [];
      list.push(step);
      byQuery.set(current, list);
    },
  };
  const [first] = createPipelineLaneRuns(lesson.scenario, {}, lesson.scenario.seed, undefined, (lane) => (lane === 0 ? sink : undefined));
  for (current = 0; current < queries; current++) first!.run.advance(1);
  return byQuery;
}

describe('the teaching trace', () => {
  it('ODIN on the lesson database, checked by hand', () => {
    /*
     * Teaching database: 12 layers of 2 ms alone, 4 ms in mode E. Four EPs, C = [3, 3, 3, 3],
     * every stage 6 ms. A memBW hog (E) is on EP 2 (stage index 1) from query 20: the detecting
     * query sees t = [6, 12, 6, 6]. ODIN, α = 2 (stages 0-based here, as in the code):
     *
     * Iteration 1 (on query 20): T = 12 ms. PS_affected = 1 (12 ms). γ = 0: line 8 gives stage 2 a
     *   layer → [3, 2, 4, 3]; line 9 gives stage 0 a layer → [4, 1, 4, 3]. S_left = t0 = 6,
     *   S_right = t2 + t3 = 12; 6 < 12 → left. PS_lightest = 0 (the only stage on the left).
     *   Lines 20–21: C = [5, 0, 4, 3]. Trial: t = [10, 0, 8, 6], T_new = 10 ms < 12 ms: better
     *   (lines 29–32): γ = 0, T = 10, C_opt = [5, 0, 4, 3].
     * Iteration 2: PS_affected = 0 (10 ms). Line 8 → [4, 1, 4, 3]; line 9: no stage −1.
     *   S_left = 0 < S_right = 0 + 8 + 6 = 14 would say left, but stage 0 is the first stage →
     *   right. Lightest on the right of [0, 8, 6] is stage 1 (0 ms). C = [3, 2, 4, 3]. Trial:
     *   t = [6, 8, 8, 6], T_new = 8 < 10: better. γ = 0, T = 8, C_opt = [3, 2, 4, 3].
     * Iteration 3: PS_affected = 1 (8 ms, the tie with stage 2 goes to the lower index).
     *   Line 8 → [3, 1, 5, 3]; line 9 → [4, 0, 5, 3]. S_left = 6 < S_right = 8 + 6 = 14 → left;
     *   lightest 0; stage 1 is empty, so lines 20–21 move nothing: C = [4, 0, 5, 3].
     *   Trial: t = [8, 0, 10, 6], 10 ms is worse than 8: γ = 1 (line 24).
     * Iteration 4: PS_affected = 2 (10 ms). γ ≠ 0: no double move. S_left = 8 + 0 = 8 ≥
     *   S_right = 6 → right; lightest 3. C = [4, 0, 4, 4]. Trial: t = [8, 0, 8, 8], T_new = 8 = T:
     *   lines 26–27 move one more layer → [4, 0, 3, 5], γ = 2 (line 28). γ = α: return
     *   C_opt = [3, 2, 4, 3] (line 35), whose slowest stage is 8 ms — the optimum.
     */
    const steps = stepsOf('lesson-odin', 40);
    const detect = steps.get(20)!;
    expect(detect.map((s) => s.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 19, 20, 21]);
    const at = (line: number) => detect.find((s) => s.line === line)! as Extract<AlgorithmStep, { algorithm: 'odin' }>;
    expect(at(2).stageTimesMs).toEqual([6, 12, 6, 6]);
    expect(at(6).affected).toBe(1);
    expect(at(8).configuration).toEqual([3, 2, 4, 3]);
    expect(at(9).configuration).toEqual([4, 1, 4, 3]);
    expect([at(12).sLeftMs, at(13).sRightMs]).toEqual([6, 12]);
    expect(at(15).direction).toBe('left');
    expect(at(19).lightest).toBe(0);
    expect(at(21).configuration).toEqual([5, 0, 4, 3]);

    // The trial queries come after the queries already in the pipeline drain (serial trials).
    const trials = [...steps.entries()].filter(([q]) => q > 20);
    expect(trials).toHaveLength(4);
    const [t1, t2, t3, t4] = trials.map(([, s]) => s as Extract<AlgorithmStep, { algorithm: 'odin' }>[]);
    expect(t1!.map((s) => s.line)).toEqual([22, 23, 29, 30, 31, 32, 5, 6, 7, 8, 9, 10, 12, 13, 14, 17, 19, 20, 21]);
    expect(t1![0]!.newBottleneckMs).toBe(10);
    expect(t1!.find((s) => s.line === 6)!.affected).toBe(0);
    expect(t1!.find((s) => s.line === 17)!.direction).toBe('right');
    expect(t1!.find((s) => s.line === 19)!.lightest).toBe(1);
    expect(t1!.at(-1)!.configuration).toEqual([3, 2, 4, 3]);
    expect(t2!.map((s) => s.line)).toEqual([22, 23, 29, 30, 31, 32, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 19, 20, 21]);
    expect(t2!.at(-1)!.configuration).toEqual([4, 0, 5, 3]);
    expect(t3!.map((s) => s.line)).toEqual([22, 23, 24, 5, 6, 7, 12, 13, 14, 17, 19, 20, 21]);
    expect(t3!.find((s) => s.line === 24)!.gamma).toBe(1);
    expect(t3!.at(-1)!.configuration).toEqual([4, 0, 4, 4]);
    expect(t4!.map((s) => s.line)).toEqual([22, 23, 25, 26, 27, 28, 35]);
    expect(t4!.at(-1)!.gamma).toBe(2);
    expect(t4!.at(-1)!.best).toEqual([3, 2, 4, 3]);
    // Every line the trace names is a line of the printed algorithm, and every step has a sentence.
    const printed = new Set(ODIN_PSEUDOCODE.map((l) => l.line));
    for (const list of steps.values()) {
      for (const s of list) {
        expect(printed.has(s.line)).toBe(true);
        expect(narrate(s)).toMatch(/[.…?]$/);
        expect(narrate(s)).not.toMatch(/undefined|NaN|null/);
      }
    }
    expect(narrate(at(6))).toBe('Stage 2 is the slowest (12 ms), so it is the affected stage.');
    expect(watchList(at(15)).find((r) => r.key === 'direction')!.value).toBe('left');
  });

  it('LLS on the lesson database: waits, utilizations and the moves, checked by hand', () => {
    /*
     * Same trace, LLS (literal reading). t = [6, 12, 6, 6]: w_0 = 0, w_1 = 0 + 6 − 12 = −6,
     * w_2 = −6 + 12 − 6 = 0, w_3 = 0 + 6 − 6 = 0; υ = [1, 1 − (−6)/6 = 2, 1, 1]. Most utilized:
     * stage 1, least: stage 0 (the first of the ties). Trial [4, 2, 3, 3]: t = [8, 8, 6, 6],
     * 8 ms < 12 ms, kept.
     */
    const lesson = findPipelineLesson('lesson-odin')!;
    const scenario = { ...lesson.scenario, pipeline: { ...lesson.scenario.pipeline, lanes: [{ scheduler: 'lls' as const }] } };
    const steps: AlgorithmStep[] = [];
    const [lane] = createPipelineLaneRuns(scenario, {}, 1, undefined, () => ({ enabled: true, push: (s: AlgorithmStep) => void steps.push(s) }));
    lane!.run.advance(21);
    expect(steps.map((s) => s.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const last = steps.at(-1)! as Extract<AlgorithmStep, { algorithm: 'lls' }>;
    expect(last.waitMs).toEqual([0, -6, 0, 0]);
    expect(last.utilization).toEqual([1, 2, 1, 1]);
    expect([last.most, last.least]).toEqual([1, 0]);
    expect(last.trialConfiguration).toEqual([4, 2, 3, 3]);
    lane!.run.advance(10);
    const measured = steps.find((s) => s.line === 8)! as Extract<AlgorithmStep, { algorithm: 'lls' }>;
    expect(measured.newBottleneckMs).toBe(8);
    expect(narrate(measured)).toBe('One query runs on C_trial: its slowest stage takes 8 ms, T_new = 125 q/s.');
  });
});
