// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * Sweeps at scale (ARCHITECTURE §4), part of `npm run bench`: wall time of a sweep on 1 worker
 * thread against every core, in one run (the ratio is the figure; absolute times drift), for
 * the ODIN Fig. 5 grid and for a serving sweep with a learning lane; and the page's sweep
 * throughput in Chromium (cells/s) with 1 Web Worker against navigator.hardwareConcurrency.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { openSweepPool, runCellsOnPool } from '../src/cli/sweepPool';
import { encodePipelineScenarioLink } from '../src/worlds/pipeline/door';
import { findPreset } from '../src/scenario/presets';
import type { AnyScenario } from '../src/scenario/schema';
import type { ServingScenario } from '../src/worlds/serving/schema';
import type { PipelineScenario } from '../src/worlds/pipeline/schema';
import { sweepCells, sweepSeeds } from '../src/scenario/sweep';
import { gotoWhenServed, launchBenchBrowser } from './browser';
import { benchParallelCeiling } from './parallelCeiling';
import type { BenchRow } from './row';

export type SweepBenchRow = BenchRow;

/** Wall time of a sweep on `workers` threads, ms: cold (thread start-up included) and warm (every thread started and the scenario loaded first). */
async function wallMs(scenario: AnyScenario, workers: number): Promise<{ cold: number; warm: number; coresBusy: number; mainBusy: number }> {
  const seeds = sweepSeeds(scenario);
  const cells = sweepCells(scenario, seeds);
  const t0 = performance.now();
  await runCellsOnPool(scenario, seeds, cells, workers);
  const cold = performance.now() - t0;
  const pool = openSweepPool(workers);
  try {
    await pool.warm(scenario, seeds);
    const cpu0 = process.cpuUsage();
    const loop0 = performance.eventLoopUtilization();
    const t1 = performance.now();
    await pool.run(scenario, seeds, cells);
    const warm = performance.now() - t1;
    const cpu = process.cpuUsage(cpu0);
    // What the process kept busy while the warm pool ran (its threads, V8's own compile and GC
    // threads included), in cores, and the share of the main thread's event loop that was busy.
    return { cold, warm, coresBusy: (cpu.user + cpu.system) / 1000 / warm, mainBusy: performance.eventLoopUtilization(loop0).utilization };
  } finally {
    await pool.terminate();
  }
}

/**
 * The figure is the warm pool's speed-up: a thread's start-up (tsx compiling the engine,
 * 0.6 s here; TensorFlow.js for learning lanes) is paid once per thread and does not grow
 * with the sweep, so on a short bench sweep it would hide how the cells themselves scale.
 * The cold wall times, start-up included, are in the note.
 */
async function poolRow(name: string, scenario: AnyScenario, rows: SweepBenchRow[]): Promise<void> {
  const cores = availableParallelism();
  const one = await wallMs(scenario, 1);
  const all = await wallMs(scenario, cores);
  const speedUp = one.warm / all.warm;
  const cells = sweepCells(scenario).length;
  rows.push({
    name: `${name}: ${cells} cells on ${cores} worker threads (${cores} cores), warm pool`,
    value: all.warm,
    unit: 'ms',
    target: `speed-up ≥ ${(0.8 * cores).toFixed(1)}× (0.8 × cores)`,
    met: speedUp >= 0.8 * cores,
    baseline: one.warm,
    ratio: speedUp,
    // Other work on the machine takes cores from the pool: the speed-up is only meaningful when the load is below the cores.
    note: `warm: 1 thread ${Math.round(one.warm)} ms, ${cores} threads ${Math.round(all.warm)} ms; a cell takes ${Math.round(one.warm / cells)} ms of a thread alone and ${Math.round((cores * all.warm) / cells)} ms when ${cores} run at once; cold (start-up included): 1 thread ${Math.round(one.cold)} ms, ${cores} threads ${Math.round(all.cold)} ms (${(one.cold / all.cold).toFixed(2)}×); cores the process kept busy: ${one.coresBusy.toFixed(2)} with 1 thread, ${all.coresBusy.toFixed(2)} with ${cores} (V8's compile and GC threads beside the workers), so those threads alone leave at most ${(cores / one.coresBusy).toFixed(2)}× on ${cores} cores; the main thread's event loop busy ${(100 * all.mainBusy).toFixed(0)} %; load average ${loadavg()[0]!.toFixed(1)} on ${cores} cores`,
  });
}

