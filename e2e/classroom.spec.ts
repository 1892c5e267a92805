import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { LabPage } from './pages/lab';

/** The serious and critical violations axe finds on the page now. */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
}

/** The element's box, which must lie wholly inside the viewport (nothing clipped). */
async function wholeInViewport(page: Page, locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(size.height + 0.5);
  return box!;
}

/** The height of the main chart's first tick label on its query axis, px on the screen. */
async function axisTextHeight(lab: LabPage): Promise<number> {
  const text = lab.byTestId('chart.throughput').locator('.chart-host svg text').filter({ hasText: /^\d+$/ }).first();
  return (await text.boundingBox())!.height;
}

// A teacher prepares the moment at 1440 × 900, in presentation, paused on line 6 of Algorithm 1;
// the class opens the link on a 1280 × 720 projector.
test('a presentation link made at a paused algorithm line reopens at that line at 1280 × 720, the chart scaled and nothing clipped', async ({ page: deskPage, browser }, info) => {
  test.setTimeout(120_000);
  await deskPage.setViewportSize({ width: 1440, height: 900 });
  const lab = new LabPage(deskPage);
  await lab.goto();
  await lab.pause();
  const normalAxisText = await axisTextHeight(lab);
  await lab.byTestId('controls.reset').click();
  await expect.poll(() => lab.served()).toBe(0);
  // The default scenario's hog lands on EP 2 at query 150: the rebalancing runs in the queries after it.
  await lab.step(152);
  for (let i = 0; i < 40 && (await lab.currentLine()) !== 6; i++) await lab.byTestId('algorithm.forward').click();
  await expect.poll(() => lab.currentLine()).toBe(6);
  const served = await lab.served();
  const affected = await lab.watch('affected');
  await lab.byTestId('view.classroom').click();
  await lab.byTestId('view.mode').selectOption('presentation');
  await lab.byTestId('view.classroom').click();
  await lab.byTestId('links.copy').click();
  const link = await lab.byTestId('links.url').inputValue();
  lab.expectCleanLog();
  await deskPage.close();

  const projector = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await projector.newPage();
  const cls = new LabPage(page);
  await page.goto(link);
  await expect(cls.byTestId('lab')).toHaveAttribute('data-view', 'presentation');
  await expect.poll(() => cls.currentLine(), { timeout: 20_000 }).toBe(6);
  expect(await cls.served()).toBe(served);
  expect(await cls.status()).not.toBe('playing');
  await expect(cls.byTestId('algorithm.watch.affected')).toHaveText(affected);
  await cls.partsLoaded();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: info.outputPath('presentation-link-1280x720.png') });
  // Still paused at that moment a while later: the link does not start the run.
  expect(await cls.served()).toBe(served);
  // The chart's axis text is at least half as large again as in the normal view.
  expect(await axisTextHeight(cls)).toBeGreaterThanOrEqual(1.5 * normalAxisText - 0.25);
  // Board, main chart (its whole figure: title, legend, plot, axes), the highlighted line and the variables: on the screen, none cut.
  await wholeInViewport(page, cls.byTestId('board.ep-0').locator('.ep-head'));
  await wholeInViewport(page, cls.byTestId('board.ep-3').locator('.ep-head'));
  await wholeInViewport(page, cls.byTestId('chart.throughput'));
  await wholeInViewport(page, cls.byTestId('chart.throughput').locator('.chart-host svg'));
  await wholeInViewport(page, cls.byTestId('algorithm.line-6'));
  await wholeInViewport(page, cls.byTestId('algorithm.watch'));
  // The y axis's label is not cut at the chart's top.
  const label = cls.byTestId('chart.throughput').locator('.chart-host svg text[transform="rotate(-90)"]').first();
  const host = (await cls.byTestId('chart.throughput').locator('.chart-host').boundingBox())!;
  const labelBox = (await label.boundingBox())!;
  expect(labelBox.y).toBeGreaterThanOrEqual(host.y - 0.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  expect(await axeProblems(page)).toEqual([]);
  cls.expectCleanLog();
  await projector.close();
});

