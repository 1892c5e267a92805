// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../worlds';
import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { needsLearning, runCli, type CliIo } from './cli';
import { loadLearningKit } from './shippedAgents';
import { terminalProgress } from './sweepProgress';
import { useSearchEvaluator } from '../worlds/serving/schedulers/reference';
import { openSearchThreads } from './searchThreads';

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
// The reference lanes' searches share their evaluations out over every core (searchThreads.ts; the threads start at a search's first batch).
if (availableParallelism() > 1) useSearchEvaluator(openSearchThreads(availableParallelism() - 1));
// tfjs only when a learning scheduler runs: `presets` or a pipeline run stay quick.
const learning = needsLearning(args, io) ? await loadLearningKit() : undefined;
process.exitCode = await runCli(args, learning === undefined ? io : { ...io, learning });
