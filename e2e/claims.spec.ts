// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { ClaimsReport } from '../src/scenario/claimsReport';
import { differencePct } from '../src/scenario/sweepStats';
import { shippedOrCheapReport } from './claimsReport';
import { encodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { defaultPipelineScenario } from '../src/worlds/pipeline/defaultPreset';
import { fixtureReport } from '../src/scenario/testing/claimsFixture';
import { ClaimsPage } from './pages/claims';

test.describe('the Claims view on a hand-made report', () => {
  test('a link opens the view over a paused lab; every row has a verdict badge; filters by paper and verdict', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport(fixtureReport());
    await page.goto(`./#${encodePipelineScenarioLink({ ...defaultPipelineScenario(), view: { mode: 'normal', hide: [], claims: true } })}`);
    await expect(claims.byTestId('claims')).toHaveAttribute('data-status', 'ready');
    // The lab waits behind the view, paused, out of sight.
    expect(await claims.status()).not.toBe('playing');
    await expect(claims.byTestId('board.ep-0')).toBeHidden();
    const ids = fixtureReport().rows.map((r) => r.id);
    expect(await claims.rowIds()).toEqual(ids);
    for (const row of fixtureReport().rows) {
      await expect(claims.row(row.id)).toHaveAttribute('data-verdict', row.verdict);
      await expect(claims.row(row.id).locator('.verdict').first()).toHaveText(row.verdict === 'noise' ? 'inside the noise' : row.verdict);
    }
    await expect(claims.byTestId('claims.provenance-commit')).toHaveText('abc1234');
    await expect(claims.byTestId('claims.strip-odin-fig6-throughput')).toContainText('pipelined');
    await claims.byTestId('claims.filter-paper').selectOption('bcedge');
    expect(await claims.rowIds()).toEqual(['bcedge-fig14-predictor']);
    await claims.byTestId('claims.filter-paper').selectOption('all');
    await claims.byTestId('claims.filter-verdict').selectOption('fails');
    expect(await claims.rowIds()).toEqual(['odin-fig6-throughput']);
    // Back to the lab: the view closes, and the address bar no longer opens it.
    await claims.byTestId('claims.close').click();
    await expect(claims.byTestId('claims')).toBeHidden();
    await expect(claims.byTestId('board.ep-0')).toBeVisible();
    await expect(claims.byTestId('claims.open')).toBeVisible();
    claims.expectCleanLog();
  });

  test("a report with the real-pipeline row shows it beside the papers' claims, with its lanes and machine; without it the view says how to measure one", async ({ page }) => {
    const claims = new ClaimsPage(page);
    const lane = (label: string, scheduler: string, measuredQps: number, simulatedQps: number) => ({
      label,
      scheduler,
      measuredQps,
      simulatedQps,
      throughputErrorPct: (100 * (simulatedQps - measuredQps)) / measuredQps,
      latencyMeanErrorPct: -40,
      latencyP99ErrorPct: -35,
      moves: 12,
      moveMeanMs: 38,
      closestReading: 'serial',
    });
    const row = {
      id: 'lab-real-pipeline',
      where: '§3.3, §4.1',
      quote: 'we use simulation',
      labNumber: 'mean |simulated − measured| throughput over the lanes',
      estimate: { mean: 163.5, halfWidth95: 0, seeds: 1 },
      verdict: 'partly' as const,
      reason: 'the sign agrees.',
      lanes: [lane('ODIN α=10', 'odin', 6.88, 17.43), lane('LLS', 'lls', 7.52, 20.58)],
      odinVsLls: { measuredPct: -8.5, simulatedPct: -15.3, agrees: true },
      provenance: { machine: 'Node v20 test machine', date: '2026-12-02', command: 'npx interference-lab real default', commit: 'abc1234', durationS: 300, setting: 'vgg16 at 56 px on 2 execution places' },
    };
    await claims.serveReport({ ...fixtureReport(), machineRows: [row] });
    await claims.openView();
    const shown = claims.byTestId('claims.row-lab-real-pipeline');
    await expect(shown).toHaveAttribute('data-verdict', 'partly');
    await expect(shown).toContainText('The simulated system predicts a real pipeline on this machine');
    await expect(shown).toContainText('Node v20 test machine');
    await expect(shown.locator('tbody tr')).toHaveCount(2);
    await expect(shown.locator('tbody tr').first()).toContainText('+153 %');
    // Not a paper's claim: outside the papers' table and its counts.
    expect(await claims.rowIds()).toEqual(fixtureReport().rows.map((r) => r.id));
    await claims.serveReport(fixtureReport());
    await claims.openView();
    await expect(claims.byTestId('claims.machine-none')).toContainText('--claims-report');
    claims.expectCleanLog();
  });

  test('a difference in percentage points says so (a claim whose baseline is near 0, as Fig. 15 against DeepRT)', async ({ page }) => {
    const claims = new ClaimsPage(page);
    const report = fixtureReport();
    const points = { mean: 4.2, halfWidth95: 1.1, seeds: 2, unit: 'points' as const, baseline: 0.03 };
    const rows = report.rows.map((r) =>
      r.id === 'bcedge-fig14-predictor'
        ? { ...r, estimate: points, sensitivity: [{ path: 'serving.assumptions.platformSetting', label: 'Nano/TX2 setup', readings: [{ value: 'perModel', estimate: points, verdict: 'fails' as const }, { value: 'mixed', estimate: { mean: -3, halfWidth95: 1, seeds: 2 }, verdict: 'holds' as const }] }] }
        : r,
    );
    const shards = [0, 1].map((index) => ({ index, count: 2, cells: 10, machine: 'Node v20, linux x64, 2 cores', date: '2026-12-01T00:00:00.000Z', durationS: 1800, command: `npm run claims -- --shard ${index}/2` }));
    await claims.serveReport({ ...report, provenance: { ...report.provenance, learning: { lengthS: 3000, seeds: 5 }, durationS: 3600, shards }, rows });
    await claims.openView();
    // The provenance says how the learning rows ran, how long it took and in how many shards.
    await expect(claims.byTestId('claims.provenance-learning')).toHaveText('3000 s, at most 5 seeds');
    await expect(claims.byTestId('claims.provenance-duration')).toHaveText('60 min (the shards added up)');
    await expect(claims.byTestId('claims.provenance-shards')).toHaveText('2');
    await expect(claims.row('bcedge-fig14-predictor')).toHaveAttribute('data-unit', 'points');
    await expect(claims.row('odin-fig6-throughput')).toHaveAttribute('data-unit', '');
    await expect(claims.byTestId('claims.estimate-bcedge-fig14-predictor')).toHaveText('4.20 ± 1.10 pp (2 seeds)');
    await expect(claims.byTestId('claims.strip-bcedge-fig14-predictor')).toContainText('+4.20 pp');
    await expect(claims.byTestId('claims.strip-bcedge-fig14-predictor')).toContainText('−3.00');
    claims.expectCleanLog();
  });

  test('a malformed report: a banner names the field, the view says it has no report, the lab keeps working', async ({ page }) => {
    const claims = new ClaimsPage(page);
    const bad = JSON.parse(JSON.stringify(fixtureReport())) as { rows: { estimate: { halfWidth95: number } }[] };
    bad.rows[1]!.estimate.halfWidth95 = -2;
    await claims.serveReport({ body: JSON.stringify(bad) });
    await claims.openView('invalid');
    await expect(claims.byTestId('claims.banner')).toContainText('rows[1].estimate.halfWidth95');
    await expect(claims.byTestId('claims.none')).toContainText('no reproduction report');
    expect(await claims.rowIds()).toEqual([]);
    await claims.byTestId('claims.close').click();
    const before = await claims.served();
    await claims.step(10);
    expect(await claims.served()).toBe(before + 10);
    claims.expectCleanLog();
  });

  test('no report in the build: the view says so', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport({ status: 404 });
    await claims.openView('missing');
    await expect(claims.byTestId('claims.none')).toContainText('404');
  });

  test('a pipeline row opens its sweep in the Explore view; a serving row opens the serving lab', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport(fixtureReport());
    await claims.openView();
    await claims.byTestId('claims.open-odin-s42-queries').click();
    await expect(claims.byTestId('claims')).toBeHidden();
    await expect(claims.byTestId('explore')).toBeVisible();
    await expect(claims.byTestId('explore.axis-0.path')).toHaveValue('pipeline.lanes[0].params.alpha');
    await expect(claims.byTestId('explore.progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await claims.byTestId('explore.close').click();
    await claims.byTestId('claims.open').click();
    await claims.byTestId('claims.open-bcedge-fig14-predictor').click();
    await expect(claims.byTestId('serving')).toBeVisible();
    claims.expectCleanLog();
  });

  test('a claim that trains learners asks first; declined, nothing runs', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport(fixtureReport());
    await claims.openView();
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await claims.byTestId('claims.recompute-bcedge-fig14-predictor').click();
    expect(asked).toContain('takes minutes');
    await expect(claims.byTestId('claims.progress-bcedge-fig14-predictor')).toHaveCount(0);
    await expect(claims.row('bcedge-fig14-predictor')).toHaveAttribute('data-computed', 'shipped');
  });

  test('cancel stops a recomputation: the row keeps its shipped numbers and no cell finishes after it', async ({ page }) => {
    const claims = new ClaimsPage(page);
    // The fixture's Fig. 6 row is a registry claim: several swept scenarios of 18 combinations × 2 seeds.
    await claims.serveReport(fixtureReport());
    await claims.openView();
    const id = 'odin-fig6-throughput';
    const before = await claims.row(id).getAttribute('data-mean');
    await claims.byTestId(`claims.recompute-${id}`).click();
    const progress = claims.byTestId(`claims.progress-${id}`);
    await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 60_000 }).toBeGreaterThan(0);
    await claims.byTestId(`claims.cancel-${id}`).click();
    await expect(progress).toHaveAttribute('data-status', 'cancelled');
    const done = Number(await progress.getAttribute('value'));
    expect(done).toBeLessThan(Number(await progress.getAttribute('max')));
    await page.waitForTimeout(1500);
    expect(Number(await progress.getAttribute('value'))).toBe(done);
    await expect(claims.row(id)).toHaveAttribute('data-computed', 'shipped');
    await expect(claims.row(id)).toHaveAttribute('data-mean', before ?? '');
    await expect(claims.byTestId(`claims.recompute-${id}`)).toBeEnabled();
    claims.expectCleanLog();
  });

  test('axe finds no serious or critical violation in the Claims view', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport(fixtureReport());
    await claims.openView();
    const results = await new AxeBuilder({ page }).include('[data-testid="claims"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
  });
});

