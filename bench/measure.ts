// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The measurement part of `npm run bench` (ARCHITECTURE §6): VGG16's layer-time database measured
 * on this machine (real tfjs units on the wasm backend, hogs as worker threads), its
 * slowdown per mode (median over units and the largest) beside the roofline's, and the
 * ODIN grid means (odin-fig5-vgg16: ODIN α=10 and LLS) on the measured database beside
 * the roofline one.
 *
 * Input size 112, not the paper's 224: at 224 one VGG16 pass takes seconds on this
 * machine's two shared cores, so twelve modes with repeats would take many minutes. The
 * slowdown is a ratio to the same units alone at the same size.
 */
import type { Tf } from '../src/lib/tf';
import { defaultHogBufferMiB, nodeCores, nodeRuntime, spawnNodeHog } from '../src/worlds/pipeline/cli/hogThreads';
import { getDatabase } from '../src/worlds/pipeline/engine/profiles/databases';
import { slowdownSummaries } from '../src/worlds/pipeline/engine/profiles/slowdown';
import { INTERFERENCE_MODE_IDS, type LayerTimeDatabase } from '../src/worlds/pipeline/engine/profiles/types';
import { measureDatabase } from '../src/worlds/pipeline/measure/runner';
import { averageDeep } from '../src/scenario/average';
import { scenarioWithDatabase } from '../src/worlds/pipeline/scenario/databaseFile';
import { runPipelineScenario } from '../src/worlds/pipeline/scenario/pipelineRunner';
import { findPreset } from '../src/scenario/presets';
import type { PipelineScenario } from '../src/worlds/pipeline/schema';

interface Row {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly ratio?: number;
  readonly note?: string;
}

export const BENCH_MEASURE_SIZE = 112;
export const BENCH_MEASURE_REPEATS = 3;

/** The grid means of ODIN α=10 and LLS on `scenario`. */
interface LaneMeans {
  readonly throughputMeanQps: number;
  readonly configThroughputMeanQps: number;
  readonly latencyMeanMs: number;
  readonly optimalRatioMean: number;
  readonly rebalancingQueries: number;
}

function gridMeans(scenario: PipelineScenario): Record<'ODIN α=10' | 'LLS', LaneMeans> {
  const results = runPipelineScenario(scenario);
  const out: Partial<Record<'ODIN α=10' | 'LLS', LaneMeans>> = {};
  for (const label of ['ODIN α=10', 'LLS'] as const) {
    const cells = results.filter((r) => r.label === label);
    if (cells.length === 0) throw new Error(`odin-fig5-vgg16 has no lane "${label}" (lanes: ${[...new Set(results.map((r) => r.label))].join(', ')})`);
    const mean = averageDeep(cells.map((r) => r.summary)) as unknown as Record<string, number>;
    out[label] = {
      throughputMeanQps: mean['throughputMeanQps']!,
      configThroughputMeanQps: mean['configThroughputMeanQps']!,
      latencyMeanMs: mean['latencyMeanMs']!,
      optimalRatioMean: mean['optimalRatioMean']!,
      rebalancingQueries: mean['rebalancingQueries']!,
    };
  }
  return out as Record<'ODIN α=10' | 'LLS', LaneMeans>;
}

/** Measures, compares and appends rows; returns the details for bench/results.json. */
export async function benchMeasure(tf: Tf, rows: Row[]): Promise<{ readonly database: LayerTimeDatabase } & Record<string, unknown>> {
  const started = performance.now();
  const result = await measureDatabase(
    { model: 'vgg16', modes: [...INTERFERENCE_MODE_IDS], repeats: BENCH_MEASURE_REPEATS, inputSize: BENCH_MEASURE_SIZE, hogBufferMiB: defaultHogBufferMiB() },
    {
      tf,
      now: () => performance.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      spawnHog: spawnNodeHog,
      cores: nodeCores(),
      runtime: nodeRuntime(),
      date: () => new Date().toISOString(),
    },
  );
  if (!result.ok) throw new Error('the measurement was cancelled');
  const measured: LayerTimeDatabase = result.database;
  const roofline = getDatabase('vgg16');
  const measuredSummaries = slowdownSummaries(measured);
  const rooflineSummaries = slowdownSummaries(roofline);
  rows.push({ name: `measure: VGG16 at ${BENCH_MEASURE_SIZE}, modes A–L, ${BENCH_MEASURE_REPEATS} repeats`, value: (performance.now() - started) / 1000, unit: 's' });
  rows.push({ name: 'measure: VGG16 alone (mode A), sum of units', value: measured.modes.A!.reduce((a, b) => a + b, 0), unit: 'ms', note: `roofline at 224: ${roofline.modes.A!.reduce((a, b) => a + b, 0).toFixed(1)} ms` });
  for (const m of measuredSummaries) {
    if (m.mode === 'A') continue;
    const r = rooflineSummaries.find((s) => s.mode === m.mode)!;
    const hogs = measured.measurement?.hogs[m.mode] ?? '';
    rows.push({ name: `measure: slowdown ${m.mode} median over units (${hogs})`, value: m.median, unit: '×', baseline: r.median, ratio: m.median / r.median, note: 'baseline: roofline' });
    rows.push({ name: `measure: slowdown ${m.mode} largest unit`, value: m.max, unit: '×', baseline: r.max, ratio: m.max / r.max, note: 'baseline: roofline' });
  }
  const preset = findPreset('odin-fig5-vgg16')!.scenario as PipelineScenario;
  const onMeasured = scenarioWithDatabase(preset, measured);
  if (!onMeasured.ok) throw new Error(`odin-fig5-vgg16 uses modes the measured database lacks: ${onMeasured.missingModes.join(', ')}`);
  const meansRoofline = gridMeans(preset);
  const meansMeasured = gridMeans(onMeasured.scenario);
  for (const [label, db] of [
    ['roofline', meansRoofline],
    ['measured', meansMeasured],
  ] as const) {
    const odin = db['ODIN α=10'];
    const lls = db.LLS;
    rows.push({ name: `odin-fig5-vgg16 on ${label}: ODIN α=10 vs LLS, measured throughput`, value: odin.throughputMeanQps, unit: 'q/s', baseline: lls.throughputMeanQps, ratio: odin.throughputMeanQps / lls.throughputMeanQps, note: 'baseline: LLS, grid mean' });
    rows.push({ name: `odin-fig5-vgg16 on ${label}: ODIN α=10 vs LLS, configuration throughput`, value: odin.configThroughputMeanQps, unit: 'q/s', baseline: lls.configThroughputMeanQps, ratio: odin.configThroughputMeanQps / lls.configThroughputMeanQps });
    rows.push({ name: `odin-fig5-vgg16 on ${label}: ODIN α=10 vs LLS, latency mean`, value: odin.latencyMeanMs, unit: 'ms', baseline: lls.latencyMeanMs, ratio: odin.latencyMeanMs / lls.latencyMeanMs });
    rows.push({ name: `odin-fig5-vgg16 on ${label}: ODIN α=10 vs LLS, ratio to the optimum`, value: odin.optimalRatioMean, unit: '', baseline: lls.optimalRatioMean, ratio: odin.optimalRatioMean / lls.optimalRatioMean });
  }
  return { inputSize: BENCH_MEASURE_SIZE, repeats: BENCH_MEASURE_REPEATS, measurement: measured.measurement, slowdowns: { measured: measuredSummaries, roofline: rooflineSummaries }, gridMeans: { roofline: meansRoofline, measured: meansMeasured }, database: measured };
}
