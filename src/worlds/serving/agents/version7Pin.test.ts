import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { pinnedLearnersDocument, runPinnedLearners } from './testing/pinnedLearners';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/**
 * A version-7 link keeps its learners' numbers bit for bit (the step to version 8 writes the
 * values they ran with: SAC's minibatch 64, PPO and DDQN on raw rewards with γ per decision,
 * PPO's 96 × 8). The numbers were printed by the lab of version 7 (its last commit before
 * version 8) for this very document: two models of `learn-sanity`, 90 s, seed 1, every learner
 * from scratch.
 */
describe('a version-7 scenario’s learners, as version 7 ran them', () => {
  it('gives the utility, violations and update counts of version 7, bit for bit', () => {
    const { rows } = runPinnedLearners(tf, pinnedLearnersDocument(7, 90));
    expect(rows).toEqual([
      ['bcedge', 7.43633938825926, 7.320237212750185, 148],
      ['tac', 7.443046382712504, 6.968124536693847, 148],
      ['ppo', 7.428107752452355, 6.544308490915832, 16],
      ['ddqn', 7.442476761548469, 6.414534668149796, 148],
    ]);
  }, 120_000);
});
