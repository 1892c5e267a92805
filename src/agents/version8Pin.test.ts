import { beforeAll, describe, expect, it } from 'vitest';
import { createLearningFactory } from './registry';
import type { Tf } from './tf';
import { loadTfNode } from './tfNode';
import { parseAnyScenario } from '../scenario/parse';
import { findPreset } from '../scenario/presets';
import type { ServingScenario } from '../scenario/schema';
import { runServingCell } from '../scenario/servingRunner';
import { sweepCells } from '../scenario/sweep';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/**
 * A version-8 link keeps its learners' numbers bit for bit (the step to version 9 writes
 * `stateRates: 0`: the last slot's arrivals per slot, as version 8 read them). Under Eq. 1's
 * slots, where the two readings differ. The numbers were printed by the lab of version 8 (its
 * last commit before version 9) for this very document: two models of `learn-sanity` under
 * Eq. 1's slots, 60 s, seed 1, every learner from scratch.
 */
describe('a version-8 scenario’s learners, as version 8 ran them', () => {
  it('gives the utility, violations and update counts of version 8, bit for bit', () => {
    const doc = structuredClone(findPreset('learn-sanity')!.scenario) as unknown as Record<string, unknown> & { serving: ServingScenario['serving'] };
    doc.version = 8;
    doc.serving.durationS = 60;
    doc.serving.assumptions = { ...doc.serving.assumptions, slot: 'eq1' };
    doc.serving.models = doc.serving.models.filter((m) => m.model === 'res' || m.model === 'mob');
    doc.serving.lanes = [
      { scheduler: 'bcedge', params: { warmup: 32 } },
      { scheduler: 'tac', params: { warmup: 32 } },
      { scheduler: 'ppo', params: { rolloutSize: 64 } },
      { scheduler: 'ddqn', params: { warmup: 32 } },
    ];
    const parsed = parseAnyScenario(doc);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const s = parsed.scenario as ServingScenario;
    expect(s.serving.lanes.map((l) => l.params?.['stateRates'])).toEqual([0, 0, 0, 0]);
    const results = runServingCell(s, sweepCells(s, [1])[0]!, () => 0, createLearningFactory(tf, { agents: {} }));
    expect(results.map((r) => [r.scheduler, r.summary.utilityMean, r.summary.sloViolationPct, (r.summary.learning as { updates: number }).updates])).toEqual([
      ['bcedge', 7.38233398643411, 8.573024294889695, 56],
      ['tac', 7.4018774052867435, 9.103602345713488, 64],
      ['ppo', 7.359897611635233, 8.349623010332309, 4],
      ['ddqn', 7.387003043517024, 8.209997207483942, 68],
    ]);
    // Version 9 reads arrivals per second of the slot: under Eq. 1 another run.
    const now = parseAnyScenario({ ...doc, version: 9 });
    if (!now.ok) throw new Error(JSON.stringify(now.errors));
    const v9 = now.scenario as ServingScenario;
    const rated = runServingCell(v9, sweepCells(v9, [1])[0]!, () => 0, createLearningFactory(tf, { agents: {} }));
    expect(rated[0]!.summary.utilityMean).not.toBe(results[0]!.summary.utilityMean);
  }, 120_000);
});
