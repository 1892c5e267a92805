import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ServingPage } from './pages/serving';

/** What the serving lab shows of the run: each lane's numbers and each model's queue. */
async function numbers(lab: ServingPage): Promise<string[]> {
  await expect(lab.byTestId('lane.fixed')).toContainText('utility');
  const lanes = await lab.page.locator('[data-testid^="lane."]').allTextContents();
  const queues = await lab.page.locator('[data-testid^="device.queue-"]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-queue') ?? ''));
  return [...lanes, ...queues];
}

async function stepTo(lab: ServingPage, timeMs: number): Promise<void> {
  while ((await lab.timeMs()) < timeMs) {
    const before = await lab.timeMs();
    await lab.byTestId('serving.step').click();
    await expect.poll(() => lab.timeMs()).toBe(before + 1000);
  }
}

test('serving time travel: scrub back to a tenant marker and see the same numbers again', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await lab.byTestId('serving.pause').click();
  await lab.byTestId('serving.reset').click();
  await expect.poll(() => lab.timeMs()).toBe(0);
  await stepTo(lab, 3000);
  await lab.byTestId('palette.background').click();
  await expect(lab.byTestId('timeline.marker-tenant-on-3000')).toBeVisible();
  await stepTo(lab, 5000);
  const at5 = await numbers(lab);
  await stepTo(lab, 9000);
  expect(await numbers(lab)).not.toEqual(at5);
  await lab.byTestId('timeline.marker-tenant-on-3000').click();
  await expect.poll(() => lab.timeMs()).toBe(3000);
  await stepTo(lab, 5000);
  expect(await numbers(lab)).toEqual(at5);
  // The scrubber too: forward to 9 s, then back to 5 s.
  await lab.byTestId('timeline.scrubber').fill('9000');
  await expect.poll(() => lab.timeMs()).toBe(9000);
  await lab.byTestId('timeline.scrubber').fill('5000');
  await expect.poll(() => lab.timeMs()).toBe(5000);
  expect(await numbers(lab)).toEqual(at5);
  await expect(lab.byTestId('timeline')).toHaveAttribute('data-furthest', '9000');
  lab.expectCleanLog();
});

test('a serving classroom link opens in presentation mode with the chosen parts hidden', async ({ page, browser }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await lab.byTestId('view.classroom').click();
  await lab.byTestId('view.mode').selectOption('presentation');
  await lab.byTestId('view.hide-charts').check();
  await lab.byTestId('view.hide-palette').check();
  await expect(lab.byTestId('chart.utility')).toHaveCount(0);
  await lab.byTestId('links.copy').click();
  const link = await lab.byTestId('links.url').inputValue();
  const fresh = await browser.newContext();
  const other = new ServingPage(await fresh.newPage());
  await other.page.goto(link);
  // The lab has loaded the link's scenario (tfjs and the shipped agent first) before its view is read.
  await expect(other.byTestId('device.model-yolo')).toBeVisible({ timeout: 30_000 });
  await expect(other.byTestId('serving')).toHaveAttribute('data-view', 'presentation');
  await expect(other.byTestId('device.model-yolo')).toBeVisible();
  await expect(other.byTestId('chart.utility')).toHaveCount(0);
  await expect(other.byTestId('palette.background')).toHaveCount(0);
  await expect(other.byTestId('timeline')).toBeVisible();
  other.expectCleanLog();
  await fresh.close();
  lab.expectCleanLog();
});

