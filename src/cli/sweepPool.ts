import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import type { AnyScenario } from '../scenario/schema';
import type { SweepCell } from '../scenario/sweep';
import type { CellOutcome } from '../scenario/sweepReport';

/** The worker count of `--workers auto`: every core Node may use. */
export function autoWorkers(): number {
  return availableParallelism();
}

const WORKER_SCRIPT = fileURLToPath(new URL('./sweepWorker.mjs', import.meta.url));

/**
 * Runs cells on a pool of `workers` worker threads (workerpool), one task per cell, and
 * gives the outcomes back in the order of `cells` whatever order they finish in. Each
 * thread validates the scenario and rebuilds the cells itself, so a cell is the same pure
 * run as in this thread. `onCell` is called with the count done after each one.
 */
export async function runCellsOnPool(
  scenario: AnyScenario,
  seeds: readonly number[],
  cells: readonly SweepCell[],
  workers: number,
  onCell?: (done: number) => void,
): Promise<CellOutcome[]> {
  const pool = workerpool.pool(WORKER_SCRIPT, { workerType: 'thread', maxWorkers: workers });
  const json = JSON.stringify(scenario);
  let done = 0;
  try {
    return await Promise.all(
      cells.map(async (cell) => {
        const outcome = (await pool.exec('runSweepCell', [json, seeds, cell.index])) as CellOutcome;
        onCell?.(++done);
        return outcome;
      }),
    );
  } finally {
    await pool.terminate();
  }
}
