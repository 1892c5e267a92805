import { expect, type Locator, type Page } from '@playwright/test';
import type { ClaimsReport } from '../../src/scenario/claimsReport';
import { LabPage } from './lab';

/** Page object for the Claims view (ARCHITECTURE §4a), on top of the lab's logging page object. */
export class ClaimsPage extends LabPage {
  constructor(page: Page) {
    super(page);
  }

  /** Serves this report instead of the build's public/claims/report.json (or a status, or a body). */
  async serveReport(report: ClaimsReport | { readonly status: number } | { readonly body: string }): Promise<void> {
    await this.page.route('**/claims/report.json', (route) => {
      if ('status' in report && !('rows' in report)) return route.fulfill({ status: report.status, body: 'not here' });
      const body = 'body' in report ? report.body : JSON.stringify(report);
      return route.fulfill({ status: 200, contentType: 'application/json', body });
    });
  }

  /** Opens the lab, then the Claims view from its launcher, and waits for the report. */
  async openView(status: 'ready' | 'missing' | 'invalid' = 'ready'): Promise<void> {
    await this.goto();
    await this.byTestId('claims.open').click();
    await expect(this.byTestId('claims')).toHaveAttribute('data-status', status);
  }

  row(id: string): Locator {
    return this.byTestId(`claims.row-${id}`);
  }

  /** The ids of the rows shown, in order. */
  async rowIds(): Promise<string[]> {
    return this.page.locator('.claims-table [data-testid^="claims.row-"]').evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace(/^claims\.row-/, '')));
  }

  /** A row's estimate as the view carries it (exact numbers in data attributes). */
  async estimate(id: string): Promise<{ mean: number; halfWidth95: number; seeds: number }> {
    const row = this.row(id);
    return {
      mean: Number(await row.getAttribute('data-mean')),
      halfWidth95: Number(await row.getAttribute('data-half-width')),
      seeds: Number(await row.getAttribute('data-seeds')),
    };
  }
}
