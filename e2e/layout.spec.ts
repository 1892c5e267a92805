import { expect, test, type Locator, type Page } from '@playwright/test';
import { LabPage } from './pages/lab';
import { ServingPage } from './pages/serving';

/** Whether the element's box lies inside the viewport (at least its top part, `minPx` tall). */
async function inViewport(page: Page, locator: Locator, minPx = 120): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  if (box === null) return false;
  return box.y >= 0 && box.x >= 0 && box.x + box.width <= size.width + 1 && box.y + Math.min(box.height, minPx) <= size.height;
}

test.describe('at 1440 × 900', () => {
  test.setTimeout(90_000);
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the pipeline lab shows the playback bar, the board and the throughput chart on load, without scrolling', async ({ page }, info) => {
    const lab = new LabPage(page);
    await lab.goto();
    await expect.poll(() => lab.throughputPoints(), { timeout: 30_000 }).toBeGreaterThan(3);
    // Measured paused: the geometry is the same, and a busy machine answers faster.
    await lab.pause();
    await page.screenshot({ path: info.outputPath('pipeline-1440x900.png') });
    expect(await inViewport(page, lab.byTestId('controls.play'), 20)).toBe(true);
    expect(await inViewport(page, lab.byTestId('board.ep-0'))).toBe(true);
    // The whole main chart, its query axis included, not only its top.
    expect(await inViewport(page, lab.byTestId('chart.throughput'), Number.POSITIVE_INFINITY)).toBe(true);
    lab.expectCleanLog();
  });

  test('the serving lab shows the playback bar, the device and the throughput per model on load, without scrolling', async ({ page }, info) => {
    const lab = new ServingPage(page);
    await lab.open();
    await expect.poll(() => lab.chartPoints('chart.throughput'), { timeout: 40_000 }).toBeGreaterThan(2);
    await lab.byTestId('serving.pause').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: info.outputPath('serving-1440x900.png') });
    expect(await inViewport(page, lab.byTestId('serving.play'), 20)).toBe(true);
    expect(await inViewport(page, lab.byTestId('device.model-yolo'), 20)).toBe(true);
    expect(await inViewport(page, lab.byTestId('chart.throughput'), Number.POSITIVE_INFINITY)).toBe(true);
    lab.expectCleanLog();
  });
});

test('the chart grid: a card collapsed and a card moved stay so after a reload, and the page can put them back', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.pause();
  const order = () => page.locator('[data-testid="charts"] figure[data-testid^="chart."]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-testid')));
  const before = await order();
  expect(before.slice(0, 2)).toEqual(['chart.latency', 'chart.config']);
  await lab.byTestId('chart.latency.collapse').click();
  await expect(lab.byTestId('chart.latency')).toHaveAttribute('data-collapsed', 'true');
  await expect(lab.byTestId('chart.latency').locator('.chart-host')).toBeHidden();
  await lab.byTestId('chart.config.earlier').click();
  await expect.poll(order).toEqual(['chart.config', 'chart.latency', ...before.slice(2)]);
  await page.reload();
  await lab.partsLoaded();
  await expect(lab.byTestId('chart.latency')).toHaveAttribute('data-collapsed', 'true');
  expect(await order()).toEqual(['chart.config', 'chart.latency', ...before.slice(2)]);
  // Opened again and moved back: the world's order.
  await lab.byTestId('chart.latency.collapse').click();
  await expect(lab.byTestId('chart.latency')).toHaveAttribute('data-collapsed', 'false');
  await lab.byTestId('chart.latency.earlier').click();
  await expect.poll(order).toEqual(before);
  lab.expectCleanLog();
});

// Presentation on a projector (ARCHITECTURE §7c): the header folds the share bar into one button,
// the board keeps at most half the screen and the dock leads with the algorithm or learning panel.
test.describe('in presentation at 1280 × 720', () => {
  test.setTimeout(90_000);
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the pipeline lab: the board, the throughput chart and the algorithm panel fit together', async ({ page }, info) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await lab.byTestId('view.classroom').click();
    await lab.byTestId('view.mode').selectOption('presentation');
    await lab.byTestId('view.classroom').click();
    await expect(lab.byTestId('lab')).toHaveAttribute('data-view', 'presentation');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: info.outputPath('pipeline-presentation-1280x720.png') });
    expect(await inViewport(page, lab.byTestId('board.ep-0'))).toBe(true);
    expect(await inViewport(page, lab.byTestId('chart.throughput'), 200)).toBe(true);
    expect(await inViewport(page, lab.byTestId('algorithm'), 120)).toBe(true);
    // In the narrow dock the pseudocode takes the panel's width (the watch list sits above it), not a column of a few words.
    const panel = (await lab.byTestId('algorithm').boundingBox())!;
    const code = (await lab.byTestId('algorithm').locator('.pseudocode').boundingBox())!;
    expect(code.width).toBeGreaterThan(0.75 * panel.width);
    lab.expectCleanLog();
  });

  test('the serving lab: the device, the throughput per model and the learning panel fit together', async ({ page }, info) => {
    const lab = new ServingPage(page);
    await lab.open();
    await lab.byTestId('serving.pause').click();
    await lab.byTestId('view.classroom').click();
    await lab.byTestId('view.mode').selectOption('presentation');
    await lab.byTestId('view.classroom').click();
    await expect(lab.byTestId('serving')).toHaveAttribute('data-view', 'presentation');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: info.outputPath('serving-presentation-1280x720.png') });
    expect(await inViewport(page, lab.byTestId('device.model-yolo'), 20)).toBe(true);
    expect(await inViewport(page, lab.byTestId('chart.throughput'), 200)).toBe(true);
    expect(await inViewport(page, lab.byTestId('learning.panel'), 120)).toBe(true);
    lab.expectCleanLog();
  });
});
