// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The shipped BCEdge agent on the changing world (the learners issue's second target), measured
 * by `npm run bench` (`BENCH_ONLY=agent-dynamic` alone): `bcedge-dynamic`, 3000 s, seeds 1–3,
 * the agent frozen (greedy) and learning on (the lane's defaults), beside the best fixed plan in
 * hindsight and the best plan per phase of the same run. Target: at or above `fixed-hindsight`
 * in utility (exp(ΔU) − 1 ≥ 0), with violations no higher, and no run whose backlog grows
 * without bound (the learners' health, worlds/serving/agents/health.ts).
 */
import { createLatencyPredictor } from '../src/worlds/serving/agents/predictorAdapter';
import { createLearningFactory } from '../src/worlds/serving/agents/registry';
import type { Tf } from '../src/lib/tf';
import { readShippedAgents } from '../src/worlds/serving/cli/shippedLibrary';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { runServingScenario } from '../src/worlds/serving/scenario/servingRunner';
import type { BenchRow } from './row';

const SEEDS = [1, 2, 3];

const AGENT_LANES: readonly { readonly lane: ServingScenario['serving']['lanes'][number]; readonly name: string }[] = [
  { lane: { scheduler: 'bcedge', params: { pretrained: 1, explore: 0, train: 0 } }, name: 'the shipped BCEdge agent, frozen (greedy)' },
  { lane: { scheduler: 'bcedge', params: { pretrained: 1 } }, name: 'the shipped BCEdge agent, learning on' },
];

interface Health {
  readonly backlogGrowing: boolean;
  readonly collapsed: boolean;
  readonly peakBacklog: { readonly requests: number } | null;
}

export function benchAgentDynamic(tf: Tf, rows: BenchRow[]): Record<string, unknown> {
  const preset = findPreset('bcedge-dynamic');
  if (preset === undefined || preset.scenario.world !== 'serving') throw new Error('bcedge-dynamic: not a serving preset');
  const scenario = structuredClone(preset.scenario) as ServingScenario;
  scenario.serving.lanes = [{ scheduler: 'fixed-hindsight' }, { scheduler: 'fixed-per-phase' }, ...AGENT_LANES.map((a) => a.lane)];
  const learning = createLearningFactory(tf, { agents: readShippedAgents(), predictor: (context) => createLatencyPredictor(tf, context) });
  const started = performance.now();
  const bySeed = SEEDS.map((seed) => {
    process.stderr.write(`agent-dynamic: seed ${seed}…\n`);
    return runServingScenario({ ...scenario, seed }, seed, () => 0, undefined, learning).map((r) => ({
      label: r.label,
      utilityMean: r.summary.utilityMean,
      sloViolationPct: r.summary.sloViolationPct,
      health: ((r.summary as { learning?: { health?: Health } }).learning?.health ?? null) as Health | null,
    }));
  });
  const gap = (u: number, oracle: number) => 100 * Math.expm1(u - oracle);
  const hindsight = bySeed.map((lanes) => lanes[0]!);
  const perPhase = bySeed.map((lanes) => lanes[1]!);
  AGENT_LANES.forEach((a, k) => {
    const runs = bySeed.map((lanes) => lanes[2 + k]!);
    const gaps = runs.map((r, s) => gap(r.utilityMean, hindsight[s]!.utilityMean));
    const violationsNoHigher = runs.every((r, s) => r.sloViolationPct <= hindsight[s]!.sloViolationPct);
    const bounded = runs.every((r) => r.health !== null && !r.health.backlogGrowing && !r.health.collapsed);
    rows.push({
      name: `agent-dynamic: ${a.name}, bcedge-dynamic 3000 s, seeds ${SEEDS.join('–')}, utility vs fixed-hindsight (worst seed)`,
      value: Math.min(...gaps),
      unit: '%',
      target: '≥ 0 % on every seed, violations no higher, backlog bounded',
      met: Math.min(...gaps) >= 0 && violationsNoHigher && bounded,
      note: `per seed ${gaps.map((g) => g.toFixed(1)).join(', ')} %; violated ${runs.map((r) => r.sloViolationPct.toFixed(1)).join(', ')} % (fixed-hindsight ${hindsight.map((r) => r.sloViolationPct.toFixed(1)).join(', ')} %); peak backlog ${runs.map((r) => r.health?.peakBacklog?.requests ?? '—').join(', ')} requests${bounded ? '' : ' (a backlog grew or the policy collapsed)'}`,
    });
  });
  rows.push({
    name: `agent-dynamic: best plan per phase, bcedge-dynamic 3000 s, seeds ${SEEDS.join('–')}, utility vs fixed-hindsight`,
    value: Math.min(...perPhase.map((r, s) => gap(r.utilityMean, hindsight[s]!.utilityMean))),
    unit: '%',
    note: `per seed ${perPhase.map((r, s) => gap(r.utilityMean, hindsight[s]!.utilityMean).toFixed(1)).join(', ')} %; violated ${perPhase.map((r) => r.sloViolationPct.toFixed(1)).join(', ')} %`,
  });
  return { seconds: (performance.now() - started) / 1000, seeds: SEEDS, lanes: bySeed };
}
