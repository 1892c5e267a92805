import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentFile } from '../agents/learner';
import type { AgentLibrary } from '../agents/registry';
import { loadTfNode } from '../agents/tfNode';
import { LEARNING_SCHEDULER_IDS } from '../schedulers/serving/registry';
import { needsLearning, runCli, type CliIo } from './cli';

/** The agents the page ships (public/agents/<scheduler>.json), for lanes with `pretrained = 1`. */
function readShippedAgents(): AgentLibrary {
  const dir = fileURLToPath(new URL('../../public/agents/', import.meta.url));
  const agents: AgentLibrary = {};
  for (const id of LEARNING_SCHEDULER_IDS) {
    const path = `${dir}${id}.json`;
    if (!existsSync(path)) continue;
    try {
      agents[id] = JSON.parse(readFileSync(path, 'utf8')) as AgentFile;
    } catch (error) {
      process.stderr.write(`warning: ${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}); ignored\n`);
    }
  }
  return agents;
}

const args = process.argv.slice(2);
const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => (existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : null),
  writeFile: (path, text) => writeFileSync(path, text),
  isDirectory: (path) => existsSync(path) && statSync(path).isDirectory(),
  pathKind: (path) => {
    try {
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat === undefined) return 'missing';
      return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
    } catch {
      return 'other'; // a name the file system refuses (a NUL byte, too long)
    }
  },
  canWriteInto: (directory) => {
    try {
      accessSync(directory, constants.W_OK | constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  stderrIsTty: process.stderr.isTTY === true,
};
// tfjs only when a learning scheduler runs: `presets` or a pipeline run stay quick.
const learning = needsLearning(args, io) ? { tf: await loadTfNode(), agents: readShippedAgents() } : undefined;
process.exitCode = await runCli(args, learning === undefined ? io : { ...io, learning });
