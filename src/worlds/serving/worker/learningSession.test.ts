import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentFile } from '../agents/learner';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory, type AgentLibrary } from '../agents/registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { runServingScenario } from '../scenario/servingRunner';
import type { ServingFrame } from './servingProtocol';
import type { ServingEdit } from './servingEdits';
import { ServingSession, ServingPlugin } from './servingSession';
import { manualHost } from '../../../worker/testing/manualHost';
import { done } from '../../../worker/testing/answers';

let tf: Tf;
const agents: AgentLibrary = {};
beforeAll(async () => {
  tf = await loadTfNode();
  if (existsSync('public/agents/bcedge.json')) agents.bcedge = JSON.parse(readFileSync('public/agents/bcedge.json', 'utf8')) as AgentFile;
});

function session() {
  const h = manualHost<ServingFrame>();
  const s = new ServingSession(h.host);
  s.setLearning(createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context) }));
  return { session: s, frames: h.frames };
}

const scenario = (lanes: ServingScenario['serving']['lanes'], durationS = 60): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, durationS, lanes } };
};

describe('learning lanes in the serving session (the worker, with tfjs)', () => {
  it('reports training progress, the learning curve and the policy of a learning lane', () => {
    const { session: s, frames } = session();
    const loaded = s.load(scenario([{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 32 } }]));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.lanes.map((l) => l.learning)).toEqual([false, true]);
    s.step(40_000);
    const last = frames.at(-1)!;
    expect(last.lanes[0]!.learning).toBeUndefined();
    const learning = last.lanes[1]!.learning!;
    expect(learning.kind).toBe('bcedge');
    expect(learning.slots).toBeGreaterThanOrEqual(40);
    expect(learning.updates).toBeGreaterThan(0);
    expect(learning.temperature).toBeGreaterThan(0);
    expect(learning.curve.slot.length).toBeGreaterThan(30);
    expect(learning.policy).not.toBeNull();
    const policy = learning.policy!;
    expect(policy.length).toBe(6 * 64);
    for (let m = 0; m < 6; m++) {
      const row = policy.subarray(m * 64, (m + 1) * 64);
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
      row.forEach((p, a) => {
        if (learning.masks![m * 64 + a] === 0) expect(p).toBe(0);
      });
    }
    expect(last.lanes[1]!.decisionUs).toBeGreaterThanOrEqual(0);
    const summary = last.summaries![1]!;
    expect(summary.learning).toBeDefined();
    expect(summary.learning!['predictor']).toBeDefined();
  }, 60_000);

  it('exports an agent and imports it into a lane; a bad file names the field and changes nothing', () => {
    const { session: s } = session();
    s.load(scenario([{ scheduler: 'tac', params: { warmup: 32 } }, { scheduler: 'tac', params: { train: 0 } }]));
    s.step(20_000);
    const { agent } = done(s.exportAgent(0));
    expect(agent.kind).toBe('tac');
    expect(s.importAgent(1, JSON.parse(JSON.stringify(agent)))).toEqual({ ok: true });
    const again = done(s.exportAgent(1)).agent;
    expect(again.networks['actor']).toEqual(agent.networks['actor']);
    const refusedWith = (message: string) => ({ ok: false, errors: [{ path: 'agent', message: expect.stringContaining(message) as unknown as string }] });
    expect(s.importAgent(1, { ...agent, kind: 'ppo' })).toEqual(refusedWith('kind'));
    expect(s.importAgent(1, { ...agent, networks: {} })).toEqual(refusedWith('networks.actor'));
    expect(s.importAgent(5, agent)).toEqual({ ok: false, errors: [{ path: 'lane', message: 'must be a lane index from 0 to 1, got 5' }] });
    expect(done(s.exportAgent(1)).agent.networks['actor']).toEqual(agent.networks['actor']);
  }, 60_000);

  it('on a Nano with each model on its own device (BCEdge §V-D): one learner per copy, the command line’s numbers, an agent loaded into every copy', () => {
    const { session: s, frames } = session();
    const base = scenario([{ scheduler: 'bcedge', params: { warmup: 16 } }, { scheduler: 'tac', params: { train: 0 } }], 15);
    const apart: ServingScenario = { ...base, serving: { ...base.serving, platform: 'nano', models: base.serving.models.slice(0, 3) } };
    const loaded = s.load(apart);
    expect(loaded.ok && loaded.deviceCopies).toBe(3);
    s.step(15_000);
    const summary = frames.findLast((f) => f.summaries !== undefined)!.summaries![0]!;
    // One learner per copy, each reporting on its own model's device.
    expect(Object.keys((summary.learning as { copies: object }).copies)).toEqual(base.serving.models.slice(0, 3).map((m) => m.model));
    const factory = createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context) });
    const [cli] = runServingScenario(apart, apart.seed, () => 0, undefined, factory);
    const { decisionMeanUs: _a, ...page } = summary;
    const { decisionMeanUs: _b, ...line } = cli!.summary;
    void _a;
    void _b;
    expect(page).toEqual(line);
    // The first copy's agent, loaded into the frozen TAC lane, reaches every copy of it.
    const { agent } = done(s.exportAgent(1));
    expect(s.importAgent(1, JSON.parse(JSON.stringify(agent)))).toEqual({ ok: true });
  }, 120_000);

  it('frees the learners’ tensors when the lanes are rebuilt', () => {
    const { session: s } = session();
    s.load(scenario([{ scheduler: 'ddqn', params: { warmup: 32 } }, { scheduler: 'ppo', params: { rolloutSize: 64 } }], 30));
    s.step(10_000);
    s.reset();
    s.step(10_000);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      s.reset();
      s.step(10_000);
    }
    expect(tf.memory().numTensors).toBe(before);
  }, 60_000);

  it('refuses a learning lane without tfjs and keeps the last good scenario', () => {
    const h = manualHost<ServingFrame>();
    const s = new ServingSession(h.host);
    expect(s.load(scenario([{ scheduler: 'fixed' }])).ok).toBe(true);
    const refused = s.load(scenario([{ scheduler: 'bcedge' }]));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors[0]!.path).toBe('serving.lanes[0].scheduler');
    expect(s.currentScenario()!.serving.lanes.map((l) => l.scheduler)).toEqual(['fixed']);
  });

  it('explains the next SAC update of a BCEdge lane, and none for other lanes', () => {
    const { session: s } = session();
    s.load(scenario([{ scheduler: 'bcedge', params: { warmup: 32, predictor: 0 } }, { scheduler: 'fixed' }]));
    expect(s.explainUpdate(0)).toEqual({ ok: true, update: null }); // no transition yet
    s.step(10_000);
    const explained = done(s.explainUpdate(0)).update!;
    expect(explained.batchSize).toBe(512); // §V-A's minibatch, the lane's default
    expect(explained.samples.length).toBeGreaterThan(0);
    expect(explained.alphaAfter).not.toBe(explained.alphaBefore);
    expect(s.explainUpdate(1)).toEqual({ ok: false, errors: [{ path: 'lane', message: 'Triton (fixed) b=8 m_c=2 is not a BCEdge or TAC lane (no SAC update to explain)' }] });
  }, 60_000);
});

