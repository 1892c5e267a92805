// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zlibSync } from 'fflate';
import { decodePipelineScenarioLink, encodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { runPipelineScenario } from '../src/worlds/pipeline/scenario/pipelineRunner';
import { defaultPipelineScenario } from '../src/worlds/pipeline/defaultPreset';
import { SCENARIO_VERSION } from '../src/scenario/schema';
import { LabPage } from './pages/lab';

/** base64url without padding, as the link codec writes it. */
function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** A link whose payload is the given JSON text, packed like a real one. */
function packJson(text: string): string {
  return `z1=${base64url(zlibSync(strToU8(text), { level: 9 }))}`;
}

function scenarioWith(change: (s: Record<string, unknown> & { pipeline: Record<string, unknown> }) => void): string {
  const s = structuredClone(defaultPipelineScenario()) as unknown as Record<string, unknown> & { pipeline: Record<string, unknown> };
  change(s);
  return packJson(JSON.stringify(s));
}

/** Downloads the page's results as JSON and returns them. */
async function resultsOf(page: Page): Promise<{ served: number; results: { label: string; summary: Record<string, unknown> }[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('files.export-json').click()]);
  return JSON.parse(readFileSync((await download.path())!, 'utf8')) as { served: number; results: { label: string; summary: Record<string, unknown> }[] };
}

test('a copied link reopens the scenario and gives the same numbers, as the command line does', async ({ page, browser }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.pause();
  await lab.byTestId('controls.reset').click();
  await expect.poll(() => lab.served()).toBe(0);
  await lab.step(100);
  await lab.dragWithMouse('E', 2);
  await expect(lab.byTestId('events.item-2')).toContainText('EP 3');
  await lab.step(500);
  await lab.byTestId('links.copy').click();
  const link = await lab.byTestId('links.url').inputValue();
  const first = await resultsOf(page);
  expect(first.served).toBe(600);

  const fresh = await browser.newContext();
  const other = new LabPage(await fresh.newPage());
  await other.page.goto(link);
  await expect(other.byTestId('lane.odin')).toBeVisible();
  await other.pause();
  await other.byTestId('controls.reset').click();
  await expect.poll(() => other.served()).toBe(0);
  await other.step(600);
  const second = await resultsOf(other.page);
  expect(second.results.map((r) => r.summary)).toEqual(first.results.map((r) => r.summary));

  // The command line, on the scenario the link holds, cut at the same query.
  const decoded = decodePipelineScenarioLink(new URL(link).hash);
  expect(decoded.ok).toBe(true);
  if (!decoded.ok) return;
  const cli = runPipelineScenario({ ...decoded.scenario, pipeline: { ...decoded.scenario.pipeline, queries: 600 } });
  expect(cli.map((r) => r.summary)).toEqual(first.results.map((r) => r.summary));
  lab.expectCleanLog();
  other.expectCleanLog();
  await fresh.close();
});

