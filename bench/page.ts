// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * In-page training: the serving page in headless Chromium trains BCEdge from
 * scratch on the default serving scenario at full speed, and we time how long its
 * 100-slot mean reward takes to reach `threshold` (the caller's: within 5 % of the best fixed
 * configuration's utility as exp(ΔU) − 1, computed in Node by the same engine on the same trace).
 * Part of `npm run bench`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { gotoWhenServed, launchBenchBrowser } from './browser';
import type { ServingScenario } from '../src/worlds/serving/schema';

// BENCH_PAGE_PORT / BENCH_PAGE_DIST: another port and build folder, where several benches share a machine.
const PORT = Number(process.env['BENCH_PAGE_PORT'] ?? 4179);
const OUT_DIR = process.env['BENCH_PAGE_DIST'] ?? 'dist-bench';

export interface PageTrainingResult {
  readonly reachedS: number | null;
  readonly reachedSlot: number | null;
  readonly lastRecentReward: number | null;
  readonly slotsAt60s: number;
  readonly samples: readonly { readonly wallS: number; readonly slots: number; readonly recentReward: number | null }[];
}

export async function benchPageTraining(scenario: ServingScenario, lane: number, threshold: number, limitS = 90): Promise<PageTrainingResult> {
  const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', OUT_DIR, '--logLevel', 'error'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  const server = spawn('./node_modules/.bin/vite', ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort', '--outDir', OUT_DIR], { stdio: 'ignore' });
  const browser = await launchBenchBrowser();
  try {
    const page = await browser.newPage();
    const url = `http://127.0.0.1:${PORT}/#${encodeAnyScenarioLink(scenario)}`;
    await gotoWhenServed(page, url);
    // The page plays on load: wait for the worker (tfjs loaded), pause, go back to time 0
    // (a fresh learner), then time from the click on Play at full speed.
    const reward = page.getByTestId(`learning.recent-reward.${lane}`);
    await reward.waitFor({ timeout: 30_000 });
    await page.getByTestId('serving.pause').click({ timeout: 5000 }).catch(() => undefined);
    await page.getByTestId('serving.reset').click();
    // Back at time 0 the learner has made only its first decision.
    for (let i = 0; i < 300 && Number((await reward.getAttribute('data-slots')) ?? '99') > 1; i++) await new Promise((r) => setTimeout(r, 100));
    await page.getByTestId('serving.speed').selectOption('max');
    await page.getByTestId('serving.play').click({ timeout: 5000 });
    const started = Date.now();
    const samples: { wallS: number; slots: number; recentReward: number | null }[] = [];
    let reachedS: number | null = null;
    let reachedSlot: number | null = null;
    let slotsAt60s = 0;
    while ((Date.now() - started) / 1000 < limitS) {
      await new Promise((r) => setTimeout(r, 250));
      const wallS = (Date.now() - started) / 1000;
      const value = await reward.getAttribute('data-value');
      const slots = Number((await reward.getAttribute('data-slots')) ?? '0');
      const recent = value === null || value === '' ? null : Number(value);
      samples.push({ wallS, slots, recentReward: recent });
      if (wallS <= 60) slotsAt60s = slots;
      if (reachedS === null && recent !== null && slots >= 100 && recent >= threshold) {
        reachedS = wallS;
        reachedSlot = slots;
        break;
      }
    }
    return { reachedS, reachedSlot, lastRecentReward: samples.at(-1)?.recentReward ?? null, slotsAt60s, samples };
  } finally {
    await browser.close();
    server.kill();
  }
}
