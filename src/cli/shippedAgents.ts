import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Tf } from '../lib/tf';
import { loadTfNode } from '../lib/tfNode';

/**
 * TensorFlow.js and what reads a shipped agent by its key: what a world builds its learners from
 * (`World.learning`, ARCHITECTURE §7b), in this process or a worker thread, as Explore's worker
 * does with the page's tfjs and a fetch.
 */
export interface CliLearning {
  readonly tf: Tf;
  /** The shipped agent of this key as parsed JSON, or undefined when there is none (a lane that wants it then says so). */
  readonly agent: (key: string) => Promise<unknown>;
}

/** Where the page ships its agents (public/agents/<key>.json): the command line reads the same files. */
export const SHIPPED_AGENTS_DIR = fileURLToPath(new URL('../../public/agents/', import.meta.url));

/**
 * Reads a shipped agent from disk: undefined when the file is missing, and when it is not JSON
 * (with a warning naming it, as a file nobody can load is worth saying but not worth stopping for).
 */
export async function readShippedAgent(key: string, warn: (text: string) => void = (text) => process.stderr.write(text)): Promise<unknown> {
  const path = `${SHIPPED_AGENTS_DIR}${key}.json`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    warn(`warning: ${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}); ignored\n`);
    return undefined;
  }
}

/** tfjs (wasm) and the shipped agents on disk: what a learning lane needs in this process or worker thread. */
export async function loadCliLearning(): Promise<CliLearning> {
  return { tf: await loadTfNode(), agent: (key) => readShippedAgent(key) };
}
