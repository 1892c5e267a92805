// What `npm start` and `npm test` need before they run anything: the npm dependencies and,
// for the end-to-end tests, the system Chromium. The decisions are pure functions of a few
// facts about the machine, so they are tested without touching it; the probes and the
// installs that act on those decisions sit below them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Where the end-to-end tests look for the browser (`playwright.config.ts`). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * node_modules needs an install when it is missing, or when package-lock.json changed
 * after the last install (npm writes node_modules/.package-lock.json on every install).
 * @param {string} [root]
 * @returns {string | undefined} why, or undefined when it is up to date
 */
export function installReason(root = repoRoot) {
  const lockFile = join(root, 'package-lock.json');
  const installedLock = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(join(root, 'node_modules'))) {
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

/**
 * @typedef {object} ChromiumFacts
 * @property {boolean} chromiumExists an executable is at CHROMIUM_PATH
 * @property {boolean} hasAptGet Debian's package manager is on the PATH
 * @property {boolean} isRoot the current user is root
 * @property {boolean} passwordlessSudo `sudo -n true` succeeds
 */

/**
 * @typedef {{ kind: 'present' }
 *   | { kind: 'install', command: string[], asText: string }
 *   | { kind: 'cannot-install', message: string }} ChromiumPlan
 */

const APT_INSTALL = 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium';

/**
 * Decides what to do about the browser the end-to-end tests need: nothing when it is
 * there; install it with apt when this user may (root, or passwordless sudo); otherwise
 * one line that says what to install and how, so that the run stops before anything.
 * @param {ChromiumFacts} facts
 * @returns {ChromiumPlan}
 */
export function chromiumPlan(facts) {
  if (facts.chromiumExists) {
    return { kind: 'present' };
  }
  if (facts.hasAptGet && facts.isRoot) {
    return { kind: 'install', command: ['bash', '-c', APT_INSTALL], asText: APT_INSTALL };
  }
  if (facts.hasAptGet && facts.passwordlessSudo) {
    const asText = `sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium`;
    return { kind: 'install', command: ['bash', '-c', asText], asText };
  }
  const how = facts.hasAptGet
    ? 'run `sudo apt-get update && sudo apt-get install -y chromium`'
    : `install Chromium so that ${CHROMIUM_PATH} exists (on Debian or Ubuntu: \`apt-get install chromium\`)`;
  return {
    kind: 'cannot-install',
    message: `npm test: the end-to-end tests need Chromium at ${CHROMIUM_PATH}, which is missing, and this user cannot install it: ${how}, then run npm test again.`,
  };
}

/**
 * Reads the facts `chromiumPlan` decides on from this machine.
 * @returns {ChromiumFacts}
 */
export function probeChromiumFacts() {
  const succeeds = (/** @type {string} */ command, /** @type {string[]} */ args) =>
    spawnSync(command, args, { stdio: 'ignore' }).status === 0;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return {
    chromiumExists: existsSync(CHROMIUM_PATH),
    hasAptGet: succeeds('sh', ['-c', 'command -v apt-get']),
    isRoot,
    passwordlessSudo: !isRoot && succeeds('sudo', ['-n', 'true']),
  };
}

/**
 * Runs a command with inherited stdio in its own process group. Resolves with its exit
 * code. SIGINT and SIGTERM sent to this process stop it; so does `timeoutSeconds`, after
 * which it resolves with 124, as `timeout(1)` does.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ timeoutSeconds?: number, env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<number>}
 */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      stdio: 'inherit',
      env: options.env ?? process.env,
      detached: true,
    });
    let timedOut = false;
    const stopGroup = (/** @type {NodeJS.Signals} */ signal) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    // Both signals are passed on as SIGTERM: a process started in the background by a
    // non-interactive shell inherits SIGINT as ignored, so a forwarded SIGINT would not stop it.
    const forward = () => stopGroup('SIGTERM');
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    /** @type {NodeJS.Timeout | undefined} */
    let killTimer;
    if (options.timeoutSeconds !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        console.error(`${command} ${args.join(' ')}: stopped after ${options.timeoutSeconds} s`);
        stopGroup('SIGTERM');
        killTimer = setTimeout(() => stopGroup('SIGKILL'), 10_000);
      }, options.timeoutSeconds * 1000);
    }
    const done = () => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      clearTimeout(timer);
      clearTimeout(killTimer);
    };
    child.on('error', (error) => {
      done();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      done();
      if (timedOut) {
        resolve(124);
        return;
      }
      // A child stopped by a signal exits like a shell would report it: 128 + signal number.
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
    });
  });
}

/** @param {string} name a binary in node_modules/.bin */
export const bin = (name) => join(repoRoot, 'node_modules', '.bin', name);

/**
 * Installs the npm dependencies when `installReason` says so.
 * @param {string} who the command's name, for its messages
 * @returns {Promise<number>} npm's exit code, or 0 when nothing was needed
 */
export async function ensureDependencies(who) {
  const reason = installReason();
  if (reason === undefined) {
    return 0;
  }
  console.log(`${who}: ${reason}; running npm ci`);
  return run('npm', ['ci', '--no-audit', '--no-fund']);
}
