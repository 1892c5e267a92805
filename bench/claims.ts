// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The Claims view's recomputation in the page (ARCHITECTURE §4a, §6), part of `npm run bench`
 * (`BENCH_ONLY=claims` alone): long tasks (PerformanceObserver `longtask`, ≥ 50 ms on the
 * main thread) while one cheap row recomputes on the page's worker pool, beside a baseline
 * of the idle lab measured in the same run and page (the Claims view open over the paused
 * lab, nothing computing) for the same length of time. Headless Chromium on a vite preview
 * of a fresh build. The machine's load average is stated beside the numbers: other work on
 * the cores stretches the main thread's tasks too.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { encodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { defaultPipelineScenario } from '../src/worlds/pipeline/defaultPreset';
import { gotoWhenServed, launchBenchBrowser } from './browser';
import type { BenchRow } from './row';

const PORT = 4185;
const OUT_DIR = 'dist-bench-claims';
/** The rows recomputed: cheap (no learning), seconds each on the page's pool. */
const ROWS = ['odin-fig1-interference', 'odin-fig10-scaling'] as const;

interface LongTasks {
  readonly count: number;
  readonly longestMs: number;
  readonly totalMs: number;
}

/** The page's global the init script fills (the bench compiles without the DOM's types). */
interface LongTaskLog {
  __claimsLongTasks: { start: number; duration: number }[];
}

/** Long tasks that started in [fromMs, toMs) of the page's clock. */
async function longTasksBetween(page: Page, fromMs: number, toMs: number): Promise<LongTasks> {
  return page.evaluate(
    ([from, to]) => {
      const inside = (globalThis as unknown as LongTaskLog).__claimsLongTasks.filter((t) => t.start >= from! && t.start < to!);
      return { count: inside.length, longestMs: inside.reduce((m, t) => Math.max(m, t.duration), 0), totalMs: inside.reduce((s, t) => s + t.duration, 0) };
    },
    [fromMs, toMs],
  );
}

const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

export async function benchClaims(rows: BenchRow[]): Promise<Record<string, unknown>> {
  const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', OUT_DIR, '--logLevel', 'error'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  const server = spawn('./node_modules/.bin/vite', ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort', '--outDir', OUT_DIR], { stdio: 'ignore' });
  const browser = await launchBenchBrowser();
  const details: Record<string, unknown> = {};
  try {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const log = globalThis as unknown as LongTaskLog;
      log.__claimsLongTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) log.__claimsLongTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask' as never, buffered: true });
    });
    const url = `http://127.0.0.1:${PORT}/#${encodePipelineScenarioLink({ ...defaultPipelineScenario(), view: { mode: 'normal', hide: [], claims: true } })}`;
    await gotoWhenServed(page, url);
    const view = page.getByTestId('claims');
    await view.waitFor({ timeout: 60_000 });
    for (let i = 0; i < 1200 && (await view.getAttribute('data-status')) !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
    if ((await view.getAttribute('data-status')) !== 'ready') throw new Error('the Claims view did not get ready (no shipped report?)');
    // Let the load and the report's check settle before anything is counted.
    await new Promise((r) => setTimeout(r, 2000));
    for (const id of ROWS) {
      // The recomputation, timed on the page's clock from the click to the row's progress saying done.
      const t0 = await pageNow(page);
      await page.getByTestId(`claims.recompute-${id}`).click();
      const progress = page.getByTestId(`claims.progress-${id}`);
      let status: string | null = null;
      for (let i = 0; i < 6000 && status !== 'done' && status !== 'error'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = await progress.getAttribute('data-status', { timeout: 200 }).catch(() => null);
      }
      if (status !== 'done') throw new Error(`row ${id} did not finish recomputing (${status ?? 'no progress'})`);
      const t1 = await pageNow(page);
      const during = await longTasksBetween(page, t0, t1);
      // The idle lab for as long as the recomputation took, in the same page.
      await new Promise((r) => setTimeout(r, 500));
      const b0 = await pageNow(page);
      await new Promise((r) => setTimeout(r, t1 - t0));
      const idle = await longTasksBetween(page, b0, await pageNow(page));
      const seconds = (t1 - t0) / 1000;
      const load = loadavg()[0]!.toFixed(1);
      rows.push({
        name: `Claims view: long tasks while ${id} recomputes in the page (${seconds.toFixed(1)} s)`,
        value: during.count,
        unit: 'long tasks',
        baseline: idle.count,
        ...(idle.count > 0 ? { ratio: during.count / idle.count } : {}),
        note: `longest ${Math.round(during.longestMs)} ms, ${Math.round(during.totalMs)} ms in all; the idle lab over the same ${seconds.toFixed(1)} s: ${idle.count} long tasks, longest ${Math.round(idle.longestMs)} ms; load average ${load} on ${availableParallelism()} cores`,
      });
      details[id] = { recomputeS: seconds, during, idle, loadAverage: Number(load), cores: availableParallelism() };
    }
  } finally {
    await browser.close();
    server.kill();
  }
  return details;
}

// `npx tsx bench/claims.ts` runs this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: BenchRow[] = [];
  await benchClaims(rows);
  for (const r of rows) console.log(`${r.name}: ${r.value} ${r.unit} (idle ${r.baseline ?? 'n/a'})${r.note ? ` — ${r.note}` : ''}`);
}