test.describe('the Claims view’s rows', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('open folded to one line with the verdict, unfold by click or keyboard, and write Fig. 16’s number with its unit and interval’s digits', async ({ page }, info) => {
    const claims = new ClaimsPage(page);
    const report = fixtureReport();
    // Fig. 16's row as the shipped report has it: BCEdge against DeepRT, wall-clock time per decision, % (1,218 × as long).
    const fig16 = { ...report.rows.find((r) => r.paper === 'bcedge')!, id: 'bcedge-fig16-vs-deeprt', where: 'Fig. 16', labNumber: 'BCEdge against DeepRT, wall-clock time per scheduling decision on this machine, %', estimate: { mean: 121745.55179863606, halfWidth95: 111205.70213935213, seeds: 5 } };
    await claims.serveReport({ ...report, rows: [...report.rows, fig16] });
    await claims.openView();
    const ids = await claims.rowIds();
    expect(ids.length).toBeGreaterThan(2);
    // Every row folded: one line with the claim, the lab's number and the verdict; the strip and the reason hidden.
    for (const id of ids) {
      await expect(claims.row(id)).toHaveAttribute('data-expanded', 'no');
      await expect(claims.row(id).locator('.verdict').first()).toBeVisible();
    }
    const first = ids[0]!;
    await expect(claims.byTestId(`claims.strip-${first}`)).toBeHidden();
    const folded = (await claims.row(first).boundingBox())!.height;
    await page.screenshot({ path: info.outputPath('claims-folded-1440x900.png') });
    expect(folded).toBeLessThan(90);
    // Unfolded by its button with the keyboard (Enter), folded again by a click.
    await claims.byTestId(`claims.toggle-${first}`).focus();
    await page.keyboard.press('Enter');
    await expect(claims.row(first)).toHaveAttribute('data-expanded', 'yes');
    await expect(claims.byTestId(`claims.toggle-${first}`)).toHaveAttribute('aria-expanded', 'true');
    await expect(claims.byTestId(`claims.strip-${first}`)).toBeVisible();
    expect((await claims.row(first).boundingBox())!.height).toBeGreaterThan(folded);
    await claims.byTestId(`claims.toggle-${first}`).click();
    await expect(claims.row(first)).toHaveAttribute('data-expanded', 'no');
    // Fig. 16: grouped, to two significant digits of its interval, with its unit and how many times as long.
    await expect(claims.byTestId('claims.estimate-bcedge-fig16-vs-deeprt')).toHaveText('+120,000 ± 110,000 % (≈ 1,200 ×; 5 seeds)');
    // Every row unfolded at once, then axe over the view.
    await claims.byTestId('claims.expand-all').click();
    for (const id of ids) await expect(claims.row(id)).toHaveAttribute('data-expanded', 'yes');
    await page.screenshot({ path: info.outputPath('claims-unfolded-1440x900.png') });
    const results = await new AxeBuilder({ page }).include('[data-testid="claims"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
    claims.expectCleanLog();
  });
});

