import { expect, type Locator } from '@playwright/test';
import { LabPage } from './lab';

/** Page object for the serving lab (BCEdge's world), on top of the lab's logging page object. */
export class ServingPage extends LabPage {
  /** Opens the lab, then a serving preset from the presets gallery (default: the default serving scenario). */
  async open(preset = 'serving-default'): Promise<void> {
    await this.goto();
    await this.byTestId('links.presets').click();
    await this.byTestId(`presets.${preset}`).click();
    await expect(this.byTestId('serving')).toBeVisible();
    // The lab shows while its scenario loads (tfjs and a shipped agent first): wait for its models.
    await expect(this.page.locator('[data-testid^="device.model-"]').first()).toBeVisible({ timeout: 30_000 });
  }

  /** Simulated time the run has reached, ms. */
  async timeMs(): Promise<number> {
    return Number(await this.byTestId('serving.time').getAttribute('data-time-ms'));
  }

  /** A number an element carries in an attribute (NaN when the attribute is missing or empty). */
  async numberAt(locator: Locator, attribute = 'data-value'): Promise<number> {
    const value = await locator.getAttribute(attribute);
    return value === null || value === '' ? Number.NaN : Number(value);
  }

  /** The SVG's `data-points` of a chart figure (0 before it is drawn). */
  async chartPoints(testId: string, attribute = 'data-points'): Promise<number> {
    const svg = this.page.locator(`[data-testid="${testId}"] svg.chart-svg`);
    if ((await svg.count()) === 0) return 0;
    return Number((await svg.getAttribute(attribute)) ?? '0');
  }

  /** The index of the first learning lane of a scheduler, from its card in the Learning panel. */
  async learningLane(scheduler: string): Promise<number> {
    const card = this.page.locator(`[data-testid^="learning.lane."][data-scheduler="${scheduler}"]`).first();
    await expect(card).toBeVisible({ timeout: 20_000 });
    const id = (await card.getAttribute('data-testid')) ?? '';
    return Number(id.slice('learning.lane.'.length));
  }

  /** One of a learning lane's elements: `learning.<what>.<lane>`. */
  learning(what: string, lane: number): Locator {
    return this.byTestId(`learning.${what}.${lane}`);
  }
}
