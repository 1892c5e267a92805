// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The serving lab's first frame (ARCHITECTURE §7a′), part of `npm run bench` (`BENCH_ONLY=
 * first-frame` alone): the page in headless Chromium opened on a link of `bcedge-dynamic` (ten
 * lanes, three of them reference lanes, whose plans are shipped with the preset), timed from
 * navigation to the first frame whose simulated time has moved with every lane listed; against
 * the default serving scenario (no reference lane) opened the same way in the same run. The
 * median of three openings each, a fresh page every time. Beside it, when bcedge-dynamic's
 * three reference lanes run (none of them waiting for a search: issue 38's "within seconds").
 */
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { encodeAnyScenarioLink } from '../src/scenario/link';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { gotoWhenServed, launchBenchBrowser } from './browser';
import type { BenchRow } from './row';

const PORT = 4186;
const OUT_DIR = 'dist-bench-first-frame';
const OPENINGS = 3;

/** What the page's init script records (ms since navigation). */
interface FirstFrame {
  labMs?: number;
  firstFrameMs?: number;
  /** Every reference lane listed and running (no search card), after the first frame. */
  oraclesMs?: number;
}

/** Target of the first frame of bcedge-dynamic, ms. */
export const FIRST_FRAME_TARGET_MS = 1500;

function preset(id: string): ServingScenario {
  return structuredClone(SERVING_PRESETS.find((p) => p.id === id)!.scenario) as ServingScenario;
}

/** Appends the row; returns each opening's times for bench/results.json. */
export async function benchFirstFrame(rows: BenchRow[]): Promise<object> {
  const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', OUT_DIR, '--logLevel', 'error'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  const server = spawn('./node_modules/.bin/vite', ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort', '--outDir', OUT_DIR], { stdio: 'ignore' });
  const browser = await launchBenchBrowser();
  const times: Record<string, number[]> = {};
  /** From the serving lab's root on the page to the first frame, ms. */
  const afterLab: Record<string, number[]> = {};
  /** From navigation to every reference lane running, ms. */
  const oracles: Record<string, number[]> = {};
  try {
    for (const id of ['serving-default', 'bcedge-dynamic']) {
      const scenario = preset(id);
      const oracleLanes = scenario.serving.lanes.flatMap((l, i) => (l.scheduler === 'fixed-hindsight' || l.scheduler === 'fixed-per-phase' ? [i] : []));
      const url = `http://127.0.0.1:${PORT}/#${encodeAnyScenarioLink(scenario)}`;
      times[id] = [];
      afterLab[id] = [];
      for (let k = 0; k < OPENINGS; k++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        // When the page first shows every lane and a simulated time past 0, by its own clock (ms since navigation).
        await page.addInitScript({
          content: `new MutationObserver(() => {
            if (window.labMs === undefined && document.querySelector('[data-testid="serving"]') !== null) window.labMs = performance.now();
            if (window.firstFrameMs === undefined) {
              const time = Number(document.querySelector('[data-testid="serving.time"]')?.getAttribute('data-time-ms') ?? '0');
              if (time > 0 && document.querySelectorAll('.serving-lanes li').length === ${scenario.serving.lanes.length}) window.firstFrameMs = performance.now();
            }
            if (window.firstFrameMs !== undefined && window.oraclesMs === undefined && ${JSON.stringify(oracleLanes)}.every((lane) => document.querySelector('[data-testid="lane.search.' + lane + '"]') === null)) window.oraclesMs = performance.now();
          }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });`,
        });
        await gotoWhenServed(page, url);
        await page.waitForFunction(() => (globalThis as unknown as FirstFrame).oraclesMs !== undefined, undefined, { timeout: 120_000 });
        const marks = await page.evaluate(() => {
          const g = globalThis as unknown as FirstFrame;
          return { labMs: g.labMs, firstFrameMs: g.firstFrameMs, oraclesMs: g.oraclesMs };
        });
        times[id]!.push(marks.firstFrameMs!);
        if (oracleLanes.length > 0) (oracles[id] ??= []).push(marks.oraclesMs!);
        afterLab[id]!.push(marks.firstFrameMs! - marks.labMs!);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    server.kill();
  }
  const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const dynamic = median(times['bcedge-dynamic']!);
  const base = median(times['serving-default']!);
  rows.push({
    name: 'serving lab: first frame of bcedge-dynamic from a link (10 lanes, 3 of them oracles; baseline: the default serving scenario)',
    value: dynamic,
    unit: 'ms',
    target: `≤ ${FIRST_FRAME_TARGET_MS.toLocaleString('en-US')} ms`,
    met: dynamic <= FIRST_FRAME_TARGET_MS,
    baseline: base,
    ratio: dynamic / base,
    note: `from navigation to a frame with every lane listed and simulated time past 0, median of ${OPENINGS} fresh pages: bcedge-dynamic ${times['bcedge-dynamic']!.map((t) => Math.round(t)).join(', ')} ms; serving-default ${times['serving-default']!.map((t) => Math.round(t)).join(', ')} ms; of which after the serving lab's root was on the page: bcedge-dynamic ${afterLab['bcedge-dynamic']!.map((t) => Math.round(t)).join(', ')} ms, serving-default ${afterLab['serving-default']!.map((t) => Math.round(t)).join(', ')} ms; load average ${loadavg()[0]!.toFixed(1)}`,
  });
  const oracleMs = median(oracles['bcedge-dynamic']!);
  rows.push({
    name: 'serving lab: bcedge-dynamic from a link, its three reference lanes running (plans shipped with the preset)',
    value: oracleMs,
    unit: 'ms',
    target: '≤ 5,000 ms',
    met: oracleMs <= 5000,
    note: `from navigation to the first frame past 0 with no reference lane waiting for a search, median of ${OPENINGS}: ${oracles['bcedge-dynamic']!.map((t) => Math.round(t)).join(', ')} ms (searching them took minutes: BENCH_ONLY=oracle)`,
  });
  return { fromNavigationMs: times, fromLabMs: afterLab, oraclesMs: oracles };
}
