import { beforeAll, describe, expect, it } from 'vitest';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory } from '../agents/registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import type { ServingFrame } from './servingProtocol';
import { ServingSession } from './servingSession';
import { manualHost } from '../../../worker/testing/manualHost';
import { findServingLesson, SERVING_LESSONS } from '../presets';
import { runServingScenario } from '../scenario/servingRunner';
import { validateServingScenario } from '../schema';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

describe('the serving lessons', () => {
  it('are valid serving scenarios whose steps stay inside the run, in time order', () => {
    expect(SERVING_LESSONS.map((l) => l.id)).toEqual(['lesson-batching', 'lesson-sac']);
    for (const lesson of SERVING_LESSONS) {
      expect(validateServingScenario(lesson.scenario)).toMatchObject({ ok: true });
      expect(lesson.scenario.sweep).toBeUndefined();
      expect(lesson.steps.length).toBeGreaterThanOrEqual(3);
      const times = lesson.steps.map((s) => s.timeMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const step of lesson.steps) {
        expect(step.timeMs).toBeLessThanOrEqual(lesson.scenario.serving.durationS * 1000);
        expect(step.lane ?? 0).toBeLessThan(lesson.scenario.serving.lanes.length);
      }
    }
  });

  it('the batching lesson says what the engine does with each (b, m_c)', () => {
    const lesson = findServingLesson('lesson-batching')!;
    const [b1, b8, b64, b128] = runServingScenario(lesson.scenario).map((r) => r.summary);
    const rate = lesson.scenario.serving.rateRps;
    // b = 1, one instance: about 260 of the 600 requests per second, nearly every request late.
    expect(b1!.throughputRps).toBeGreaterThan(240);
    expect(b1!.throughputRps).toBeLessThan(280);
    expect(b1!.sloViolationPct).toBeGreaterThan(95);
    // b = 128, one instance: batches leave at the deadline with about 47 requests; keeps up, a third late.
    expect(b128!.throughputRps).toBeGreaterThan(0.95 * rate);
    expect(b128!.perModel['yolo']!.batchSizeMean).toBeGreaterThan(40);
    expect(b128!.perModel['yolo']!.batchSizeMean).toBeLessThan(55);
    expect(b128!.sloViolationPct).toBeGreaterThan(25);
    expect(b128!.sloViolationPct).toBeLessThan(45);
    // b = 64 on 8 instances: about 40 a batch, about 5 % late, the highest utility of the four.
    expect(b64!.throughputRps).toBeGreaterThan(0.95 * rate);
    expect(b64!.perModel['yolo']!.batchSizeMean).toBeGreaterThan(35);
    expect(b64!.perModel['yolo']!.batchSizeMean).toBeLessThan(45);
    expect(b64!.sloViolationPct).toBeGreaterThan(2);
    expect(b64!.sloViolationPct).toBeLessThan(10);
    for (const other of [b1!, b8!, b128!]) expect(b64!.utilityMean).toBeGreaterThan(other.utilityMean);
    // b = 8 on 2 instances: keeps up at the lowest latency (about 30 ms), nothing late.
    expect(b8!.throughputRps).toBeGreaterThan(0.95 * rate);
    expect(b8!.latencyMeanMs).toBeGreaterThan(20);
    expect(b8!.latencyMeanMs).toBeLessThan(40);
    expect(b8!.sloViolationPct).toBeLessThan(1);
    for (const other of [b1!, b64!, b128!]) expect(b8!.latencyMeanMs).toBeLessThan(other.latencyMeanMs);
  });

  it('the SAC lesson says what the learners do: a warm-up without updates, then updates; the predictor masks, the other lane does not', () => {
    const lesson = findServingLesson('lesson-sac')!;
    const h = manualHost<ServingFrame>();
    const session = new ServingSession(h.host);
    session.setLearning(createLearningFactory(tf, { agents: {}, predictor: (context) => createLatencyPredictor(tf, context) }));
    expect(session.load(lesson.scenario).ok).toBe(true);
    const learningAt = (timeMs: number) => {
      const now = h.frames.at(-1)?.timeMs ?? 0;
      if (timeMs > now) session.step(timeMs - now);
      return h.frames.at(-1)!.lanes.map((l) => l.learning!);
    };
    // One transition per model and second it holds its action (holdMs), about six a second: the buffer has not reached the 256 of the warm-up at 20 s.
    const at20 = learningAt(20_000);
    expect(at20[0]!.transitions).toBeGreaterThan(4 * 20);
    expect(at20[0]!.transitions).toBeLessThan(256);
    expect(at20[0]!.updates).toBe(0);
    const at80 = learningAt(80_000);
    expect(at80[0]!.updates).toBeGreaterThan(0);
    const at90 = learningAt(90_000);
    // Two updates every simulated second (trainEveryMs = 1000, updatesPerSlot = 2), however many decisions.
    expect(at90[0]!.updates - at80[0]!.updates).toBe(20);
    expect(at90[0]!.slots - at80[0]!.slots).toBeGreaterThan(10);
    expect(at90[0]!.temperature).not.toBeNull();
    // The predictor is not trusted yet at 90 s; by the 240 s step it masks.
    expect(at90[0]!.predictorMasked).toBe(0);
    let masked = 0;
    for (let t = 210_000; t <= 240_000; t += 10_000) masked += learningAt(t)[0]!.predictorMasked;
    expect(masked).toBeGreaterThan(0);
    for (let t = 250_000; t <= 300_000; t += 10_000) expect(learningAt(t)[1]!.predictorMasked).toBe(0);
    session.load(SERVING_LESSONS[0]!.scenario);
  }, 180_000);
});
