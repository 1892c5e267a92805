import { beforeAll, describe, expect, it } from 'vitest';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory } from '../agents/registry';
import type { LearningFactory } from '../schedulers/registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { runServingScenario } from '../scenario/servingRunner';
import { servingApi } from './servingApi';
import type { ServingFrame } from './servingProtocol';
import { ServingSession } from './servingSession';
import { SweepRunner } from './servingSweeps';
import { manualHost } from '../../../worker/testing/manualHost';

/**
 * Learning lanes join late (ARCHITECTURE §3): the serving worker's load does not wait for
 * TensorFlow.js. The other lanes start at once; a learning lane waits, says so on its card,
 * and once its learner is here runs from time 0 up to the others with the live edits at their
 * times, then joins them — the very run the command line gives.
 */

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

const factory = (): LearningFactory => createLearningFactory(tf, { agents: {}, predictor: (context) => createLatencyPredictor(tf, context) });

/** Three models for 20 s: Triton, a BCEdge lane learning from scratch, DeepRT. */
function scenario(): ServingScenario {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return {
    ...s,
    serving: { ...s.serving, durationS: 20, models: s.serving.models.slice(0, 3), lanes: [{ scheduler: 'fixed' }, { scheduler: 'bcedge', params: { warmup: 32 } }, { scheduler: 'deeprt' }] },
  };
}

/** A learner that comes when the test says (`arrive`), or fails (`fail`). */
function deferredLearner() {
  let arrive!: (f: LearningFactory | null) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<LearningFactory | null>((resolve, reject) => {
    arrive = resolve;
    fail = reject;
  });
  return { promise, arrive, fail };
}

function worker(learner: Promise<LearningFactory | null>, atHand: LearningFactory | null = null) {
  const h = manualHost<ServingFrame>(0.5);
  const session = new ServingSession(h.host);
  const api = servingApi(session, { subscribe: () => undefined }, { learningFor: () => learner, learningAtHand: () => atHand, sweeps: new SweepRunner(h.host), agentsBaseUrl: 'http://127.0.0.1/agents/' });
  return { api, session, ...h };
}

