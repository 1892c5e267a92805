// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { ServingPage } from './pages/serving';

/** A CSV trace of `n` requests over the six models, 20 ms apart. */
const MODELS = ['yolo', 'mob', 'res', 'eff', 'inc', 'bert'];
const csvTrace = (n: number) => ['time_s,model', ...Array.from({ length: n }, (_, i) => `${(i / 50).toFixed(2)},${MODELS[i % MODELS.length]}`), ''].join('\n');
const file = (name: string, text: string) => ({ name, mimeType: name.endsWith('.csv') ? 'text/csv' : 'application/json', buffer: Buffer.from(text) });

test('a trace file replays in the serving lab; a malformed one is refused by field; one too long for a link travels as a file', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await lab.byTestId('serving.pause').click();

  // 300 requests over 6 s: the run replays them and lasts to the second after the last one.
  await lab.byTestId('trace.input').setInputFiles(file('cams.csv', csvTrace(300)));
  await expect(lab.byTestId('trace.status')).toHaveAttribute('data-requests', '300');
  await expect(lab.byTestId('trace.status')).toContainText('from cams.csv');
  await expect(lab.byTestId('serving.time')).toContainText('/ 6 s');
  for (let s = 1; s <= 3; s++) await lab.byTestId('serving.step').click();
  await expect.poll(() => lab.timeMs()).toBe(3000);
  // A short trace travels in the link.
  await lab.byTestId('links.copy').click();
  await expect(lab.byTestId('links.url')).toHaveValue(/#z1=/);
  await expect(lab.byTestId('links.problem')).toHaveCount(0);

  // A malformed file: a banner names the file and the field; the replayed trace stays.
  await lab.byTestId('trace.input').setInputFiles(file('bad.csv', 'time_s,model\n0.1,yolo\n0.2,yolov5\n'));
  await expect(lab.byTestId('banner.errors')).toContainText('bad.csv: trace line 3.model');
  await expect(lab.byTestId('banner.errors')).toContainText('yolov5');
  await expect(lab.byTestId('trace.status')).toHaveAttribute('data-requests', '300');
  await lab.byTestId('banner.errors').getByRole('button', { name: 'Dismiss' }).click();

  // 2001 requests: more than a link carries. The page says it travels as a file, and Copy link says why there is no link.
  await lab.byTestId('trace.input').setInputFiles(file('day.csv', csvTrace(2001)));
  await expect(lab.byTestId('trace.status')).toHaveAttribute('data-requests', '2001');
  await expect(lab.byTestId('trace.file-only')).toContainText('too long for a link');
  await lab.byTestId('links.copy').click();
  await expect(lab.byTestId('links.problem')).toContainText('has 2001 requests; a link carries at most 2000: save the scenario as a file instead');
  await expect(lab.byTestId('links.url')).toHaveCount(0);
  // The address bar kept the last scenario a link could carry (the 300-request trace).
  expect(new URL(page.url()).hash.startsWith('#z1=')).toBe(true);

  // Saved as a file, and opened again after drawing arrivals again: the same 2001 requests.
  const [download] = await Promise.all([page.waitForEvent('download'), lab.byTestId('serving.export-scenario').click()]);
  const saved = JSON.parse(readFileSync((await download.path())!, 'utf8')) as ServingScenario;
  expect(saved.serving.trace?.requests).toHaveLength(2001);
  await lab.byTestId('trace.remove').click();
  await expect(lab.byTestId('trace.status')).toHaveCount(0);
  await lab.byTestId('serving.import-input').setInputFiles(file('day-scenario.json', JSON.stringify(saved)));
  await expect(lab.byTestId('trace.status')).toHaveAttribute('data-requests', '2001');
  await lab.byTestId('serving.step').click();
  await expect.poll(() => lab.timeMs()).toBe(1000);
  lab.expectCleanLog();
});

test('a reference lane searches beside the run, its progress on its card, joins with every point up to now, and is not searched again', async ({ page }) => {
  // Its search (at most 120 runs of 600 s) runs in the search worker beside the run and the Fig. 1 sweep: tens of seconds.
  test.setTimeout(180_000);
  // Record every count of runs its card shows (it may change between two polls).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { searchTexts: string[] }).searchTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="lane.search.1"]')?.textContent;
      if (text != null && seen.at(-1) !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const base = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  // 18 uniform configurations, then one pass over 6 models × 17 others: at most 120 runs of 600 s.
  const scenario: ServingScenario = { ...base, serving: { ...base.serving, durationS: 600, lanes: [{ scheduler: 'fixed' }, { scheduler: 'fixed-hindsight' }] } };
  const lab = new ServingPage(page);
  await page.goto(`./#${encodeAnyScenarioLink(scenario)}`);
  await expect(lab.byTestId('serving')).toBeVisible();
  // Both lanes are there at once; the run goes on while the reference lane searches.
  await expect(lab.byTestId('lane.fixed-hindsight')).toBeVisible();
  await expect(lab.byTestId('lane.search.1')).toHaveAttribute('data-total', '120');
  await expect.poll(() => lab.timeMs()).toBeGreaterThan(0);
  // The search runs in a worker of its own (the serving worker starts it), not in the serving worker's slices.
  await expect.poll(() => page.workers().some((w) => w.url().includes('oracleWorker'))).toBe(true);
  await expect(lab.byTestId('lane.search.1')).toHaveCount(0, { timeout: 150_000 });
  const texts = await page.evaluate(() => (window as unknown as { searchTexts: string[] }).searchTexts);
  expect(texts[0]).toMatch(/^searching this run’s trace beside the other lanes: \d+ of at most 120 configurations tried/);
  const counts = texts.filter((t) => t.startsWith('searching')).map((t) => Number(/: (\d+) of at most/.exec(t)![1]));
  expect(counts.length).toBeGreaterThan(1);
  expect([...counts].sort((a, b) => a - b)).toEqual(counts);
  // Joined: it has its summary (paused) and the points of every slot so far, as the fixed lane has.
  if (await lab.byTestId('serving.pause').isEnabled()) await lab.byTestId('serving.pause').click();
  await expect(lab.byTestId('lane.fixed-hindsight')).toContainText('utility');
  await lab.byTestId('lane.fixed-hindsight').locator('input[type=radio]').check();
  const joined = await lab.chartPoints('chart.throughput');
  await lab.byTestId('lane.fixed').locator('input[type=radio]').check();
  await expect.poll(() => lab.chartPoints('chart.throughput')).toBe(joined);
  expect(joined).toBeGreaterThan(0);
  // Back to time 0 (a reset, the same scenario): the plan is kept, the lane runs from the first frame on.
  await lab.byTestId('serving.reset').click();
  await expect.poll(() => lab.timeMs()).toBe(0);
  await expect(lab.byTestId('lane.search.1')).toHaveCount(0);
  await lab.byTestId('serving.step').click();
  await expect.poll(() => lab.timeMs()).toBe(1000);
  await expect(lab.byTestId('lane.search.1')).toHaveCount(0);
  await expect(lab.byTestId('lane.fixed-hindsight')).toContainText('utility');
  lab.expectCleanLog();
});
