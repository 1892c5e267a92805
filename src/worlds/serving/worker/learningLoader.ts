/// <reference lib="webworker" />
import type { AgentFile } from '../agents/learner';
import { learningFactoryOf, servingLearning, wantedAgents } from '../agents/learning';
import type { AgentKey, AgentLibrary } from '../agents/registry';
import type { Tf } from '../../../lib/tf';
import type { ServingScenario } from '../schema';
import { loadPageTf } from '../../../worker/pageTf';
import { fetchShippedAgent } from '../../../worker/shippedAgentFetch';
import { isLearningScheduler, type LearningFactory } from '../schedulers/registry';

/**
 * TensorFlow.js for the serving worker, loaded the first time a scenario has a learning
 * lane (the page's first load stays small): the wasm backend, its binaries served by Vite
 * (`?url`), and the shipped agents (`public/agents/<scheduler>.json`) fetched from the
 * page's own origin when a lane starts from one.
 */
let tf: Promise<Tf> | null = null;
const agents = new Map<string, Promise<unknown>>();
/** What has loaded so far, for `learningAtHand`. */
let loadedTf: Tf | null = null;
const loadedAgents = new Map<AgentKey, AgentFile>();

/** A shipped agent, fetched once per worker (`fetchShippedAgent`); kept for `learningAtHandFor` once it is here. */
function fetchAgent(id: AgentKey, baseUrl: string): Promise<AgentFile> {
  const fresh = !agents.has(id);
  const agent = fetchShippedAgent(agents, id, baseUrl) as Promise<AgentFile>;
  if (fresh) agent.then((file) => loadedAgents.set(id, file), () => undefined);
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
  return servingLearning(await tf, (id) => fetchAgent(id, agentsBaseUrl), variants);
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
