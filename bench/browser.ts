/**
 * The bench's Chromium: Debian's build, headless, without the background services that would
 * add their own work to what a page-side bench measures; and a page opened once the preview
 * server answers.
 */
import { chromium, type Browser, type Page } from '@playwright/test';

/** Starts the bench's Chromium. */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Opens `url`, trying again every 200 ms (about 10 s in all) while the preview server is still starting. */
export async function gotoWhenServed(page: Page, url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await page.goto(url);
      return;
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
