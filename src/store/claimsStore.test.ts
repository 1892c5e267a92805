import { describe, expect, it } from 'vitest';
import type { ClaimRow } from '../scenario/claimsReport';
import { registryComputer } from './claimsComputer';
import { parseAnyScenario } from '../scenario/parse';
import { sweepCells, sweepSeeds } from '../scenario/sweep';
import { runCell, type CellOutcome } from '../scenario/sweepReport';
import { meanInterval, metricOf } from '../scenario/sweepStats';
import { fixtureReport } from '../scenario/testing/claimsFixture';
import { allClaims, computeClaims } from '../scenario/claims';
import { CLAIMS_REPORT_VERSION, type ClaimsReport } from '../scenario/claimsReport';
import { createClaimsStore, runCellsOnPool, verdictCounts, visibleRows, type ClaimsStoreDeps, type RowComputer } from './claimsStore';
import type { CellPool } from './explorePool';

/** An in-process pool whose cells finish when the test says (or at once), in any order. */
function manualPool(auto = false) {
  const pending: { index: number; resolve: (o: CellOutcome) => void; reject: (e: Error) => void; json: string; seeds: readonly number[] }[] = [];
  let terminated = 0;
  const runNow = (p: (typeof pending)[number]) => {
    const parsed = parseAnyScenario(JSON.parse(p.json));
    if (!parsed.ok) throw new Error('bad scenario');
    p.resolve(runCell(parsed.scenario, sweepCells(parsed.scenario, p.seeds)[p.index]!, () => 0, undefined));
  };
  const pool: CellPool = {
    workers: 2,
    run: (json, seeds, index) =>
      new Promise((resolve, reject) => {
        const p = { index, resolve, reject, json, seeds };
        if (auto) runNow(p);
        else pending.push(p);
      }),
    terminate: () => {
      terminated++;
      for (const p of pending.splice(0)) p.reject(new Error('terminated'));
    },
  };
  const finishAll = () => {
    for (const p of pending.splice(0)) runNow(p);
  };
  return { pool, pending, finishAll, terminated: () => terminated };
}

/** Recomputes a row as "lane 0's throughput, mean over every cell of the row's scenario": a stand-in for the registry. */
const computer: RowComputer = {
  compute: async (id, seeds, runCells, onProgress) => {
    const row = fixtureReport().rows.find((r) => r.id === id)!;
    const cellSeeds = sweepSeeds(row.scenario, seeds);
    const total = sweepCells(row.scenario, cellSeeds).length;
    onProgress(0, total);
    const outcomes = await runCells(row.scenario, cellSeeds, (done) => onProgress(done, total));
    const estimate = meanInterval(outcomes.map((o) => metricOf(o.results[0]!.summary, 'throughputMeanQps')));
    return { ...row, estimate, verdict: 'holds', reason: `recomputed from ${outcomes.length} cells` } satisfies ClaimRow;
  },
};

const flush = () => new Promise((r) => setTimeout(r, 0));

function store(overrides: Partial<ClaimsStoreDeps> = {}, pool = manualPool()) {
  let publishes: (() => void)[] = [];
  const s = createClaimsStore({
    fetchReport: async () => ({ kind: 'report', report: fixtureReport() }),
    computer,
    makePool: () => pool.pool,
    here: () => ({ commit: 'test', machine: 'vitest', command: 'recomputed in the page' }),
    nowIso: () => '2026-12-01T12:00:00.000Z',
    later: (publish) => void publishes.push(publish),
    ...overrides,
  });
  const publish = () => {
    const due = publishes;
    publishes = [];
    for (const p of due) p();
  };
  return { s, pool, publish };
}

