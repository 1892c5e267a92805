import { defineConfig, devices } from '@playwright/test';
import type { ReporterDescription } from '@playwright/test';
import { fileURLToPath } from 'node:url';

// `E2E_PORT` lets a second checkout (a git worktree) run its e2e tests beside this one.
const port = Number(process.env['E2E_PORT'] ?? '4173');
const baseURL = `http://127.0.0.1:${port}`;
// `E2E_DIST` serves another build folder (`vite build --outDir …`), so two people can build at once.
const dist = process.env['E2E_DIST'] ?? 'dist';

// `PW_JSON=path/to/report.json` adds a JSON report (used by .ci/run).
const jsonReportFile = process.env['PW_JSON'];
const reporter: ReporterDescription[] = [['list']];
if (jsonReportFile !== undefined && jsonReportFile !== '') {
  reporter.push(['json', { outputFile: jsonReportFile }]);
}
// `PW_PROGRESS=path` appends one line per finished test to that file as the run goes: Playwright
// writes its JSON report only at the end, and a run stopped by npm test's time cap still counts
// the tests it finished (scripts/e2eProgress.mjs, read by scripts/ci-summary.mjs).
const progressFile = process.env['PW_PROGRESS'];
if (progressFile !== undefined && progressFile !== '') {
  // By its absolute path: a config that spreads this one from elsewhere (scripts/e2eProgress.test.ts) finds it too.
  reporter.push([fileURLToPath(new URL('./scripts/e2eProgress.mjs', import.meta.url)), { outputFile: progressFile }]);
}

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

// e2e tests run against the production build (`vite build` first), served by `vite preview`.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/artifacts',
  // Two at a time: most of a test's time is the page waiting on its simulation worker or on
  // timers, so two tests share a 2-core machine's cores. The performance test, which needs both
  // cores to itself, runs alone (its project, below).
  workers: 2,
  retries: 0,
  // Every timeout, here and in the tests (but the performance test's: it runs alone), is twice what
  // it was when the tests ran one at a time: two tests share the cores, so a test under the same
  // outside load gets about half of them. A timeout is there to end a test that hangs, not to time one.
  timeout: 60_000,
  // A lazily loaded lab (the serving world's chunk and worker) can take seconds to appear on a
  // loaded CI machine; a route that is lost never appears, however long one waits.
  expect: { timeout: 20_000 },
  forbidOnly: Boolean(process.env['CI']),
  reporter,
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: 'performance.spec.ts', use: chromium },
    // The performance test measures long tasks and the page's answer to input: it runs after every
    // other test (`dependencies`), when nothing else runs. `npm test` runs it in a pass of its own
    // (`--project=performance --no-deps`, scripts/test.mjs), so that it runs even when another test
    // failed; its own output folder, because each pass empties the folders of the projects it runs.
    { name: 'performance', testMatch: 'performance.spec.ts', dependencies: ['chromium'], outputDir: 'test-results/performance', use: chromium },
  ],
  // `npm test` starts the preview server itself (scripts/setup.mjs `runEndToEnd`) so that a
  // stopped run leaves nothing behind; `npx playwright test` alone starts it here.
  ...(process.env['E2E_EXTERNAL_SERVER'] === '1'
    ? {}
    : {
        webServer: {
          command: `./node_modules/.bin/vite preview --host 127.0.0.1 --port ${port} --strictPort --outDir ${dist}`,
          url: baseURL,
          reuseExistingServer: !process.env['CI'],
          timeout: 60_000,
        },
      }),
});
