// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { ServingPage } from './pages/serving';

/** The serious and critical violations axe finds on the page now. */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
}

/**
 * A small changing world whose oracles are found in seconds: two models for 300 s, the camera
 * stepping from 20 to 60 rps at 60 s, Triton, DeepRT, BCEdge from scratch, and the two oracles
 * over b ≤ 4, m_c = 1 (per phase: the step).
 */
function smallWorld(): ServingScenario {
  const base = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  const oracle = { maxBatch: 4, maxInstances: 1 };
  return {
    ...base,
    title: 'A small world with its oracles',
    serving: {
      ...base.serving,
      durationS: 300,
      models: [
        { model: 'yolo', weight: 1, rate: { kind: 'steps', steps: [{ fromS: 0, rateRps: 20 }, { fromS: 60, rateRps: 60 }] } },
        { model: 'mob', weight: 1 },
      ],
      lanes: [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }, { scheduler: 'bcedge' }, { scheduler: 'fixed-hindsight', params: oracle }, { scheduler: 'fixed-per-phase', params: oracle }],
    },
  } as ServingScenario;
}

test.use({ viewport: { width: 1440, height: 900 } });

test('every serving lane card shows its numbers while playing, its gaps to the oracles once they run, and says when they are stale; Figs. 7 and 10 draw while playing, the oracles’ lines included', async ({ page }, info) => {
  test.setTimeout(120_000);
  // Every text the first card's hindsight gap shows (it may change between two polls).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { gapTexts: string[] }).gapTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="lane-gap.0.hindsight"]')?.textContent;
      if (text != null && seen.at(-1) !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const lab = new ServingPage(page);
  await page.goto(`./#${encodeAnyScenarioLink(smallWorld())}`);
  await expect(lab.byTestId('serving')).toBeVisible();
  await expect(page.locator('[data-testid^="device.model-"]').first()).toBeVisible({ timeout: 30_000 });
  await lab.byTestId('serving.speed').selectOption('2');
  // While playing: every running lane's card has its utility and SLO violations, over the run and the last minute.
  await expect.poll(() => lab.timeMs(), { timeout: 20_000 }).toBeGreaterThan(3000);
  await expect(lab.byTestId('serving.time')).toContainText('playing');
  for (const lane of [0, 1]) {
    const score = lab.byTestId(`lane-score.${lane}`);
    await expect(score).toBeVisible();
    expect(Number.isFinite(await lab.numberAt(score, 'data-utility')), `lane ${lane} utility`).toBe(true);
    expect(await lab.numberAt(score, 'data-violation-pct')).toBeGreaterThanOrEqual(0);
    await expect(score).toContainText('last 60 s');
  }
  // The numbers follow the run (they are not those of a pause).
  const asOf = await lab.numberAt(lab.byTestId('lane-score.0'), 'data-as-of-ms');
  await expect.poll(() => lab.numberAt(lab.byTestId('lane-score.0'), 'data-as-of-ms')).toBeGreaterThan(asOf);
  // The oracles search beside the run: the gap says so until they run, then gives exp(ΔU) − 1 over the run and the last minute.
  const hindsight = lab.byTestId('lane-gap.0.hindsight');
  const perPhase = lab.byTestId('lane-gap.0.perPhase');
  for (const gap of [hindsight, perPhase, lab.byTestId('lane-gap.1.hindsight')]) {
    await expect(gap).toHaveAttribute('data-state', 'ready', { timeout: 90_000 });
    const run = await lab.numberAt(gap, 'data-run');
    expect(Number.isFinite(run)).toBe(true);
    // A ratio of utilities less one: above −100 %.
    expect(run).toBeGreaterThan(-1);
    await expect(gap).toContainText('%');
  }
  const texts = await page.evaluate(() => (window as unknown as { gapTexts: string[] }).gapTexts);
  expect(texts[0]).toMatch(/oracle searching… \d+\/\d+/);
  expect(texts.at(-1)).toMatch(/%/);
  // The oracles themselves are set against each other, not against themselves.
  await expect(lab.byTestId('lane-gap.3.hindsight')).toHaveCount(0);
  await expect(lab.byTestId('lane-gap.3.perPhase')).toBeVisible();
  await expect(lab.byTestId('serving.time')).toContainText('playing');
  // Fig. 7 draws while playing: a bar per model (2) for Triton, DeepRT and both oracles at least.
  await expect.poll(() => lab.chartPoints('chart.utility')).toBeGreaterThanOrEqual(8);
  // Fig. 10 draws the oracles' lines (lanes 3 and 4, dashed), not only their legend entries.
  const training = lab.byTestId('chart.training');
  for (const key of ['lane-3', 'lane-4']) {
    await expect.poll(async () => (await training.locator(`path[data-key="${key}"]`).getAttribute('d')) ?? '', { timeout: 20_000 }).toMatch(/^M[^M]*L/);
  }
  await expect(training).toContainText('Best fixed in hindsight (oracle)');
  await expect(training).toContainText('Best fixed per phase (oracle)');
  await expect(lab.byTestId('serving.time')).toContainText('playing');
  await training.scrollIntoViewIfNeeded();
  await training.screenshot({ path: info.outputPath('fig10-oracle-lines.png') });
  await lab.byTestId('chart.utility').screenshot({ path: info.outputPath('fig7-playing.png') });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await page.screenshot({ path: info.outputPath('scoreboard-playing-1440x900.png') });
  expect(await axeProblems(page)).toEqual([]);

  // Paused, then a Triton setting changed: the cards say their numbers are from before the edit.
  await lab.byTestId('serving.pause').click();
  await expect(lab.byTestId('lane-stale.0')).toHaveCount(0);
  await lab.byTestId('controls.batch-yolo').fill('2'); // b = 4
  await expect(lab.byTestId('lane-stale.0')).toContainText(/as of t = \d+ s, before the edit/);
  await expect(lab.byTestId('lane-score.0')).toHaveAttribute('data-stale', 'edited');
  // Paused, the learning panel leads the dock: the lanes are below it.
  await lab.byTestId('lane.fixed').scrollIntoViewIfNeeded();
  await lab.byTestId('lane.fixed').screenshot({ path: info.outputPath('scoreboard-stale-lane.png') });
  // Played on past the edit, they are current again.
  await lab.byTestId('serving.play').click();
  await expect(lab.byTestId('lane-stale.0')).toHaveCount(0);
  await expect(lab.byTestId('lane-score.0')).toHaveAttribute('data-stale', 'no');
  lab.expectCleanLog();
});