describe('the Claims store', () => {
  it('loads the shipped report; filters by paper and verdict', async () => {
    const { s } = store();
    await s.getState().load();
    expect(s.getState().status).toBe('ready');
    expect(visibleRows(s.getState()).map((r) => r.id)).toEqual(['odin-fig6-throughput', 'odin-s42-queries', 'bcedge-fig14-predictor']);
    s.getState().setFilters({ paper: 'odin' });
    expect(visibleRows(s.getState()).map((r) => r.id)).toEqual(['odin-fig6-throughput', 'odin-s42-queries']);
    s.getState().setFilters({ verdict: 'holds' });
    expect(visibleRows(s.getState()).map((r) => r.id)).toEqual(['odin-s42-queries']);
    s.getState().setFilters({ paper: 'bcedge' });
    expect(visibleRows(s.getState())).toEqual([]);
    s.getState().setFilters({ paper: 'all', verdict: 'noise' });
    expect(visibleRows(s.getState()).map((r) => r.id)).toEqual(['bcedge-fig14-predictor']);
    expect(verdictCounts(s.getState().rows)).toEqual({ holds: 1, partly: 0, fails: 1, noise: 1 });
  });

  it('says there is no report when the fetch fails or the report is malformed, and can try again', async () => {
    let answer: Awaited<ReturnType<ClaimsStoreDeps['fetchReport']>> = { kind: 'missing', message: 'claims/report.json: 404 Not Found' };
    const { s } = store({ fetchReport: async () => answer });
    await s.getState().load();
    expect(s.getState()).toMatchObject({ status: 'missing', loadMessage: 'claims/report.json: 404 Not Found', rows: [] });
    answer = { kind: 'invalid', errors: [{ path: 'rows[0].verdict', message: 'must be one of …' }] };
    await s.getState().load();
    expect(s.getState()).toMatchObject({ status: 'invalid', rows: [] });
    expect(s.getState().loadErrors?.[0]?.path).toBe('rows[0].verdict');
    const thrown = store({ fetchReport: () => Promise.reject(new TypeError('Failed to fetch')) }).s;
    await thrown.getState().load();
    expect(thrown.getState()).toMatchObject({ status: 'missing', loadMessage: 'Failed to fetch' });
  });

  it('recomputes a row on the pool with the shipped seeds: it replaces the shipped row and is marked as computed here', async () => {
    const { s, pool, publish } = store();
    await s.getState().load();
    s.getState().recompute('odin-s42-queries');
    expect(s.getState().job).toMatchObject({ id: 'odin-s42-queries', status: 'running', done: 0 });
    await flush();
    // 2 α values × 2 seeds.
    publish();
    expect(s.getState().job).toMatchObject({ done: 0, total: 4 });
    expect(pool.pending.map((p) => p.seeds)).toEqual([[1, 2], [1, 2], [1, 2], [1, 2]].map((seeds) => seeds.map((k) => k - 1 + fixtureReport().rows[1]!.scenario.seed)));
    pool.pending.splice(0, 1).forEach((p) => {
      const parsed = parseAnyScenario(JSON.parse(p.json));
      if (parsed.ok) p.resolve(runCell(parsed.scenario, sweepCells(parsed.scenario, p.seeds)[p.index]!, () => 0, undefined));
    });
    await flush();
    // Progress is published when the throttle says, not for every cell.
    expect(s.getState().job?.done).toBe(0);
    publish();
    expect(s.getState().job?.done).toBe(1);
    pool.finishAll();
    await flush();
    const state = s.getState();
    expect(state.job).toMatchObject({ status: 'done', done: 4, total: 4 });
    const row = state.rows.find((r) => r.id === 'odin-s42-queries')!;
    expect(row.reason).toBe('recomputed from 4 cells');
    expect(row.estimate!.seeds).toBe(4);
    expect(state.computedHere).toEqual({ 'odin-s42-queries': { commit: 'test', machine: 'vitest', command: 'recomputed in the page', seeds: 2, date: '2026-12-01T12:00:00.000Z' } });
    // The other rows and the shipped report are untouched; the pool is stopped.
    expect(state.rows[0]).toBe(state.shipped!.rows[0]);
    expect(state.shipped!.rows[1]!.reason).not.toBe(row.reason);
    expect(pool.terminated()).toBe(1);
  });

  it('gives the same estimate, bit for bit, however the cells finish', async () => {
    const a = store({}, manualPool(true));
    await a.s.getState().load();
    a.s.getState().recompute('odin-fig6-throughput');
    await flush();
    const b = store();
    await b.s.getState().load();
    b.s.getState().recompute('odin-fig6-throughput');
    await flush();
    // Finish in reverse order.
    for (const p of b.pool.pending.splice(0).reverse()) {
      const parsed = parseAnyScenario(JSON.parse(p.json));
      if (parsed.ok) p.resolve(runCell(parsed.scenario, sweepCells(parsed.scenario, p.seeds)[p.index]!, () => 0, undefined));
    }
    await flush();
    const estimate = (st: typeof a.s) => st.getState().rows.find((r) => r.id === 'odin-fig6-throughput')!.estimate;
    expect(a.s.getState().job?.status).toBe('done');
    expect(b.s.getState().job?.status).toBe('done');
    expect(estimate(b.s)).toEqual(estimate(a.s));
    expect(estimate(a.s)!.mean).toBeGreaterThan(0);
  });

  it('cancel stops the pool and keeps the shipped row; a late cell changes nothing', async () => {
    const { s, pool, publish } = store();
    await s.getState().load();
    const before = s.getState().rows[0];
    s.getState().recompute('odin-fig6-throughput');
    await flush();
    expect(pool.pending.length).toBe(4);
    s.getState().cancel();
    expect(s.getState().job).toMatchObject({ id: 'odin-fig6-throughput', status: 'cancelled' });
    expect(pool.terminated()).toBe(1);
    expect(pool.pending.length).toBe(0);
    publish();
    await flush();
    expect(s.getState().rows[0]).toBe(before);
    expect(s.getState().computedHere).toEqual({});
    expect(s.getState().job?.status).toBe('cancelled');
  });

  it('a failing recomputation is an error on the job, not on the row', async () => {
    const { s } = store({ computer: { compute: () => Promise.reject(new Error('cell 3: out of memory')) } });
    await s.getState().load();
    const before = s.getState().rows;
    s.getState().recompute('odin-fig6-throughput');
    await flush();
    expect(s.getState().job).toMatchObject({ status: 'error', error: 'cell 3: out of memory' });
    expect(s.getState().rows).toBe(before);
  });

  it('runCellsOnPool puts each outcome in its canonical slot', async () => {
    const m = manualPool(true);
    const row = fixtureReport().rows[0]!;
    let cells = 0;
    const outcomes = await runCellsOnPool(m.pool, row.scenario, [row.scenario.seed, row.scenario.seed + 1], () => cells++);
    expect(outcomes.map((o) => o.index)).toEqual([0, 1, 2, 3]);
    expect(cells).toBe(4);
  });

  it('recomputing a registry row on a pool gives the row computed in one process, bit for bit', async () => {
    const claims = allClaims().filter((c) => c.id === 'odin-fig1-interference' || c.id === 'odin-fig10-scaling');
    const inProcess = async (scenario: Parameters<typeof runCell>[0], seeds: readonly number[]) => sweepCells(scenario, seeds).map((cell) => runCell(scenario, cell, () => 0, undefined));
    const rows = await computeClaims(claims, 2, inProcess);
    const report: ClaimsReport = { version: CLAIMS_REPORT_VERSION, provenance: { commit: 'x', seeds: 2, date: 'd', machine: 'm', command: 'c' }, rows };
    const { s } = store({ fetchReport: async () => ({ kind: 'report', report: JSON.parse(JSON.stringify(report)) as ClaimsReport }), computer: registryComputer }, manualPool(true));
    await s.getState().load();
    for (const claim of claims) {
      s.getState().recompute(claim.id);
      for (let i = 0; i < 20 && s.getState().job?.status === 'running'; i++) await flush();
      expect(s.getState().job).toMatchObject({ id: claim.id, status: 'done' });
      const shipped = s.getState().shipped!.rows.find((r) => r.id === claim.id)!;
      const recomputed = s.getState().rows.find((r) => r.id === claim.id)!;
      expect(recomputed).not.toBe(shipped);
      expect(recomputed.estimate).toEqual(shipped.estimate);
      expect(JSON.parse(JSON.stringify(recomputed))).toEqual(shipped);
    }
    expect(Object.keys(s.getState().computedHere)).toEqual(claims.map((c) => c.id));
    // Seconds of simulation on a loaded machine: past the default 5 s.
  }, 60_000);
});
