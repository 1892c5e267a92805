import { subscribeWithSelector } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { costliestFirst } from '../scenario/cost';
import type { AnyScenario } from '../scenario/schema';
import { sweepCells, sweepSeeds } from '../scenario/sweep';
import type { CellOutcome } from '../scenario/sweepReport';
import type { CellPool } from './explorePool';
import { POOL_IDLE_MS, PUBLISH_EVERY_MS } from './constants';

export type ExploreStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface ExploreState {
  readonly status: ExploreStatus;
  /** The swept scenario the outcomes belong to (null before the first sweep). */
  readonly scenario: AnyScenario | null;
  readonly seeds: readonly number[];
  readonly total: number;
  readonly done: number;
  /**
   * One slot per cell in canonical order, filled as cells finish. Mutated in place (a sweep
   * may have thousands of cells); `version` changes with every cell, select it to redraw.
   */
  readonly outcomes: (CellOutcome | null)[];
  readonly version: number;
  readonly workers: number;
  readonly error: string | null;
  /** Wall-clock of the sweep, ms (page clock; for cells/s). */
  readonly startedMs: number;
  readonly finishedMs: number | null;
  /** Runs every cell of the scenario's sweep on a pool of `workers` (default: the pool's own size; the last sweep's pool while it idles, if it has as many); a running sweep is cancelled first. */
  start(scenario: AnyScenario, workers?: number): void;
  /** Stops the pool: the cells done stay, the others are dropped. */
  cancel(): void;
  /** Forgets the last sweep (cancelled if it runs): Explore opens clean over another lab's scenario. */
  clear(): void;
}

export type ExploreStore = StoreApi<ExploreState>;

/**
 * The Explore view's store: one sweep at a time on a pool of workers made by `makePool`
 * (Web Workers in the page, an in-process pool in tests). Cells fill in as they finish, in
 * any order, each in its canonical slot.
 */
export function createExploreStore(
  makePool: (workers?: number) => CellPool,
  now: () => number = () => performance.now(),
  /**
   * Calls `publish` later: finished cells reach the view at most once per call, so a pool
   * that finishes hundreds of small cells a second does not redraw the charts for each one
   * and take the main thread (and a core) from the workers.
   */
  later: (publish: () => void) => void = (publish) => void setTimeout(publish, PUBLISH_EVERY_MS),
  /**
   * Calls `stop` once the pool has idled for a while (POOL_IDLE_MS); returns how to call it
   * off. A finished sweep leaves its pool warm: starting its workers (loading the worker's
   * module, opening the scenario) is about half a second of a one-second sweep, so the next
   * sweep on as many workers reuses them.
   */
  idle: (stop: () => void) => () => void = (stop) => {
    const timer = setTimeout(stop, POOL_IDLE_MS);
    return () => clearTimeout(timer);
  },
): ExploreStore {
  let pool: CellPool | null = null;
  /** Calls off the idle pool's stop, while it idles. */
  let idleStop: (() => void) | null = null;
  let run = 0;
  /** Cells finished in the current sweep, and whether a publish of that count is due. */
  let finished = 0;
  let due = false;
  const stopPool = () => {
    idleStop?.();
    idleStop = null;
    pool?.terminate();
    pool = null;
  };
  /** The pool for a sweep on `workers`: the idle one when it has as many (or no count is asked), else a fresh one. */
  const poolFor = (workers: number | undefined): CellPool => {
    if (pool !== null && idleStop !== null && (workers === undefined || workers === pool.workers)) {
      idleStop();
      idleStop = null;
      return pool;
    }
    stopPool();
    pool = makePool(workers);
    return pool;
  };
  return createStore<ExploreState>()(
    subscribeWithSelector((set, get) => {
      const publish = () => {
        due = false;
        if (get().status === 'running' && finished !== get().done) set({ done: finished, version: get().version + 1 });
      };
      return {
        status: 'idle',
        scenario: null,
        seeds: [],
        total: 0,
        done: 0,
        outcomes: [],
        version: 0,
        workers: 0,
        error: null,
        startedMs: 0,
        finishedMs: null,
        start: (scenario, workers) => {
          // A sweep under way has cells in its workers: they stop with it.
          if (get().status === 'running') stopPool();
          const id = ++run;
          const seeds = sweepSeeds(scenario);
          const cells = sweepCells(scenario, seeds);
          const outcomes: (CellOutcome | null)[] = cells.map(() => null);
          finished = 0;
          const mine = poolFor(workers);
          set({ status: 'running', scenario, seeds, total: cells.length, done: 0, outcomes, version: get().version + 1, workers: mine.workers, error: null, startedMs: now(), finishedMs: null });
          const json = JSON.stringify(scenario);
          // Started costliest first, so the pool does not end on one long cell (each fills its own slot).
          for (const cell of costliestFirst(scenario, cells)) {
            mine.run(json, seeds, cell.index).then(
              (outcome) => {
                if (id !== run) return;
                outcomes[cell.index] = outcome;
                finished++;
                if (finished === cells.length) {
                  set({ done: finished, version: get().version + 1, status: 'done', finishedMs: now() });
                  if (pool === mine) idleStop = idle(() => pool === mine && stopPool());
                } else if (!due) {
                  due = true;
                  later(() => id === run && publish());
                }
              },
              (error: unknown) => {
                if (id !== run || get().status !== 'running') return;
                set({ status: 'error', error: error instanceof Error ? error.message : String(error), finishedMs: now() });
                stopPool();
              },
            );
          }
        },
        clear: () => {
          get().cancel();
          run++;
          set({ status: 'idle', scenario: null, seeds: [], total: 0, done: 0, outcomes: [], version: get().version + 1, error: null, startedMs: 0, finishedMs: null });
        },
        cancel: () => {
          if (get().status !== 'running') return;
          run++;
          stopPool();
          set({ status: 'cancelled', done: finished, finishedMs: now(), version: get().version + 1 });
        },
      };
    }),
  );
}
