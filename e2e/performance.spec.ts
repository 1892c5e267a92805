import { expect, test } from '@playwright/test';
import { writeFileSync, mkdirSync } from 'node:fs';
import { LabPage } from './pages/lab';

// Tracing snapshots the page on every action: it would add main-thread work of its own.
test.use({ trace: 'off' });

/**
 * Wall-clock length of the run, ms. What grows with a run is bounded within its first seconds
 * (a lane's series merges its points past SERIES_MAX_POINTS = 1024, and the checkpoints double
 * their spacing past their maximum), so 20 s at maximum speed (about 2·10⁶ queries a lane) load
 * the page as the minute this test used to run did, with its probes four times as often.
 */
const RUN_MS = 20_000;
/** Between two probes of the page's answer, ms. */
const PROBE_EVERY_MS = 500;

test('a 20 s run at maximum speed with four lanes leaves the main thread responsive', async ({ page }) => {
  test.setTimeout(RUN_MS + 60_000);
  const lab = new LabPage(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await lab.goto();
  await lab.pause();
  // ResNet-50 (50 layers) on 8 EPs and the largest number of queries, so the run lasts the whole test.
  await lab.byTestId('controls.model').selectOption('resnet50');
  await lab.byTestId('controls.eps').fill('8');
  await lab.byTestId('controls.eps').press('Enter');
  await expect(lab.byTestId('board.ep-7')).toBeVisible();
  await lab.byTestId('controls.queries').fill('10000000');
  await lab.byTestId('controls.queries').press('Enter');
  await expect(lab.byTestId('playback.served')).toContainText('10,000,000');
  // Random interference as in the paper's grid (period = duration = 10): rebalancing all along.
  await lab.byTestId('controls.random').click();
  await expect(lab.byTestId('controls.random')).toBeChecked();
  await expect(page.locator('[data-testid^="lane."]')).toHaveCount(4);
  await lab.byTestId('controls.speed').selectOption('max');
  await page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
  });
  await lab.byTestId('controls.play').click();
  await expect.poll(() => lab.status()).toBe('playing');

  // While it runs, measure how long the page takes to answer: a click-to-paint round trip.
  // A run that reaches the last query before the time is over starts again from query 0.
  const responses: number[] = [];
  const started = Date.now();
  let runs = 1;
  let servedBefore = 0;
  while (Date.now() - started < RUN_MS) {
    await page.waitForTimeout(PROBE_EVERY_MS);
    if ((await lab.status()) === 'done') {
      servedBefore += await lab.served();
      runs++;
      await lab.byTestId('controls.reset').click();
      await expect.poll(() => lab.served()).toBe(0);
      await lab.byTestId('controls.play').click();
      await expect.poll(() => lab.status()).toBe('playing');
    }
    responses.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const t0 = performance.now();
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
          }),
      ),
    );
  }
  const elapsedMs = Date.now() - started;
  const served = servedBefore + (await lab.served());
  const fps = Number((await lab.byTestId('playback.served').textContent())?.match(/(\d+) fps/)?.[1] ?? '0');
  await lab.pause();
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const report = {
    runMs: elapsedMs,
    lanes: 4,
    runs,
    queriesPerLane: served,
    simulatedQueriesPerSecondPerLane: Math.round(served / (elapsedMs / 1000)),
    framesPerSecondAtEnd: fps,
    longTasks: longTasks.length,
    longestTaskMs: longTasks.length > 0 ? Math.max(...longTasks) : 0,
    twoFrameRoundTripMs: { max: Math.max(...responses), median: responses.sort((a, b) => a - b)[Math.floor(responses.length / 2)] },
  };
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/performance.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report));
  expect(served).toBeGreaterThan(100_000);
  // What a person feels is the answer to an input: the two-frame round trip (click to paint)
  // stays under 250 ms all through the run, and no single task freezes the page that long.
  // The count of 50–100 ms tasks (mostly a major GC landing in a chart's draw) is reported
  // above, not asserted: on this 2-core machine it follows the load, not the page (runs of
  // builds that did not change the page gave 15 long tasks in 60 s, longest 83 ms, run alone;
  // 15, longest 103 ms, last in the suite; 35, longest 90 ms, in a later CI run), and the
  // bench, not a timed test, is where performance is measured.
  expect(report.longestTaskMs).toBeLessThan(250);
  expect(report.twoFrameRoundTripMs.max).toBeLessThan(250);
  lab.expectCleanLog();
});
