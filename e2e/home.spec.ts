import { expect, test } from '@playwright/test';
import { HomePage } from './pages/home';

test('home page says what the lab is, cleanly and offline', async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();

  await expect(home.title).toHaveText('Interference Lab');
  await expect(page).toHaveTitle('Interference Lab');
  await expect(page.getByRole('main')).toContainText('npm run sim -- presets');

  expect(home.log.consoleErrors).toEqual([]);
  expect(home.log.pageErrors).toEqual([]);

  // Every request stays on the preview server: no fonts, CDNs or trackers.
  expect(home.log.requestUrls.length).toBeGreaterThan(0);
  const offHost = home.log.requestUrls.filter((url) => new URL(url).hostname !== '127.0.0.1');
  expect(offHost).toEqual([]);

  await home.screenshot('test-results/home.png');
});
