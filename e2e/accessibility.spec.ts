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
