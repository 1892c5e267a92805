import { defineConfig, devices } from '@playwright/test';
import type { ReporterDescription } from '@playwright/test';

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

// e2e tests run against the production build (`vite build` first), served by `vite preview`.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/artifacts',
  // One at a time: the performance test measures long tasks and needs both cores to itself.
  workers: 1,
  retries: 0,
  // A lazily loaded lab (the serving world's chunk and worker) can take seconds to appear on a
  // loaded CI machine; a route that is lost never appears, however long one waits.
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env['CI']),
  reporter,
  use: {
    baseURL,
    // A failed test keeps its trace (actions, DOM snapshots, console, network) and a screenshot of
    // the page at the failure, but not the trace's screencast: encoding and shipping a frame at
    // every paint of a lab that animates all along took a core's worth of the two, and made the
    // same tests 2–2.5 × slower on a loaded machine (a hostile-link test 10 s instead of 4 s).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
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
      },
    },
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
