import { describe, expect, it } from 'vitest';
import { exploreData } from '../../charts/exploreData';
import { parseAnyScenario } from '../../scenario/parse';
import { defaultPipelineScenario } from '../../worlds/pipeline/defaultPreset';
import type { PipelineScenario } from '../../worlds/pipeline/schema';
import { sweepCells } from '../../scenario/sweep';
import { runCell, type CellOutcome } from '../../scenario/sweepReport';
import { createExploreStore } from '../../store/exploreStore';
import type { CellPool } from '../../store/explorePool';

function swept(): PipelineScenario {
  const s = defaultPipelineScenario();
  return {
    ...s,
    pipeline: { ...s.pipeline, queries: 200 },
    sweep: { axes: [{ path: 'pipeline.lanes[0].params.alpha', values: [2, 10] }, { path: 'pipeline.assumptions.trialCost', values: ['serial', 'free'] }], seeds: 2, compare: { a: 0, b: 1 } },
  };
}

/** An in-process pool whose cells finish when the test says, in any order. */
function manualPool() {
  const pending: { index: number; resolve: (o: CellOutcome) => void; reject: (e: Error) => void; json: string; seeds: readonly number[] }[] = [];
  let terminated = 0;
  const pool: CellPool = {
    workers: 2,
    run: (json, seeds, index) => new Promise((resolve, reject) => pending.push({ index, resolve, reject, json, seeds })),
    terminate: () => {
      terminated++;
      for (const p of pending.splice(0)) p.reject(new Error('terminated'));
    },
  };
  const finish = (index: number) => {
    const k = pending.findIndex((p) => p.index === index);
    const p = pending.splice(k, 1)[0]!;
    const parsed = parseAnyScenario(JSON.parse(p.json));
    if (!parsed.ok) throw new Error('bad scenario');
    p.resolve(runCell(parsed.scenario, sweepCells(parsed.scenario, p.seeds)[index]!, () => 0, undefined));
  };
  return { pool, finish, pending, terminated: () => terminated };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the Explore store', () => {
  it('fills each cell in its canonical slot whatever order they finish in, then leaves the pool warm until it idles', async () => {
    const m = manualPool();
    const idle: (() => void)[] = [];
    const store = createExploreStore(() => m.pool, () => 0, undefined, (stop) => (idle.push(stop), () => undefined));
    store.getState().start(swept());
    expect(store.getState()).toMatchObject({ status: 'running', total: 8, done: 0, workers: 2 });
    for (const index of [7, 0, 3, 1, 2, 6, 5, 4]) m.finish(index);
    await flush();
    const s = store.getState();
    expect(s.status).toBe('done');
    expect(s.outcomes.map((o) => o?.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(m.terminated()).toBe(0);
    idle[0]!();
    expect(m.terminated()).toBe(1);
    // The heatmap of the difference ODIN − LLS: 2 × 2 cells of 2 seeds each.
    const data = exploreData(s.scenario!, s.seeds, s.outcomes, { kind: 'difference', a: 0, b: 1 });
    expect(data.heatmap!.cells).toHaveLength(4);
    expect(data.heatmap!.cells.every((c) => c.seeds === 2 && Number.isFinite(c.mean))).toBe(true);
    // α is an axis: the lane's label changes from cell to cell, so the lane is named by its scheduler.
    expect(data.laneLabels).toEqual(['lane 1 (ODIN)', 'LLS', 'Optimal', 'Static']);
  });

  it('publishes finished cells at most once per tick of its timer, and the last cell at once', async () => {
    const m = manualPool();
    const ticks: (() => void)[] = [];
    const store = createExploreStore(() => m.pool, () => 0, (publish) => ticks.push(publish));
    const versions: number[] = [];
    store.subscribe((s) => versions.push(s.version));
    store.getState().start(swept());
    const started = store.getState().version;
    for (const index of [0, 1, 2]) m.finish(index);
    await flush();
    // Three cells, one publish due: the view has not redrawn yet.
    expect(ticks).toHaveLength(1);
    expect(store.getState()).toMatchObject({ done: 0, version: started });
    ticks.shift()!();
    expect(store.getState()).toMatchObject({ done: 3, version: started + 1 });
    for (const index of [3, 4, 5, 6, 7]) m.finish(index);
    await flush();
    expect(store.getState()).toMatchObject({ status: 'done', done: 8 });
    expect(store.getState().outcomes.every((o) => o !== null)).toBe(true);
    // The tick due for cells 3–6 finds nothing left to publish.
    const count = versions.length;
    for (const tick of ticks.splice(0)) tick();
    expect(versions).toHaveLength(count);
  });

  it('starts the costliest cells first and still fills each in its own slot', () => {
    const m = manualPool();
    const s = swept();
    // The first axis now changes the cost: 200 or 2000 queries.
    const costly: PipelineScenario = { ...s, sweep: { ...s.sweep!, axes: [{ path: 'pipeline.queries', values: [200, 2000] }, s.sweep!.axes[1]!] } };
    createExploreStore(() => m.pool, () => 0, () => undefined).getState().start(costly);
    expect(m.pending.map((p) => p.index)).toEqual([4, 5, 6, 7, 0, 1, 2, 3]);
  });

  it('cancel stops the pool: cells done stay, late answers are dropped', async () => {
    const m = manualPool();
    const store = createExploreStore(() => m.pool, () => 0);
    store.getState().start(swept());
    m.finish(2);
    await flush();
    store.getState().cancel();
    await flush();
    expect(store.getState()).toMatchObject({ status: 'cancelled', done: 1 });
    expect(m.terminated()).toBe(1);
    expect(m.pending).toHaveLength(0);
    // Cell 2 is α = 2 with free trials (row 0, column 1), seed 1.
    const partial = exploreData(store.getState().scenario!, store.getState().seeds, store.getState().outcomes, { kind: 'lane', lane: 0 });
    expect(partial.heatmap!.cells.map((c) => c.seeds)).toEqual([0, 1, 0, 0]);
  });

  it('a finished sweep’s pool serves the next sweep on as many workers; another count, or idling, stops it', async () => {
    const made: number[] = [];
    const pools: ReturnType<typeof manualPool>[] = [];
    let calledOff = 0;
    const idle: (() => void)[] = [];
    const store = createExploreStore(
      (workers) => {
        const m = manualPool();
        made.push(workers ?? 2);
        pools.push(m);
        return { ...m.pool, workers: workers ?? 2 };
      },
      () => 0,
      undefined,
      (stop) => {
        idle.push(stop);
        return () => void calledOff++;
      },
    );
    const finishAll = async () => {
      const m = pools.at(-1)!;
      while (m.pending.length > 0) m.finish(m.pending[0]!.index);
      await flush();
      expect(store.getState().status).toBe('done');
    };
    store.getState().start(swept(), 2);
    await finishAll();
    // The same count: the warm pool, its idle stop called off.
    store.getState().start(swept(), 2);
    expect(made).toEqual([2]);
    expect(calledOff).toBe(1);
    await finishAll();
    expect(pools[0]!.terminated()).toBe(0);
    // Another count: a new pool, the warm one stopped.
    store.getState().start(swept(), 1);
    expect(made).toEqual([2, 1]);
    expect(pools[0]!.terminated()).toBe(1);
    await finishAll();
    // Idling stops it.
    idle.at(-1)!();
    expect(pools[1]!.terminated()).toBe(1);
    store.getState().start(swept(), 1);
    expect(made).toEqual([2, 1, 1]);
  });
});
