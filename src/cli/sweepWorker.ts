// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../worlds';
import workerpool from 'workerpool';
import { parseAnyScenario } from '../scenario/parse';
import { formatErrors, type AnyScenario } from '../scenario/schema';
import { sweepCells, type SweepCell } from '../scenario/sweep';
import { loadCliLearning } from './shippedAgents';
import { hasLearningLanes, learningFor } from './sweepCells';
import { runCell, type CellOutcome } from '../scenario/sweepReport';

/**
 * A worker thread of the CLI's pool: runs cells of one sweep by index. The scenario comes
 * as JSON and is validated here as at any door; its cells are rebuilt from it, so a cell
 * index means the same cell in every thread and process.
 */
let current: { json: string; seeds: string; scenario: AnyScenario; cells: SweepCell[]; learning: unknown } | null = null;

async function prepare(scenarioJson: string, seeds: readonly number[]) {
  const seedsJson = JSON.stringify(seeds);
  if (current !== null && current.json === scenarioJson && current.seeds === seedsJson) return current;
  const parsed = parseAnyScenario(JSON.parse(scenarioJson));
  if (!parsed.ok) throw new Error(formatErrors(parsed.errors));
  // tfjs only in threads whose scenario has a learning lane; each cell builds its own agent.
  const cells = sweepCells(parsed.scenario, seeds);
  const learning = hasLearningLanes(parsed.scenario) ? await learningFor(parsed.scenario, cells, await loadCliLearning()) : undefined;
  current = { json: scenarioJson, seeds: seedsJson, scenario: parsed.scenario, cells, learning };
  return current;
}

async function runSweepCell(scenarioJson: string, seeds: readonly number[], index: number): Promise<CellOutcome> {
  const { scenario, cells, learning } = await prepare(scenarioJson, seeds);
  const cell = cells[index];
  if (cell === undefined) throw new RangeError(`cell ${index} is not a cell of this sweep`);
  return runCell(scenario, cell, () => performance.now(), learning);
}

/** Validates the scenario and loads what its cells need, without running one (a warm pool). */
async function prepareSweep(scenarioJson: string, seeds: readonly number[]): Promise<void> {
  await prepare(scenarioJson, seeds);
}

workerpool.worker({ runSweepCell, prepareSweep });