const valid = encodePipelineScenarioLink(defaultPipelineScenario());
const HOSTILE: readonly (readonly [string, string, RegExp])[] = [
  ['malformed base64', 'z1=@@@@!!', /not valid base64url/],
  ['truncated link', valid.slice(0, Math.floor(valid.length / 2)), /corrupt|valid JSON|not valid base64url/],
  ['corrupt compressed data', `z1=${base64url(Uint8Array.from({ length: 300 }, (_, i) => (i * 37 + 11) % 256))}`, /corrupt/],
  ['decompression bomb', `z1=${base64url(zlibSync(new Uint8Array(20 * 1024 * 1024), { level: 9 }))}`, /unpacks to more than/],
  ['unknown link format', 'z9=AAAA', /unknown format/],
  ['not a link at all', 'hello-world', /not a scenario link/],
  ['unknown schema version', scenarioWith((s) => (s.version = 99)), /version/],
  ['unknown field', scenarioWith((s) => (s.surprise = true)), /unknown field/],
  ['__proto__ key', packJson(`{"__proto__":{"polluted":true},${JSON.stringify(defaultPipelineScenario()).slice(1)}`), /__proto__/],
  ['constructor key', packJson(JSON.stringify(defaultPipelineScenario()).replace('"pipeline":{', '"pipeline":{"constructor":{"prototype":1},')), /constructor/],
  ['NaN', packJson(JSON.stringify(defaultPipelineScenario()).replace('"queries":2000', '"queries":NaN')), /valid JSON/],
  ['Infinity', packJson(JSON.stringify(defaultPipelineScenario()).replace('"queries":2000', '"queries":1e999')), /queries/],
  ['negative EPs', scenarioWith((s) => (s.pipeline.executionPlaces = -3)), /executionPlaces/],
  ['10⁹ queries', scenarioWith((s) => (s.pipeline.queries = 1e9)), /queries: must be an integer from 1 to 10000000/],
  ['10⁴ EPs', scenarioWith((s) => (s.pipeline.executionPlaces = 10_000)), /executionPlaces: must be an integer from 1 to 64/],
  ['wrong type', scenarioWith((s) => (s.pipeline.executionPlaces = 'four')), /executionPlaces: must be a number/],
  ['huge hash', `z1=${'A'.repeat(70_000)}`, /too long/],
  ['event on a missing EP', scenarioWith((s) => ((s.pipeline.interference as { events: unknown[] }).events = [{ executionPlace: 9, mode: 'E', fromQuery: 1, toQuery: null }])), /executionPlace/],
  ['no lanes', scenarioWith((s) => (s.pipeline.lanes = [])), /lanes/],
  ['a JSON array', packJson('[1,2,3]'), /JSON object|scenario/],
];

test.describe('hostile links', () => {
  for (const [name, hash, message] of HOSTILE) {
    test(`${name}: a banner names the problem and the default scenario keeps working`, async ({ page }) => {
      const lab = new LabPage(page);
      await page.goto(`./#${hash}`);
      const banner = lab.byTestId('banner.errors');
      await expect(banner).toBeVisible();
      await expect(banner).toHaveAttribute('data-source', 'link');
      await expect(banner).toContainText(message);
      await expect(lab.byTestId('lane.odin')).toBeVisible();
      await expect.poll(() => lab.served(), { timeout: 10_000 }).toBeGreaterThan(5);
      expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted)).toBeUndefined();
      lab.expectCleanLog();
    });
  }
});

test('keeps working offline once loaded', async ({ page, context }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.pause();
  // "Once loaded": lazily loaded parts (chunks fetched after the first frame) have arrived.
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await lab.step(50);
  await lab.dragWithKeyboard('I', 1);
  await lab.step(5);
  expect((await lab.epModes())[1]).toBe('I');
  await context.setOffline(false);
  lab.expectCleanLog();
});

test('undo and redo scenario edits with the buttons and the keyboard', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('controls.model').selectOption('resnet50');
  await expect(lab.byTestId('controls.model')).toHaveValue('resnet50');
  await lab.byTestId('controls.undo').click();
  await expect(lab.byTestId('controls.model')).toHaveValue('vgg16');
  await lab.byTestId('controls.redo').click();
  await expect(lab.byTestId('controls.model')).toHaveValue('resnet50');
  await lab.byTestId('app.title').click();
  await page.keyboard.press('Control+z');
  await expect(lab.byTestId('controls.model')).toHaveValue('vgg16');
  await page.keyboard.press('Control+Shift+z');
  await expect(lab.byTestId('controls.model')).toHaveValue('resnet50');
  lab.expectCleanLog();
});

