/// <reference lib="webworker" />
import type { AgentFile } from '../agents/learner';
import { learningFactoryOf, wantedAgents } from '../agents/learning';
import type { AgentKey, AgentLibrary } from '../agents/registry';
import type { Tf } from '../../../lib/tf';
import type { ServingScenario } from '../schema';
import { loadPageTf } from '../../../worker/pageTf';
import { isLearningScheduler, type LearningFactory } from '../schedulers/registry';

/**
 * TensorFlow.js for the serving worker, loaded the first time a scenario has a learning
 * lane (the page's first load stays small): the wasm backend, its binaries served by Vite
 * (`?url`), and the shipped agents (`public/agents/<scheduler>.json`) fetched from the
 * page's own origin when a lane starts from one.
 */
let tf: Promise<Tf> | null = null;
const agents = new Map<AgentKey, Promise<AgentFile>>();
/** What has loaded so far, for `learningAtHand`. */
let loadedTf: Tf | null = null;
const loadedAgents = new Map<AgentKey, AgentFile>();

function fetchAgent(id: AgentKey, baseUrl: string): Promise<AgentFile> {
  let agent = agents.get(id);
  if (agent === undefined) {
    agent = fetch(new URL(`${id}.json`, baseUrl)).then(async (response) => {
      if (!response.ok) throw new Error(`agents/${id}.json: ${response.status} ${response.statusText}`);
      return (await response.json()) as AgentFile;
    });
    agent.then(
      (file) => loadedAgents.set(id, file),
      () => agents.delete(id),
    );
    agents.set(id, agent);
  }
  return agent;
}

/**
 * The learning factory for a scenario (null when it has no learning lane); `variants`, the
 * scenarios it will run (a sweep's cells may change the slot reading, and with it the agent).
 */
export async function learningFactoryFor(scenario: ServingScenario, agentsBaseUrl: string, variants: readonly ServingScenario[] = [scenario]): Promise<LearningFactory | null> {
  if (!scenario.serving.lanes.some((l) => isLearningScheduler(l.scheduler))) return null;
  if (tf === null) {
    tf = loadPageTf();
    tf.then(
      (module) => (loadedTf = module),
      () => (tf = null),
    );
  }
  const module = await tf;
  const library: AgentLibrary = {};
  await Promise.all(wantedAgents(variants).map(async (id) => (library[id] = await fetchAgent(id, agentsBaseUrl))));
  return learningFactoryOf(module, library);
}

/**
 * The learning factory for a scenario when tfjs and every agent it starts from have loaded
 * already (a later load of the page's session), else null: its learning lanes then need not
 * wait for anything. Agents are fetched once per worker, whatever the base URL of a later ask.
 */
export function learningAtHandFor(scenario: ServingScenario): LearningFactory | null {
  if (loadedTf === null) return null;
  const library: AgentLibrary = {};
  for (const id of wantedAgents([scenario])) {
    const file = loadedAgents.get(id);
    if (file === undefined) return null;
    library[id] = file;
  }
  return learningFactoryOf(loadedTf, library);
}