test.describe('the first screen at 1366 × 768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('says what the lab is, offers both labs and the lessons, explains its terms, and shows the board and the main chart’s plot', async ({ page }, info) => {
    test.setTimeout(120_000);
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: info.outputPath('first-screen-1366x768.png') });
    await expect(lab.byTestId('app.about')).toContainText('ODIN');
    await expect(lab.byTestId('app.about')).toContainText('BCEdge');
    await wholeInViewport(page, lab.byTestId('app.about'));
    await wholeInViewport(page, lab.byTestId('lessons.open'));
    await wholeInViewport(page, lab.byTestId('labs.serving'));
    await wholeInViewport(page, lab.byTestId('board.ep-0').locator('.ep-head'));
    // The plot area's top part (its grid and first lines), not only the chart's title.
    const plot = (await lab.byTestId('chart.throughput').locator('.chart-host svg').boundingBox())!;
    expect(plot.y + 80).toBeLessThanOrEqual(768);
    // Every term of the first screen says what it is where it appears.
    for (const term of ['EP', 'T(C)', 'α', 'fps', 'memBW hog', 'CPU hog']) {
      await expect(page.locator('abbr', { hasText: term }).first(), term).toHaveAttribute('title', /\w{4}/);
    }
    // Space after a click on a button plays or pauses; it does not press the button again.
    await lab.byTestId('controls.reset').click();
    await expect.poll(() => lab.served()).toBe(0);
    await page.keyboard.press('Space');
    await expect.poll(() => lab.status()).toBe('playing');
    await page.keyboard.press('Space');
    await expect.poll(() => lab.status()).not.toBe('playing');
    expect(await lab.served()).toBeGreaterThan(0);
    // Marker ⇥ with nothing ahead says so; scheduled interference is on the time line from the start.
    await expect(lab.byTestId('timeline.marker-interference-off-450')).toHaveCount(1);
    expect(await axeProblems(page)).toEqual([]);

    // Explore speaks in words: no path in its labels.
    await lab.byTestId('explore.open').click();
    await expect(lab.byTestId('explore')).toBeVisible();
    await expect(lab.byTestId('explore.axis-1.path')).toHaveCount(0);
    const labels = await lab.byTestId('explore').locator('option, label, legend, h2, p').allTextContents();
    expect(labels.join('\n')).not.toContain('lanes[');
    expect(labels.join('\n')).toContain('mean throughput (queries/s)');
    await page.screenshot({ path: info.outputPath('explore-1366x768.png') });
    expect(await axeProblems(page)).toEqual([]);
    await lab.byTestId('explore.close').click();

    // Both labs from the header: the serving lab, its lane colours distinct and each scheduler's the same in a second scenario.
    await lab.byTestId('labs.serving').click();
    await expect(lab.byTestId('serving')).toBeVisible();
    await expect(page.locator('[data-testid^="device.model-"]').first()).toBeVisible({ timeout: 30_000 });
    const colours = () =>
      page.locator('[data-testid="serving"] li.lane[data-testid^="lane."]').evaluateAll((lanes) => lanes.map((l) => [l.getAttribute('data-testid'), getComputedStyle(l).getPropertyValue('--lane').trim()] as const));
    const first = await colours();
    expect(first.length).toBeGreaterThan(2);
    expect(new Set(first.map(([, c]) => c)).size).toBe(first.length);
    await page.keyboard.press('Space');
    await page.screenshot({ path: info.outputPath('serving-1366x768.png') });
    expect(await axeProblems(page)).toEqual([]);
    await lab.byTestId('links.presets').click();
    await lab.byTestId('presets.bcedge-dynamic').click();
    await expect.poll(async () => (await colours()).map(([id]) => id).join(',')).not.toBe(first.map(([id]) => id).join(','));
    const second = await colours();
    expect(new Set(second.map(([, c]) => c)).size).toBe(second.length);
    const before = new Map(first);
    const shared = second.filter(([id]) => before.has(id));
    expect(shared.length).toBeGreaterThan(0);
    for (const [id, colour] of shared) expect(colour, id ?? '').toBe(before.get(id));
    // The serving lab's keys: ? opens the help with its shortcuts.
    await page.locator('body').press('?');
    await expect(page.getByRole('dialog')).toContainText('scheduling slot');
    lab.expectCleanLog();
  });
});

test.describe('on a phone, 390 × 844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('nothing overflows the screen sideways', async ({ page }, info) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await page.screenshot({ path: info.outputPath('phone-390x844.png'), fullPage: true });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391 && getComputedStyle(e).position !== 'fixed' && e.closest('[hidden], .palette-tokens') === null)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${String(e.className)} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    lab.expectCleanLog();
  });
});
