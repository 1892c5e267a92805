import { beforeAll, describe, expect, it } from 'vitest';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory } from '../agents/registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import type { ServingFrame, ServingSeriesChunk } from './servingProtocol';
import type { ServingCheckpointPolicy } from './servingCheckpoints';
import { ServingSession } from './servingSession';
import { manualHost } from '../../../worker/testing/manualHost';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** A session with learning lanes (the interference predictor on, as BCEdge's default). */
function session(checkpoints: Partial<ServingCheckpointPolicy> = {}) {
  const h = manualHost<ServingFrame>();
  const s = new ServingSession(h.host, checkpoints);
  s.setLearning(createLearningFactory(tf, { predictor: (context) => createLatencyPredictor(tf, context) }));
  return { session: s, frames: h.frames };
}

const scenario = (lanes: ServingScenario['serving']['lanes'], durationS: number): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, durationS, lanes } };
};

/** Each lane's series as the page holds it: the frames' chunks, started afresh at every frame that replaces. */
function seriesOf(frames: readonly ServingFrame[]): Record<string, number[]>[] {
  let lanes: Record<string, number[]>[] = [];
  let generation = -1;
  for (const f of frames) {
    if (f.replace || f.generation !== generation) lanes = f.lanes.map(() => ({}));
    generation = f.generation;
    f.lanes.forEach((l, i) => {
      for (const [key, column] of Object.entries(l.points as ServingSeriesChunk)) (lanes[i]![key] ??= []).push(...Array.from(column as ArrayLike<number>));
    });
  }
  return lanes;
}

/** What the page shows after the last frame, without wall-clock times: summaries, series, the device, the learning lane's state. */
function shown(frames: readonly ServingFrame[]) {
  const last = frames.at(-1)!;
  const summaries = frames.findLast((f) => f.summaries !== undefined)!.summaries!;
  return {
    timeMs: last.timeMs,
    summaries: summaries.map((s) => s && (({ decisionMeanUs: _d, ...rest }) => (void _d, rest))(s)),
    series: seriesOf(frames),
    live: last.lanes.map((l) => l.live),
    learning: last.lanes.map((l) => (l.learning ? { ...l.learning, decisionUs: 0, policy: null, masks: null } : null)),
  };
}

const LANES: ServingScenario['serving']['lanes'] = [{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 32 } }];
const TEN_SECONDS: Partial<ServingCheckpointPolicy> = { everyMs: 10_000 };

