import { subscribeWithSelector } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ClaimsProgress, RunCells } from '../scenario/claims';
import type { LearningRuns } from '../scenario/learningRuns';
import type { ClaimRow, ClaimsProvenance, ClaimsReport, Paper } from '../scenario/claimsReport';
import { costliestFirst } from '../scenario/cost';
import type { AnyScenario, FieldError } from '../scenario/schema';
import { sweepCells } from '../scenario/sweep';
import type { CellOutcome } from '../scenario/sweepReport';
import type { Verdict } from '../scenario/verdict';
import type { CellPool } from './explorePool';
import { PUBLISH_EVERY_MS } from './constants';


/**
 * How a row is recomputed: the registry's claim with this id measured with `seeds` seeds, its
 * cells run by `runCells` (on the page's pool), progress as cells done of cells to run. Wired
 * to `computeClaims` of `scenario/claims.ts` by `claimsComputer.ts`.
 */
export interface RowComputer {
  /** `learning`: the report's learning runs (its provenance), so that a learning row is recomputed as the report ran it. */
  compute(id: string, seeds: number, runCells: RunCells, onProgress: ClaimsProgress, learning?: LearningRuns): Promise<ClaimRow>;
}

export type ClaimsLoadStatus = 'idle' | 'loading' | 'ready' | 'missing' | 'invalid';

export type RecomputeStatus = 'running' | 'done' | 'cancelled' | 'error';

/** The one row being (or last) recomputed in the page. */
export interface RecomputeJob {
  readonly id: string;
  readonly status: RecomputeStatus;
  readonly done: number;
  readonly total: number;
  readonly error: string | null;
}

export interface ClaimsFilters {
  readonly paper: Paper | 'all';
  readonly verdict: Verdict | 'all';
}

/** What loading the shipped report gave: the report, no report (404, offline), or a malformed one. */
export type ReportFetch = { readonly kind: 'report'; readonly report: ClaimsReport } | { readonly kind: 'missing'; readonly message: string } | { readonly kind: 'invalid'; readonly errors: readonly FieldError[] };

export interface ClaimsState {
  readonly status: ClaimsLoadStatus;
  /** The shipped report as fetched (its rows are never replaced). */
  readonly shipped: ClaimsReport | null;
  /** Why there is no report: the fetch's message, or the malformed fields. */
  readonly loadMessage: string | null;
  readonly loadErrors: readonly FieldError[] | null;
  /** The rows the view shows: the shipped rows, each replaced by its recomputation when there is one. */
  readonly rows: readonly ClaimRow[];
  /** Rows recomputed in this page, by id, with where and how. */
  readonly computedHere: Readonly<Record<string, ClaimsProvenance>>;
  readonly filters: ClaimsFilters;
  readonly job: RecomputeJob | null;
  /** Fetches the shipped report (once; again after a failure). */
  load(): Promise<void>;
  setFilters(filters: Partial<ClaimsFilters>): void;
  /** Recomputes one row on a fresh pool with the shipped report's seeds; a running recomputation is cancelled first. */
  recompute(id: string): void;
  /** Stops the pool: the row keeps its shipped (or earlier) numbers. */
  cancel(): void;
}

export type ClaimsStore = StoreApi<ClaimsState>;

/** The rows that pass the filters, in the report's order. */
export function visibleRows(state: Pick<ClaimsState, 'rows' | 'filters'>): ClaimRow[] {
  const { paper, verdict } = state.filters;
  return state.rows.filter((r) => (paper === 'all' || r.paper === paper) && (verdict === 'all' || r.verdict === verdict));
}

