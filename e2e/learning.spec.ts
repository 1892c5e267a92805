import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ServingPage } from './pages/serving';

// A real serving worker with TensorFlow.js (wasm backend) learning in Chromium.
test('learning lanes in the serving page: live policy, α, training from scratch, agents saved, reloaded, downloaded and loaded back', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const lab = new ServingPage(page);
  await lab.open();
  await expect(lab.byTestId('learning.panel')).toBeVisible();
  const lane = await lab.learningLane('bcedge');
  await expect(lab.learning('status', lane)).toContainText('pretrained');

  // BCEdge decides: its slots count up.
  await expect.poll(() => lab.numberAt(lab.learning('slots', lane)), { timeout: 30_000 }).toBeGreaterThan(0);

  // The live policy of the selected model: 64 cells whose probabilities (in %) sum to 100.
  await expect.poll(() => lab.chartPoints('chart.policy'), { timeout: 15_000 }).toBe(64);
  await expect(lab.byTestId('chart.policy')).toHaveAttribute('data-lane', String(lane));
  const cells = page.locator('[data-testid="chart.policy"] g.chart-cell');
  await expect(cells).toHaveCount(64);
  const percent = await cells.evaluateAll((els) => els.reduce((sum, el) => sum + Number(el.getAttribute('data-value') || '0'), 0));
  expect(Math.abs(percent - 100)).toBeLessThan(0.5);
  expect(Math.abs((await lab.numberAt(lab.byTestId('chart.policy'), 'data-sum')) - 1)).toBeLessThan(0.005);

  // SAC's temperature: the value in the panel and its line in the chart.
  expect(await lab.numberAt(lab.learning('alpha', lane))).toBeGreaterThan(0);
  await expect.poll(() => lab.chartPoints('chart.temperature', 'data-lines')).toBe(1);
  await expect.poll(() => lab.chartPoints('chart.training', 'data-lines')).toBe(4);
  await page.screenshot({ path: 'test-results/learning-pretrained.png', fullPage: true });

  // Train from scratch: a fresh run that learns, its progress bar moving.
  await lab.byTestId('serving.speed').selectOption('30');
  await lab.learning('scratch', lane).click();
  await expect(lab.learning('lane', lane)).toHaveAttribute('data-status', 'scratch');
  const progress = lab.learning('progress', lane);
  const before = await lab.numberAt(progress, 'value');
  await expect.poll(() => lab.numberAt(progress, 'value')).toBeGreaterThan(before);
  await expect.poll(() => lab.numberAt(lab.learning('rate', lane)), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(await lab.numberAt(lab.learning('updates', lane))).toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/learning-scratch.png', fullPage: true });

  // Save in this browser (IndexedDB), reload the page (the link reopens the scenario), load it back.
  await lab.learning('save', lane).click();
  await expect(lab.learning('note', lane)).toContainText('Saved in this browser');
  await page.reload();
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect.poll(() => lab.numberAt(lab.learning('slots', lane)), { timeout: 30_000 }).toBeGreaterThan(0);
  await lab.learning('saved', lane).click();
  await expect(lab.learning('saved-list', lane)).toContainText('Six models');
  await lab.learning('load-saved', lane).first().click();
  await expect(lab.learning('note', lane)).toContainText('Loaded');
  await expect(lab.learning('lane', lane)).toHaveAttribute('data-status', 'loaded');
  await expect(lab.byTestId('banner.errors')).toHaveCount(0);

  // Download the agent and load that file back.
  const [download] = await Promise.all([page.waitForEvent('download'), lab.learning('download', lane).click()]);
  expect(download.suggestedFilename()).toMatch(/^bcedge-six-models.*\.json$/);
  const file = testInfo.outputPath('agent.json');
  await download.saveAs(file);
  const agent = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  expect(agent['format']).toBe('interference-lab-agent');
  expect(agent['kind']).toBe('bcedge');
  await lab.learning('file', lane).setInputFiles(file);
  await expect(lab.learning('note', lane)).toContainText('Loaded agent.json');
  await expect(lab.byTestId('banner.errors')).toHaveCount(0);

  // A broken agent: the banner names the field, and the run goes on.
  await lab.learning('file', lane).setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...agent, stateSize: 3 })) });
  await expect(lab.byTestId('banner.errors')).toContainText('stateSize');
  const t0 = await lab.timeMs();
  await expect.poll(() => lab.timeMs()).toBeGreaterThan(t0);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await lab.learning('file', lane).setInputFiles({ name: 'not-json.json', mimeType: 'application/json', buffer: Buffer.from('{"format": ') });
  await expect(lab.byTestId('banner.errors')).toContainText('not-json.json');
  await expect(lab.byTestId('banner.errors')).toContainText('not valid JSON');
  await page.getByRole('button', { name: 'Dismiss' }).click();

  // Paused: the summaries bring Fig. 14's per-slot SLO violations; Fig. 7 (from the series, drawn while playing too) has the learning lane's bars.
  await lab.byTestId('serving.pause').click();
  await expect.poll(() => lab.chartPoints('chart.slo-cdf', 'data-series')).toBe(1);
  await expect.poll(() => lab.chartPoints('chart.utility')).toBe(24);
  await expect.poll(() => lab.chartPoints('chart.decision')).toBe(4);
  await page.screenshot({ path: 'test-results/learning-paused.png', fullPage: true });
  lab.expectCleanLog();
});

