import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../engine/rng';
import { createLearner } from './registry';
import type { Tf } from './tf';
import { loadTfNode } from './tfNode';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

describe('createLearner: a lane’s parameters reach its learner', () => {
  it('SAC’s learning rate: §V-A’s 10⁻³ unless the lane sets one', () => {
    const context = { rng: createRng(1, 1), models: [] };
    const rate = (params: Record<string, number>) => {
      const learner = createLearner(tf, 'bcedge', params, context);
      const hyper = learner.save().hyper;
      learner.dispose();
      return hyper['learningRate'];
    };
    expect(rate({})).toBe(1e-3);
    expect(rate({ learningRate: 1e-4 })).toBe(1e-4);
  });
});
