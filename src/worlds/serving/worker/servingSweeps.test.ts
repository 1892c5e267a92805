import { beforeAll, describe, expect, it } from 'vitest';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory } from '../agents/registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { runFigure1Sweep } from '../engine/figure1';
import { BATCH_SIZES, INSTANCE_COUNTS } from '../engine/scheduler';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { runServingScenario } from '../scenario/servingRunner';
import { isLearningScheduler, type LearningFactory } from '../schedulers/registry';
import type { ServingSweepProgress, ServingSweepResult } from './servingProtocol';
import { checkSweepRequest, FIGURE1_CELL_MS, rpsSweepScenario, SWEEP_RATES, SweepRunner } from './servingSweeps';
import { manualHost } from '../../../worker/testing/manualHost';

const serving = (lanes: ServingScenario['serving']['lanes'], durationS: number): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, durationS, lanes } };
};

/** Runs the host's queue until the sweep answers; each task costs 5 ms of the manual clock. */
async function drive(h: ReturnType<typeof manualHost<never>>, answer: Promise<ServingSweepResult>): Promise<ServingSweepResult> {
  let result: ServingSweepResult | null = null;
  void answer.then((r) => (result = r));
  for (let i = 0; i < 100_000 && result === null; i++) {
    h.advanceTime(5);
    await Promise.resolve();
  }
  return result!;
}

/**
 * A host whose clock moves 5 ms each time it is read (every slice runs a few steps, then
 * yields) and whose next slice comes at the next `advanceTime(5)`.
 */
function slicedHost() {
  const h = manualHost<never>();
  let reads = 0;
  return { h, host: { now: () => h.host.now() + 5 * reads++, schedule: (fn: () => void, delayMs: number) => h.host.schedule(fn, Math.max(5, delayMs)) } };
}

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});
const learningFactory = (): LearningFactory => createLearningFactory(tf, { agents: {}, predictor: (context) => createLatencyPredictor(tf, context) });

describe('the serving worker’s sweeps (Fig. 1 and Fig. 15 beside the live run)', () => {
  it('Fig. 1: every cell as the engine computes it alone, in slices, with progress up to all cells', async () => {
    const { h, host } = slicedHost();
    const progress: ServingSweepProgress[] = [];
    const result = await drive(h, new SweepRunner(host).start({ kind: 'figure1', model: 'mob', platform: 'xavier-nx' }, null, (p) => progress.push(p)));
    expect(result.ok).toBe(true);
    if (!result.ok || result.kind !== 'figure1') return;
    const total = BATCH_SIZES.length * INSTANCE_COUNTS.length;
    // Several slices, each told: the page sees the sweep advance.
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.every((p) => p.total === total)).toBe(true);
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    for (const [b, m] of [
      [0, 0],
      [3, 2],
      [BATCH_SIZES.length - 1, INSTANCE_COUNTS.length - 1],
    ] as const) {
      const alone = runFigure1Sweep({ model: 'mob', platform: 'xavier-nx', batchSizes: [BATCH_SIZES[b]!], instanceCounts: [INSTANCE_COUNTS[m]!], durationMs: FIGURE1_CELL_MS });
      const oom = alone.oomBatches[0]![0]! > 0;
      expect(result.figure1.throughput[b]![m]).toBe(oom ? null : alone.throughputRps[0]![0]);
      expect(result.figure1.latency[b]![m]).toBe(oom ? null : alone.latencyMeanMs[0]![0]);
    }
  });

  it('Fig. 15 without learners: the same numbers as running each rate to the end at once', async () => {
    const scenario = serving([{ scheduler: 'fixed' }, { scheduler: 'deeprt' }], 20);
    const { h, host } = slicedHost();
    const result = await drive(h, new SweepRunner(host).start({ kind: 'rps', scenario }, null, () => undefined));
    expect(result.ok).toBe(true);
    if (!result.ok || result.kind !== 'rps') return;
    expect(result.rps.secondsPerRate).toBe(20);
    const expected = SWEEP_RATES.map((rate) => runServingScenario(rpsSweepScenario(scenario, rate)));
    result.rps.lanes.forEach((lane, l) => {
      expect(lane.index).toBe(l);
      expect(lane.label).toBe(expected[0]![l]!.label);
      expect(lane.points).toEqual(SWEEP_RATES.map((rps, k) => ({ rps, violationPct: expected[k]![l]!.summary.sloViolationPct })));
    });
  });

  it('Fig. 15 sweeps the learning lanes too (BCEdge from scratch), as the CLI runs them', async () => {
    const scenario = serving([{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 16 } }], 8);
    expect(scenario.serving.lanes.some((l) => isLearningScheduler(l.scheduler))).toBe(true);
    const { h, host } = slicedHost();
    const before = tf.memory().numTensors;
    const result = await drive(h, new SweepRunner(host).start({ kind: 'rps', scenario }, learningFactory(), () => undefined));
    expect(result.ok).toBe(true);
    if (!result.ok || result.kind !== 'rps') return;
    const bcedge = result.rps.lanes[1]!;
    expect(bcedge.points.map((p) => p.rps)).toEqual([...SWEEP_RATES]);
    for (const [k, rate] of SWEEP_RATES.entries()) {
      if (k % 2 === 1) continue; // three of the five rates keep the test short
      const alone = runServingScenario(rpsSweepScenario(scenario, rate), scenario.seed, () => 0, undefined, learningFactory());
      expect(bcedge.points[k]!.violationPct).toBe(alone[1]!.summary.sloViolationPct);
    }
    // Each learner was freed once its rate was done.
    expect(tf.memory().numTensors).toBe(before);
  }, 120_000);

  it('a newer sweep of the same kind cancels the older one; the other kind runs on', async () => {
    const { h, host } = slicedHost();
    const runner = new SweepRunner(host);
    const first = runner.start({ kind: 'figure1', model: 'yolo', platform: 'xavier-nx' }, null, () => undefined);
    const rps = runner.start({ kind: 'rps', scenario: serving([{ scheduler: 'fixed' }], 5) }, null, () => undefined);
    h.advanceTime(5);
    const second = runner.start({ kind: 'figure1', model: 'res', platform: 'tx2' }, null, () => undefined);
    expect(await first).toEqual({ ok: false, cancelled: true });
    const done = await drive(h, second);
    expect(done.ok && done.kind === 'figure1' && done.figure1.model).toBe('res');
    expect((await drive(h, rps)).ok).toBe(true);
  });

  it('refuses a bad request at the door, naming the field', () => {
    expect(checkSweepRequest({ kind: 'figure1', model: 'gpt', platform: 'tx2' })).toEqual({ ok: false, errors: [{ path: 'sweep.model', message: expect.stringContaining('yolo') }] });
    expect(checkSweepRequest({ kind: 'heat' })).toMatchObject({ ok: false, errors: [{ path: 'sweep.kind' }] });
    const bad = checkSweepRequest({ kind: 'rps', scenario: { world: 'serving' } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]!.path.startsWith('sweep.scenario')).toBe(true);
  });
});