test('without IndexedDB, saving an agent says why in the banner and the run goes on', async ({ page }) => {
  // A browser that refuses site storage (as some private windows and sandboxed frames do).
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', {
      get() {
        throw new DOMException('The user denied permission to access the database.', 'SecurityError');
      },
    });
  });
  const lab = new ServingPage(page);
  await lab.open();
  const lane = await lab.learningLane('bcedge');
  await expect.poll(() => lab.numberAt(lab.learning('slots', lane)), { timeout: 30_000 }).toBeGreaterThan(0);
  await lab.learning('save', lane).click();
  await expect(lab.byTestId('banner.errors')).toContainText('IndexedDB');
  await expect(lab.byTestId('banner.errors')).toContainText('Download agent');
  const t0 = await lab.timeMs();
  await expect.poll(() => lab.timeMs()).toBeGreaterThan(t0);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await lab.learning('saved', lane).click();
  await expect(lab.byTestId('banner.errors')).toContainText('IndexedDB');
  lab.expectCleanLog();
});

test('a class walks through one SAC update with its numbers (teaching)', async ({ page }) => {
  test.setTimeout(60_000);
  const lab = new ServingPage(page);
  await lab.open();
  const lane = await lab.learningLane('bcedge');
  await expect.poll(() => lab.numberAt(lab.learning('slots', lane)), { timeout: 30_000 }).toBeGreaterThan(5);
  await lab.byTestId(`walkthrough.start.${lane}`).click();
  const step = lab.byTestId('walkthrough.step');
  await expect(step).toHaveAttribute('data-step', '1');
  await expect(lab.byTestId('serving.play')).toBeEnabled(); // the run paused for the class
  await expect(page.locator('[data-testid="walkthrough.batch"] tbody tr')).toHaveCount(4);
  await lab.byTestId('walkthrough.next').click();
  await expect(step).toHaveAttribute('data-step', '2');
  expect(Number(await lab.byTestId('walkthrough.critic-loss').textContent())).toBeGreaterThanOrEqual(0);
  // Every row's target is r + γ·V(s′), as printed.
  const rows = await page.locator('[data-testid="walkthrough.target"] tbody tr').allTextContents();
  expect(rows).toHaveLength(4);
  await lab.byTestId('walkthrough.next').click();
  await expect(lab.byTestId('walkthrough.policy-loss')).toBeVisible();
  await lab.byTestId('walkthrough.next').click();
  await expect(step).toHaveAttribute('data-step', '4');
  const before = Number(await lab.byTestId('walkthrough.alpha-before').textContent());
  const after = Number(await lab.byTestId('walkthrough.alpha-after').textContent());
  expect(before).toBeGreaterThan(0);
  expect(after).not.toBe(before);
  await expect(lab.byTestId('walkthrough.next')).toBeDisabled();
  await lab.byTestId('walkthrough.back').click();
  await expect(step).toHaveAttribute('data-step', '3');
  await lab.byTestId(`walkthrough.${lane}`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/sac-walkthrough.png', fullPage: false });
  expect(lab.log.consoleErrors).toEqual([]);
  expect(lab.log.pageErrors).toEqual([]);
});
