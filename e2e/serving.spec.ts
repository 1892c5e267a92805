// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { expect, test } from '@playwright/test';
import { LabPage } from './pages/lab';
import { ServingPage } from './pages/serving';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';

test('the serving lab: six models on the device, Triton sliders move the Fig. 1 marker and change the run', async ({ page }) => {
  // Fig. 15 sweeps the BCEdge lane in the worker too (five rates × 120 s of learning).
  test.setTimeout(240_000);
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.presets').click();
  await lab.byTestId('presets.serving-default').click();
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(lab.byTestId('device.model-yolo')).toBeVisible();
  await expect(page.locator('[data-testid^="device.model-"]')).toHaveCount(6);
  await expect.poll(async () => Number(await lab.byTestId('serving.time').getAttribute('data-time-ms')), { timeout: 10_000 }).toBeGreaterThan(2000);
  // The heatmap of the selected model fills in cell by cell.
  await expect.poll(async () => Number((await page.locator('[data-testid="chart.heatmap-throughput"] svg').getAttribute('data-points')) ?? '0'), { timeout: 15_000 }).toBe(64);
  await lab.byTestId('serving.pause').click();
  const before = await lab.byTestId('chart.heatmap-throughput').innerHTML();
  await lab.byTestId('controls.batch-yolo').fill('5'); // b = 32
  await expect(lab.byTestId('device.model-yolo')).toContainText('b = 32');
  await expect.poll(async () => lab.byTestId('chart.heatmap-throughput').innerHTML()).not.toBe(before);
  const points = async () => Number((await page.locator('[data-testid="chart.throughput"] svg').getAttribute('data-points')) ?? '0');
  const pointsBefore = await points();
  await lab.byTestId('serving.step').click();
  await expect.poll(points).toBeGreaterThan(pointsBefore);
  // Fig. 15: once its chart is on screen, the sweep over request rates fills in (five rates per lane, the learning lane's too:
  // the worker sweeps it beside the others, ARCHITECTURE §7a′: four lanes × five rates = 20 points).
  await lab.byTestId('chart.rps').scrollIntoViewIfNeeded();
  await expect.poll(async () => Number((await page.locator('[data-testid="chart.rps"] svg').getAttribute('data-points')) ?? '0'), { timeout: 150_000 }).toBe(20);
  await page.evaluate(() => window.scrollTo(0, 0));
  // Drag another tenant onto the device: it runs from now on, on every lane. (The token sits under
  // the device's table: brought into the window first, and dropped on the board's part in view.)
  await lab.byTestId('palette.background').scrollIntoViewIfNeeded();
  const token = (await lab.byTestId('palette.background').boundingBox())!;
  const device = (await lab.byTestId('device.board').boundingBox())!;
  await page.mouse.move(token.x + token.width / 2, token.y + token.height / 2);
  await page.mouse.down();
  await page.mouse.move(token.x + token.width / 2 + 10, token.y + token.height / 2, { steps: 3 });
  await page.mouse.move(device.x + device.width / 2, Math.max(device.y, 0) + 40, { steps: 10 });
  await page.mouse.up();
  await expect(page.locator('[data-testid^="device.background-"]')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/serving-view.png', fullPage: true });
  await lab.byTestId('serving.exit').click();
  await expect(lab.byTestId('lane.odin')).toBeVisible();
  lab.expectCleanLog();
});

test('a serving link reopens the scenario exactly, per-model settings included', async ({ page, browser }) => {
  // Two pages each reset and step the six models five times; under a loaded machine that takes most of the default 30 s.
  test.setTimeout(60_000);
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.presets').click();
  await lab.byTestId('presets.serving-default').click();
  await expect(lab.byTestId('serving')).toBeVisible();
  await lab.byTestId('serving.pause').click();
  await lab.byTestId('controls.batch-yolo').fill('5'); // b = 32
  await lab.byTestId('controls.instances-bert').fill('3');
  await expect(lab.byTestId('device.model-bert')).toContainText('m_c = 3');
  // The page that edited the Triton lane renames it at once.
  await expect(lab.byTestId('lane.fixed')).toContainText('Triton (fixed) b=8 m_c=2; bert m_c=3; yolo b=32');
  await lab.byTestId('links.copy').click();
  const link = await lab.byTestId('links.url').inputValue();
  expect(new URL(link).hash.startsWith('#z1=')).toBe(true);

  const readLanes = async (p: LabPage) => {
    await p.byTestId('serving.reset').click();
    await expect.poll(async () => Number(await p.byTestId('serving.time').getAttribute('data-time-ms'))).toBe(0);
    for (let s = 1; s <= 5; s++) {
      await p.byTestId('serving.step').click();
      await expect.poll(async () => Number(await p.byTestId('serving.time').getAttribute('data-time-ms'))).toBe(1000 * s);
    }
    await expect(p.byTestId('lane.fixed')).toContainText('utility');
    // The lanes' numbers (from 'utility' on: the edited page and the reopened link both name the per-model settings in the Triton lane's title).
    return (await p.page.locator('[data-testid^="lane."]').allTextContents()).map((t) => t.slice(t.indexOf('utility')));
  };
  const here = await readLanes(lab);

  const fresh = await browser.newContext();
  const other = new LabPage(await fresh.newPage());
  await other.page.goto(link);
  await expect(other.byTestId('serving')).toBeVisible();
  await expect(other.byTestId('device.model-yolo')).toContainText('b = 32');
  await expect(other.byTestId('device.model-bert')).toContainText('m_c = 3');
  await expect(other.byTestId('lane.fixed')).toContainText('Triton (fixed) b=8 m_c=2; bert m_c=3; yolo b=32');
  // The link carries its moment (view.at): it reopens playing or paused, as it was copied.
  if (await other.byTestId('serving.pause').isEnabled()) await other.byTestId('serving.pause').click();
  expect(await readLanes(other)).toEqual(here);
  lab.expectCleanLog();
  other.expectCleanLog();
  await fresh.close();
});

test('a serving sweep preset opens in the serving lab on its first cell', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.presets').click();
  await lab.byTestId('presets.bcedge-fig1-yolo').click();
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(page.locator('[data-testid^="device.model-"]')).toHaveCount(1);
  await expect(lab.byTestId('lane.fixed')).toBeVisible();
  await expect.poll(async () => Number(await lab.byTestId('serving.time').getAttribute('data-time-ms')), { timeout: 10_000 }).toBeGreaterThan(1000);
  lab.expectCleanLog();
});