test('exports a scenario file and imports it again; a bad file gets a banner', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('controls.eps').fill('6');
  await lab.byTestId('controls.eps').press('Enter');
  await expect(lab.byTestId('board.ep-5')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), lab.byTestId('files.export-scenario').click()]);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(JSON.parse(text)).toMatchObject({ version: SCENARIO_VERSION, pipeline: { executionPlaces: 6 } });
  await lab.byTestId('controls.eps').fill('3');
  await lab.byTestId('controls.eps').press('Enter');
  await expect(lab.byTestId('board.ep-5')).toHaveCount(0);
  await lab.byTestId('files.import-input').setInputFiles({ name: 'scenario.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(lab.byTestId('board.ep-5')).toBeVisible();
  await lab.byTestId('files.import-input').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 2, "world": "pipeline"') });
  await expect(lab.byTestId('banner.errors')).toHaveAttribute('data-source', 'file');
  await expect(lab.byTestId('banner.errors')).toContainText('is not valid JSON');
  await expect(lab.byTestId('board.ep-5')).toBeVisible();
  lab.expectCleanLog();
});

test('a classroom link opens in presentation mode with chosen controls hidden', async ({ page, browser }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('view.classroom').click();
  await lab.byTestId('view.mode').selectOption('presentation');
  await lab.byTestId('view.hide-assumptions').check();
  await lab.byTestId('view.hide-scenario').check();
  await lab.byTestId('links.copy').click();
  const link = await lab.byTestId('links.url').inputValue();
  const fresh = await browser.newContext();
  const other = new LabPage(await fresh.newPage());
  await other.page.goto(link);
  await expect(other.byTestId('lane.odin')).toBeVisible();
  await expect(other.byTestId('lab')).toHaveAttribute('data-view', 'presentation');
  await expect(other.byTestId('assumptions.trialCost')).toHaveCount(0);
  await expect(other.byTestId('controls.model')).toHaveCount(0);
  await expect(other.byTestId('palette.mode-E')).toBeVisible();
  other.expectCleanLog();
  await fresh.close();
});

test('exports a chart as PNG and SVG', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await expect.poll(() => lab.throughputPoints()).toBeGreaterThan(10);
  const [svg] = await Promise.all([page.waitForEvent('download'), lab.byTestId('chart.throughput.svg').click()]);
  const svgText = readFileSync((await svg.path())!, 'utf8');
  expect(svgText).toContain('<svg');
  expect(svgText).toContain('Throughput');
  const [png] = await Promise.all([page.waitForEvent('download'), lab.byTestId('chart.throughput.png').click()]);
  const pngBytes = readFileSync((await png.path())!);
  expect(pngBytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  lab.expectCleanLog();
});

test('a crashed simulation worker is restarted and the scenario survives', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('controls.eps').fill('5');
  await lab.byTestId('controls.eps').press('Enter');
  await expect(lab.byTestId('board.ep-4')).toBeVisible();
  await lab.pause();
  await lab.step(20);
  const worker = page.workers()[0];
  expect(worker).toBeDefined();
  // An uncaught error inside the worker, as a bug would throw.
  await worker!.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated crash');
    }, 0);
  });
  await expect(lab.byTestId('banner.errors')).toHaveAttribute('data-source', 'worker');
  await expect.poll(() => lab.served()).toBe(0);
  await expect(lab.byTestId('board.ep-4')).toBeVisible();
  await lab.step(10);
  expect(await lab.served()).toBe(10);
  expect(lab.log.pageErrors).toEqual([]);
});

test('the presets gallery opens a paper preset and lists the serving ones', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.presets').click();
  await expect(lab.byTestId('presets.bcedge-fig15-rps')).toBeEnabled();
  await expect(page.getByText('npm run sim -- run bcedge-fig15-rps')).toBeVisible();
  await lab.byTestId('presets.odin-fig1-vgg16').click();
  await expect(lab.byTestId('lane.evict')).toBeVisible();
  await expect(page.locator('[data-testid^="lane."]')).toHaveCount(5);
  await expect(lab.byTestId('events.item-1')).toContainText('EP 4');
  lab.expectCleanLog();
});
