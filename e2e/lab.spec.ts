import { expect, test } from '@playwright/test';
import { LabPage } from './pages/lab';

test.describe('the pipeline lab', () => {
  test('plays on load and the throughput chart gains points', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await expect(lab.byTestId('app.title')).toHaveText('Interference Lab');
    await expect.poll(() => lab.served(), { timeout: 10_000 }).toBeGreaterThan(30);
    const first = await lab.throughputPoints();
    await expect.poll(() => lab.throughputPoints(), { timeout: 10_000 }).toBeGreaterThan(first);
    for (const id of ['chart.throughput', 'chart.latency', 'chart.config', 'chart.stages']) await expect(lab.byTestId(id)).toBeVisible();
    // Let the default scenario's memBW hog arrive (query 150) and ODIN react before the screenshot.
    await expect.poll(() => lab.served(), { timeout: 15_000 }).toBeGreaterThan(260);
    await page.screenshot({ path: test.info().outputPath('main-view.png'), fullPage: true });
    await page.screenshot({ path: 'test-results/main-view.png', fullPage: true });
    lab.expectCleanLog();
  });

  for (const input of ['mouse', 'keyboard'] as const) {
    test(`a memBW hog dragged onto EP 2 with the ${input}: ODIN recovers, static stays down`, async ({ page }) => {
      const lab = new LabPage(page);
      await lab.goto();
      await lab.pause();
      // Past the default scenario's scripted hog (queries 150–450).
      await lab.step(520 - (await lab.served()));
      const before = await lab.lane('lane.odin');
      if (input === 'mouse') await lab.dragWithMouse('E', 2);
      else await lab.dragWithKeyboard('E', 2);
      await expect(lab.byTestId('events.item-2')).toContainText('EP 3');
      await lab.step(1);
      expect((await lab.epModes())[2]).toBe('E');
      const hit = await lab.lane('lane.odin');
      const staticHit = await lab.lane('lane.static');
      expect(hit.configQps).toBeLessThan(before.configQps);
      expect(staticHit.configQps).toBeLessThan(0.9 * staticHit.optimalQps);
      // A few dozen queries later ODIN is back within 10 % of the optimum; static is not.
      await lab.step(40);
      const odin = await lab.lane('lane.odin');
      const still = await lab.lane('lane.static');
      expect(odin.configQps).toBeGreaterThanOrEqual(0.9 * odin.optimalQps);
      expect(still.configQps).toBeLessThan(0.9 * still.optimalQps);
      lab.expectCleanLog();
    });
  }

  test('α changes mid-run without restarting it', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await lab.step(200);
    await lab.byTestId('controls.alpha').fill('3');
    await expect(lab.byTestId('lane.odin')).toContainText('ODIN α=3');
    await lab.step(10);
    expect(await lab.served()).toBeGreaterThanOrEqual(210);
    lab.expectCleanLog();
  });

  test('reset restores the initial state', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    // The lab plays on load: how far it got before the pause depends on the machine, and an
    // interference event may have begun by then. The state to come back to is the one at query 0.
    await lab.byTestId('controls.reset').click();
    await expect.poll(() => lab.served()).toBe(0);
    const initialModes = await lab.epModes();
    const initialBlocks = await page.locator('.block').evaluateAll((els) => els.map((e) => (e as HTMLElement).style.left));
    await lab.step(300);
    await lab.byTestId('controls.reset').click();
    await expect.poll(() => lab.served()).toBe(0);
    await expect.poll(() => lab.throughputPoints()).toBe(0);
    expect(await lab.epModes()).toEqual(initialModes);
    await expect.poll(() => page.locator('.block').evaluateAll((els) => els.map((e) => (e as HTMLElement).style.left))).toEqual(initialBlocks);
    lab.expectCleanLog();
  });
});

test('a workload dragged with touch lands on the execution place', async ({ browser }) => {
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const lab = new LabPage(page);
  await lab.goto();
  await lab.pause();
  const from = (await lab.byTestId('palette.mode-F').boundingBox())!;
  const to = (await lab.byTestId('board.ep-1').boundingBox())!;
  const cdp = await context.newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  const end = { x: to.x + to.width / 2, y: to.y + Math.min(120, to.height / 2) };
  await touch('touchStart', start.x, start.y);
  await page.waitForTimeout(250); // the touch sensor's press delay
  for (let k = 1; k <= 12; k++) await touch('touchMove', start.x + ((end.x - start.x) * k) / 12, start.y + ((end.y - start.y) * k) / 12);
  await touch('touchEnd', end.x, end.y);
  await expect(lab.byTestId('events.item-2')).toContainText('EP 2');
  await lab.step(1);
  expect((await lab.epModes())[1]).toBe('F');
  lab.expectCleanLog();
  await context.close();
});

test('a workload dragged with the keyboard lands on the execution place the arrows chose, and the drop does not pick it up again', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.pause();
  const token = lab.byTestId('palette.mode-F');
  await token.focus();
  await page.keyboard.press('Space');
  await expect(token).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowRight'); // EP 1
  await page.keyboard.press('ArrowRight'); // EP 2
  await page.keyboard.press('Space');
  await expect(lab.byTestId('events.item-2')).toContainText('EP 2');
  await expect(token).not.toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Dropped.' })).toHaveCount(1);
  await lab.step(1);
  expect((await lab.epModes())[1]).toBe('F');
  lab.expectCleanLog();
});