test('the serving lab reads BCEdge as the paper writes it: its Assumptions panel names each reading, batches form on the device, and the earlier reading (b a cap) forms none', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.presets').click();
  await lab.byTestId('presets.serving-default').click();
  await expect(lab.byTestId('serving')).toBeVisible();
  // The paper's readings are the defaults.
  const panel = lab.byTestId('serving.assumptions');
  await expect(panel).toBeVisible();
  for (const [name, value] of [
    ['rateBasis', 'perModel'],
    ['batching', 'form'],
    ['throughputTerm', 'configuration'],
    ['reward', 'withinSlo'],
    ['latencyProfile', 'tensorrt'],
    ['interference', 'coLocated'],
    ['platformSetting', 'perModel'],
    ['slot', 'eq1'],
  ] as const) {
    await expect(lab.byTestId(`assumptions.${name}`)).toHaveValue(value);
  }
  await expect(panel).toContainText('§V-A');
  await expect(panel).toContainText('Eq. 4');
  await expect(panel).toContainText('§III-A2, Eq. 1');
  // Batches of 8 form: some model has requests waiting for its batch, with the time they have left.
  await expect
    .poll(async () => {
      const waiting = await page.locator('[data-testid^="device.forming-"]').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-waiting'))));
      return Math.max(...waiting);
    }, { timeout: 15_000 })
    .toBeGreaterThan(0);
  await expect(page.locator('[data-testid^="device.forming-"] .forming').first()).toContainText('ms');
  // Under the earlier reading (b a cap) nothing waits for a batch (the run restarts under it, playing).
  await lab.byTestId('assumptions.batching').selectOption('cap');
  await expect(lab.byTestId('assumptions.batching')).toHaveValue('cap');
  await expect.poll(async () => Number(await lab.byTestId('serving.time').getAttribute('data-time-ms')), { timeout: 10_000 }).toBeGreaterThan(3000);
  const waiting = await page.locator('[data-testid^="device.forming-"]').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-waiting'))));
  expect(Math.max(...waiting)).toBe(0);
  lab.expectCleanLog();
});

