import { describe, expect, it } from 'vitest';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../worlds/serving/presets';
import type { ServingScenario } from '../worlds/serving/schema';
import type { PipelineScenario } from '../worlds/pipeline/schema';
import { longRunGuard, preloadRunCost } from './longRun';
import { inProcessPipeline } from './testing/inProcessStores';

/** The session's own playback status (the store hears of it only with the next frame). */
const statusOf = (session: unknown) => (session as { status: string }).status;

/** The default pipeline scenario at 10 M queries, swept over 64 cells (2.6·10⁹ lane-queries as a sweep; 4·10⁷ as the run Play plays). */
function sweptHuge(): PipelineScenario {
  const s = defaultPipelineScenario();
  const values = [1, 2, 3, 4, 5, 6, 7, 8];
  return {
    ...s,
    pipeline: { ...s.pipeline, queries: 10_000_000 },
    sweep: {
      axes: [
        { path: 'pipeline.interference.random.periodQueries', values },
        { path: 'pipeline.interference.random.durationQueries', values },
      ],
    },
  };
}

/** A serving run above the bound: 10⁷ requests through BCEdge and TAC (a learner counts 50 lanes) and Triton. */
function longServing(): ServingScenario {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  // 1000 rps in total over the six models (rateBasis: total), within the request bound.
  return { ...s, serving: { ...s.serving, rateRps: 1000, durationS: 10_000, assumptions: { ...s.serving.assumptions, rateBasis: 'total' }, lanes: [{ scheduler: 'bcedge' }, { scheduler: 'tac' }, { scheduler: 'fixed' }] } };
}

describe('the page asks before starting a long run', () => {
  /** Runs the guard on `scenario`; whether it started the run. */
  const started = async (guard: ReturnType<typeof longRunGuard>, scenario: ServingScenario): Promise<boolean> => {
    let ran = false;
    await guard(scenario, () => ((ran = true), Promise.resolve()));
    return ran;
  };

  it('shows the estimate and does not start when the person declines', async () => {
    const asked: string[] = [];
    const guard = longRunGuard((message) => (asked.push(message), false));
    expect(await started(guard, longServing())).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('1.0e+9 lane-requests (1 cell × 10000000 requests × 101 lanes (a learner counts 50))');
    expect(asked[0]).toContain('Start it anyway?');
  });

  it('starts when the person agrees, and asks once per scenario', async () => {
    const asked: string[] = [];
    const guard = longRunGuard((message) => (asked.push(message), true));
    expect(await started(guard, longServing())).toBe(true);
    expect(await started(guard, longServing())).toBe(true);
    expect(asked).toHaveLength(1);
    const other = longServing();
    other.seed = 2;
    expect(await started(guard, other)).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('once the cost is at hand, starts in the same task (a load that plays tells the worker before the page renders)', async () => {
    await preloadRunCost();
    const guard = longRunGuard(() => false);
    let ran = false;
    void guard(defaultPipelineScenario(), () => ((ran = true), Promise.resolve()));
    expect(ran).toBe(true);
  });

  it("costs the run Play plays, not the scenario's sweep (the Explore view runs the sweep)", async () => {
    const asked: string[] = [];
    const { store, session } = inProcessPipeline((message) => (asked.push(message), false));
    expect(await store.getState().load(sweptHuge(), 'file')).toBe(true);
    await store.getState().play();
    expect(asked).toEqual([]);
    expect(statusOf(session)).toBe('playing');
  });

  it('never asks for a scenario below the bound', async () => {
    const asked: string[] = [];
    const { store, session } = inProcessPipeline((message) => (asked.push(message), false));
    await store.getState().load(defaultPipelineScenario(), 'preset');
    await store.getState().play();
    expect(asked).toEqual([]);
    expect(statusOf(session)).toBe('playing');
  });
});
