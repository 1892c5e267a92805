import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/lab';

test('axe finds no serious or critical violation on the main view', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.pause();
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});

test('axe finds no serious or critical violation in the serving lab', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.presets').click();
  await lab.byTestId('presets.serving-default').click();
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect.poll(async () => Number((await page.locator('[data-testid="chart.heatmap-throughput"] svg').getAttribute('data-points')) ?? '0'), { timeout: 15_000 }).toBe(64);
  await lab.byTestId('serving.pause').click();
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
});
