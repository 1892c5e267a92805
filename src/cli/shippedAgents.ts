import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentFile } from '../worlds/serving/agents/learner';
import { FIXED_SLOT_AGENTS, type AgentKey, type AgentLibrary } from '../worlds/serving/agents/registry';
import { loadTfNode } from '../lib/tfNode';
import { LEARNING_SCHEDULER_IDS } from '../worlds/serving/schedulers/registry';
import type { LearningKit } from './sweepCells';

/** The agents the page ships (public/agents/<scheduler>.json, and <scheduler>-fixed-slot.json where one is), for lanes with `pretrained = 1`. */
export function readShippedAgents(warn: (text: string) => void = (text) => process.stderr.write(text)): AgentLibrary {
  const dir = fileURLToPath(new URL('../../public/agents/', import.meta.url));
  const agents: AgentLibrary = {};
  const keys: AgentKey[] = LEARNING_SCHEDULER_IDS.flatMap((id): AgentKey[] => (FIXED_SLOT_AGENTS.has(id) ? [id, `${id}-fixed-slot`] : [id]));
  for (const id of keys) {
    const path = `${dir}${id}.json`;
    if (!existsSync(path)) continue;
    try {
      agents[id] = JSON.parse(readFileSync(path, 'utf8')) as AgentFile;
    } catch (error) {
      warn(`warning: ${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}); ignored\n`);
    }
  }
  return agents;
}

/** tfjs (wasm) and the shipped agents: what a learning lane needs in this process or worker thread. */
export async function loadLearningKit(): Promise<LearningKit> {
  return { tf: await loadTfNode(), agents: readShippedAgents() };
}
