// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * `npm run bench`: the performance figures, each measured against a baseline
 * in the same run (ARCHITECTURE §6) so that ratios hold on a noisy machine. Prints a table and
 * writes bench/results.json. Never run from tests.
 *
 * `BENCH_ONLY=sac-update npm run bench` runs only the SAC update against its baseline
 * (seconds instead of minutes) and writes bench/results-sac-update.json; `BENCH_ONLY=memory`
 * only the peak-memory rows of long runs (bench/memory.ts, a few minutes); `BENCH_ONLY=sweep`
 * only the sweeps (1 worker against every core, in Node and in the page); `BENCH_ONLY=seek` only
 * the serving seeks 600 and 2,900 simulated seconds back in a 3000 s run with a BCEdge lane
 * through the checkpoints, against replaying from time 0, and the checkpoints' memory;
 * `BENCH_ONLY=first-load` only the page's first-load JavaScript (a fresh build, seconds); `BENCH_ONLY=first-frame` the serving
 * lab's first frame of bcedge-dynamic from a link against the default serving scenario (bench/firstFrame.ts);
 * `BENCH_ONLY=oracle` only the oracle lanes' searches on bcedge-dynamic against the search before (bench/oracle.ts, minutes);
 * `BENCH_ONLY=oracle-run` only one of their evaluations against the same run as a lane runs it (seconds);
 * `BENCH_ONLY=oracle-page` only the same searches in the page, the other lanes running (bench/oraclePage.ts, minutes);
 * `BENCH_ONLY=agent-dynamic` only the shipped BCEdge agent on bcedge-dynamic against both oracles (bench/agentDynamic.ts, minutes);
 * `BENCH_ONLY=learn-time` only each learner from scratch to within 5 % of fixed-hindsight on learn-sanity, wall time (bench/timeToOracle.ts);
 * `BENCH_ONLY=learn-page` only the same for BCEdge in the page (headless Chromium);
 * `BENCH_ONLY=epoch` only one 3000 s training epoch of BCEdge at minibatch 512 (bench/epoch.ts);
 * `BENCH_ONLY=decision` only a learner's decision on the host against tfjs (bench/decision.ts);
 * `BENCH_ONLY=claims` only the long tasks while a Claims row recomputes in the page, beside the
 * idle lab (bench/claims.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { DEFAULT_PIPELINE_ASSUMPTIONS } from '../src/worlds/pipeline/engine/assumptions';
import { runEventSimulation } from '../src/worlds/pipeline/engine/eventSimulation';
import { InterferenceTimeline } from '../src/worlds/pipeline/engine/interference';
import { compositionCount, exhaustivePartition, optimalPartition } from '../src/worlds/pipeline/engine/partition';
import { PipelineRun, type PipelineRunSpec } from '../src/worlds/pipeline/engine/simulation';
import { compileDatabase, computeStageTimes } from '../src/worlds/pipeline/engine/stageTimes';
import { getDatabase } from '../src/worlds/pipeline/engine/profiles/databases';
import type { ModelId } from '../src/worlds/pipeline/engine/profiles/types';
import { runPipelineScenario } from '../src/worlds/pipeline/scenario/pipelineRunner';
import { pipelinePresets } from '../src/worlds/pipeline/presets';
import { createOdin } from '../src/worlds/pipeline/schedulers/odin';
import { createStatic } from '../src/worlds/pipeline/schedulers/static';
import { ServingRun } from '../src/worlds/serving/engine/simulation';
import type { ServingRunSpec } from '../src/worlds/serving/engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../src/worlds/serving/engine/assumptions';
import { createFixed } from '../src/worlds/serving/schedulers/fixed';
import { loadTfNode } from '../src/lib/tfNode';
import { benchLearning, sacUpdateTimes } from './learning';
import { benchMeasure, BENCH_MEASURE_REPEATS } from './measure';
import { benchReal, BENCH_REAL_SIZE } from './real';
import { benchSimpy } from './simpy';
import { measureDatabase } from '../src/worlds/pipeline/measure/runner';
import { defaultHogBufferMiB, nodeCores, nodeRuntime, spawnNodeHog } from '../src/worlds/pipeline/cli/hogThreads';
import { benchFirstFrame } from './firstFrame';
import { benchFirstLoad, benchServingSeek } from './shell';
import { memoryRows } from './memory';
import { benchSweep } from './sweep';
import { benchClaims } from './claims';
import { benchLearnCheck } from './learnCheck';
import { benchAgentDynamic } from './agentDynamic';
import { benchDecisions } from './decision';
import { benchOracleRun, benchOracles } from './oracle';
import { benchPageOracles } from './oraclePage';
import { benchPageTimeToOracle, benchTimeToOracle } from './timeToOracle';
import { benchEpoch } from './epoch';
import type { BenchRow } from './row';

type Row = BenchRow;

const rows: Row[] = [];

// BENCH_ONLY=<part>: that part alone (while developing it; the bench's figures are the full run).
const ONLY_PARTS = ['learn-check', 'agent-dynamic', 'learn-time', 'learn-page', 'epoch', 'sac-update', 'decision', 'oracle', 'oracle-run', 'oracle-page', 'simpy', 'measure', 'real', 'memory', 'sweep', 'seek', 'first-load', 'first-frame', 'claims'] as const;
const only = process.env['BENCH_ONLY'];
if (only !== undefined) {
  if (!(ONLY_PARTS as readonly string[]).includes(only)) {
    console.error(`BENCH_ONLY: expected one of ${ONLY_PARTS.join(', ')}, got ${JSON.stringify(only)}`);
    process.exit(2);
  }
  if (only === 'measure') {
    report(`bench/results-${only}.json`, {}, { measure: await benchMeasure(await loadTfNode(), rows) });
  } else if (only === 'simpy') {
    report(`bench/results-${only}.json`, {}, { simpy: benchSimpy(rows) });
  } else if (only === 'real') {
    // The real part alone measures only the modes it runs (A and B), with the measure part's repeats.
    const tf = await loadTfNode();
    const measured = await measureDatabase(
      { model: 'vgg16', modes: ['A', 'B'], repeats: BENCH_MEASURE_REPEATS, inputSize: BENCH_REAL_SIZE, hogBufferMiB: defaultHogBufferMiB() },
      { tf, now: () => performance.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)), spawnHog: spawnNodeHog, cores: nodeCores(), runtime: nodeRuntime(), date: () => new Date().toISOString() },
    );
    if (!measured.ok) throw new Error('the measurement was cancelled');
    report(`bench/results-${only}.json`, {}, { real: await benchReal(tf, rows, measured.database) });
  } else if (only === 'memory') {
    memoryRows(rows);
    report(`bench/results-${only}.json`, {});
  } else if (only === 'sweep') {
    await benchSweep(rows);
    report(`bench/results-${only}.json`, {});
  } else if (only === 'seek') {
    report(`bench/results-${only}.json`, {}, { shell: { servingSeek: benchServingSeek(await loadTfNode(), rows) } });
  } else if (only === 'first-load') {
    report(`bench/results-${only}.json`, {}, { shell: { firstLoad: benchFirstLoad(rows) } });
  } else if (only === 'first-frame') {
    report(`bench/results-${only}.json`, {}, { shell: { firstFrame: await benchFirstFrame(rows) } });
  } else if (only === 'learn-check') {
    report(`bench/results-${only}.json`, {}, { learnCheck: benchLearnCheck(await loadTfNode(), rows) });
  } else if (only === 'agent-dynamic') {
    report(`bench/results-${only}.json`, {}, { agentDynamic: benchAgentDynamic(await loadTfNode(), rows) });
  } else if (only === 'learn-time') {
    report(`bench/results-${only}.json`, {}, { timeToOracle: benchTimeToOracle(await loadTfNode(), rows) });
  } else if (only === 'learn-page') {
    report(`bench/results-${only}.json`, {}, { pageTimeToOracle: await benchPageTimeToOracle(rows) });
  } else if (only === 'epoch') {
    report(`bench/results-${only}.json`, {}, { epoch: await benchEpoch(await loadTfNode(), rows) });
  } else if (only === 'oracle-run') {
    report(`bench/results-${only}.json`, {}, { oracleRun: benchOracleRun(rows) });
  } else if (only === 'oracle') {
    report(`bench/results-${only}.json`, {}, { oracle: benchOracles(rows) });
  } else if (only === 'oracle-page') {
    report(`bench/results-${only}.json`, {}, { oraclePage: await benchPageOracles(rows) });
  } else if (only === 'decision') {
    report(`bench/results-${only}.json`, {}, { decision: benchDecisions(await loadTfNode(), rows) });
  } else if (only === 'claims') {
    report(`bench/results-${only}.json`, {}, { claims: await benchClaims(rows) });
  } else {
    sacUpdateTimes(await loadTfNode(), rows);
    report(`bench/results-${only}.json`, {});
  }
  process.exit(0);
}

