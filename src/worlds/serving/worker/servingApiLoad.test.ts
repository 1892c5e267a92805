import { describe, expect, it, vi } from 'vitest';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { servingApi } from './servingApi';
import { ServingSession } from './servingSession';
import { SweepRunner } from './servingSweeps';
import { manualHost } from '../../../worker/testing/manualHost';
import type { ServingFrame } from './servingProtocol';

// Count the serving door: the worker validates a loaded scenario once.
const door = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../../scenario/parse', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../scenario/parse')>();
  return { ...real, parseWorldScenario: (...args: Parameters<typeof real.parseWorldScenario>) => (door.calls++, real.parseWorldScenario(...args)) };
});

const scenario = (): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, durationS: 20, lanes: [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }] } };
};

describe("the serving worker's load", () => {
  const api = () => {
    const h = manualHost<ServingFrame>();
    return servingApi(new ServingSession(h.host), { subscribe: () => undefined }, { learningFor: async () => null, sweeps: new SweepRunner(h.host), agentsBaseUrl: 'http://127.0.0.1/agents/' });
  };

  it('validates a scenario once, whether it loads or is refused by its field', async () => {
    const worker = api();
    door.calls = 0;
    expect((await worker.load(scenario())).ok).toBe(true);
    expect(door.calls).toBe(1);
    door.calls = 0;
    const refused = await worker.load({ ...scenario(), serving: { ...scenario().serving, rateRps: -1 } });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors.map((e) => e.path)).toContain('serving.rateRps');
    expect(door.calls).toBe(1);
  });

  it('loads a learning lane without waiting for TensorFlow.js; when it cannot come, the lane says so, naming it (servingLearnerJoin.test.ts: when it comes)', async () => {
    const h = manualHost<ServingFrame>();
    const session = new ServingSession(h.host);
    const worker = servingApi(session, { subscribe: () => undefined }, { learningFor: async () => null, sweeps: new SweepRunner(h.host), agentsBaseUrl: 'http://127.0.0.1/agents/' });
    const loaded = await worker.load({ ...scenario(), serving: { ...scenario().serving, lanes: [{ scheduler: 'fixed' }, { scheduler: 'bcedge' }] } });
    expect(loaded.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    session.step(1_000);
    expect(h.frames.at(-1)!.lanes[1]!.search).toMatchObject({ learner: 'failed', error: 'serving.lanes[1]: TensorFlow.js could not be loaded' });
  });
});
