import { expect, test } from '@playwright/test';
import { LabPage } from './pages/lab';
import { ServingPage } from './pages/serving';

// The page takes a worker for dead after 10 s without an answer (WORKER_LIVENESS).
test.setTimeout(90_000);

test('a pipeline worker that closes itself is restarted with the banner and the scenario; Play works again', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.byTestId('controls.eps').fill('5');
  await lab.byTestId('controls.eps').press('Enter');
  await expect(lab.byTestId('board.ep-4')).toBeVisible();
  await lab.pause();
  await lab.step(20);
  const worker = page.workers()[0];
  expect(worker).toBeDefined();
  // What `self.close()` in the worker does: no error event, no more answers.
  await worker!.evaluate(() => self.close());
  // The restart comes after 10 s of unanswered pings counted from checks that ran on time
  // (WORKER_LIVENESS); a loaded machine runs some checks late, and a late check starts over.
  await expect(lab.byTestId('banner.errors')).toHaveAttribute('data-source', 'worker', { timeout: 45_000 });
  await expect(lab.byTestId('banner.errors')).toContainText('stopped answering');
  await expect.poll(() => lab.served()).toBe(0);
  await expect(lab.byTestId('board.ep-4')).toBeVisible();
  await lab.step(10);
  expect(await lab.served()).toBe(10);
  await expect(lab.byTestId('controls.play')).toBeEnabled();
  expect(lab.log.pageErrors).toEqual([]);
});

test('a serving worker that hangs is restarted with the banner and the scenario', async ({ page }) => {
  const lab = new ServingPage(page);
  await lab.open();
  await lab.byTestId('serving.pause').click();
  await expect(lab.byTestId('serving.play')).toBeEnabled();
  // The lab opens with its Fig. 1 and rate sweeps running in the worker; while a call waits
  // for its answer the page grants the worker the busy timeout (WORKER_LIVENESS, 120 s), so the
  // hang is injected once they are done, where the 10 s rule is the one under test.
  await expect(page.locator('label.sweep-progress')).toHaveCount(0, { timeout: 30_000 });
  const serving = page.workers().find((w) => w.url().includes('servingWorker'));
  expect(serving).toBeDefined();
  // A loop that never yields: the worker cannot answer anything any more.
  void serving!.evaluate(() => {
    setTimeout(() => {
      for (;;) {
        // hang
      }
    }, 0);
  });
  await expect(lab.byTestId('banner.errors')).toHaveAttribute('data-source', 'worker', { timeout: 45_000 });
  await expect(lab.byTestId('banner.errors')).toContainText('stopped answering');
  await expect.poll(() => lab.timeMs()).toBe(0);
  await lab.byTestId('serving.step').click();
  await expect.poll(() => lab.timeMs()).toBe(1000);
  expect(lab.log.pageErrors).toEqual([]);
});
