// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { expect, test, type Page } from '@playwright/test';
import { decodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { LabPage } from './pages/lab';

/** The stage time each EP of the board shows, ms. */
async function stageTimes(page: Page): Promise<number[]> {
  return page.locator('[data-testid^="board.ep-"] .ep-time').evaluateAll((nodes) => nodes.map((n) => Number.parseFloat(n.textContent ?? 'NaN')));
}

test.describe('Measure your machine', () => {
  test.setTimeout(240_000);

  test('measures a quick database for two modes with progress, uses it, and the board’s stage times change', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await lab.byTestId('measure.open').click();
    const panel = lab.byTestId('measure');
    await expect(panel).toBeVisible();
    // Mode A (always) and E: the memory-bandwidth hog the default scenario places on EP 2.
    await lab.byTestId('measure.mode-I').uncheck();
    await expect(lab.byTestId('measure.mode-E')).toBeChecked();
    await lab.byTestId('measure.size').selectOption('112');
    await lab.byTestId('measure.repeats').fill('1');
    await expect(lab.byTestId('measure.mapping')).toContainText('cannot pin threads');
    await lab.byTestId('measure.start').click();
    await expect(lab.byTestId('measure.cancel')).toBeEnabled();

    // Progress with the time left, and the hogs reporting their work while mode E runs.
    await expect(lab.byTestId('measure.status')).toContainText(/\d+ % · mode [AE] · \S+ · (\d+ (min|s)|estimating)/, { timeout: 120_000 });
    await expect.poll(async () => Number(await lab.byTestId('measure.progress').getAttribute('value')), { timeout: 120_000 }).toBeGreaterThan(0);
    await expect(lab.byTestId('measure.hogs')).toContainText(/memBW hogs? · memBW \d+\.\d+ GB\/s/, { timeout: 120_000 });
    await expect(lab.byTestId('measure.status')).toHaveText('done', { timeout: 180_000 });
    await expect(lab.byTestId('measure.record')).toContainText('Measured on wasm, 1 thread');
    // Live chart: both panels (measured and roofline) draw mode E's dots, one per unit.
    await expect(panel.locator('[data-panel="0"] [data-mode="E"] circle')).toHaveCount(16);
    await expect(panel.locator('[data-panel="1"] [data-mode="E"] circle')).toHaveCount(16);
    await expect(panel.locator('[data-panel="0"] rect.memory-bound').first()).toBeAttached();
    await panel.screenshot({ path: 'test-results/measure-panel.png' });

    const before = await stageTimes(page);
    const hashBefore = new URL(page.url()).hash;
    await lab.byTestId('measure.use').click();
    await expect(lab.byTestId('measure.notice')).toContainText('now runs on this database');
    await lab.step(3);
    // Measured wasm times at 112 (hundreds of ms per stage here) are not the roofline's (≈ 15 ms).
    const after = await stageTimes(page);
    expect(after.length).toBe(before.length);
    expect(before.every((t) => t > 0)).toBe(true);
    expect(after.every((t) => t > 0)).toBe(true);
    expect(Math.max(...after) / Math.max(...before)).toBeGreaterThan(2);
    // The link carries the database.
    await expect.poll(() => new URL(page.url()).hash, { timeout: 5_000 }).not.toBe(hashBefore);
    const decoded = decodePipelineScenarioLink(new URL(page.url()).hash.slice(1));
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      const db = decoded.scenario.pipeline.database as { modes: Record<string, number[]>; measurement: { inputSize: number } };
      expect(Object.keys(db.modes)).toEqual(['A', 'E']);
      expect(db.measurement.inputSize).toBe(112);
    }
    expect(lab.log.pageErrors).toEqual([]);
    expect(lab.log.requestUrls.filter((u) => !u.startsWith('http://127.0.0.1'))).toEqual([]);
  });

  test('cancel stops a measurement; a malformed database file names the field and changes nothing', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await lab.byTestId('measure.open').click();
    await lab.byTestId('measure.size').selectOption('224');
    await lab.byTestId('measure.start').click();
    await expect(lab.byTestId('measure.status')).toContainText('%', { timeout: 120_000 });
    await lab.byTestId('measure.cancel').click();
    await expect(lab.byTestId('measure.notice')).toContainText('Cancelled', { timeout: 30_000 });
    await expect(lab.byTestId('measure.start')).toBeEnabled();
    await expect(lab.byTestId('measure.use')).toBeDisabled();

    const hash = new URL(page.url()).hash;
    await lab.byTestId('measure.file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"layers": ["a", "b"], "modes": {"A": [1, -2]}}') });
    await expect(lab.byTestId('measure.notice')).toContainText('database.modes.A[1]: must be a positive finite number, got -2');
    await expect(lab.byTestId('measure.use')).toBeDisabled();
    expect(new URL(page.url()).hash).toBe(hash);

    // A good CSV imports, and the export offers it back.
    await lab.byTestId('measure.file').setInputFiles({ name: 'db.csv', mimeType: 'text/csv', buffer: Buffer.from('layer,A,E\na,1,2\nb,2,5\nc,1,1\nd,3,3\n') });
    await expect(lab.byTestId('measure.notice')).toContainText('Imported db.csv: 4 units, modes A, E');
    const download = page.waitForEvent('download');
    await lab.byTestId('measure.export-csv').click();
    expect((await download).suggestedFilename()).toBe('custom-database.csv');
    await lab.byTestId('measure.use').click();
    await expect(lab.byTestId('measure.notice')).toContainText('now runs on this database');
    await lab.step(3);
    // Every unit on some EP, none interfered yet: the stage times add up to the file's times alone.
    expect((await stageTimes(page)).reduce((a, b) => a + b, 0)).toBeCloseTo(7, 5);
  });
});