/** Median wall time of `repeats` calls after one warm-up, ms. */
function time(fn: () => void, repeats: number): number {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

function vggSpec(queries: number, random: boolean): PipelineRunSpec {
  return {
    database: compileDatabase(getDatabase('vgg16')),
    executionPlaces: 4,
    queries,
    seed: 1,
    events: [],
    random: random ? { periodQueries: 10, durationQueries: 10, modes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } : null,
    assumptions: DEFAULT_PIPELINE_ASSUMPTIONS,
  };
}

// 1. Simulated queries per second, against the naive event loop on the same queries.
const QUERIES = 1_000_000;
for (const random of [false, true]) {
  const label = random ? 'random interference (period = duration = 10)' : 'no interference';
  const staticMs = time(() => new PipelineRun(vggSpec(QUERIES, random), createStatic()).runToEnd(), 5);
  const odinMs = time(() => new PipelineRun(vggSpec(QUERIES, random), createOdin({ alpha: 10 })).runToEnd(), 5);
  // Baseline: the event-queue simulation of the same static pipeline, same stage times.
  const spec = vggSpec(QUERIES, random);
  const counts = new PipelineRun(spec, createStatic()).configuration;
  const baselineQueries = 200_000;
  const eventMs = time(() => {
    const timeline = new InterferenceTimeline(4, [], spec.random, spec.seed);
    const times = new Float64Array(4);
    const perQuery = new Float64Array(baselineQueries * 4);
    for (let q = 0; q < baselineQueries; q++) {
      timeline.advance(q);
      computeStageTimes(spec.database, counts, timeline.modes, 0, times);
      perQuery.set(times, q * 4);
    }
    runEventSimulation({ stages: 4, queries: baselineQueries, stageTimeMs: (q, i) => perQuery[q * 4 + i]!, bufferCapacity: 1, arrivalsMs: null });
  }, 3);
  const staticQps = (QUERIES / staticMs) * 1000;
  const eventQps = (baselineQueries / eventMs) * 1000;
  rows.push({
    name: `VGG16 × 4 static, ${label}`,
    value: staticQps,
    unit: 'queries/s',
    target: '≥ 1,000,000',
    met: staticQps >= 1_000_000,
    baseline: eventQps,
    ratio: staticQps / eventQps,
    note: 'baseline: event-queue simulation',
  });
  rows.push({ name: `VGG16 × 4 ODIN α=10, ${label}`, value: (QUERIES / odinMs) * 1000, unit: 'queries/s' });
}

// 1a. The same static pipeline against a SimPy model of it (bench/simpy.ts), when Python has SimPy.
const simpyDetails = benchSimpy(rows);

// 2. Every ODIN preset, every grid cell and lane, run to the end.
const odinPresets = pipelinePresets().filter((p) => p.id.startsWith('odin-'));
let presetsTotal = 0;
for (const preset of odinPresets) {
  const ms = time(() => runPipelineScenario(preset.scenario), 3);
  presetsTotal += ms;
  rows.push({ name: `preset ${preset.id}`, value: ms, unit: 'ms' });
}
rows.push({ name: 'all ODIN presets together', value: presetsTotal, unit: 'ms', target: '< 2000', met: presetsTotal < 2000 });

// 3. The exact partitioner against plain exhaustive enumeration (the paper's search).
const BRUTE_LIMIT = 3e8;
const cases: [ModelId, number][] = [
  ['vgg16', 4],
  ['resnet50', 8],
  ['resnet152', 52],
];
for (const [model, eps] of cases) {
  const db = compileDatabase(getDatabase(model));
  // A mixed interference pattern: every EP in a different mode.
  const modes = Uint8Array.from({ length: eps }, (_, i) => (i * 5) % 12);
  const dpMs = time(() => optimalPartition(db, modes), 50);
  const configurations = compositionCount(db.unitCount, eps);
  let bruteMs: number | undefined;
  if (configurations <= BRUTE_LIMIT) {
    const t0 = performance.now();
    const brute = exhaustivePartition(db, modes, 0, BRUTE_LIMIT)!;
    bruteMs = performance.now() - t0;
    if (brute.bottleneckMs !== optimalPartition(db, modes).bottleneckMs) throw new Error(`partitioner disagrees with brute force on ${model} × ${eps}`);
  }
  const target = model === 'resnet152' ? '< 5' : undefined;
  rows.push({
    name: `partition ${model} × ${eps} (${configurations.toExponential(2)} configurations)`,
    value: dpMs,
    unit: 'ms',
    ...(target ? { target, met: dpMs < 5 } : {}),
    ...(bruteMs !== undefined ? { baseline: bruteMs, ratio: bruteMs / dpMs } : { note: `brute force not run: more than ${BRUTE_LIMIT.toExponential(0)} configurations` }),
  });
}

// 4. The serving world (BCEdge): simulated requests per second with Triton's fixed
// configuration, and the paper's 3000 s at 30 rps.
{
  const sixModels = (['yolo', 'mob', 'res', 'eff', 'inc', 'bert'] as const).map((model) => ({ model, weight: 1 }));
  const spec = (rateRps: number, durationS: number): ServingRunSpec => ({
    platform: 'xavier-nx',
    models: sixModels,
    rateRps,
    durationMs: durationS * 1000,
    seed: 1,
    background: [],
    assumptions: DEFAULT_SERVING_ASSUMPTIONS,
  });
  let requests = 0;
  const longMs = time(() => {
    requests = new ServingRun(spec(40, 20_000), createFixed({ batchSize: 8, instances: 2 })).runToEnd().requests;
  }, 3);
  const simulatedRps = (requests / longMs) * 1000;
  rows.push({ name: `serving: six models, fixed (8, 2), ${requests.toLocaleString('en-US')} requests`, value: simulatedRps, unit: 'requests/s', target: '≥ 500,000', met: simulatedRps >= 500_000 });
  const paperMs = time(() => new ServingRun(spec(30, 3000), createFixed({ batchSize: 8, instances: 2 })).runToEnd(), 5);
  rows.push({ name: 'serving: the paper’s 3000 s at 30 rps (≈ 90,000 requests)', value: paperMs, unit: 'ms', target: '< 500', met: paperMs < 500 });
}

// 4b. Memory of long runs (ARCHITECTURE §7): bench/memory.ts.
memoryRows(rows);

// 4c. The oracle lanes' searches against the search before (bench/oracle.ts).
const oracleDetails = benchOracles(rows);

// 5. The learning schedulers (ARCHITECTURE §3): tfjs with the wasm backend, as the worker runs it.
const tf = await loadTfNode();
const learningDetails = await benchLearning(tf, rows);

// 5a. A decision on the host against the same decision through tfjs (bench/decision.ts).
const decisionDetails = benchDecisions(tf, rows);

// 5b. Each learner from scratch to within 5 % of the oracle, wall time (bench/timeToOracle.ts); one training epoch at minibatch 512 (bench/epoch.ts).
const timeToOracleDetails = { cli: benchTimeToOracle(tf, rows), page: process.env['BENCH_SKIP_PAGE'] === '1' ? null : await benchPageTimeToOracle(rows) };
const epochDetails = await benchEpoch(tf, rows);

// 6. Measure your machine (ARCHITECTURE §2, §6): a measured VGG16 database beside the roofline one.
const measureDetails = await benchMeasure(tf, rows);

// 6a. A real pipeline on this machine (ARCHITECTURE §2): ODIN and LLS on tfjs stage threads beside their simulation on that database.
const realDetails = await benchReal(tf, rows, measureDetails.database);

// 7. The lab shell (ARCHITECTURE §7a, §7a′): serving time travel with a learning lane, the first load.
const shellDetails = { servingSeek: benchServingSeek(tf, rows), firstLoad: benchFirstLoad(rows), firstFrame: await benchFirstFrame(rows) };

// 8. Sweeps at scale (ARCHITECTURE §4): 1 worker against every core, in Node and in the page.
await benchSweep(rows);

// 9. The Claims view (ARCHITECTURE §4a, §6): long tasks while a cheap row recomputes in the page, against the idle lab.
const claimsDetails = await benchClaims(rows);

report('bench/results.json', learningDetails, { oracle: oracleDetails, decision: decisionDetails, timeToOracle: timeToOracleDetails, epoch: epochDetails, simpy: simpyDetails, measure: measureDetails, real: realDetails, shell: shellDetails, claims: claimsDetails });

/** Prints the table and the notes, and writes the rows and `details` to `file`. */
function report(file: string, details: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
  const fmt = (v: number): string => (Number.isNaN(v) ? 'n/a' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3));
  const table = [
    ['measure', 'value', 'unit', 'target', 'met', 'baseline', 'ratio'],
    ...rows.map((r) => [r.name, fmt(r.value), r.unit, r.target ?? '', r.met === undefined ? '' : r.met ? 'yes' : 'NO', r.baseline === undefined ? '' : fmt(r.baseline), r.ratio === undefined ? '' : `${fmt(r.ratio)}×`]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  for (const row of table) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  for (const r of rows) if (r.note) console.log(`note: ${r.name}: ${r.note}`);

  mkdirSync('bench', { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, rows, learning: details, ...extra }, null, 2)}\n`,
  );
  console.log(`wrote ${file}`);
}
