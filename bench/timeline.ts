// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * BCEdge Figs. 8–9 as numbers: throughput and latency of every lane of a serving preset (or
 * scenario file) per window of simulated time, from the engine's per-slot series.
 *
 *   npx tsx bench/timeline.ts bcedge-fig8-9-timeline [--seed N] [--window 300] [--set path=value]…
 *
 * Prints JSON on stdout: per lane, per window [fromS, toS): requests completed per second
 * (all models), their mean end-to-end latency (weighted by completions), the mean slot
 * utility and the SLO violations counted in the window per arrival-second. Learning lanes
 * learn from scratch as in the preset (the shipped agents when it says `pretrained`).
 */
import { readFileSync } from 'node:fs';
import { loadTfNode } from '../src/lib/tfNode';
import { learningFactoryOf } from '../src/worlds/serving/agents/learning';
import { readShippedAgents } from '../src/worlds/serving/cli/shippedLibrary';
import { applySet } from '../src/cli/scenarioInput';
import type { LaneRun } from '../src/worlds/serving/scenario/deviceCopies';
import { parseAnyScenario } from '../src/scenario/parse';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { runServingCell, servingAssumptionsOf } from '../src/worlds/serving/scenario/servingRunner';
import { sweepCells } from '../src/scenario/sweep';

interface Window {
  readonly fromS: number;
  readonly toS: number;
  readonly throughputRps: number;
  readonly latencyMeanMs: number | null;
  readonly utilityMean: number | null;
  readonly violations: number;
}

function windowsOf(run: LaneRun, windowS: number, slotMs: number): Window[] {
  const out: Window[] = [];
  const slotS = slotMs / 1000;
  let current: { fromS: number; completed: number; latencySum: number; utilitySum: number; utilityCount: number; violations: number } | null = null;
  const close = (toS: number) => {
    if (current === null) return;
    out.push({
      fromS: current.fromS,
      toS,
      throughputRps: current.completed / (toS - current.fromS),
      latencyMeanMs: current.completed > 0 ? current.latencySum / current.completed : null,
      utilityMean: current.utilityCount > 0 ? current.utilitySum / current.utilityCount : null,
      violations: current.violations,
    });
  };
  for (const r of run.series.values) {
    const startS = r.endMs / 1000 - slotS;
    const fromS = Math.floor(startS / windowS + 1e-9) * windowS;
    if (current === null || current.fromS !== fromS) {
      close(fromS);
      current = { fromS, completed: 0, latencySum: 0, utilitySum: 0, utilityCount: 0, violations: 0 };
    }
    for (const m of r.perModel) {
      const completed = m.throughputRps * slotS;
      current.completed += completed;
      current.latencySum += m.latencyMeanMs * completed;
      current.violations += m.violations;
      if (m.utility !== null) {
        current.utilitySum += m.utility;
        current.utilityCount++;
      }
    }
  }
  if (current !== null) close(Math.min(current.fromS + windowS, run.series.values.at(-1)!.endMs / 1000));
  return out;
}

async function main(argv: readonly string[]): Promise<void> {
  const source = argv[0];
  if (source === undefined) throw new Error('usage: npx tsx bench/timeline.ts <preset | scenario.json> [--seed N] [--window S] [--set path=value]…');
  let seed: number | undefined;
  let windowS = 300;
  const sets: string[] = [];
  for (let i = 1; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]}: needs a value`);
    if (argv[i] === '--seed') seed = Number(value);
    else if (argv[i] === '--window') windowS = Number(value);
    else if (argv[i] === '--set') sets.push(value);
    else throw new Error(`${argv[i]}: unknown option`);
  }
  const document: unknown = findPreset(source)?.scenario ?? JSON.parse(readFileSync(source, 'utf8'));
  const edited = structuredClone(document);
  for (const assignment of sets) applySet(edited, assignment);
  const parsed = parseAnyScenario(edited);
  if (!parsed.ok || parsed.scenario.world !== 'serving') throw new Error(`${source}: not a valid serving scenario`);
  const scenario: ServingScenario = { ...parsed.scenario, ...(seed === undefined ? {} : { seed }) };
  const learning = learningFactoryOf(await loadTfNode(), readShippedAgents());
  const runs: LaneRun[] = [];
  const [cell] = sweepCells(scenario, [scenario.seed]);
  const results = runServingCell(scenario, cell!, () => 0, learning, (lane, run) => (runs[lane] = run));
  const lanes = results.map((r, i) => ({ label: r.label, scheduler: r.scheduler, summary: { utilityMean: r.summary.utilityMean, throughputRps: r.summary.throughputRps, latencyMeanMs: r.summary.latencyMeanMs, sloViolationPct: r.summary.sloViolationPct }, windows: windowsOf(runs[i]!, windowS, servingAssumptionsOf(scenario).slotMs) }));
  process.stdout.write(`${JSON.stringify({ source, seed: scenario.seed, windowS, lanes }, null, 2)}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
