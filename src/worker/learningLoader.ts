/// <reference lib="webworker" />
import type { AgentFile } from '../agents/learner';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory, type AgentLibrary } from '../agents/registry';
import type { Tf } from '../agents/tf';
import type { ServingScenario } from '../scenario/schema';
import { loadPageTf } from './pageTf';
import { isLearningScheduler, type LearningFactory, type LearningSchedulerId } from '../schedulers/serving/registry';

/**
 * TensorFlow.js for the serving worker, loaded the first time a scenario has a learning
 * lane (the page's first load stays small): the wasm backend, its binaries served by Vite
 * (`?url`), and the shipped agents (`public/agents/<scheduler>.json`) fetched from the
 * page's own origin when a lane starts from one.
 */
let tf: Promise<Tf> | null = null;
const agents = new Map<LearningSchedulerId, Promise<AgentFile>>();

function fetchAgent(id: LearningSchedulerId, baseUrl: string): Promise<AgentFile> {
  let agent = agents.get(id);
  if (agent === undefined) {
    agent = fetch(new URL(`${id}.json`, baseUrl)).then(async (response) => {
      if (!response.ok) throw new Error(`agents/${id}.json: ${response.status} ${response.statusText}`);
      return (await response.json()) as AgentFile;
    });
    agent.catch(() => agents.delete(id));
    agents.set(id, agent);
  }
  return agent;
}

/** The learning factory for a scenario (null when it has no learning lane). */
export async function learningFactoryFor(scenario: ServingScenario, agentsBaseUrl: string): Promise<LearningFactory | null> {
  const lanes = scenario.serving.lanes.filter((l) => isLearningScheduler(l.scheduler));
  if (lanes.length === 0) return null;
  tf ??= loadPageTf();
  tf.catch(() => (tf = null));
  const module = await tf;
  const library: AgentLibrary = {};
  const wanted = [...new Set(lanes.filter((l) => l.params?.['pretrained'] === 1).map((l) => l.scheduler as LearningSchedulerId))];
  await Promise.all(wanted.map(async (id) => (library[id] = await fetchAgent(id, agentsBaseUrl))));
  return createLearningFactory(module, { agents: library, predictor: (context) => createLatencyPredictor(module, context) });
}
