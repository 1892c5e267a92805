import { expect, test } from '@playwright/test';
import { LabPage } from './pages/lab';

test.describe('Run on this machine', () => {
  // Measuring the simulation's database and two real lanes of wasm stages: minutes on two cores.
  test.setTimeout(300_000);

  test('a short real run draws measured points live, takes a workload dragged onto the board, then a simulated-vs-measured row per lane', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.pause();
    await lab.byTestId('controls.eps').fill('2');
    await lab.byTestId('controls.eps').press('Enter');
    await expect(lab.byTestId('board.ep-1')).toBeVisible();
    await lab.byTestId('real.open').click();
    await expect(lab.byTestId('real')).toBeVisible();
    await expect(lab.byTestId('real.mapping')).toContainText('2 execution places');
    await lab.byTestId('real.size').selectOption('56');
    await lab.byTestId('real.queries').fill('12');
    await lab.byTestId('real.repeats').fill('2');
    for (const id of ['static', 'evict', 'optimal']) {
      const box = lab.byTestId(`real.lane-${id}`);
      if ((await box.count()) > 0 && (await box.isChecked())) await box.uncheck();
    }
    await expect(lab.byTestId('real.lane-odin')).toBeChecked();
    await expect(lab.byTestId('real.lane-lls')).toBeChecked();
    await lab.byTestId('real.run').click();
    // A workload dragged onto EP 1 of the board while the run goes reaches the real pipeline.
    await expect(lab.byTestId('real.live-hint')).toBeVisible();
    await lab.dragWithKeyboard('E', 0);
    await expect(lab.byTestId('real.live-hint')).toHaveAttribute('data-placed', '1');
    // Live: the measured throughput and latency of the running lane, query by query.
    await expect.poll(async () => Number((await lab.byTestId('chart.real-live').locator('path[data-lane="0"]').first().getAttribute('data-points')) ?? 0), { timeout: 240_000 }).toBeGreaterThan(0);
    // The execution places as the run has them: units per stage and measured stage times.
    await expect(lab.byTestId('real.ep-0')).toHaveAttribute('data-units', /\d+/, { timeout: 60_000 });
    await lab.byTestId('real').screenshot({ path: 'test-results/real-running.png' });
    await expect(lab.byTestId('real.status')).toHaveAttribute('data-status', 'done', { timeout: 240_000 });
    // Then each lane measured beside simulated, with signed errors.
    for (const id of ['odin', 'lls']) {
      const row = lab.byTestId(`real.row-${id}`);
      await expect(row).toBeVisible();
      await expect(row).toContainText(/[+−-]\d+(\.\d)? %/);
    }
    await expect(lab.byTestId('chart.sim-vs-real').locator('svg')).toBeVisible();
    await expect(lab.byTestId('real.readings')).toContainText(/serial|pipelined|free/);
    // Both lanes ran with it (placed during the first, carried to the second) and were simulated on that schedule.
    await expect(lab.byTestId('real.live-events')).toContainText(/ODIN α=10: EP 1 mode E from query \d+; LLS: EP 1 mode E from query \d+/);
    // The board stays at the end (the last lane's last query); the fidelity, per-phase and time tables; the trace beside the simulation, with a legend.
    await expect(lab.byTestId('real.board')).toBeVisible();
    await expect(lab.byTestId('real.fidelity-odin')).toContainText('±');
    await expect(lab.byTestId('real.phases')).toBeVisible();
    await expect(lab.byTestId('real.time')).toContainText('LLS');
    await expect(lab.byTestId('real.machine')).toContainText(/Calibrated on this machine|ideal machine/);
    await expect(lab.byTestId('chart.real-trace').locator('path[data-side="simulated"]').first()).toBeAttached();
    await expect(lab.byTestId('chart.real-trace').locator('.chart-legend')).toContainText('simulated on the calibrated machine');
    await expect(lab.byTestId('chart.real-live').locator('.chart-legend')).toContainText('trial query');
    await expect(lab.byTestId('real.preset-2')).toBeEnabled();
    await expect(lab.byTestId('real.database')).toHaveAttribute('data-matches', 'no');
    await lab.byTestId('real').screenshot({ path: 'test-results/real-panel.png' });
    expect(lab.log.pageErrors).toEqual([]);
    expect(lab.log.requestUrls.filter((u) => !u.startsWith('http://127.0.0.1'))).toEqual([]);
  });
});
