import { expect, type ConsoleMessage, type Locator, type Page, type Request } from '@playwright/test';

/** What the page did while it was open: console errors, uncaught errors, requests. */
export interface PageLog {
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  readonly requestUrls: string[];
}

export interface LaneReading {
  readonly configQps: number;
  readonly optimalQps: number;
  readonly measuredQps: number;
}

/** Page object for the pipeline lab. */
export class LabPage {
  readonly log: PageLog = { consoleErrors: [], pageErrors: [], requestUrls: [] };

  constructor(readonly page: Page) {
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') this.log.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error: Error) => this.log.pageErrors.push(error.message));
    page.on('request', (request: Request) => this.log.requestUrls.push(request.url()));
  }

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  /** Opens the lab and waits for the default scenario to be running. */
  async goto(): Promise<void> {
    await this.page.goto('./');
    await expect(this.byTestId('lane.odin')).toBeVisible();
    await this.partsLoaded();
  }

  /** Waits until the parts below the first screen (the time line, the chart grid, the dock's lower panels) have loaded their code. */
  async partsLoaded(): Promise<void> {
    await expect(this.page.locator('[data-deferred]')).toHaveCount(0, { timeout: 15_000 });
  }

  async served(): Promise<number> {
    return Number(await this.byTestId('playback.served').getAttribute('data-served'));
  }

  async status(): Promise<string> {
    return (await this.byTestId('playback.served').getAttribute('data-status')) ?? '';
  }

  /** Pauses and waits until the worker has stopped (a finished run counts as stopped). */
  async pause(): Promise<void> {
    // The run may finish between the check and the click: then there is nothing to pause.
    if (await this.byTestId('controls.pause').isEnabled()) await this.byTestId('controls.pause').click({ timeout: 3_000 }).catch(() => undefined);
    await expect.poll(() => this.status()).not.toBe('playing');
  }

  /** Serves exactly `n` more queries on every lane. */
  async step(n: number): Promise<void> {
    const before = await this.served();
    await this.byTestId('controls.step-size').fill(String(n));
    await this.byTestId('controls.step').click();
    await expect.poll(() => this.served()).toBe(before + n);
  }

  async lane(testId: string): Promise<LaneReading> {
    const lane = this.byTestId(testId);
    return {
      configQps: Number(await lane.getAttribute('data-config-qps')),
      optimalQps: Number(await lane.getAttribute('data-optimal-qps')),
      measuredQps: Number(await lane.getAttribute('data-measured-qps')),
    };
  }

  async throughputPoints(): Promise<number> {
    const host = this.page.locator('[data-testid="chart.throughput"] [data-points]');
    return Number((await host.getAttribute('data-points')) ?? '0');
  }

  async epModes(): Promise<string[]> {
    return this.page.locator('[data-testid^="board.ep-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-mode') ?? ''));
  }

  /** Drags a palette token onto an execution place with the mouse. */
  async dragWithMouse(mode: string, executionPlace: number): Promise<void> {
    const from = await this.byTestId(`palette.mode-${mode}`).boundingBox();
    const to = await this.byTestId(`board.ep-${executionPlace}`).boundingBox();
    if (from === null || to === null) throw new Error('token or EP not on screen');
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2, { steps: 3 });
    await this.page.mouse.move(to.x + to.width / 2, to.y + Math.min(120, to.height / 2), { steps: 12 });
    await this.page.mouse.up();
  }

  /** The same with the keyboard only: focus, Space to pick up, arrows, Space to drop. */
  async dragWithKeyboard(mode: string, executionPlace: number): Promise<void> {
    const token = this.byTestId(`palette.mode-${mode}`);
    await token.focus();
    await this.page.keyboard.press('Space');
    await expect(token).toHaveClass(/dragging/);
    // Each arrow moves to the next execution place; wait until it is over each one in turn.
    for (let i = 0; i <= executionPlace; i++) {
      await this.page.keyboard.press('ArrowRight');
      await expect(this.byTestId(`board.ep-${i}`)).toHaveClass(/\bover\b/);
    }
    await this.page.keyboard.press('Space');
  }

  /** The line of the algorithm panel highlighted now (null when none). */
  async currentLine(): Promise<number | null> {
    const line = await this.byTestId('algorithm').getAttribute('data-current-line');
    return line === null || line === '' ? null : Number(line);
  }

  /** A value of the algorithm panel's watch list (`gamma`, `affected`, `direction`, …). */
  async watch(key: string): Promise<string> {
    return (await this.byTestId(`algorithm.watch.${key}`).textContent()) ?? '';
  }

  /** Opens a preset from the gallery and waits until it is loaded (paused at query 0 when `reset`). */
  async openPreset(id: string): Promise<void> {
    await this.byTestId('links.presets').click();
    await this.byTestId(`presets.${id}`).click();
    await this.pause();
    await this.byTestId('controls.reset').click();
    await expect.poll(() => this.served()).toBe(0);
  }

  /** Everything the board shows: configuration, blocks, stage times, modes and workloads. */
  async boardState(): Promise<unknown> {
    return this.page.evaluate(() => {
      const board = document.querySelector('[data-testid="board"]')!;
      return {
        configuration: board.getAttribute('data-configuration'),
        blocks: Array.from(board.querySelectorAll<HTMLElement>('.block'), (b) => [b.style.left, b.style.top, b.style.height, b.textContent]),
        eps: Array.from(board.querySelectorAll<HTMLElement>('[data-testid^="board.ep-"]'), (e) => [e.getAttribute('data-mode'), e.className, e.querySelector('.ep-time')?.textContent, e.querySelector('.ep-chips')?.textContent]),
        step: document.querySelector('[data-testid="board.step"]')?.textContent ?? null,
      };
    });
  }

  /** What the charts drew: every SVG path and the point counts, chart by chart. */
  async chartsState(): Promise<unknown> {
    return this.page.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid^="chart."]'), (chart) => ({
        id: chart.getAttribute('data-testid'),
        points: Array.from(chart.querySelectorAll('[data-points]'), (e) => e.getAttribute('data-points')),
        paths: Array.from(chart.querySelectorAll('path'), (p) => p.getAttribute('d')),
        texts: Array.from(chart.querySelectorAll('svg text'), (t) => t.textContent),
      })),
    );
  }

  /** The charts once they have settled: two reads 250 ms apart agree (a paused run's summaries, the SLO curves, arrive after its last frame). */
  async settledChartsState(): Promise<unknown> {
    let last = await this.chartsState();
    await expect
      .poll(async () => {
        await this.page.waitForTimeout(250);
        const now = await this.chartsState();
        const same = JSON.stringify(now) === JSON.stringify(last);
        last = now;
        return same;
      })
      .toBe(true);
    return last;
  }

  expectCleanLog(): void {
    expect(this.log.consoleErrors).toEqual([]);
    expect(this.log.pageErrors).toEqual([]);
    const offHost = this.log.requestUrls.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).hostname !== '127.0.0.1');
    expect(offHost).toEqual([]);
  }
}
