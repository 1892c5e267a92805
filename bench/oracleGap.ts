// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The oracle gap of the rebuilt serving worlds (ARCHITECTURE §3, src/worlds/serving/scenario/oracleGap.test.ts
 * at full length): the best plan per phase against the best fixed plan in hindsight, as
 * exp(ΔU) − 1 in %, searched over b ≤ 16 and m_c ≤ 2 as the test does, per seed.
 *
 *   npx tsx bench/oracleGap.ts [--compress F] [--slot eq1|fixed] [--seeds 1,2,3]
 *
 * `--compress F` runs each preset with every time F times shorter (the test's 20); the
 * default 1 is the presets' 3000 s (minutes per seed). Prints one JSON line per preset and seed.
 */
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { runServingScenario } from '../src/worlds/serving/scenario/servingRunner';
import { compressTime } from '../src/worlds/serving/scenario/testing/compressTime';

function main(argv: readonly string[]): void {
  let compress = 1;
  let slot: 'eq1' | 'fixed' = 'eq1';
  let seeds = [1, 2, 3];
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]}: needs a value`);
    if (argv[i] === '--compress') compress = Number(value);
    else if (argv[i] === '--slot' && (value === 'eq1' || value === 'fixed')) slot = value;
    else if (argv[i] === '--seeds') seeds = value.split(',').map(Number);
    else throw new Error(`${argv[i]}: unknown option`);
  }
  // The presets and the per-phase cut of the test: bcedge-dynamic at its schedule's boundaries, the timeline every 300 s.
  for (const [id, phaseS] of [
    ['bcedge-dynamic', undefined],
    ['bcedge-fig8-9-timeline', 300],
  ] as const) {
    for (const seed of seeds) {
      const preset = structuredClone(findPreset(id)!.scenario) as ServingScenario;
      const oracle = { maxBatch: 16, maxInstances: 2 };
      preset.serving.lanes = [
        { scheduler: 'fixed-hindsight', params: oracle },
        { scheduler: 'fixed-per-phase', params: phaseS === undefined ? oracle : { ...oracle, phaseS } },
      ];
      preset.serving.assumptions = { ...preset.serving.assumptions, slot };
      preset.seed = seed;
      const scenario = compress === 1 ? preset : compressTime(preset, compress);
      const started = performance.now();
      const [hindsight, perPhase] = runServingScenario(scenario).map((r) => r.summary.utilityMean);
      const wallS = (performance.now() - started) / 1000;
      process.stdout.write(`${JSON.stringify({ id, slot, compress, seed, hindsight, perPhase, gapPct: 100 * Math.expm1(perPhase! - hindsight!), wallS })}\n`);
    }
  }
}

main(process.argv.slice(2));
