/// <reference lib="webworker" />
import workerpool from 'workerpool';
import { parseAnyScenario } from '../scenario/parse';
import { formatErrors, type AnyScenario } from '../scenario/schema';
import { type ServingScenario } from '../worlds/serving/schema';
import { hasLearningLane } from '../kit/world';
import { worldOf } from '../worlds';
import { cellScenario, sweepCells, type SweepCell } from '../scenario/sweep';
import { runCell, type CellOutcome } from '../scenario/sweepReport';
import type { LearningFactory } from '../worlds/serving/schedulers/registry';
import { learningFactoryFor } from '../worlds/serving/worker/learningLoader';

/**
 * One Web Worker of the Explore view's pool (workerpool): runs cells of one sweep by index.
 * The scenario arrives as JSON and is validated here, as at every door; the cells are
 * rebuilt from it, so index i is the same cell as in the CLI. Learning lanes load
 * TensorFlow.js in this worker the first time (each cell builds its own agent: from scratch
 * with the cell's seed, or the shipped one when the lane says `pretrained`).
 */
let current: { key: string; scenario: AnyScenario; cells: SweepCell[]; learning: LearningFactory | undefined } | null = null;

async function prepare(scenarioJson: string, seeds: readonly number[], agentsBaseUrl: string) {
  const key = `${scenarioJson}\n${JSON.stringify(seeds)}`;
  if (current !== null && current.key === key) return current;
  const parsed = parseAnyScenario(JSON.parse(scenarioJson));
  if (!parsed.ok) throw new Error(formatErrors(parsed.errors));
  const scenario = parsed.scenario;
  // The learners are loaded (tfjs, the shipped agents) only for a scenario with a learning lane.
  const cells = sweepCells(scenario, seeds);
  const serving = scenario as ServingScenario;
  const learning = hasLearningLane(worldOf(scenario), scenario) ? ((await learningFactoryFor(serving, agentsBaseUrl, cells.map((cell) => cellScenario(serving, cell)))) ?? undefined) : undefined;
  current = { key, scenario, cells, learning };
  return current;
}

async function runSweepCell(scenarioJson: string, seeds: readonly number[], index: number, agentsBaseUrl: string): Promise<CellOutcome> {
  const { scenario, cells, learning } = await prepare(scenarioJson, seeds, agentsBaseUrl);
  const cell = cells[index];
  if (cell === undefined) throw new RangeError(`cell ${index} is not a cell of this sweep`);
  return runCell(scenario, cell, () => performance.now(), learning);
}

const api = { runSweepCell };
export type ExploreWorkerApi = typeof api;
workerpool.worker(api);
