import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { pinnedLearnersDocument, runPinnedLearners } from './testing/pinnedLearners';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/**
 * A version-10 link keeps its BCEdge lane's numbers bit for bit (the step to version 11 writes
 * `targetEntropyRatio: 0.05`, version 10's default; version 11's is 0.15). The numbers were
 * printed by the lab of version 10 (its last commit before version 11) for this very document:
 * two models of `learn-sanity`, 120 s, seed 1 (in 60 s the two
 * targets still chose the same actions), BCEdge from scratch learning after 32 transitions.
 */
describe('a version-10 scenario’s BCEdge lane, as version 10 ran it', () => {
  it('gives the utility, violations and update count of version 10, bit for bit', () => {
    const doc = pinnedLearnersDocument(10, 120);
    doc.serving.lanes = [{ scheduler: 'bcedge', params: { warmup: 32 } }];
    const { scenario, rows } = runPinnedLearners(tf, doc);
    expect(scenario.serving.lanes[0]!.params).toEqual({ warmup: 32, targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 });
    expect(rows).toEqual([['bcedge', 7.448359256659745, 5.638474295190713, 208]]);
    // Version 11 aims the temperature at 0.15 of ln|A|: another run.
    const current = runPinnedLearners(tf, { ...doc, version: 11 });
    expect(current.scenario.serving.lanes[0]!.params).toEqual({ warmup: 32, greedyUntilUpdate: 0, slotAgent: 0 });
    expect(current.rows[0]![1]).not.toBe(rows[0]![1]);
  }, 120_000);
});