test('nothing waits for a reference lane or a learner: bcedge-dynamic runs at once, its oracles within 5 s from the plans shipped with the preset, and its learners join once TensorFlow.js is here', async ({ page }) => {
  test.setTimeout(120_000);
  // When the page shows each thing, by the page's clock (not by when a poll happens to look).
  await page.addInitScript(() => {
    const shown: Record<string, number> = {};
    (window as unknown as { shown: Record<string, number> }).shown = shown;
    const seen = (what: string, yes: boolean) => {
      if (yes && shown[what] === undefined) shown[what] = performance.now();
    };
    new MutationObserver(() => {
      seen('lab', document.querySelector('[data-testid="serving"]') !== null);
      seen('lanes', document.querySelectorAll('.serving-lanes li').length === 10);
      seen('models', document.querySelectorAll('[data-testid^="device.model-"]').length === 6);
      seen('rate', document.querySelector('[data-testid="serving.rate"]')?.textContent === '30');
      seen('time', Number(document.querySelector('[data-testid="serving.time"]')?.getAttribute('data-time-ms') ?? '0') > 0);
      // Once simulated time goes on (the frames say which lanes wait), the three oracles (lanes 7 to 9) listed and none of them waiting for a search.
      seen('oracles', shown['time'] !== undefined && document.querySelectorAll('.serving-lanes li').length === 10 && [7, 8, 9].every((lane) => document.querySelector(`[data-testid="lane.search.${lane}"]`) === null));
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const lab = new ServingPage(page);
  await lab.open('bcedge-dynamic');
  // Within 2 s of the lab opening: the ten lanes are listed, the device has its six models, the rate is the scenario's, and simulated time goes on.
  const shown = () => page.evaluate(() => (window as unknown as { shown: Record<string, number> }).shown);
  await expect.poll(async () => Object.keys(await shown()).sort()).toEqual(['lab', 'lanes', 'models', 'oracles', 'rate', 'time']);
  const at = await shown();
  for (const what of ['lanes', 'models', 'rate', 'time']) expect(at[what]! - at['lab']!, what).toBeLessThan(2_000);
  // The oracles' plans are shipped with the preset (npm run oracle-plans): no search, their lanes run within 5 s of opening.
  expect(at['oracles']! - at['lab']!, 'oracles').toBeLessThan(5_000);
  for (const lane of [7, 8, 9]) await expect(lab.byTestId(`lane.search.${lane}`)).toHaveCount(0);
  const t = await lab.timeMs();
  await expect.poll(() => lab.timeMs()).toBeGreaterThan(t);
  // The four learners (lanes 3 to 6: BCEdge, TAC, PPO, DDQN) did not hold the run back: they
  // joined, or join, once TensorFlow.js and their agents are here, each card saying so meanwhile.
  const learnerCards = await page.evaluate(() => [3, 4, 5, 6].map((lane) => document.querySelector(`[data-testid="lane.search.${lane}"]`)?.getAttribute('data-phase') ?? 'joined'));
  for (const phase of learnerCards) expect(['loading', 'replay', 'joined']).toContain(phase);
  for (const lane of [3, 4, 5, 6]) await expect(lab.byTestId(`lane.search.${lane}`)).toHaveCount(0, { timeout: 60_000 });
  // Every lane has numbers to show, the oracles' included.
  await lab.byTestId('serving.pause').click();
  await expect(lab.byTestId('lane.fixed')).toContainText('utility');
  for (const lane of [7, 8, 9]) await expect(page.locator('.serving-lanes li').nth(lane)).toContainText('utility');
  lab.expectCleanLog();
});

test('on a Jetson Nano each of three models is served on its own device (BCEdge §V-D); the earlier reading puts them on one', async ({ page }) => {
  const lab = new LabPage(page);
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  s.serving.platform = 'nano';
  s.serving.models = [
    { model: 'yolo', weight: 1 },
    { model: 'res', weight: 1 },
    { model: 'bert', weight: 1 },
  ];
  s.serving.lanes = [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }];
  await page.goto(`./#${encodeAnyScenarioLink(s)}`);
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(lab.byTestId('assumptions.platformSetting')).toHaveValue('perModel');
  await expect(lab.byTestId('device.copies')).toContainText('× 3, one per model');
  await expect(lab.byTestId('device.model-res')).toBeVisible();
  await lab.byTestId('assumptions.platformSetting').selectOption('mixed');
  await expect(lab.byTestId('device.copies')).toHaveCount(0);
  await expect(lab.byTestId('device.model-res')).toBeVisible();
  lab.expectCleanLog();
});