/** Verdict counts of some rows (the view's summary line and the README's). */
export function verdictCounts(rows: readonly ClaimRow[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { holds: 0, partly: 0, fails: 0, noise: 0 };
  for (const r of rows) counts[r.verdict]++;
  return counts;
}

export interface ClaimsStoreDeps {
  readonly fetchReport: () => Promise<ReportFetch>;
  readonly computer: RowComputer;
  /** A fresh pool of workers for one recomputation (Web Workers in the page, in-process in tests). */
  readonly makePool: () => CellPool;
  /** Where and how this page computes (the user agent, the cores, the build); the seeds and date are added per row. */
  readonly here: () => Omit<ClaimsProvenance, 'seeds' | 'date'>;
  readonly nowIso?: () => string;
  /** Calls `publish` later (progress reaches the view at most once per call). */
  readonly later?: (publish: () => void) => void;
}

/**
 * Runs a scenario's cells on a pool: each cell once, costliest first (as the Explore view), each
 * outcome in its canonical slot. `onCell` is called after each finished cell.
 */
export function runCellsOnPool(pool: CellPool, scenario: AnyScenario, seeds: readonly number[], onCell: () => void): Promise<CellOutcome[]> {
  const cells = sweepCells(scenario, seeds);
  const outcomes: CellOutcome[] = new Array<CellOutcome>(cells.length);
  const json = JSON.stringify(scenario);
  return Promise.all(
    costliestFirst(scenario, cells).map((cell) =>
      pool.run(json, seeds, cell.index).then((outcome) => {
        outcomes[cell.index] = outcome;
        onCell();
      }),
    ),
  ).then(() => outcomes);
}

/**
 * The Claims view's store: the shipped reproduction report, the filters, and one row at a time
 * recomputed on a pool of workers. A recomputed row replaces the shipped one in `rows` and is
 * marked in `computedHere` with this page's provenance; cancelling leaves the row as it was.
 */
export function createClaimsStore(deps: ClaimsStoreDeps): ClaimsStore {
  const nowIso = deps.nowIso ?? (() => new Date().toISOString());
  const later = deps.later ?? ((publish: () => void) => void setTimeout(publish, PUBLISH_EVERY_MS));
  let pool: CellPool | null = null;
  let run = 0;
  let progress = { done: 0, total: 0 };
  let due = false;
  const stopPool = () => {
    pool?.terminate();
    pool = null;
  };
  return createStore<ClaimsState>()(
    subscribeWithSelector((set, get) => {
      const publish = (id: number) => {
        due = false;
        const job = get().job;
        if (id !== run || job === null || job.status !== 'running') return;
        if (job.done !== progress.done || job.total !== progress.total) set({ job: { ...job, ...progress } });
      };
      return {
        status: 'idle',
        shipped: null,
        loadMessage: null,
        loadErrors: null,
        rows: [],
        computedHere: {},
        filters: { paper: 'all', verdict: 'all' },
        job: null,
        load: async () => {
          const status = get().status;
          if (status === 'loading' || status === 'ready') return;
          set({ status: 'loading', loadMessage: null, loadErrors: null });
          let fetched: ReportFetch;
          try {
            fetched = await deps.fetchReport();
          } catch (error) {
            fetched = { kind: 'missing', message: error instanceof Error ? error.message : String(error) };
          }
          if (fetched.kind === 'report') set({ status: 'ready', shipped: fetched.report, rows: fetched.report.rows, computedHere: {} });
          else if (fetched.kind === 'missing') set({ status: 'missing', loadMessage: fetched.message });
          else set({ status: 'invalid', loadErrors: fetched.errors, loadMessage: null });
        },
        setFilters: (filters) => set({ filters: { ...get().filters, ...filters } }),
        recompute: (id) => {
          const shipped = get().shipped;
          if (shipped === null || !get().rows.some((r) => r.id === id)) return;
          stopPool();
          const mine = ++run;
          const seeds = shipped.provenance.seeds;
          progress = { done: 0, total: 0 };
          pool = deps.makePool();
          const thisPool = pool;
          set({ job: { id, status: 'running', done: 0, total: 0, error: null } });
          const onProgress: ClaimsProgress = (done, total) => {
            if (mine !== run) return;
            progress = { done, total };
            if (!due) {
              due = true;
              later(() => publish(mine));
            }
          };
          const runCells: RunCells = (scenario, cellSeeds, onCell) => {
            if (mine !== run) return Promise.reject(new Error('cancelled'));
            let done = 0;
            return runCellsOnPool(thisPool, scenario, cellSeeds, () => onCell?.(++done));
          };
          let computing: Promise<ClaimRow>;
          try {
            computing = deps.computer.compute(id, seeds, runCells, onProgress, shipped.provenance.learning);
          } catch (error) {
            computing = Promise.reject(error instanceof Error ? error : new Error(String(error)));
          }
          computing.then(
            (row) => {
              if (mine !== run) return;
              if (pool === thisPool) stopPool();
              const date = nowIso();
              set({
                rows: get().rows.map((r) => (r.id === id ? row : r)),
                computedHere: { ...get().computedHere, [id]: { ...deps.here(), seeds, date } },
                job: { id, status: 'done', done: progress.total, total: progress.total, error: null },
              });
            },
            (error: unknown) => {
              if (mine !== run) return;
              if (pool === thisPool) stopPool();
              set({ job: { id, status: 'error', ...progress, error: error instanceof Error ? error.message : String(error) } });
            },
          );
        },
        cancel: () => {
          const job = get().job;
          if (job === null || job.status !== 'running') return;
          run++;
          stopPool();
          set({ job: { ...job, ...progress, status: 'cancelled' } });
        },
      };
    }),
  );
}
