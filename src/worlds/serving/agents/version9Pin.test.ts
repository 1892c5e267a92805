import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { parseAnyScenario } from '../../../scenario/parse';
import type { ServingScenario } from '../schema';
import { runServingCell } from '../scenario/servingRunner';
import { sweepCells } from '../../../scenario/sweep';
import { ACTION_COUNT, STATE_SIZE } from './features';
import type { AgentFile } from './learner';
import { createLearningFactory } from './registry';
import { DEFAULT_SAC_CONFIG, DiscreteSac } from './sac';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { pinnedLearnersDocument } from './testing/pinnedLearners';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** A saved BCEdge agent made here, seeded (not the shipped one, which a retraining changes): a fresh learner's networks, marked as trained. */
function savedAgent(): AgentFile {
  const sac = new DiscreteSac(tf, STATE_SIZE, ACTION_COUNT, DEFAULT_SAC_CONFIG, createRng(9, 1));
  const file = sac.save();
  sac.dispose();
  return { ...file, scalars: { ...file.scalars, updates: 1 } };
}

function run(doc: Record<string, unknown>, agent: AgentFile): { scenario: ServingScenario; row: [number, number, number] } {
  const parsed = parseAnyScenario(doc);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const scenario = parsed.scenario as ServingScenario;
  const [r] = runServingCell(scenario, sweepCells(scenario, [1])[0]!, () => 0, createLearningFactory(tf, { agents: { bcedge: agent } }));
  return { scenario, row: [r!.summary.utilityMean, r!.summary.sloViolationPct, (r!.summary.learning as { updates: number }).updates] };
}

/**
 * A version-9 link keeps its numbers bit for bit (the step to version 10 writes
 * `fineTuneAfter: 0`: a BCEdge lane started from a saved agent learns after its warm-up, as
 * version 9 did). The numbers were printed by the lab of version 9 (its last commit before
 * version 10) for this very document: two models of `learn-sanity` under Eq. 1's slots, 60 s,
 * seed 1, one BCEdge lane from the agent above, learning on after 32 transitions.
 */
describe('a version-9 scenario’s BCEdge lane from a saved agent, as version 9 ran it', () => {
  it('gives the utility, violations and update count of version 9, bit for bit', () => {
    const agent = savedAgent();
    const doc = pinnedLearnersDocument(9, 60, { slot: 'eq1' });
    doc.serving.lanes = [{ scheduler: 'bcedge', params: { pretrained: 1, warmup: 32 } }];
    const { scenario, row } = run(doc, agent);
    expect(scenario.serving.lanes[0]!.params).toEqual({ pretrained: 1, warmup: 32, fineTuneAfter: 0, targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 });
    expect(row).toEqual(PINNED);
    // Version 10: the loaded agent waits for 4096 transitions, more than 60 s brings: its count
    // stays the file's 1 (version 9 had made 54 more online).
    const current = run({ ...doc, version: 10 }, agent);
    expect(current.row[2]).toBe(1);
    expect(row[2]).toBeGreaterThan(1);
  }, 120_000);
});

const PINNED: [number, number, number] = [7.405806006958932, 8.51717397375035, 55];
