// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { encodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { defaultPipelineScenario } from '../src/worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import type { PipelineScenario } from '../src/worlds/pipeline/schema';
import { LabPage } from './pages/lab';

/** The default scenario on 400 queries with a 3 × 3 sweep (ODIN α × detection threshold), one seed. */
function sweptScenario(seeds = 1): PipelineScenario {
  const s = defaultPipelineScenario();
  return {
    ...s,
    pipeline: { ...s.pipeline, queries: 400 },
    sweep: {
      axes: [
        { path: 'pipeline.lanes[0].params.alpha', values: [2, 10, 20] },
        { path: 'pipeline.assumptions.detectionThreshold', values: [0.02, 0.05, 0.1] },
      ],
      seeds,
    },
  };
}

async function resultsOf(page: Page): Promise<{ results: { label: string; summary: Record<string, number> }[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('files.export-json').click()]);
  return JSON.parse(readFileSync((await download.path())!, 'utf8')) as { results: { label: string; summary: Record<string, number> }[] };
}

test('a 3 × 3 sweep fills on the worker pool, the heatmap shows every cell, and a cell opens that run with the same numbers', async ({ page }) => {
  const lab = new LabPage(page);
  await page.goto(`./#${encodePipelineScenarioLink({ ...sweptScenario(), sweep: undefined } as unknown as PipelineScenario).replace(/^#/, '')}`);
  await expect(lab.byTestId('lane.odin')).toBeVisible();
  await lab.byTestId('explore.open').click();
  await expect(lab.byTestId('explore')).toBeVisible();
  // The view starts from one axis, ODIN α; a second, the detection threshold, makes a heatmap; one seed.
  await expect(lab.byTestId('explore.axis-1.path')).toHaveCount(0);
  await lab.byTestId('explore.add-axis').click();
  await lab.byTestId('explore.axis-1.path').selectOption('pipeline.assumptions.detectionThreshold');
  await lab.byTestId('explore.axis-1.values').fill('0.02, 0.05, 0.1');
  await lab.byTestId('explore.seeds').fill('1');
  await lab.byTestId('explore.run').click();
  await expect(lab.byTestId('explore.progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(lab.byTestId('explore.status')).toContainText('9 of 9 cells');
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const cell = lab.byTestId(`explore.cell-${i}-${j}`);
      await expect(cell).toHaveAttribute('data-seeds', '1');
      expect(Number(await cell.getAttribute('data-mean'))).toBeGreaterThan(0);
    }
  }
  await lab.byTestId('explore.cell-2-0').hover();
  await expect(lab.byTestId('explore.hover')).toContainText('ODIN α (exploration) 20, detection threshold (relative change) 0.02');
  await expect(lab.byTestId('explore.hover')).toContainText('one seed');
  const mean = Number(await lab.byTestId('explore.cell-2-0').getAttribute('data-mean'));

  // α = 20, threshold 0.02, seed 1: the live lab plays exactly that run.
  await lab.byTestId('explore.cell-2-0').click();
  await expect(lab.byTestId('explore')).toBeHidden();
  await expect(lab.byTestId('lane.odin')).toBeVisible();
  await lab.pause();
  await lab.byTestId('controls.reset').click();
  await expect.poll(() => lab.served()).toBe(0);
  await lab.step(400);
  const { results } = await resultsOf(page);
  expect(results[0]!.label).toBe('ODIN α=20');
  expect(results[0]!.summary['throughputMeanQps']).toBe(mean);
  lab.expectCleanLog();
});

test('cancel stops the pool: no cell finishes after it', async ({ page }) => {
  const lab = new LabPage(page);
  const s = sweptScenario(40);
  // 360 cells of 20,000 queries: several seconds on two workers, so that the cancel lands half-way (at 2,000 queries an idle machine finished them in half a second, before the click).
  await page.goto(`./#${encodePipelineScenarioLink({ ...s, pipeline: { ...s.pipeline, queries: 20_000 }, view: { mode: 'normal', hide: [], explore: true } })}`);
  await expect(lab.byTestId('explore')).toBeVisible();
  await expect.poll(async () => Number(await lab.byTestId('explore.progress').getAttribute('value')), { timeout: 30_000 }).toBeGreaterThan(0);
  await lab.byTestId('explore.cancel').click();
  await expect(lab.byTestId('explore.progress')).toHaveAttribute('data-status', 'cancelled');
  const done = Number(await lab.byTestId('explore.progress').getAttribute('value'));
  expect(done).toBeLessThan(360);
  await page.waitForTimeout(1500);
  expect(Number(await lab.byTestId('explore.progress').getAttribute('value'))).toBe(done);
  // The pool's workers are gone (workerpool terminated them).
  await expect(lab.byTestId('explore.run')).toBeEnabled();
});

