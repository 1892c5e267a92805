import { existsSync, readFileSync } from 'node:fs';
import { SHIPPED_AGENTS_DIR } from '../../../cli/shippedAgents';
import type { AgentFile } from '../agents/learner';
import { FIXED_SLOT_AGENTS, type AgentKey, type AgentLibrary } from '../agents/registry';
import { LEARNING_SCHEDULER_IDS } from '../schedulers/registry';

/**
 * Every agent the page ships (public/agents/<scheduler>.json, and <scheduler>-fixed-slot.json
 * where one is), read at once: for the bench's runs, which build one learning factory for lanes
 * of every kind (the command line reads only the agents a scenario's lanes start from, `World.learning`).
 */
export function readShippedAgents(warn: (text: string) => void = (text) => process.stderr.write(text)): AgentLibrary {
  const agents: AgentLibrary = {};
  const keys: AgentKey[] = LEARNING_SCHEDULER_IDS.flatMap((id): AgentKey[] => (FIXED_SLOT_AGENTS.has(id) ? [id, `${id}-fixed-slot`] : [id]));
  for (const id of keys) {
    const path = `${SHIPPED_AGENTS_DIR}${id}.json`;
    if (!existsSync(path)) continue;
    try {
      agents[id] = JSON.parse(readFileSync(path, 'utf8')) as AgentFile;
    } catch (error) {
      warn(`warning: ${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}); ignored\n`);
    }
  }
  return agents;
}