describe('time travel with a learning lane', () => {
  /** What a frame shows of the lanes, without wall-clock times. */
  const shown = (f: ServingFrame) => ({
    timeMs: f.timeMs,
    summaries: f.summaries?.map((s) => s && (({ decisionMeanUs: _d, ...rest }) => (void _d, rest))(s)),
    learning: f.lanes.map((l) => (l.learning ? { ...l.learning, decisionUs: 0, policy: null, masks: null } : null)),
  });

  it('a seek back restores the BCEdge lane (networks, optimizer, replay buffer, RNG) from a checkpoint and replays on, bit for bit', () => {
    const lanes: ServingScenario['serving']['lanes'] = [{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 16 } }];
    const straight = session();
    straight.session.load(scenario(lanes));
    straight.session.step(10_000);
    straight.session.addBackground(0.3, 500);
    straight.session.step(10_000);
    const at20 = shown(straight.frames.at(-1)!);
    straight.session.step(10_000);
    const at30 = shown(straight.frames.at(-1)!);
    expect(at30.learning[1]!.updates).toBeGreaterThan(0);
    expect(straight.session.seek(20_000)).toEqual({ ok: true });
    expect(shown(straight.frames.at(-1)!)).toStrictEqual(at20);
    expect(straight.session.seek(30_000)).toEqual({ ok: true });
    expect(shown(straight.frames.at(-1)!)).toStrictEqual(at30);
    expect(tf.memory().numTensors).toBeLessThan(1000);
  }, 60_000);

  it('the serving plugin declares checkpoints: restore → the live edits again → run equals an uninterrupted run, the BCEdge lane included', () => {
    const w = new ServingPlugin();
    w.learningFactory = createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context) });
    const edits: ServingEdit[] = [];
    w.attach({ now: () => 0, schedule: () => {}, report: () => {}, generation: () => 1, status: () => 'paused', furthest: () => 0, edits: () => edits });
    expect(w.timeTravel.by).toBe('checkpoints');
    w.start(scenario([{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 16 } }]));
    const runTo = (target: number) => {
      while (w.position() < target) w.advanceToward(target);
    };
    const tenant: ServingEdit = { kind: 'background', atMs: 7_500, id: 1, intensity: 0.4, memoryMb: 600, toMs: null };
    const seen = () => {
      w.jumped();
      const context = { force: true, nowMs: 0, status: 'paused' as const, furthest: 0, transfer: [] };
      const { lanes } = w.frameLanes(context);
      return {
        points: lanes.map((l) => l.points),
        live: lanes.map((l) => l.live),
        learning: lanes.map((l) => (l.learning ? { ...l.learning, decisionUs: 0 } : null)),
        summaries: w.summaries().map((s) => s && (({ decisionMeanUs: _d, ...rest }) => (void _d, rest))(s)),
      };
    };
    const travel = w.timeTravel;
    if (travel.by !== 'checkpoints') throw new TypeError('the serving world goes back by checkpoints');
    runTo(5_000);
    const at5 = travel.snapshot();
    const straight = () => {
      runTo(7_500);
      edits.push(tenant);
      w.applyEdit(tenant);
      runTo(25_000);
      return seen();
    };
    const first = straight();
    expect(first.learning[1]!.updates).toBeGreaterThan(0);
    expect(first.learning[1]!.policy).not.toBeNull();
    edits.length = 0;
    travel.restore(at5);
    expect(w.position()).toBe(5_000);
    expect(straight()).toStrictEqual(first);
  }, 60_000);
});
