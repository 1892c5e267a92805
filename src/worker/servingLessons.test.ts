import { beforeAll, describe, expect, it } from 'vitest';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory } from '../agents/registry';
import type { Tf } from '../agents/tf';
import { loadTfNode } from '../agents/tfNode';
import type { ServingFrame } from './servingProtocol';
import { ServingSession } from './servingSession';
import { manualHost } from './testing/manualHost';
import { findServingLesson, SERVING_LESSONS } from '../scenario/presets';
import { runServingScenario } from '../scenario/servingRunner';
import { validateServingScenario } from '../scenario/schema';

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
    // b = 1, one instance: about 21 of the 60 requests per second, nearly every request late.
    expect(b1!.throughputRps).toBeGreaterThan(18);
    expect(b1!.throughputRps).toBeLessThan(24);
    expect(b1!.sloViolationPct).toBeGreaterThan(95);
    // b = 128, one instance: about 50 rps, latencies of seconds.
    expect(b128!.throughputRps).toBeGreaterThan(45);
    expect(b128!.throughputRps).toBeLessThan(55);
    expect(b128!.latencyMeanMs).toBeGreaterThan(2000);
    // b = 64 on 8 instances: keeps up, yet above a second and almost all late.
    expect(b64!.throughputRps).toBeGreaterThan(0.95 * rate);
    expect(b64!.latencyMeanMs).toBeGreaterThan(1000);
    expect(b64!.sloViolationPct).toBeGreaterThan(95);
    // b = 8 on 2 instances: keeps up at the lowest latency and the highest utility.
    expect(b8!.throughputRps).toBeGreaterThan(0.95 * rate);
    for (const other of [b1!, b64!, b128!]) {
      expect(b8!.latencyMeanMs).toBeLessThan(other.latencyMeanMs);
      expect(b8!.utilityMean).toBeGreaterThan(other.utilityMean);
    }
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
    // Six transitions a slot: the buffer has not reached the 256 of the warm-up at 20 s.
    const at20 = learningAt(20_000);
    expect(at20[0]!.transitions).toBeGreaterThan(0);
    expect(at20[0]!.transitions).toBeLessThan(256);
    expect(at20[0]!.updates).toBe(0);
    const at60 = learningAt(60_000);
    expect(at60[0]!.updates).toBeGreaterThan(0);
    expect(at60[0]!.temperature).not.toBeNull();
    // The predictor is not trusted yet at 60 s; by the 240 s step it masks.
    expect(at60[0]!.predictorMasked).toBe(0);
    let masked = 0;
    for (let t = 210_000; t <= 240_000; t += 10_000) masked += learningAt(t)[0]!.predictorMasked;
    expect(masked).toBeGreaterThan(0);
    for (let t = 250_000; t <= 300_000; t += 10_000) expect(learningAt(t)[1]!.predictorMasked).toBe(0);
    session.load(SERVING_LESSONS[0]!.scenario);
  }, 180_000);
});
