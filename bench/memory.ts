import { spawnSync } from 'node:child_process';
import { DEFAULT_PERCENTILE_RELATIVE_ERROR } from '../src/engine/quantiles';
import type { BenchRow } from './row';

/**
 * Memory of long runs (ARCHITECTURE §7), for `npm run bench` and `BENCH_ONLY=memory`: peak
 * resident set of the default scenario (4 lanes) at 1 M and 10 M queries, each in its own
 * process, with exact percentiles (every sample kept, as before streaming) as the baseline
 * and streaming percentiles (the default); and the largest relative error of a streamed
 * p50/p99 against the exact one.
 */
export function memoryRows(rows: BenchRow[]): void {
  const child = (queries: number, method: 'streaming' | 'exact') => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'bench/memoryChild.ts', String(queries), method], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (out.status !== 0) throw new Error(`bench/memoryChild.ts ${queries} ${method}: ${out.stderr}`);
    return JSON.parse(out.stdout) as { maxRssKb: number; percentiles: number[][] };
  };
  for (const queries of [1_000_000, 10_000_000]) {
    const exact = child(queries, 'exact');
    const streaming = child(queries, 'streaming');
    const mb = (kb: number) => kb / 1024;
    rows.push({
      name: `peak memory, default scenario, ${queries.toLocaleString('en-US')} queries × 4 lanes (baseline: exact percentiles)`,
      value: mb(streaming.maxRssKb),
      unit: 'MB',
      ...(queries === 10_000_000 ? { target: '≤ 250', met: mb(streaming.maxRssKb) <= 250 } : {}),
      baseline: mb(exact.maxRssKb),
      ratio: exact.maxRssKb / streaming.maxRssKb,
    });
    let worst = 0;
    exact.percentiles.forEach((lane, i) => lane.forEach((v, k) => (worst = Math.max(worst, Math.abs(streaming.percentiles[i]![k]! / v - 1)))));
    rows.push({ name: `streaming percentiles: largest relative error of p50/p99 against exact, ${queries.toLocaleString('en-US')} queries`, value: 100 * worst, unit: '%', target: '≤ 0.1', met: worst <= DEFAULT_PERCENTILE_RELATIVE_ERROR });
  }
}
