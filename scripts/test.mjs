// `npm test`, and what CI runs (`.ci/run` calls this same script): make the machine ready
// (npm dependencies, the system Chromium for the end-to-end tests), then run every step —
// typecheck, lint, unit tests, build, end-to-end tests — even when an earlier one failed,
// so that every result is counted, and print `N passed, N failed` as the very last line.
// JSON reports land in `.ci/out/` (TEST_OUT overrides it). Exit code 0 only when nothing failed.
//
// Each step runs under a time cap, and the whole run under TEST_BUDGET_SECONDS (default
// 1680 s = 28 min), so that a hung step cannot keep CI past its limit.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bin, chromiumPlan, ensureDependencies, probeChromiumFacts, repoRoot, run, runEndToEnd } from './setup.mjs';

const outDir = process.env['TEST_OUT'] ?? join('.ci', 'out');
const budgetSeconds = Number(process.env['TEST_BUDGET_SECONDS'] ?? '1680');
const started = Date.now();
const secondsLeft = () => budgetSeconds - (Date.now() - started) / 1000;

rmSync(join(repoRoot, outDir), { recursive: true, force: true });
mkdirSync(join(repoRoot, outDir), { recursive: true });

/** @type {[string, number][]} name and exit code of each step, in order */
const results = [];

/**
 * Runs one step under `min(capSeconds, what is left of the budget)` and records its exit code.
 * `launch` starts it with that cap in seconds (`run` of a command, or `runEndToEnd`).
 * @param {string} name
 * @param {number} capSeconds
 * @param {(timeoutSeconds: number) => Promise<number>} launch
 */
async function capped(name, capSeconds, launch) {
  const cap = Math.floor(Math.min(capSeconds, secondsLeft()));
  if (cap <= 0) {
    console.log(`==> ${name}: skipped, out of time budget`);
    results.push([name, 124]);
    return 124;
  }
  const stepStarted = Date.now();
  console.log(`==> ${name}`);
  const code = await launch(cap);
  console.log(`==> ${name}: exit ${code} in ${Math.round((Date.now() - stepStarted) / 1000)}s`);
  results.push([name, code]);
  return code;
}

/**
 * One command as a step (see `capped`).
 * @param {string} name
 * @param {number} capSeconds
 * @param {string} command
 * @param {readonly string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 */
function step(name, capSeconds, command, args, env) {
  return capped(name, capSeconds, (timeoutSeconds) => run(command, args, { timeoutSeconds, ...(env === undefined ? {} : { env }) }));
}

// 1. The dependencies, as `npm start` installs them.
const installStarted = Date.now();
const installCode = await ensureDependencies('test');
if (installCode !== 0) {
  console.error(`test: npm ci failed (exit code ${installCode}); nothing else was run.`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (Date.now() - installStarted > 1000) {
  console.log(`==> install: done in ${Math.round((Date.now() - installStarted) / 1000)}s`);
}

// 2. The browser, before anything runs: installed when this user may, else one clear line.
const plan = chromiumPlan(probeChromiumFacts());
if (plan.kind === 'cannot-install') {
  console.error(plan.message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (plan.kind === 'install') {
  console.log(`test: Chromium is missing; installing it: ${plan.asText}`);
  const [command = 'bash', ...args] = plan.command;
  if ((await step('chromium', 600, command, args)) !== 0) {
    console.error('test: installing Chromium failed; nothing else was run.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

// 3. The steps.
await step('typecheck', 300, 'npm', ['run', '--silent', 'typecheck']);
await step('lint', 300, 'npm', ['run', '--silent', 'lint']);
await step('vitest', 900, bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${join(outDir, 'vitest.json')}`,
]);
const buildCode = await step('build', 300, bin('vite'), ['build']);
if (buildCode === 0) {
  // The preview server and Playwright, nothing left running however the step ends (runEndToEnd).
  const env = { ...process.env, PW_JSON: join(outDir, 'playwright.json') };
  const code = await capped('playwright', 1200, (timeoutSeconds) => runEndToEnd([], { timeoutSeconds, env }));
  if (code !== 0) printFailureContexts('test-results/artifacts');
} else {
  // Testing a stale or partial dist/ would be misleading; the missing report counts as failed.
  console.log('==> playwright: skipped, the build failed');
  results.push(['playwright', 1]);
}

console.log(`==> total: ${Math.round((Date.now() - started) / 1000)}s`);
process.exitCode = await run('node', [
  join('scripts', 'ci-summary.mjs'),
  '--out',
  outDir,
  ...results.map(([name, code]) => `${name}=${code}`),
]);

/**
 * The page as each failing e2e test left it (Playwright's error-context.md: the ARIA
 * snapshot), printed into the log: a CI whose artifacts nobody can open still shows why.
 * @param {string} dir
 */
function printFailureContexts(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name, 'error-context.md');
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    console.log(`==> page at the failure: ${name}`);
    console.log(lines.slice(0, 120).join('\n'));
    if (lines.length > 120) console.log(`… ${lines.length - 120} more lines in ${file}`);
  }
}
