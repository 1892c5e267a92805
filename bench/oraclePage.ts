// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The oracle lanes' searches in the page (issue 38 part 3: "in the page while the other lanes
 * run"), `BENCH_ONLY=oracle-page`: headless Chromium opened on a link of `bcedge-dynamic` with
 * another seed (so no shipped plan fits and its three reference lanes search, in the page's
 * search worker), playing: the seven other lanes (four of them learning from scratch) run
 * meanwhile in the serving worker. Timed from the first frame whose simulated time has moved
 * to every reference lane's search done (each lane then runs its plan from 0 s up to the
 * others) and to every reference lane running with the others. One opening: the searches take
 * minutes of a core.
 */
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { gotoWhenServed, launchBenchBrowser } from './browser';
import type { BenchRow } from './row';

const PORT = 4291;
const OUT_DIR = 'dist-oracle';

/** What the page's init script records (ms since navigation). */
interface OracleMarks {
  firstFrameMs?: number | undefined;
  /** Every reference lane's search done (its card replaying the plan, or gone). */
  searchedMs?: number | undefined;
  /** Every reference lane running with the others (no search card). */
  joinedMs?: number | undefined;
}

/** Appends the row; returns the marks for bench/results-oracle-page.json. */
export async function benchPageOracles(rows: BenchRow[]): Promise<object> {
  const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', OUT_DIR, '--logLevel', 'error'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  const server = spawn('./node_modules/.bin/vite', ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort', '--outDir', OUT_DIR], { stdio: 'ignore' });
  const browser = await launchBenchBrowser();
  const scenario = structuredClone(SERVING_PRESETS.find((p) => p.id === 'bcedge-dynamic')!.scenario) as ServingScenario;
  const shippedSeed = scenario.seed;
  scenario.seed = shippedSeed + 1;
  const oracleLanes = scenario.serving.lanes.flatMap((l, i) => (l.scheduler === 'fixed-hindsight' || l.scheduler === 'fixed-per-phase' ? [i] : []));
  const load = { start: Number(loadavg()[0]!.toFixed(2)), end: 0 };
  let marks: OracleMarks;
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript({
      content: `new MutationObserver(() => {
        if (window.firstFrameMs === undefined) {
          const time = Number(document.querySelector('[data-testid="serving.time"]')?.getAttribute('data-time-ms') ?? '0');
          if (time > 0 && document.querySelectorAll('.serving-lanes li').length === ${scenario.serving.lanes.length}) window.firstFrameMs = performance.now();
        }
        if (window.firstFrameMs === undefined) return;
        const cards = ${JSON.stringify(oracleLanes)}.map((lane) => document.querySelector('[data-testid="lane.search.' + lane + '"]'));
        if (window.searchedMs === undefined && cards.every((c) => c === null || c.getAttribute('data-phase') !== 'search')) window.searchedMs = performance.now();
        if (window.joinedMs === undefined && cards.every((c) => c === null)) window.joinedMs = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });`,
    });
    await gotoWhenServed(page, `http://127.0.0.1:${PORT}/#${encodeAnyScenarioLink(scenario)}`);
    await page.waitForFunction(() => (globalThis as unknown as OracleMarks).joinedMs !== undefined, undefined, { timeout: 1_200_000, polling: 1000 });
    marks = await page.evaluate(() => {
      const g = globalThis as unknown as OracleMarks;
      return { firstFrameMs: g.firstFrameMs, searchedMs: g.searchedMs, joinedMs: g.joinedMs };
    });
    await context.close();
  } finally {
    load.end = Number(loadavg()[0]!.toFixed(2));
    await browser.close();
    server.kill();
  }
  const searchedS = (marks.searchedMs! - marks.firstFrameMs!) / 1000;
  const joinedS = (marks.joinedMs! - marks.firstFrameMs!) / 1000;
  rows.push({
    name: 'oracles in the page: bcedge-dynamic’s three reference lanes searched (seed not shipped), the seven other lanes running',
    value: searchedS,
    unit: 's',
    target: '≤ 30 on two cores',
    met: searchedS <= 30,
    note: `from the first frame past 0 to every reference lane's plan found, one opening; every reference lane running with the others ${joinedS.toFixed(1)} s; seed ${scenario.seed} (the preset's ${shippedSeed} has shipped plans); load average ${load.start} at the start, ${load.end} at the end`,
  });
  return { marks, seed: scenario.seed, loadAverage: load };
}
