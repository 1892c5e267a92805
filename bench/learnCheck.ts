// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The learners against a known optimum (ARCHITECTURE §3), measured by `npm run bench`
 * (`BENCH_ONLY=learn-check` alone): the stationary `learn-sanity` preset, 1200 s, seeds 1–3,
 * each learner from scratch and BCEdge from the shipped agent, each against the best fixed
 * plan in hindsight of the same run, as exp(ΔU) − 1 over the last 200 s and the time after
 * which every 200 s window stays within 5 %. The targets are the learners issue's: BCEdge from
 * scratch within 5 % on every seed, TAC, PPO and DDQN within 10 %, the shipped agent within
 * 5 % from its first window.
 */
import { createLatencyPredictor } from '../src/worlds/serving/agents/predictorAdapter';
import { createLearningFactory } from '../src/worlds/serving/agents/registry';
import type { Tf } from '../src/lib/tf';
import { readShippedAgents } from '../src/worlds/serving/cli/shippedLibrary';
import { learnCheck, type LearnCheckLane } from '../src/worlds/serving/scenario/learnCheck';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import type { BenchRow } from './row';

const SEEDS = [1, 2, 3];
const WINDOW_S = 200;

/** The lanes checked, and the gap each must end within, %. */
const CHECKED: readonly { readonly lane: ServingScenario['serving']['lanes'][number]; readonly within: number; readonly name: string }[] = [
  { lane: { scheduler: 'bcedge' }, within: 5, name: 'BCEdge from scratch' },
  { lane: { scheduler: 'tac' }, within: 10, name: 'TAC from scratch' },
  { lane: { scheduler: 'ppo' }, within: 10, name: 'PPO from scratch' },
  { lane: { scheduler: 'ddqn' }, within: 10, name: 'DDQN from scratch' },
  { lane: { scheduler: 'bcedge', params: { pretrained: 1 } }, within: 5, name: 'BCEdge from the shipped agent' },
];

export function benchLearnCheck(tf: Tf, rows: BenchRow[]): Record<string, unknown> {
  const preset = findPreset('learn-sanity');
  if (preset === undefined || preset.scenario.world !== 'serving') throw new Error('learn-sanity: not a serving preset');
  const scenario = structuredClone(preset.scenario) as ServingScenario;
  scenario.serving.lanes = [{ scheduler: 'fixed-hindsight' }, ...CHECKED.map((c) => c.lane)];
  const learning = createLearningFactory(tf, { agents: readShippedAgents(), predictor: (context) => createLatencyPredictor(tf, context) });
  const started = performance.now();
  const check = learnCheck(scenario, SEEDS, WINDOW_S, learning, (done, total) => process.stderr.write(`\rlearn-check: ${done}/${total} lanes`));
  process.stderr.write('\n');
  const out: Record<string, unknown> = { seconds: (performance.now() - started) / 1000, lanes: check.lanes };
  CHECKED.forEach((c, k) => {
    const runs = check.lanes.filter((_, i) => i % (CHECKED.length + 1) === k + 1);
    const last = runs.map((r) => r.lastGapPct);
    const worst = Math.min(...last);
    const firstWindow = runs.map((r) => r.gapPct[0] ?? Number.NaN);
    const shipped = c.lane.params?.['pretrained'] === 1;
    rows.push({
      name: `learn-check: ${c.name}, learn-sanity 1200 s, seeds ${SEEDS.join('–')}, last ${WINDOW_S} s vs fixed-hindsight (worst seed)`,
      value: worst,
      unit: '%',
      target: shipped ? `≥ −${c.within} % from the first window` : `≥ −${c.within} % on every seed`,
      met: shipped ? Math.min(...firstWindow, worst) >= -c.within : worst >= -c.within,
      note: `per seed last window ${last.map((g) => g.toFixed(1)).join(', ')} %; first window ${firstWindow.map((g) => g.toFixed(1)).join(', ')} %; within 5 % for good after ${runs.map((r: LearnCheckLane) => (r.withinAfterS === null ? 'never' : `${r.withinAfterS} s`)).join(', ')}; violations ${runs.map((r) => r.sloViolationPct.toFixed(1)).join(', ')} % (oracle ${check.lanes.filter((_, i) => i % (CHECKED.length + 1) === 0).map((r) => r.sloViolationPct.toFixed(1)).join(', ')} %)`,
    });
  });
  return out;
}
