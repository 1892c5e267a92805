import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { pinnedLearnersDocument, runPinnedLearners } from './testing/pinnedLearners';

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
    const doc = pinnedLearnersDocument(8, 60, { slot: 'eq1' });
    const { scenario, rows } = runPinnedLearners(tf, doc);
    expect(scenario.serving.lanes.map((l) => l.params?.['stateRates'])).toEqual([0, 0, 0, 0]);
    expect(rows).toEqual([
      ['bcedge', 7.38233398643411, 8.573024294889695, 56],
      ['tac', 7.4018774052867435, 9.103602345713488, 64],
      ['ppo', 7.359897611635233, 8.349623010332309, 4],
      ['ddqn', 7.387003043517024, 8.209997207483942, 68],
    ]);
    // Version 9 reads arrivals per second of the slot: under Eq. 1 another run.
    const rated = runPinnedLearners(tf, { ...doc, version: 9 });
    expect(rated.rows[0]![1]).not.toBe(rows[0]![1]);
  }, 120_000);
});