test('a sweep link reopens the same view and fills it', async ({ page }) => {
  const lab = new LabPage(page);
  const s = { ...sweptScenario(2), view: { mode: 'normal' as const, hide: [], explore: true as const } };
  await page.goto(`./#${encodePipelineScenarioLink(s)}`);
  await expect(lab.byTestId('explore')).toBeVisible();
  await expect(lab.byTestId('explore.axis-0.path')).toHaveValue('pipeline.lanes[0].params.alpha');
  await expect(lab.byTestId('explore.axis-1.values')).toHaveValue('0.02, 0.05, 0.1');
  await expect(lab.byTestId('explore.progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(lab.byTestId('explore.cell-1-1')).toHaveAttribute('data-seeds', '2');
  // The address bar still holds the sweep and the open view.
  await expect.poll(() => page.evaluate(() => window.location.hash)).toContain('z1=');
  lab.expectCleanLog();
});

test('the serving lab has Explore too: a 2 × 2 sweep of the request rate and a batch size fills, and a cell opens its run', async ({ page }) => {
  const lab = new LabPage(page);
  const base = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  const scenario: ServingScenario = {
    ...base,
    serving: { ...base.serving, durationS: 20, lanes: [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }] },
    sweep: {
      axes: [
        { path: 'serving.rateRps', values: [10, 30] },
        { path: 'serving.lanes[0].params.batchSize', values: [1, 4] },
      ],
      seeds: 1,
    },
  };
  await page.goto(`./#${encodeAnyScenarioLink(scenario).replace(/^#/, '')}`);
  await expect(lab.byTestId('serving')).toBeVisible();
  await lab.byTestId('explore.open').click();
  await expect(lab.byTestId('explore')).toBeVisible();
  await lab.byTestId('explore.run').click();
  await expect(lab.byTestId('explore.progress')).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await expect(lab.byTestId('explore.status')).toContainText('4 of 4 cells');
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 2; j++) await expect(lab.byTestId(`explore.cell-${i}-${j}`)).toHaveAttribute('data-seeds', '1');
  }
  // The cell at 30 rps a model, batch 4: the serving lab plays that run.
  await lab.byTestId('explore.cell-1-1').click();
  await expect(lab.byTestId('explore')).toBeHidden();
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(lab.byTestId('controls.rps')).toHaveValue('30');
  lab.expectCleanLog();
});

test('a result that contradicts a lesson (ODIN below Static at every α) comes with a line pointing at the claim that explains it, which opens unfolded', async ({ page }, info) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const lab = new LabPage(page);
  await lab.goto();
  // Explore pauses the lab as it opens.
  await lab.byTestId('explore.open').click();
  await expect(lab.byTestId('explore')).toBeVisible();
  // One axis, ODIN α, on the default scenario (2,000 queries, the hog on EP 2), one seed: ODIN trails Static at 2, 10 and 20.
  await lab.byTestId('explore.axis-0.path').selectOption('pipeline.lanes[0].params.alpha');
  await lab.byTestId('explore.axis-0.values').fill('2, 10, 20');
  await lab.byTestId('explore.seeds').fill('1');
  await lab.byTestId('explore.metric').selectOption('throughputMeanQps');
  await lab.byTestId('explore.run').click();
  await expect(lab.byTestId('explore.progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  const line = lab.byTestId('explore.surprises').locator('li[data-claim="odin-fig6-throughput"]');
  await expect(line).toContainText('below');
  await expect(line).toContainText('at every ODIN α');
  await line.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('explore-surprise-1440x900.png') });
  const results = await new AxeBuilder({ page }).include('[data-testid="explore"]').analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).slice(0, 3).join(" | ")})`)).toEqual([]);
  // The line's button opens the Claims view in Explore's place, on that claim's row, unfolded and on the screen.
  await lab.byTestId('explore.claim-odin-fig6-throughput').click();
  await expect(lab.byTestId('claims')).toHaveAttribute('data-status', 'ready');
  await expect(lab.byTestId('explore')).toBeHidden();
  const row = lab.byTestId('claims.row-odin-fig6-throughput');
  await expect(row).toHaveAttribute('data-expanded', 'yes');
  await expect(row).toBeInViewport();
  await page.screenshot({ path: info.outputPath('claims-from-explore-1440x900.png') });
  lab.expectCleanLog();
});