/** The lab's results document (Results JSON). */
async function resultsOf(page: Page): Promise<{ results: { label: string; summary: Record<string, number> }[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('files.export-json').click()]);
  return JSON.parse(readFileSync((await download.path())!, 'utf8')) as { results: { label: string; summary: Record<string, number> }[] };
}

test.describe('the Claims view on the shipped report', () => {
  let report: ClaimsReport;
  let shipped = false;
  test.beforeAll(async () => {
    ({ report, shipped } = await shippedOrCheapReport());
  });
  /** Serves the computed report when the build ships none. */
  const open = async (page: Page): Promise<ClaimsPage> => {
    const claims = new ClaimsPage(page);
    if (!shipped) await claims.serveReport(report);
    await claims.openView();
    return claims;
  };

  test('the view lists every claim of the report, each with a verdict and its provenance', async ({ page }) => {
    const claims = await open(page);
    expect(await claims.rowIds()).toEqual(report.rows.map((r) => r.id));
    for (const row of report.rows) {
      await expect(claims.row(row.id)).toHaveAttribute('data-verdict', row.verdict);
      await expect(claims.row(row.id).locator('td .verdict').first()).toBeVisible();
      await expect(claims.row(row.id)).toHaveAttribute('data-mean', row.estimate === null ? '' : String(row.estimate.mean));
    }
    await expect(claims.byTestId('claims.provenance-commit')).toHaveText(report.provenance.commit);
    await expect(claims.byTestId('claims.provenance-seeds')).toHaveText(String(report.provenance.seeds));
    claims.expectCleanLog();
  });

  test("a row's button opens its scenario in the lab, which gives the row's number", async ({ page }) => {
    const claims = await open(page);
    const id = 'odin-fig1-interference';
    const row = report.rows.find((r) => r.id === id)!;
    const { mean, halfWidth95 } = await claims.estimate(id);
    await claims.byTestId(`claims.open-${id}`).click();
    await expect(claims.byTestId('claims')).toBeHidden();
    await expect(claims.byTestId('lane.static')).toBeVisible();
    await claims.pause();
    await claims.byTestId('controls.reset').click();
    await expect.poll(() => claims.served()).toBe(0);
    const queries = (row.scenario as { pipeline: { queries: number } }).pipeline.queries;
    await claims.step(queries);
    const { results } = await resultsOf(page);
    // The claim's number, computed the same way from the lab's run: the static lane's configuration
    // throughput against its interference-free peak, in %. The interference of Fig. 1 is scripted,
    // so every seed gives the same run and the row's interval is 0.
    const lab = differencePct(results[0]!.summary['configThroughputMeanQps']!, results[0]!.summary['peakThroughputQps']!);
    expect(halfWidth95).toBeLessThan(1e-9);
    expect(lab).toBeCloseTo(mean, 9);
    claims.expectCleanLog();
  });

  test('recomputing a cheap row in the page gives the shipped number, bit for bit, marked as computed here', async ({ page }) => {
    const claims = await open(page);
    for (const id of ['odin-fig1-interference', 'odin-fig10-scaling']) {
      const before = { mean: await claims.row(id).getAttribute('data-mean'), halfWidth: await claims.row(id).getAttribute('data-half-width'), seeds: await claims.row(id).getAttribute('data-seeds') };
      await expect(claims.row(id)).toHaveAttribute('data-computed', 'shipped');
      await claims.byTestId(`claims.recompute-${id}`).click();
      await expect(claims.byTestId(`claims.progress-${id}`)).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
      await expect(claims.row(id)).toHaveAttribute('data-computed', 'here');
      await expect(claims.byTestId(`claims.here-${id}`)).toContainText('computed here');
      expect({ mean: await claims.row(id).getAttribute('data-mean'), halfWidth: await claims.row(id).getAttribute('data-half-width'), seeds: await claims.row(id).getAttribute('data-seeds') }).toEqual(before);
      await expect(claims.row(id)).toHaveAttribute('data-verdict', report.rows.find((r) => r.id === id)!.verdict);
    }
    claims.expectCleanLog();
  });
});
