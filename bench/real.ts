/**
 * The real-pipeline part of `npm run bench` (ARCHITECTURE §2, the real backend): VGG16 at
 * 112 px run for real on this machine's cores — one worker thread per execution place, tfjs
 * on wasm, a memory-bandwidth hog (mode B: one memBW hog) on one EP for the middle third of
 * the queries — with ODIN α=10 and LLS one after another, each beside its simulation on the
 * database the measure part just measured at the same size. On 2 and 4 execution places
 * (4 on a 2-core machine share cores: the row's note gives the mapping).
 *
 * The rows are of one run each (no seeds): measured and simulated throughput, the signed
 * error, the mean wall time of a real move, and whether the sign of ODIN against LLS agrees.
 */
import type { Tf } from '../src/agents/tf';
import { defaultHogBufferMiB, nodeCores, nodeRuntime, spawnNodeHog } from '../src/cli/hogThreads';
import { spawnNodeStage } from '../src/cli/stageThreads';
import type { LayerTimeDatabase } from '../src/engine/profiles/types';
import { runRealPipeline } from '../src/measure/realPipeline/pipeline';
import { measureDatabase } from '../src/measure/runner';
import { pipeline } from '../src/scenario/defaultPreset';
import { machineClaimRow } from '../src/scenario/realClaim';
import { runReal, type RealReport } from '../src/scenario/realRun';
import type { BenchRow } from './row';

/** Queries per lane: long enough for ODIN to react to the hog and recover, a few minutes in all. */
export const BENCH_REAL_QUERIES = 90;
export const BENCH_REAL_SIZE = 112;
const EP_COUNTS = [2, 4] as const;

/** The bench's scenario on `eps` execution places: the hog on EP 1 for queries [Q/3, 2Q/3). */
export function benchRealScenario(eps: number) {
  const q = BENCH_REAL_QUERIES;
  return pipeline(`VGG16 at ${BENCH_REAL_SIZE} px on ${eps} EPs, a memBW hog on EP 1 for a third of the run`, {
    executionPlaces: eps,
    queries: q,
    lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }],
    interference: { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: [{ executionPlace: 1, mode: 'B', fromQuery: Math.round(q / 3), toQuery: Math.round((2 * q) / 3) }] },
  });
}

const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)} %`;

/** Runs both settings, appends rows; returns the reports for bench/results.json. */
export async function benchReal(tf: Tf, rows: BenchRow[], database: LayerTimeDatabase): Promise<object> {
  const reports: { eps: number; wallS: number; report: RealReport }[] = [];
  for (const eps of EP_COUNTS) {
    const t0 = performance.now();
    const report = await runReal(
      { scenario: benchRealScenario(eps), inputSize: BENCH_REAL_SIZE, database, repeats: 1, hogBufferMiB: defaultHogBufferMiB(), cores: nodeCores() },
      { tf, measureDatabase, runRealPipeline, now: () => performance.now(), spawnStage: spawnNodeStage, spawnHog: spawnNodeHog, runtime: nodeRuntime(), stderr: () => undefined },
    );
    if (report === null) throw new Error('the real run was cancelled');
    const wallS = (performance.now() - t0) / 1000;
    reports.push({ eps, wallS, report });
    const where = `real: VGG16 @${BENCH_REAL_SIZE} × ${eps} EPs`;
    for (const lane of report.lanes) {
      rows.push({
        name: `${where}, ${lane.label}, throughput measured (baseline: simulated)`,
        value: lane.measured.throughputQps,
        unit: 'q/s',
        baseline: lane.simulated.throughputQps,
        ratio: lane.measured.throughputQps / lane.simulated.throughputQps,
        note: `${report.machine.mapping.text}; error of the simulation ${signed(lane.error.throughputQps)} throughput, ${signed(lane.error.latencyMeanMs)} mean latency, ${signed(lane.error.latencyP99Ms)} p99; closest trial-cost reading ${lane.closestReading}`,
      });
      rows.push({ name: `${where}, ${lane.label}, latency mean measured (baseline: simulated)`, value: lane.measured.latencyMeanMs, unit: 'ms', baseline: lane.simulated.latencyMeanMs, ratio: lane.measured.latencyMeanMs / lane.simulated.latencyMeanMs });
      rows.push({ name: `${where}, ${lane.label}, mean move (${lane.measured.reconfigurations.length} moves)`, value: lane.measured.reconfigurationMeanMs, unit: 'ms', note: 'the reconfiguration cost the simulation does not model' });
    }
    const o = report.odinVsLls;
    if (o !== null) rows.push({ name: `${where}, ODIN α=10 vs LLS throughput, measured (baseline: simulated)`, value: o.measuredPct, unit: '%', baseline: o.simulatedPct, note: `the sign ${o.agrees ? 'agrees' : 'does not agree'}; closest reading over the lanes ${report.closestReading}; run took ${wallS.toFixed(0)} s` });
  }
  const claim = machineClaimRow(reports[0]!.report, { command: 'npm run bench', commit: 'bench', durationS: reports[0]!.wallS });
  rows.push({ name: `real: the lab's claim on 2 EPs (${claim.verdict})`, value: claim.estimate?.mean ?? Number.NaN, unit: '% MAPE', note: claim.reason });
  return { queries: BENCH_REAL_QUERIES, inputSize: BENCH_REAL_SIZE, runs: reports };
}
