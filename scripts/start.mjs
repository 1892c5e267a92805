// `npm start`: install if needed, build, then serve the build at http://127.0.0.1:4173.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** @param {string} name a binary in node_modules/.bin */
const bin = (name) => join(repoRoot, 'node_modules', '.bin', name);

/**
 * Runs a command with inherited stdio. Resolves with its exit code; SIGINT and SIGTERM
 * sent to this process stop it, so Ctrl+C or a supervisor stops the server cleanly.
 * @param {string} command
 * @param {readonly string[]} args
 * @returns {Promise<number>}
 */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
    // Both signals are passed on as SIGTERM: a process started in the background by a
    // non-interactive shell inherits SIGINT as ignored, so a forwarded SIGINT would not stop it.
    const forward = () => {
      child.kill('SIGTERM');
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      // A child stopped by a signal exits like a shell would report it: 128 + signal number.
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
    });
  });
}

/**
 * node_modules needs an install when it is missing, or when package-lock.json changed
 * after the last install (npm writes node_modules/.package-lock.json on every install).
 * @returns {string | undefined} why, or undefined when it is up to date
 */
function installReason() {
  const lockFile = join(repoRoot, 'package-lock.json');
  const installedLock = join(repoRoot, 'node_modules', '.package-lock.json');
  if (!existsSync(join(repoRoot, 'node_modules'))) {
    return 'node_modules is missing';
  }
  if (!existsSync(installedLock)) {
    return 'node_modules has no record of an install';
  }
  if (statSync(lockFile).mtimeMs > statSync(installedLock).mtimeMs) {
    return 'package-lock.json is newer than node_modules';
  }
  return undefined;
}

/** @param {string} step @param {number} code */
function stopIfFailed(step, code) {
  if (code !== 0) {
    console.error(`start: ${step} failed (exit code ${code}).`);
    process.exit(code);
  }
}

const reason = installReason();
if (reason !== undefined) {
  console.log(`start: ${reason}; running npm ci`);
  stopIfFailed('npm ci', await run('npm', ['ci', '--no-audit', '--no-fund']));
}

stopIfFailed('vite build', await run(bin('vite'), ['build']));

console.log('start: serving the lab at http://127.0.0.1:4173 (Ctrl+C to stop)');
process.exitCode = await run(bin('vite'), [
  'preview',
  '--host',
  '127.0.0.1',
  '--port',
  '4173',
  '--strictPort',
]);
