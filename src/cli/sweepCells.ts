import type { Tf } from '../lib/tf';
import { createLatencyPredictor } from '../worlds/serving/agents/predictorAdapter';
import { createLearningFactory, type AgentLibrary, type LearningFactoryOptions } from '../worlds/serving/agents/registry';
import type { LearningFactory } from '../worlds/serving/schedulers/registry';
import type { AnyScenario } from '../scenario/schema';
import type { ServingScenario } from '../worlds/serving/schema';
import { hasLearningLane } from '../kit/world';
import { worldOf } from '../kit/worlds';

/** TensorFlow.js and the shipped agents, for scenarios with learning lanes. */
export interface LearningKit {
  readonly tf: Tf;
  readonly agents: AgentLibrary;
}

/** Whether a scenario has a learning lane (it needs TensorFlow.js). */
export function hasLearningLanes(scenario: AnyScenario): scenario is ServingScenario {
  // Only the serving world has learners (World.hasLearners); its learning factory is the one built here.
  return hasLearningLane(worldOf(scenario), scenario);
}

/** The learning factory for a serving scenario with learning lanes (undefined when it has none). */
export function learningFactoryFor(scenario: AnyScenario, kit: LearningKit | undefined, options: LearningFactoryOptions = {}): LearningFactory | undefined {
  if (!hasLearningLanes(scenario)) return undefined;
  if (kit === undefined) throw new Error('this scenario has learning lanes but TensorFlow.js was not loaded (needsLearning)');
  const { tf, agents } = kit;
  return createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context), ...options });
}

