import type { Tf } from '../../../lib/tf';
import type { AgentFile } from './learner';
import { createLatencyPredictor } from './predictorAdapter';
import { agentKeyOf, createLearningFactory, type AgentKey, type AgentLibrary, type LearningFactoryOptions } from './registry';
import type { ServingScenario } from '../schema';
import { isLearningScheduler, type LearningFactory, type LearningSchedulerId } from '../schedulers/registry';

/**
 * The serving world's learners for scenarios it is about to run, wherever TensorFlow.js comes
 * from (the page's workers load it on wasm, `worker/learningLoader.ts`; the Explore view's
 * worker asks `World.learning`, which lands here).
 */

/** The shipped agents the lanes of these scenarios start from (by each scenario's slot reading, `agentKeyOf`). */
export function wantedAgents(scenarios: readonly ServingScenario[]): AgentKey[] {
  const keys = scenarios.flatMap((scenario) =>
    scenario.serving.lanes
      .filter((l) => isLearningScheduler(l.scheduler) && l.params?.['pretrained'] === 1)
      .map((l) => agentKeyOf(l.scheduler as LearningSchedulerId, scenario.serving.assumptions?.slot, l.params ?? {})),
  );
  return [...new Set(keys)];
}

/**
 * The learning factory over `tf` with these shipped agents and the latency predictor; `options`
 * adds to or replaces them (the command line's `train` watches what it builds and trains in lockstep).
 */
export function learningFactoryOf(tf: Tf, library: AgentLibrary, options: LearningFactoryOptions = {}): LearningFactory {
  return createLearningFactory(tf, { agents: library, predictor: (context) => createLatencyPredictor(tf, context), ...options });
}

/** The learning factory for these scenarios, each shipped agent they start from fetched by `agent` (a shipped agent's JSON). */
export async function servingLearning(tf: Tf, agent: (key: AgentKey) => Promise<unknown>, scenarios: readonly ServingScenario[], options: LearningFactoryOptions = {}): Promise<LearningFactory> {
  const library: AgentLibrary = {};
  await Promise.all(wantedAgents(scenarios).map(async (id) => (library[id] = (await agent(id)) as AgentFile)));
  return learningFactoryOf(tf, library, options);
}
