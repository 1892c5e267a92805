/**
 * `npm run claims`: the ODIN paper's headline comparisons (§4.2) recomputed from the
 * `odin-fig5-*` presets, over several seeds, under every reading of the modelling choices
 * the paper leaves open (trial cost × LLS reading). Prints, per model and reading, how
 * ODIN α=2 and α=10 differ from LLS in the grid means; positive numbers favour ODIN.
 *
 *   npm run claims -- [--seeds N]
 */
import { averageSummaries, type PipelineSummary } from '../src/engine/pipeline/metrics';
import { runPipelineScenario } from '../src/scenario/pipelineRunner';
import { pipelinePresets } from '../src/scenario/presets';
import type { Scenario } from '../src/scenario/schema';

const seedsArg = process.argv.indexOf('--seeds');
const seeds = seedsArg >= 0 ? Number(process.argv[seedsArg + 1]) : 10;
if (!Number.isInteger(seeds) || seeds < 1 || seeds > 100) {
  console.error('--seeds: must be an integer from 1 to 100');
  process.exit(2);
}

/** Grid means per lane label, averaged over seeds. */
function gridMeans(scenario: Scenario): Map<string, PipelineSummary> {
  const byLabel = new Map<string, PipelineSummary[]>();
  for (let s = 0; s < seeds; s++) {
    for (const r of runPipelineScenario(scenario, scenario.seed + s)) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r.summary]);
  }
  return new Map([...byLabel].map(([label, summaries]) => [label, averageSummaries(summaries)]));
}

const lower = (odin: number, lls: number): number => (100 * (lls - odin)) / lls;
const higher = (odin: number, lls: number): number => (100 * (odin - lls)) / lls;
const pct = (v: number): string => `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`.padStart(8);

console.log(`ODIN vs LLS, grid means of odin-fig5-* over ${seeds} seeds (positive = ODIN better)`);
console.log(
  ['model', 'trialCost', 'llsReading', 'lane', 'latency', 'cfgLat', 'p99', 'thrMeas', 'thrCfg', 'q/rebal', 'LLS q/rebal'].map((h, i) => (i < 4 ? h.padEnd(i === 3 ? 10 : 10) : h.padStart(8))).join(' '),
);
for (const model of ['vgg16', 'resnet50'] as const) {
  for (const trialCost of ['serial', 'pipelined', 'free'] as const) {
    for (const llsReading of ['literal', 'repaired'] as const) {
      const base = structuredClone(pipelinePresets().find((p) => p.id === `odin-fig5-${model}`)!.scenario);
      base.pipeline.assumptions = { ...base.pipeline.assumptions, trialCost, llsReading };
      base.pipeline.lanes = base.pipeline.lanes.filter((l) => l.scheduler === 'odin' || l.scheduler === 'lls');
      const means = gridMeans(base);
      const lls = means.get('LLS')!;
      for (const label of ['ODIN α=2', 'ODIN α=10']) {
        const odin = means.get(label)!;
        console.log(
          [
            model.padEnd(10),
            trialCost.padEnd(10),
            llsReading.padEnd(10),
            label.padEnd(10),
            pct(lower(odin.latencyMeanMs, lls.latencyMeanMs)),
            pct(lower(odin.configLatencyMeanMs, lls.configLatencyMeanMs)),
            pct(lower(odin.latencyP99Ms, lls.latencyP99Ms)),
            pct(higher(odin.throughputMeanQps, lls.throughputMeanQps)),
            pct(higher(odin.configThroughputMeanQps, lls.configThroughputMeanQps)),
            odin.queriesPerRebalance.toFixed(1).padStart(8),
            lls.queriesPerRebalance.toFixed(1).padStart(8),
          ].join(' '),
        );
      }
    }
  }
}
console.log('latency, p99: measured (arrival to completion); cfgLat: Σ stage times; thrMeas: completed queries/s; thrCfg: mean T(C).');
