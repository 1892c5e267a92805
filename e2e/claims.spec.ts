import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { encodeScenarioLink } from '../src/scenario/link';
import { defaultScenario } from '../src/scenario/presets';
import { fixtureReport } from '../src/scenario/testing/claimsFixture';
import { ClaimsPage } from './pages/claims';

test.describe('the Claims view on a hand-made report', () => {
  test('a link opens the view over a paused lab; every row has a verdict badge; filters by paper and verdict', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport(fixtureReport());
    await page.goto(`./#${encodeScenarioLink({ ...defaultScenario(), view: { mode: 'normal', hide: [], claims: true } })}`);
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

  test('axe finds no serious or critical violation in the Claims view', async ({ page }) => {
    const claims = new ClaimsPage(page);
    await claims.serveReport(fixtureReport());
    await claims.openView();
    const results = await new AxeBuilder({ page }).include('[data-testid="claims"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
  });
});