describe('checkpoints of the serving world (ARCHITECTURE §7a)', () => {
  it('an edit made after a seek back drops the checkpoints ahead: a forward seek then runs the changed run, not the old one', () => {
    const lanes: ServingScenario['serving']['lanes'] = [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }];
    const straight = session(TEN_SECONDS);
    straight.session.load(scenario(lanes, 90));
    straight.session.step(15_000);
    straight.session.setModelConfig(0, 0, 4, 1);
    straight.session.step(25_000);
    expect(straight.session.setModelConfig(0, 0, 2, 2)).toMatchObject({ ok: true });
    straight.session.step(50_000);
    const atEnd = shown(straight.frames);

    const travelled = session(TEN_SECONDS);
    travelled.session.load(scenario(lanes, 90));
    travelled.session.step(15_000);
    travelled.session.setModelConfig(0, 0, 4, 1);
    travelled.session.step(75_000);
    expect(shown(travelled.frames)).not.toStrictEqual(atEnd);
    expect(travelled.session.seek(40_000)).toEqual({ ok: true });
    expect(travelled.session.setModelConfig(0, 0, 2, 2)).toMatchObject({ ok: true });
    const forward = travelled.frames.length;
    expect(travelled.session.seek(90_000)).toEqual({ ok: true });
    expect(shown(travelled.frames.slice(forward))).toStrictEqual(atEnd);
  }, 60_000);

  it('a seek back and forward through checkpoints equals an uninterrupted run bit for bit, with a BCEdge lane and live edits before and after the target', () => {
    // The uninterrupted run: a Triton setting at 15 s, a tenant at 52.5 s, read at 45 s and at the end (90 s).
    const straight = session(TEN_SECONDS);
    straight.session.load(scenario(LANES, 90));
    straight.session.step(15_000);
    expect(straight.session.setModelConfig(0, 0, 4, 1)).toMatchObject({ ok: true });
    straight.session.step(30_000);
    const at45 = shown(straight.frames);
    straight.session.step(7_500);
    expect(straight.session.addBackground(0.4, 300)).toMatchObject({ ok: true });
    straight.session.step(37_500);
    const atEnd = shown(straight.frames);
    expect(atEnd.learning[1]!.updates).toBeGreaterThan(0);
    expect(atEnd.timeMs).toBe(90_000);

    // The same run made the same way, then sought back and forth.
    const travelled = session(TEN_SECONDS);
    travelled.session.load(scenario(LANES, 90));
    travelled.session.step(15_000);
    travelled.session.setModelConfig(0, 0, 4, 1);
    travelled.session.step(37_500);
    travelled.session.addBackground(0.4, 300);
    travelled.session.step(37_500);
    expect(shown(travelled.frames)).toStrictEqual(atEnd);
    // Checkpoints every 10 s: 45 s restores the one at 40 s (the Triton setting in it) and replays 5 s.
    expect(travelled.session.checkpointMemory()).toMatchObject({ count: 10, spacing: 10_000 });
    const back = travelled.frames.length;
    expect(travelled.session.seek(45_000)).toEqual({ ok: true });
    expect(shown(travelled.frames.slice(back))).toStrictEqual(at45);
    // Forward again: the tenant dropped at 52.5 s is dropped again at its time.
    const forward = travelled.frames.length;
    expect(travelled.session.seek(90_000)).toEqual({ ok: true });
    expect(shown(travelled.frames.slice(forward))).toStrictEqual(atEnd);
    // Onto a checkpoint (40 s: restored, nothing replayed), then forward from the checkpoints
    // ahead of it (the run's own: nothing was edited since), across the tenant's time.
    expect(travelled.session.seek(40_000)).toEqual({ ok: true });
    expect(travelled.frames.at(-1)!.timeMs).toBe(40_000);
    const ahead = travelled.frames.length;
    expect(travelled.session.seek(90_000)).toEqual({ ok: true });
    expect(shown(travelled.frames.slice(ahead))).toStrictEqual(atEnd);
    // Back before the Triton setting (the checkpoint at 0 s), then to the end in steps.
    const start = travelled.frames.length;
    expect(travelled.session.seek(5_000)).toEqual({ ok: true });
    travelled.session.step(50_000);
    travelled.session.step(35_000);
    expect(shown(travelled.frames.slice(start))).toStrictEqual(atEnd);
  }, 180_000);

  it('an edit made after a seek back drops the checkpoints past it, and the run from there is the run it makes', () => {
    const made = session(TEN_SECONDS);
    made.session.load(scenario(LANES, 60));
    made.session.step(60_000);
    made.session.seek(25_000);
    made.session.addBackground(0.5, 200);
    expect(made.session.checkpointMemory()!.count).toBe(3); // 0, 10, 20 s
    made.session.seek(60_000);
    const fresh = session(TEN_SECONDS);
    fresh.session.load(scenario(LANES, 60));
    fresh.session.step(25_000);
    fresh.session.addBackground(0.5, 200);
    fresh.session.step(35_000);
    expect(shown(made.frames.slice(-1))).toStrictEqual({ ...shown(fresh.frames.slice(-1)), series: expect.anything() as unknown });
    // A later seek back restores checkpoints taken after the edit, with the tenant in them.
    const back = made.frames.length;
    made.session.seek(35_000);
    const again = session(TEN_SECONDS);
    again.session.load(scenario(LANES, 60));
    again.session.step(25_000);
    again.session.addBackground(0.5, 200);
    again.session.step(10_000);
    expect(shown(made.frames.slice(back))).toStrictEqual(shown(again.frames));
  }, 180_000);

  it('an agent loaded and a walkthrough update made live are applied again after a restore', () => {
    const lanes: ServingScenario['serving']['lanes'] = [{ scheduler: 'bcedge', params: { warmup: 32 } }, { scheduler: 'tac', params: { warmup: 32 } }];
    const run = () => {
      const s = session(TEN_SECONDS);
      s.session.load(scenario(lanes, 40));
      s.session.step(15_000);
      expect(s.session.explainUpdate(0)).toMatchObject({ ok: true });
      s.session.step(7_500);
      const agent = s.session.exportAgent(1);
      if (!agent.ok) throw new TypeError('no agent');
      expect(s.session.importAgent(0, { ...JSON.parse(JSON.stringify(agent.agent)), kind: 'bcedge' })).toEqual({ ok: true });
      return s;
    };
    const straight = run();
    straight.session.step(5_000);
    const at27 = shown(straight.frames);
    straight.session.step(12_500);
    const atEnd = shown(straight.frames);
    const travelled = run();
    travelled.session.step(17_500);
    const back = travelled.frames.length;
    travelled.session.seek(27_500);
    expect(shown(travelled.frames.slice(back))).toStrictEqual(at27);
    const before = travelled.frames.length;
    travelled.session.seek(12_500);
    travelled.session.step(27_500);
    expect(shown(travelled.frames.slice(before))).toStrictEqual(atEnd);
  }, 180_000);

  it('ending a tenant after a seek back replays from the checkpoint before it was dropped (a live one) or from time 0 (one of the scenario)', () => {
    const withTenant = (s: ServingScenario): ServingScenario => ({ ...s, serving: { ...s.serving, background: [{ fromS: 5, toS: null, intensity: 0.3, memoryMb: 200 }] } });
    const lanes: ServingScenario['serving']['lanes'] = [{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 32 } }];
    const run = (scripted: boolean) => {
      const s = session(TEN_SECONDS);
      s.session.load(withTenant(scenario(lanes, 50)));
      s.session.step(12_500);
      const live = s.session.addBackground(0.4, 300);
      if (!live.ok) throw new TypeError('refused');
      s.session.step(37_500);
      s.session.seek(30_000);
      // At 30 s: the live tenant ends (the checkpoints since 12.5 s go); or the scenario's (the run is rebuilt).
      s.session.removeBackground(scripted ? 1 : live.backgrounds.at(-1)!.id);
      s.session.step(20_000);
      return s;
    };
    for (const scripted of [false, true]) {
      const travelled = run(scripted);
      // The oracle: the scenario as it now stands (the tenant's end folded in), run from the start.
      const oracle = session(TEN_SECONDS);
      oracle.session.load(travelled.session.currentScenario());
      oracle.session.step(50_000);
      const end = (frames: readonly ServingFrame[]) => ({ ...shown(frames), series: null });
      expect(end(travelled.frames)).toStrictEqual(end(oracle.frames));
      for (const s of [oracle, travelled]) s.session.seek(35_000);
      expect(shown(travelled.frames.slice(-1))).toStrictEqual(shown(oracle.frames.slice(-1)));
    }
  }, 180_000);

  it('device copies (each model on its own Nano, BCEdge §V-D) come back from a checkpoint bit for bit, a learner per copy', () => {
    const apart = (): ServingScenario => {
      const base = scenario(LANES, 40);
      return { ...base, serving: { ...base.serving, platform: 'nano', models: base.serving.models.slice(0, 3) } };
    };
    const straight = session(TEN_SECONDS);
    const loaded = straight.session.load(apart());
    expect(loaded.ok && loaded.deviceCopies).toBe(3);
    straight.session.step(12_500);
    straight.session.setModelConfig(0, 1, 2, 1);
    straight.session.step(15_000);
    const at27 = shown(straight.frames);
    straight.session.step(12_500);
    const atEnd = shown(straight.frames);
    const back = straight.frames.length;
    straight.session.seek(27_500);
    expect(shown(straight.frames.slice(back))).toStrictEqual(at27);
    const forward = straight.frames.length;
    straight.session.seek(40_000);
    expect(shown(straight.frames.slice(forward))).toStrictEqual(atEnd);
  }, 180_000);

  it('every other scheduler comes back from a checkpoint bit for bit: PPO, DDQN, TAC, GA, DeepRT', () => {
    const lanes: ServingScenario['serving']['lanes'] = [
      { scheduler: 'ppo', params: { rolloutSize: 64 } },
      { scheduler: 'ddqn', params: { warmup: 32 } },
      { scheduler: 'tac', params: { warmup: 32 } },
      { scheduler: 'ga' },
      { scheduler: 'deeprt' },
    ];
    const straight = session(TEN_SECONDS);
    straight.session.load(scenario(lanes, 40));
    straight.session.step(25_000);
    const at25 = shown(straight.frames);
    straight.session.step(15_000);
    const atEnd = shown(straight.frames);
    expect(atEnd.learning.slice(0, 3).every((l) => l!.updates > 0)).toBe(true);
    const back = straight.frames.length;
    straight.session.seek(25_000);
    expect(shown(straight.frames.slice(back))).toStrictEqual(at25);
    const forward = straight.frames.length;
    straight.session.seek(40_000);
    expect(shown(straight.frames.slice(forward))).toStrictEqual(atEnd);
  }, 180_000);

  it('a lane whose scheduler cannot copy its state is built afresh and replayed from time 0 to the checkpoint, with the live edits before it', () => {
    // A BCEdge lane whose scheduler keeps no checkpoint (as a scheduler without `snapshot`).
    const uncopied = () => {
      const s = session(TEN_SECONDS);
      const factory = createLearningFactory(tf, { predictor: (context) => createLatencyPredictor(tf, context) });
      s.session.setLearning({
        create: (id, params, context) => {
          const scheduler = factory.create(id, params, context);
          return Object.assign(Object.create(Object.getPrototypeOf(scheduler) as object) as typeof scheduler, scheduler, { snapshot: undefined });
        },
      });
      return s;
    };
    const lanes: ServingScenario['serving']['lanes'] = [{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 32 } }];
    const straight = session(TEN_SECONDS);
    straight.session.load(scenario(lanes, 40));
    straight.session.step(12_500);
    straight.session.addBackground(0.4, 300);
    straight.session.step(22_500);
    const at35 = shown(straight.frames);
    const travelled = uncopied();
    travelled.session.load(scenario(lanes, 40));
    travelled.session.step(12_500);
    travelled.session.addBackground(0.4, 300);
    travelled.session.step(27_500);
    const back = travelled.frames.length;
    travelled.session.seek(35_000);
    expect(shown(travelled.frames.slice(back))).toStrictEqual(at35);
  }, 180_000);

  it('keeps the checkpoints of a long run with a learning lane under their memory budget, spacing them out past it', () => {
    const budgetBytes = 16 * 1024 * 1024;
    const s = session({ everyMs: 5_000, budgetBytes });
    s.session.load(scenario(LANES, 400));
    let most = 0;
    for (let t = 0; t < 400_000; t += 20_000) {
      s.session.step(20_000);
      const memory = s.session.checkpointMemory()!;
      most = Math.max(most, memory.bytes);
      expect(memory.bytes).toBeLessThanOrEqual(budgetBytes);
    }
    const memory = s.session.checkpointMemory()!;
    // The budget, not the count (at most 128), spaced them out.
    expect(memory.spacing).toBeGreaterThan(5_000);
    expect(memory.count).toBeGreaterThanOrEqual(2);
    expect(most).toBeGreaterThan(budgetBytes / 2);
  }, 240_000);

  it('frees every tensor it does not keep: numTensors is flat across checkpoints and restores (BCEdge with its predictor, DDQN, PPO)', () => {
    const s = session(TEN_SECONDS);
    s.session.load(
      scenario(
        [
          { scheduler: 'bcedge', params: { warmup: 32 } },
          { scheduler: 'ddqn', params: { warmup: 32 } },
          { scheduler: 'ppo', params: { rolloutSize: 64 } },
        ],
        60,
      ),
    );
    s.session.step(60_000);
    // Tensors made lazily (an optimizer's moments at its first step, the last loss) depend on
    // where the run is: each position is compared with itself, a cycle of seeks later.
    const targets = [15_000, 55_000, 5_000, 45_000, 60_000, 25_000];
    const first = targets.map((target) => {
      s.session.seek(target);
      return tf.memory().numTensors;
    });
    for (let cycle = 0; cycle < 2; cycle++) {
      const again = targets.map((target) => {
        s.session.seek(target);
        return tf.memory().numTensors;
      });
      expect(again).toEqual(first);
    }
  }, 240_000);
});
