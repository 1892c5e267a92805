import workerpool from 'workerpool';
import exploreWorkerUrl from '../worker/exploreWorker.ts?worker&url';
import type { CellOutcome } from '../scenario/sweepReport';

/** Runs cells of a sweep somewhere (a pool of Web Workers in the page; in-process in tests). */
export interface CellPool {
  readonly workers: number;
  run(scenarioJson: string, seeds: readonly number[], index: number): Promise<CellOutcome>;
  /** Stops every worker at once; pending and running cells reject. */
  terminate(): void;
}

/** Workers for the page's pool: one per logical core the browser reports (at least 1). */
export function pageWorkers(): number {
  return Math.max(1, Math.min(64, navigator.hardwareConcurrency || 1));
}

/**
 * A pool of `workers` Web Workers (workerpool) running the Explore worker: workerpool
 * queues the cells and hands each to the next idle worker; the page only awaits promises.
 * Shipped agents are fetched from the page's own origin (public/agents/).
 */
export function createWebCellPool(workers: number = pageWorkers()): CellPool {
  const pool = workerpool.pool(exploreWorkerUrl, { maxWorkers: workers, workerType: 'web', workerOpts: { type: 'module', name: 'explore' } });
  const agentsBaseUrl = new URL('agents/', document.baseURI).href;
  return {
    workers,
    run: (scenarioJson, seeds, index) => pool.exec('runSweepCell', [scenarioJson, seeds, index, agentsBaseUrl]) as unknown as Promise<CellOutcome>,
    terminate: () => void pool.terminate(true),
  };
}
