import type { AnyScenario } from '../scenario/schema';
import { cellScenario, type SweepCell } from '../scenario/sweep';
import { hasLearningLane } from '../kit/world';
import { worldOf } from '../kit/worlds';
import type { CliLearning } from './shippedAgents';

/** Whether a scenario has a learning lane (it needs TensorFlow.js). */
export function hasLearningLanes(scenario: AnyScenario): boolean {
  return hasLearningLane(worldOf(scenario), scenario);
}

/**
 * The learner factory the cells of a scenario run with: its world's (`World.learning`, ARCHITECTURE
 * §7b), built for the cells' scenarios (a sweep may change which shipped agent a lane starts from);
 * undefined when the scenario has no learning lane.
 */
export async function learningFor(scenario: AnyScenario, cells: readonly SweepCell[], learning: CliLearning | undefined): Promise<unknown> {
  const world = worldOf(scenario);
  if (world.learning === undefined || !hasLearningLane(world, scenario)) return undefined;
  if (learning === undefined) throw new Error('this scenario has learning lanes but TensorFlow.js was not loaded (needsLearning)');
  return world.learning(learning.tf, learning.agent, cells.map((cell) => cellScenario(scenario, cell)));
}
