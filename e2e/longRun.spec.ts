// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { expect, test } from '@playwright/test';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { LabPage } from './pages/lab';

/** 10⁷ requests through BCEdge and TAC (a learner counts 50 lanes) and Triton: above the 10⁹ lane-event bound. */
function longServing(): ServingScenario {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  // 1000 rps in total over the six models (rateBasis: total), so that the run stays within the request bound.
  return { ...s, serving: { ...s.serving, rateRps: 1000, durationS: 10_000, assumptions: { ...s.serving.assumptions, rateBasis: 'total' }, lanes: [{ scheduler: 'bcedge' }, { scheduler: 'tac' }, { scheduler: 'fixed' }] } };
}

test('a run above the cost bound shows its estimate and waits for the person: declined it stays paused, accepted it plays', async ({ page }) => {
  const lab = new LabPage(page);
  const asked: string[] = [];
  let answer = false;
  page.on('dialog', (dialog) => {
    asked.push(`${dialog.type()}: ${dialog.message()}`);
    void (answer ? dialog.accept() : dialog.dismiss());
  });
  await page.goto(`/#${encodeAnyScenarioLink(longServing())}`);
  await expect(lab.byTestId('serving')).toBeVisible();
  // Opening the link tries to play it: the page asks first, and the person declines.
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toContain('confirm: This run is estimated at 1.0e+9 lane-requests (1 cell × 10000000 requests × 101 lanes (a learner counts 50))');
  expect(asked[0]).toContain('Start it anyway?');
  await expect(lab.byTestId('serving.play')).toBeEnabled();
  await expect(lab.byTestId('serving.pause')).toBeDisabled();
  // Play asks again; this time the person agrees and the run starts.
  answer = true;
  await lab.byTestId('serving.play').click();
  await expect.poll(() => asked.length).toBe(2);
  await expect(lab.byTestId('serving.pause')).toBeEnabled();
  await lab.byTestId('serving.pause').click();
  await expect(lab.byTestId('serving.play')).toBeEnabled();
  // Once agreed, the same scenario is not asked about again.
  await lab.byTestId('serving.play').click();
  await expect(lab.byTestId('serving.pause')).toBeEnabled();
  expect(asked).toHaveLength(2);
  await lab.byTestId('serving.pause').click();
  lab.expectCleanLog();
});

test('a Pause pressed while the opened link’s Play waits for the run’s cost cancels it: the run stays paused', async ({ page, browser }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('links.copy').click();
  const link = await lab.byTestId('links.url').inputValue();
  // In a fresh page, the code that prices a run (the guard's, loaded on the first Play) comes 2.5 s late.
  const fresh = await browser.newContext();
  const other = new LabPage(await fresh.newPage());
  await other.page.route(/\/assets\/.*\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    // The chunk with `describeRunCost` (its unit " hours"); were the text to change, the run would start at once and the test fail on `served`.
    if (body.includes(' hours')) await new Promise((resolve) => setTimeout(resolve, 2_500));
    await route.fulfill({ response, body });
  });
  await other.page.goto(link);
  await expect(other.byTestId('lane.odin')).toBeVisible();
  // The link's Play is pending: Pause is offered, and pressing it means the run does not start later.
  await expect(other.byTestId('controls.pause')).toBeEnabled();
  await other.byTestId('controls.pause').click();
  await expect(other.byTestId('controls.play')).toBeEnabled();
  // The link carries its moment (view.at): the run reopens at the query it was copied at, and stays there.
  const reopenedAt = await other.served();
  await other.page.waitForTimeout(3_500);
  expect(await other.status()).toBe('paused');
  expect(await other.served()).toBe(reopenedAt);
  other.expectCleanLog();
  await fresh.close();
});
