import type { ConsoleMessage, Locator, Page, Request } from '@playwright/test';

/** What the page did while it was open: console errors, uncaught errors, requests. */
export interface PageLog {
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  readonly requestUrls: string[];
}

/** Page object for the home page (`/`). */
export class HomePage {
  readonly title: Locator;
  readonly log: PageLog = { consoleErrors: [], pageErrors: [], requestUrls: [] };

  constructor(readonly page: Page) {
    this.title = page.getByTestId('app.title');
    // Listen before navigating, so nothing the first load does is missed.
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') {
        this.log.consoleErrors.push(message.text());
      }
    });
    page.on('pageerror', (error: Error) => {
      this.log.pageErrors.push(error.message);
    });
    page.on('request', (request: Request) => {
      this.log.requestUrls.push(request.url());
    });
  }

  /** Opens the page and waits until it has loaded and gone quiet on the network. */
  async goto(): Promise<void> {
    await this.page.goto('./', { waitUntil: 'networkidle' });
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path, fullPage: true });
  }
}
