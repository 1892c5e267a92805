// What `npm start` and `npm test` need before they run anything: the npm dependencies and,
// for the end-to-end tests, the system Chromium. The decisions are pure functions of a few
// facts about the machine, so they are tested without touching it; the probes and the
// installs that act on those decisions sit below them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
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
 * The end-to-end step of `npm test`: the preview server of the built page, then `playwright
 * test` against it (`E2E_EXTERNAL_SERVER` tells playwright.config.ts not to start its own).
 * The server is this script's child, not Playwright's: Playwright starts its web server in a
 * session of its own, so a run stopped by a signal (CI's timeout, `kill`, a stopped `npm test`)
 * left it holding the port, and the next `npm test` failed at once on it. Here it is stopped
 * however the step ends: Playwright done, a signal to this process, the step's time cap, or
 * this process exiting. Resolves with Playwright's exit code (a server that does not come up:
 * 1, with a line saying why).
 * @param {readonly string[]} args for `playwright test`
 * @param {{ timeoutSeconds?: number, env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<number>}
 */
export async function runEndToEnd(args, options = {}) {
  const env = options.env ?? process.env;
  const port = Number(env['E2E_PORT'] ?? '4173');
  const dist = env['E2E_DIST'] ?? 'dist';
  const server = spawn(bin('vite'), ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', dist], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
    detached: true,
  });
  /** @type {Promise<void>} */
  const serverGone = new Promise((resolve) => server.once('exit', () => resolve()));
  let serverExited = false;
  void serverGone.then(() => {
    serverExited = true;
  });
  const stopServer = () => {
    if (server.pid === undefined || serverExited) return;
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  process.on('exit', stopServer);
  process.on('SIGINT', stopServer);
  process.on('SIGTERM', stopServer);
  try {
    const until = Date.now() + 60_000;
    while (!(await accepts(port))) {
      if (serverExited || Date.now() > until) {
        console.error(`e2e: the preview server did not start on 127.0.0.1:${port} (${serverExited ? 'it exited: is the port taken, or dist/ missing?' : 'no answer within 60 s'})`);
        return 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return await run(bin('playwright'), ['test', ...args], { ...options, env: { ...env, E2E_EXTERNAL_SERVER: '1' } });
  } finally {
    stopServer();
    const killTimer = setTimeout(() => {
      if (server.pid !== undefined && !serverExited) process.kill(-server.pid, 'SIGKILL');
    }, 5_000);
    await serverGone;
    clearTimeout(killTimer);
    process.off('exit', stopServer);
    process.off('SIGINT', stopServer);
    process.off('SIGTERM', stopServer);
  }
}

/**
 * Whether something accepts a TCP connection on 127.0.0.1:port.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function accepts(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

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
