// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../worlds';
import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CLI_WORLDS } from '../worlds/commands';
import { needsLearning, runCli, type CliIo } from './cli';
import { loadCliLearning } from './shippedAgents';
import { terminalProgress } from './sweepProgress';

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
  env: process.env,
  ...(process.stderr.isTTY === true ? { createProgress: terminalProgress } : {}),
};
// Each world sets up what its runs use of the other cores (the serving world's reference searches).
for (const world of CLI_WORLDS) world.start?.(availableParallelism() - 1);
// tfjs only when a learning scheduler runs: `presets` or a pipeline run stay quick.
const learning = needsLearning(args, io, CLI_WORLDS) ? await loadCliLearning() : undefined;
process.exitCode = await runCli(args, learning === undefined ? io : { ...io, learning }, CLI_WORLDS);
