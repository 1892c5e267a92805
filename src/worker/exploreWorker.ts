/// <reference lib="webworker" />
// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../worlds';
import workerpool from 'workerpool';
import { parseAnyScenario } from '../scenario/parse';
import { formatErrors, type AnyScenario } from '../scenario/schema';
import { hasLearningLane } from '../kit/world';
import { worldOf } from '../kit/worlds';
import { cellScenario, sweepCells, type SweepCell } from '../scenario/sweep';
import { runCell, type CellOutcome } from '../scenario/sweepReport';
import { loadPageTf } from './pageTf';
import { fetchShippedAgent } from './shippedAgentFetch';

/**
 * One Web Worker of the Explore view's pool (workerpool): runs cells of one sweep by index.
 * The scenario arrives as JSON and is validated here, as at every door; the cells are
 * rebuilt from it, so index i is the same cell as in the CLI. Learning lanes load
 * TensorFlow.js in this worker the first time and the world builds its learners
 * (`World.learning`; each cell builds its own agent: from scratch with the cell's seed, or the
 * shipped one when the lane says `pretrained`).
 */
let current: { key: string; scenario: AnyScenario; cells: SweepCell[]; learning: unknown } | null = null;

/** The shipped agents fetched so far, by key: once per worker (a failed fetch is tried again). */
const agents = new Map<string, Promise<unknown>>();

async function prepare(scenarioJson: string, seeds: readonly number[], agentsBaseUrl: string) {
  const key = `${scenarioJson}\n${JSON.stringify(seeds)}`;
  if (current !== null && current.key === key) return current;
  const parsed = parseAnyScenario(JSON.parse(scenarioJson));
  if (!parsed.ok) throw new Error(formatErrors(parsed.errors));
  const scenario = parsed.scenario;
  const world = worldOf(scenario);
  const cells = sweepCells(scenario, seeds);
  // The learners are loaded (tfjs, the shipped agents) only for a scenario with a learning lane.
  const learning =
    world.learning !== undefined && hasLearningLane(world, scenario)
      ? await world.learning(await loadPageTf(), (key) => fetchShippedAgent(agents, key, agentsBaseUrl), cells.map((cell) => cellScenario(scenario, cell)))
      : undefined;
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
