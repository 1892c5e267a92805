// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { expect, test } from '@playwright/test';
import { encodeAnyScenarioLink, encodeLinkJson } from '../src/scenario/link';
import { encodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { defaultPipelineScenario } from '../src/worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { LabPage } from './pages/lab';

const servingDefault = (): ServingScenario => structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;

/** A serving link with one field changed, unvalidated (as a hand-edited link is). */
function servingLinkWith(path: 'rateRps' | 'platform', value: unknown): string {
  const json = JSON.parse(JSON.stringify(servingDefault())) as { serving: Record<string, unknown> };
  json.serving[path] = value;
  return encodeLinkJson(JSON.stringify(json));
}

for (const [field, value] of [
  ['rateRps', 0],
  ['platform', 'h100'],
] as const) {
  test(`a serving link with a bad ${field} opens the serving lab with the serving field's own error`, async ({ page }) => {
    const lab = new LabPage(page);
    await page.goto(`/#${servingLinkWith(field, value)}`);
    await expect(lab.byTestId('serving')).toBeVisible();
    const banner = lab.byTestId('banner.errors');
    await expect(banner).toHaveAttribute('data-source', 'link');
    await expect(banner).toContainText(`serving.${field}`);
    await expect(banner).not.toContainText('command line');
    // The serving lab runs its default scenario underneath.
    await expect(lab.byTestId('device.model-yolo')).toBeVisible();
    lab.expectCleanLog();
  });
}

test('a link pasted into the address bar is routed by its world, both ways', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  const serving = servingDefault();
  serving.serving.rateRps = 20;
  await page.evaluate((hash) => (window.location.hash = hash), encodeAnyScenarioLink(serving));
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(lab.byTestId('controls.rps')).toHaveValue('20');
  const pipeline = defaultPipelineScenario();
  pipeline.pipeline.executionPlaces = 5;
  await page.evaluate((hash) => (window.location.hash = hash), encodePipelineScenarioLink(pipeline));
  await expect(lab.byTestId('board.ep-4')).toBeVisible();
  await expect(lab.byTestId('serving')).toHaveCount(0);
  // A broken serving link pasted in the pipeline lab: the serving lab shows its field error.
  await page.evaluate((hash) => (window.location.hash = hash), servingLinkWith('rateRps', 0));
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(lab.byTestId('banner.errors')).toContainText('serving.rateRps');
  lab.expectCleanLog();
});