test('a serving chart exports as PNG and SVG; undo puts back the scenario before an edit', async ({ page }) => {
  // The page computes the Fig. 15 sweep again after the rate changes (on its own thread for now).
  test.setTimeout(90_000);
  const lab = new ServingPage(page);
  await lab.open();
  await expect.poll(() => lab.chartPoints('chart.throughput')).toBeGreaterThan(2);
  const [svg] = await Promise.all([page.waitForEvent('download'), lab.byTestId('chart.throughput.svg').click()]);
  const svgText = readFileSync((await svg.path())!, 'utf8');
  expect(svgText).toContain('<svg');
  expect(svgText).toContain('throughput per model');
  const [png] = await Promise.all([page.waitForEvent('download'), lab.byTestId('chart.throughput.png').click()]);
  expect(readFileSync((await png.path())!).subarray(1, 4).toString('latin1')).toBe('PNG');

  await lab.byTestId('serving.pause').click();
  await expect(lab.byTestId('controls.undo')).toBeDisabled();
  await lab.byTestId('controls.rps').fill('45');
  await expect(lab.byTestId('controls.rps')).toHaveValue('45');
  await expect(lab.byTestId('controls.undo')).toBeEnabled();
  await lab.byTestId('controls.undo').click();
  await expect(lab.byTestId('controls.rps')).toHaveValue('30');
  await lab.byTestId('controls.redo').click();
  await expect(lab.byTestId('controls.rps')).toHaveValue('45');
  // The slider reaches the papers' rates (90 rps a model in Figs. 8–9), not only 60.
  await lab.byTestId('controls.rps').fill('90');
  await expect(lab.byTestId('controls.rps')).toHaveValue('90');
  await expect(lab.byTestId('serving.rate')).toHaveText('90');
  lab.expectCleanLog();
});

test('Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y undo and redo a serving edit (not the pipeline lab behind it)', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await lab.byTestId('serving.pause').click();
  await lab.byTestId('controls.rps').fill('45');
  await expect(lab.byTestId('controls.rps')).toHaveValue('45');
  // Keys typed in a field are the field's: the shortcut works from outside it.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Control+z');
  await expect(lab.byTestId('controls.rps')).toHaveValue('30');
  await expect(lab.byTestId('controls.redo')).toBeEnabled();
  await page.keyboard.press('Control+Shift+z');
  await expect(lab.byTestId('controls.rps')).toHaveValue('45');
  await page.keyboard.press('Control+z');
  await expect(lab.byTestId('controls.rps')).toHaveValue('30');
  await page.keyboard.press('Control+y');
  await expect(lab.byTestId('controls.rps')).toHaveValue('45');
  await expect(lab.byTestId('serving')).toBeVisible();
  lab.expectCleanLog();
});

test('Fig. 1 and Fig. 15 are computed in the serving worker, learning lanes included: progress, then the result', async ({ page }) => {
  test.setTimeout(180_000);
  const lab = new ServingPage(page);
  await lab.open();
  // The default scenario has a learning lane (BCEdge): the page never had TensorFlow.js to sweep it.
  await expect(lab.byTestId('lane.bcedge')).toBeVisible();
  // Fig. 15 is computed once its chart has been on screen.
  await expect(lab.byTestId('chart.rps.progress')).toHaveCount(0);
  await lab.byTestId('chart.rps').scrollIntoViewIfNeeded();
  await expect(lab.byTestId('chart.rps.progress')).toBeVisible();
  const progressOf = async () => {
    const bar = lab.byTestId('chart.rps.progress');
    return (await bar.count()) === 0 ? Number.POSITIVE_INFINITY : Number(await bar.getAttribute('value'));
  };
  await expect.poll(progressOf, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => lab.chartPoints('chart.heatmap-throughput'), { timeout: 30_000 }).toBe(64);
  // Five rates for each of the four lanes, BCEdge's line too.
  await expect.poll(() => lab.chartPoints('chart.rps'), { timeout: 150_000 }).toBe(20);
  await expect(lab.byTestId('chart.rps.progress')).toHaveCount(0);
  await expect(lab.byTestId('chart.rps')).toContainText('BCEdge');
  // A change that changes the sweep asks again: the progress shows, then the new lines.
  await lab.byTestId('controls.batch-yolo').fill('5');
  await expect(lab.byTestId('chart.rps.progress')).toBeVisible();
  await expect(lab.byTestId('chart.rps.progress')).toHaveCount(0, { timeout: 150_000 });
  await expect.poll(() => lab.chartPoints('chart.rps')).toBe(20);
  lab.expectCleanLog();
});