/** The page's Explore view in headless Chromium: cells/s on 1 Web Worker and on hardwareConcurrency. */
async function pageRows(rows: SweepBenchRow[]): Promise<void> {
  const PORT = 4184;
  const OUT_DIR = 'dist-bench-sweep';
  const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', OUT_DIR, '--logLevel', 'error'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  const server = spawn('./node_modules/.bin/vite', ['preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort', '--outDir', OUT_DIR], { stdio: 'ignore' });
  const browser = await launchBenchBrowser();
  try {
    const base = findPreset('odin-fig5-vgg16')!.scenario as PipelineScenario;
    // The ODIN grid (3 × 3) with 4 seeds at 2000 queries: 36 cells of five lanes each.
    const scenario: PipelineScenario = { ...base, pipeline: { ...base.pipeline, queries: 2000 }, sweep: { ...base.sweep!, seeds: 4 }, view: { mode: 'normal', hide: [], explore: true } };
    const page = await browser.newPage();
    const url = `http://127.0.0.1:${PORT}/#${encodePipelineScenarioLink(scenario)}`;
    await gotoWhenServed(page, url);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const progress = page.getByTestId('explore.progress');
    const waitDone = async () => {
      await progress.waitFor({ timeout: 60_000 });
      for (let i = 0; i < 6000; i++) {
        if ((await progress.getAttribute('data-status')) === 'done') return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the page sweep did not finish in 5 minutes');
    };
    // The link starts a sweep on every core (warm-up: workers and modules cached).
    await waitDone();
    // Per worker count: a first sweep on a fresh pool (its workers start: module, scenario),
    // then the same sweep again on that pool, warm (the store keeps an idle pool for the next
    // sweep on as many workers).
    const cellsPerS: Record<number, number> = {};
    const coldCellsPerS: Record<number, number> = {};
    for (const workers of [1, cores]) {
      await page.getByTestId('explore.workers').fill(String(workers));
      for (const warm of [false, true]) {
        const t0 = Date.now();
        await page.getByTestId('explore.run').click();
        await waitDone();
        const total = Number(await progress.getAttribute('max'));
        (warm ? cellsPerS : coldCellsPerS)[workers] = total / ((Date.now() - t0) / 1000);
      }
    }
    rows.push({
      name: `page Explore (Chromium): ODIN 3 × 3 × 4 seeds on ${cores} Web Workers (hardwareConcurrency ${cores})`,
      value: cellsPerS[cores]!,
      unit: 'cells/s',
      baseline: cellsPerS[1]!,
      ratio: cellsPerS[cores]! / cellsPerS[1]!,
      note: `warm pools: 1 worker ${cellsPerS[1]!.toFixed(2)} cells/s, ${cores} workers ${cellsPerS[cores]!.toFixed(2)} cells/s; the first sweep on a fresh pool (its workers starting): 1 worker ${coldCellsPerS[1]!.toFixed(2)}, ${cores} workers ${coldCellsPerS[cores]!.toFixed(2)} cells/s; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
    });
  } finally {
    await browser.close();
    server.kill();
  }
}

export async function benchSweep(rows: SweepBenchRow[], options: { page?: boolean } = {}): Promise<void> {
  // First what the machine itself allows two threads at once: the pool rows read against it.
  await benchParallelCeiling(rows);
  const fig5 = structuredClone(findPreset('odin-fig5-vgg16')!.scenario) as PipelineScenario;
  fig5.sweep = { ...fig5.sweep!, seeds: 10 };
  await poolRow('sweep odin-fig5-vgg16, 10 seeds', fig5, rows);
  // BCEdge Fig. 15 with a BCEdge lane learning from scratch in every cell, shortened to 120 s of requests.
  const fig15 = structuredClone(findPreset('bcedge-fig15-rps')!.scenario) as ServingScenario;
  fig15.serving.durationS = 120;
  fig15.serving.lanes = [...fig15.serving.lanes, { scheduler: 'bcedge' }];
  fig15.sweep = { ...fig15.sweep!, seeds: 3 };
  await poolRow('sweep bcedge-fig15-rps + BCEdge from scratch, 3 seeds, 120 s', fig15, rows);
  if (options.page !== false) await pageRows(rows);
}

// `npx tsx bench/sweep.ts` runs this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: SweepBenchRow[] = [];
  await benchSweep(rows, { page: !process.argv.includes('--no-page') });
  for (const r of rows) console.log(`${r.name}: ${r.value.toPrecision(4)} ${r.unit}${r.ratio === undefined ? '' : `, ratio ${r.ratio.toFixed(2)}×`}${r.met === undefined ? '' : r.met ? ' (met)' : ' (NOT met)'}${r.note ? ` — ${r.note}` : ''}`);
}