type Summary = NonNullable<NonNullable<ServingFrame['summaries']>[number]>;
const withoutDecision = ({ decisionMeanUs: _d, ...rest }: Summary) => (void _d, rest);
const lastSummaries = (frames: readonly ServingFrame[]) => frames.findLast((f) => f.summaries !== undefined)!.summaries!;
const waiting = (frame: ServingFrame) => frame.lanes.some((l) => l.search !== undefined);
/** Lets the promise callbacks run (the learner's arrival is a microtask). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('learning lanes join when TensorFlow.js is here; the other lanes do not wait', () => {
  it('the run starts at once, the BCEdge lane waits (loading), joins from time 0 with the live edits at their times, and ends with the command line’s summaries', async () => {
    const learner = deferredLearner();
    const { api, session, frames, advanceTime } = worker(learner.promise);
    const loaded = await api.load(scenario());
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.lanes.map((l) => l.learning)).toEqual([false, true, false]);
    session.setSpeed(5);
    session.play();
    for (let i = 0; i < 40; i++) advanceTime(16);
    const before = frames.at(-1)!;
    // Time moves and the others have points while the learner loads.
    expect(before.timeMs).toBeGreaterThan(0);
    expect(before.lanes[1]!.search).toMatchObject({ learner: 'loading', replayedMs: null });
    expect(before.lanes[0]!.live).not.toBeNull();
    expect(before.lanes[1]!.live).toBeNull();
    // A live edit while the lane waits: a tenant from now on.
    const added = await api.addBackground(0.4, 500);
    expect(added.ok).toBe(true);
    const editAtMs = added.ok ? added.backgrounds.at(-1)!.fromMs : Number.NaN;
    expect(editAtMs).toBeGreaterThan(0);
    learner.arrive(factory());
    await settle();
    for (let i = 0; i < 20_000 && (frames.at(-1)!.status !== 'done' || waiting(frames.at(-1)!)); i++) advanceTime(16);
    expect(waiting(frames.at(-1)!)).toBe(false);
    const joined = frames.find((f) => f.lanes[1]!.search === undefined && f.lanes[1]!.live !== null)!;
    expect(joined.timeMs).toBeGreaterThan(0);
    // The command line's run of the same scenario with the tenant from the edit's time.
    const s = scenario();
    const cli = runServingScenario({ ...s, serving: { ...s.serving, background: [{ fromS: editAtMs / 1000, toS: null, intensity: 0.4, memoryMb: 500 }] } }, s.seed, () => 0, undefined, factory());
    expect(lastSummaries(frames).map((x) => withoutDecision(x!))).toEqual(cli.map((r) => withoutDecision(r.summary)));
  }, 120_000);

  it('a learner that cannot load: its lane says why, naming the lane, and stays out; the others run to the end', async () => {
    const learner = deferredLearner();
    const { api, session, frames, advanceTime } = worker(learner.promise);
    expect((await api.load(scenario())).ok).toBe(true);
    learner.fail(new Error('agents/bcedge.json: 404 Not Found'));
    await settle();
    session.step(20_000);
    for (let i = 0; i < 10; i++) advanceTime(16);
    const last = frames.at(-1)!;
    expect(last.status).toBe('done');
    expect(last.lanes[1]!.search).toEqual({ done: 0, total: 0, replayedMs: null, learner: 'failed', error: 'serving.lanes[1]: could not start its learner: agents/bcedge.json: 404 Not Found' });
    expect(lastSummaries(frames).map((x) => x === null)).toEqual([false, true, false]);
    expect(session.exportAgent(1)).toEqual({ ok: false, errors: [{ path: 'lane', message: 'BCEdge (SAC) is waiting for TensorFlow.js (it has no agent yet)' }] });
  }, 60_000);

  it('a learner that comes for an older load is not used: the lane of the newer one waits for its own', async () => {
    const first = deferredLearner();
    const second = deferredLearner();
    let asks = 0;
    const h = manualHost<ServingFrame>(0.5);
    const session = new ServingSession(h.host);
    const api = servingApi(session, { subscribe: () => undefined }, { learningFor: () => (asks++ === 0 ? first.promise : second.promise), sweeps: new SweepRunner(h.host), agentsBaseUrl: 'http://127.0.0.1/agents/' });
    expect((await api.load(scenario())).ok).toBe(true);
    expect((await api.load({ ...scenario(), seed: 2 })).ok).toBe(true);
    first.arrive(factory());
    await settle();
    session.step(1_000);
    expect(h.frames.at(-1)!.lanes[1]!.search).toMatchObject({ learner: 'loading' });
    second.arrive(factory());
    await settle();
    for (let i = 0; i < 2_000 && waiting(h.frames.at(-1)!); i++) h.advanceTime(16);
    expect(waiting(h.frames.at(-1)!)).toBe(false);
  }, 60_000);

  it('a learner already at hand (tfjs and its agents loaded): the learning lane is built with the others, no waiting', async () => {
    const { api, session, frames } = worker(new Promise(() => undefined), factory());
    expect((await api.load(scenario())).ok).toBe(true);
    session.step(2_000);
    expect(frames.every((f) => !waiting(f))).toBe(true);
    expect(frames.at(-1)!.lanes[1]!.learning).toBeDefined();
  }, 60_000);

  it('a seek back to a checkpoint taken while the learner loaded: the lane catches up from time 0 again, and the run ends as the command line’s', async () => {
    const learner = deferredLearner();
    const { api, session, frames, advanceTime } = worker(learner.promise);
    expect((await api.load(scenario())).ok).toBe(true);
    // Checkpoints at 0 and 10 s hold the BCEdge lane waiting.
    session.step(12_000);
    expect(frames.at(-1)!.lanes[1]!.search).toMatchObject({ learner: 'loading' });
    learner.arrive(factory());
    await settle();
    for (let i = 0; i < 2_000 && waiting(frames.at(-1)!); i++) advanceTime(16);
    expect(waiting(frames.at(-1)!)).toBe(false);
    session.step(4_000);
    expect(session.seek(11_000)).toEqual({ ok: true });
    // Restored waiting, with its learner at hand now: it runs from 0 s up to the others.
    expect(frames.at(-1)!.lanes[1]!.search).toMatchObject({ learner: 'ready' });
    session.step(9_000);
    for (let i = 0; i < 2_000 && (frames.at(-1)!.status !== 'done' || waiting(frames.at(-1)!)); i++) advanceTime(16);
    expect(frames.at(-1)!.status).toBe('done');
    const s = scenario();
    const cli = runServingScenario(s, s.seed, () => 0, undefined, factory());
    expect(lastSummaries(frames).map((x) => withoutDecision(x!))).toEqual(cli.map((r) => withoutDecision(r.summary)));
  }, 120_000);

  it('a learning scenario refused at the door leaves the last good one with its learners as they were', async () => {
    const { api, session, frames } = worker(new Promise(() => undefined), factory());
    expect((await api.load(scenario())).ok).toBe(true);
    const bad = scenario();
    const refused = await api.load({ ...bad, serving: { ...bad.serving, lanes: [{ scheduler: 'bcedge', params: { warmup: -1 } }] } });
    expect(refused.ok).toBe(false);
    expect(session.learningState().loading).toBe(false);
    expect(session.learningState().factory).not.toBeNull();
    session.reset();
    session.step(2_000);
    expect(frames.every((f) => f.lanes[1]!.search === undefined)).toBe(true);
  }, 60_000);
});
