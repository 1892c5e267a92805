// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * What Eq. 1's per-model slots cost a learning lane: the same run of a serving preset with
 * one BCEdge lane (learning from scratch, its predictor on) under `slot: "eq1"` and under
 * `slot: "fixed"`, and under eq1 with the paper's one gradient step per slot
 * (`trainEveryMs = 0`, Algorithm 1), one after the other in this process; wall time,
 * decisions, gradient updates and transitions of each (ARCHITECTURE §3).
 *
 *   npx tsx bench/slotCost.ts [preset] [--duration S] [--seed N] [--algorithm1 0|1] [--repeats N]
 *
 * Defaults: bcedge-dynamic, 300 s, seed 1, the Algorithm 1 run included, 3 repeats. After an
 * untimed warm-up of each setting (20 simulated s: tfjs and the JIT), the settings run in
 * turn, `repeats` times; each is the same run every time (seeded), so only the wall time
 * varies, and the median is kept. Prints JSON on stdout: per setting the median wall seconds
 * (and every repeat's) and counts, and the ratios to the fixed slot.
 */
import { wrapDecide } from '../src/worlds/serving/engine/scheduler';
import { ServingRun } from '../src/worlds/serving/engine/simulation';
import { loadTfNode } from '../src/lib/tfNode';
import { learningFactoryOf } from '../src/worlds/serving/agents/learning';
import { readShippedAgents } from '../src/worlds/serving/cli/shippedLibrary';
import type { LearningScheduler } from '../src/worlds/serving/agents/learningScheduler';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { buildServingSpec, servingLaneParameters } from '../src/worlds/serving/scenario/servingRunner';
import { SERVING_SCHEDULERS, servingSchedulerContext } from '../src/worlds/serving/schedulers/registry';

interface Measured {
  readonly slot: 'eq1' | 'fixed';
  readonly trainEveryMs: number;
  readonly seconds: number;
  readonly decisions: number;
  readonly updates: number;
  readonly transitions: number;
  readonly utilityMean: number;
  readonly sloViolationPct: number;
}

async function main(argv: readonly string[]): Promise<void> {
  let preset = 'bcedge-dynamic';
  let durationS = 300;
  let seed = 1;
  let algorithm1 = true;
  let repeats = 3;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      preset = a;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${a}: needs a value`);
    if (a === '--duration') durationS = Number(value);
    else if (a === '--seed') seed = Number(value);
    else if (a === '--algorithm1') algorithm1 = value !== '0';
    else if (a === '--repeats') repeats = Math.max(1, Math.floor(Number(value)));
    else throw new Error(`${a}: unknown option`);
  }
  const found = findPreset(preset);
  if (found === undefined || found.scenario.world !== 'serving') throw new Error(`${preset}: not a serving preset`);
  const tf = await loadTfNode();
  const agents = readShippedAgents();
  const measure = (slot: 'eq1' | 'fixed', trainEveryMs: number, durationS: number): Measured => {
    const base = structuredClone(found.scenario) as ServingScenario;
    const scenario: ServingScenario = {
      ...base,
      seed,
      serving: { ...base.serving, durationS, assumptions: { ...base.serving.assumptions, slot }, lanes: [{ scheduler: 'bcedge', params: { trainEveryMs } }] },
    };
    const spec = buildServingSpec(scenario);
    let learner: LearningScheduler | null = null;
    const factory = learningFactoryOf(tf, agents, { onCreate: (s) => (learner = s) });
    const lane = scenario.serving.lanes[0]!;
    const inner = SERVING_SCHEDULERS.bcedge.create(servingLaneParameters(lane), servingSchedulerContext(seed, spec.models.map((m) => m.model), factory, spec));
    let decisions = 0;
    const counted = wrapDecide(inner, (o, decide) => (decisions++, decide(o)));
    const started = performance.now();
    const summary = new ServingRun(spec, counted).runToEnd();
    const seconds = (performance.now() - started) / 1000;
    const telemetry = (learner as LearningScheduler | null)!.telemetry();
    inner.dispose?.();
    return { slot, trainEveryMs, seconds, decisions, updates: telemetry.updates, transitions: telemetry.transitions, utilityMean: summary.utilityMean, sloViolationPct: summary.sloViolationPct };
  };
  const settings: [slot: 'eq1' | 'fixed', trainEveryMs: number][] = [['fixed', 1000], ['eq1', 1000], ...(algorithm1 ? [['eq1', 0] as ['eq1', number]] : [])];
  for (const [slot, every] of settings) measure(slot, every, Math.min(20, durationS));
  const all: Measured[][] = settings.map(() => []);
  for (let k = 0; k < repeats; k++) settings.forEach(([slot, every], i) => all[i]!.push(measure(slot, every, durationS)));
  const median = (xs: readonly number[]): number => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  };
  const runs = all.map((repeated) => ({ ...repeated[0]!, seconds: median(repeated.map((r) => r.seconds)), repeats: repeated.map((r) => r.seconds) }));
  const fixed = runs[0]!;
  const ratios = runs.map((r) => ({ slot: r.slot, trainEveryMs: r.trainEveryMs, wall: r.seconds / fixed.seconds, decisions: r.decisions / fixed.decisions, updates: r.updates / fixed.updates }));
  process.stdout.write(`${JSON.stringify({ preset, durationS, seed, repeats, runs, ratiosToFixed: ratios }, null, 2)}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(2);
});
