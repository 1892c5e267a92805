import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import { costliestFirst } from '../scenario/cost';
import type { AnyScenario } from '../scenario/schema';
import type { SweepCell } from '../scenario/sweep';
import type { CellOutcome } from '../scenario/sweepReport';

/** The worker count of `--workers auto`: every core Node may use. */
export function autoWorkers(): number {
  return availableParallelism();
}

const WORKER_SCRIPT = fileURLToPath(new URL('./sweepWorker.mjs', import.meta.url));

/** A pool of worker threads for one sweep (workerpool). */
export interface SweepPool {
  /**
   * Starts every thread and has each validate the scenario (and load TensorFlow.js when it
   * has learning lanes) before any cell runs: what the bench times a warm pool after.
   */
  warm(scenario: AnyScenario, seeds: readonly number[]): Promise<void>;
  run(scenario: AnyScenario, seeds: readonly number[], cells: readonly SweepCell[], onCell?: (done: number) => void): Promise<CellOutcome[]>;
  terminate(): Promise<void>;
}

export function openSweepPool(workers: number): SweepPool {
  const pool = workerpool.pool(WORKER_SCRIPT, { workerType: 'thread', maxWorkers: workers });
  return {
    // All tasks are queued at once while every started thread is still busy, so workerpool starts one thread per task.
    warm: async (scenario, seeds) => {
      const json = JSON.stringify(scenario);
      await Promise.all(Array.from({ length: workers }, () => pool.exec('prepareSweep', [json, seeds])));
    },
    run: (scenario, seeds, cells, onCell) => {
      const json = JSON.stringify(scenario);
      let done = 0;
      // Queued costliest first; each outcome still lands in its cell's place.
      const outcomes = new Map<number, Promise<CellOutcome>>();
      for (const cell of costliestFirst(scenario, cells)) {
        outcomes.set(
          cell.index,
          (pool.exec('runSweepCell', [json, seeds, cell.index]) as Promise<CellOutcome>).then((outcome) => {
            onCell?.(++done);
            return outcome;
          }),
        );
      }
      return Promise.all(cells.map((cell) => outcomes.get(cell.index)!));
    },
    terminate: async () => void (await pool.terminate()),
  };
}

/**
 * Runs cells on a pool of `workers` worker threads, one task per cell, and gives the
 * outcomes back in the order of `cells` whatever order they finish in. Each thread
 * validates the scenario and rebuilds the cells itself, so a cell is the same pure run as
 * in this thread. `onCell` is called with the count done after each one.
 */
export async function runCellsOnPool(
  scenario: AnyScenario,
  seeds: readonly number[],
  cells: readonly SweepCell[],
  workers: number,
  onCell?: (done: number) => void,
): Promise<CellOutcome[]> {
  const pool = openSweepPool(workers);
  try {
    return await pool.run(scenario, seeds, cells, onCell);
  } finally {
    await pool.terminate();
  }
}