test('a serving lesson, walked through with the keyboard only: each step goes to its time and lane', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  // Tab to the Lessons button of the serving lab.
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === 'lessons.open') break;
  }
  await expect(lab.byTestId('lessons.open')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(lab.byTestId('lessons.start-lesson-batching')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lab.byTestId('lesson')).toHaveAttribute('data-lesson', 'lesson-batching');
  await expect(lab.byTestId('lesson.progress')).toContainText('step 1 of 5');
  await expect(lab.byTestId('lesson.next')).toBeFocused();
  // The lesson's scenario: YOLO alone, four Triton lanes, paused at 0 s.
  await expect(page.locator('[data-testid^="device.model-"]')).toHaveCount(1);
  await expect(page.locator('[data-testid^="lane."]')).toHaveCount(4);
  await expect.poll(() => lab.timeMs()).toBe(0);
  const times = [20_000, 30_000, 40_000, 60_000];
  const lanes = ['b=1 m_c=1', 'b=128 m_c=1', 'b=64 m_c=8', 'b=8 m_c=2'];
  for (const [k, timeMs] of times.entries()) {
    await page.keyboard.press('Enter');
    await expect(lab.byTestId('lesson.progress')).toContainText(`step ${k + 2} of 5`);
    await expect.poll(() => lab.timeMs(), { timeout: 20_000 }).toBe(timeMs);
    // The device board follows the step's lane.
    await expect(lab.byTestId('device.board')).toContainText(lanes[k]!);
    // b = 1 on one instance: the queue piles up, and its card says how many wait past their SLO (not yet counted).
    if (k === 0) await expect(lab.byTestId('lane-late.0')).toContainText('already past their SLO');
  }
  await expect(lab.byTestId('lesson.text')).toContainText('b = 8 on 2 instances');
  // Back goes to the step before, its time and lane.
  await page.keyboard.press('Shift+Tab');
  await expect(lab.byTestId('lesson.back')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lab.byTestId('lesson.progress')).toContainText('step 4 of 5');
  await expect.poll(() => lab.timeMs()).toBe(40_000);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(lab.byTestId('lesson.end')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lab.byTestId('lessons.open')).toBeVisible();
  lab.expectCleanLog();
});

test('another tenant dragged onto the device with the keyboard runs there (the same drag and drop as the pipeline board)', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await lab.byTestId('serving.pause').click();
  await expect(page.locator('[data-testid^="device.background-"]')).toHaveCount(0);
  const token = lab.byTestId('palette.background');
  await token.focus();
  await page.keyboard.press('Space');
  await expect(token).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(page.locator('[data-testid^="device.background-"]')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'Dropped on the device' })).toHaveCount(1);
  // Picked up and cancelled with Escape: nothing more is added.
  await token.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-testid^="device.background-"]')).toHaveCount(1);
  lab.expectCleanLog();
});

test('the serving lab does not render its root on every frame: its leaves and charts follow the run', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await expect.poll(() => lab.timeMs(), { timeout: 20_000 }).toBeGreaterThan(2000);
  const renders = async () => Number(await page.evaluate(() => document.body.dataset.rendersServing ?? '0'));
  const before = { renders: await renders(), timeMs: await lab.timeMs() };
  await page.waitForTimeout(4000);
  const after = { renders: await renders(), timeMs: await lab.timeMs() };
  // Frames kept coming (the run advanced by seconds of simulated time, at many frames a second) …
  expect(after.timeMs - before.timeMs).toBeGreaterThan(2000);
  await expect.poll(() => lab.chartPoints('chart.throughput')).toBeGreaterThan(0);
  // … and the lab's root rendered a bounded number of times meanwhile (none is needed while nothing but the run changes).
  expect(after.renders - before.renders).toBeLessThanOrEqual(4);
  lab.expectCleanLog();
});
