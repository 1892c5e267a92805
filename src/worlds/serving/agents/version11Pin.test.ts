import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { createLearner } from './registry';
import type { AgentFile } from './learner';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { pinnedLearnersDocument, runPinnedLearners } from './testing/pinnedLearners';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** A saved agent made from a fresh learner of `seed`, counted as trained (one update): it acts on its policy. */
function agentOf(seed: number): AgentFile {
  const learner = createLearner(tf, 'bcedge', {}, { rng: createRng(seed, 1), models: [] });
  const file = learner.save();
  learner.dispose();
  return { ...file, scalars: { ...file.scalars, updates: 1 } };
}

/**
 * A version-11 link keeps its pretrained BCEdge lane's numbers bit for bit (the step to version
 * 12 writes `greedyUntilUpdate: 0` and `slotAgent: 0`: it samples its policy from the first
 * decision and, under the fixed slot, starts from the Eq. 1 agent). The numbers were printed by
 * the lab of version 11 (its last commit before version 12) for this very document: two models
 * of `learn-sanity` (the fixed slot), 120 s, seed 1, BCEdge from a saved agent learning after
 * 64 transitions.
 */
describe('a version-11 scenario’s pretrained BCEdge lane, as version 11 ran it', () => {
  it('gives the utility, violations and update count of version 11, bit for bit', () => {
    const eq1Agent = agentOf(7);
    const fixedSlotAgent = agentOf(8);
    const doc = pinnedLearnersDocument(11, 120);
    doc.serving.lanes = [{ scheduler: 'bcedge', params: { pretrained: 1, warmup: 32, fineTuneAfter: 64 } }];
    const { scenario, rows } = runPinnedLearners(tf, doc, { bcedge: eq1Agent, 'bcedge-fixed-slot': fixedSlotAgent });
    expect(scenario.serving.lanes[0]!.params).toEqual({ pretrained: 1, warmup: 32, fineTuneAfter: 64, greedyUntilUpdate: 0, slotAgent: 0 });
    expect(rows).toEqual([['bcedge', 7.446554480873521, 5.62543192812716, 177]]);
    // Version 12: the same agent acting greedily until it learns is another run…
    const greedy = runPinnedLearners(tf, { ...doc, version: 12, serving: { ...doc.serving, lanes: [{ scheduler: 'bcedge', params: { pretrained: 1, warmup: 32, fineTuneAfter: 64, slotAgent: 0 } }] } }, { bcedge: eq1Agent });
    expect(greedy.scenario.serving.lanes[0]!.params).toEqual({ pretrained: 1, warmup: 32, fineTuneAfter: 64, slotAgent: 0 });
    expect(greedy.rows[0]![1]).not.toBe(rows[0]![1]);
    expect(greedy.rows[0]![3]).toBe(rows[0]![3]);
    // …and under the fixed slot its default starts from the fixed-slot agent, which it needs.
    const current = runPinnedLearners(tf, { ...doc, version: 12 }, { bcedge: eq1Agent, 'bcedge-fixed-slot': fixedSlotAgent });
    expect(current.rows[0]![1]).not.toBe(greedy.rows[0]![1]);
    expect(() => runPinnedLearners(tf, { ...doc, version: 12 }, { bcedge: eq1Agent })).toThrow('(bcedge-fixed-slot.json)');
  }, 120_000);
});
