import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { STATE_SIZE } from './features';
import { agentKeyOf, createLearner } from './registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { pinnedLearnersDocument, runPinnedLearners } from './testing/pinnedLearners';
import { SCENARIO_VERSION } from '../../../scenario/limits';

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

  it('the slot length in the state (stateSlot = 1): a state of one number more, and an agent of the other size refused naming the field', () => {
    const context = { rng: createRng(1, 1), models: [] };
    const plain = createLearner(tf, 'bcedge', {}, context);
    const withSlot = createLearner(tf, 'bcedge', { stateSlot: 1 }, context);
    try {
      const saved = plain.save();
      expect(saved.stateSize).toBe(STATE_SIZE);
      expect(withSlot.save().stateSize).toBe(STATE_SIZE + 1);
      expect(() => withSlot.load(saved)).toThrow(`agent.stateSize: expected ${STATE_SIZE + 1}, got ${STATE_SIZE} (a lane's state has ${STATE_SIZE} numbers, ${STATE_SIZE + 1} with stateSlot = 1)`);
    } finally {
      plain.dispose();
      withSlot.dispose();
    }
  });

  it('every learner runs with the slot length in its state (stateSlot = 1), learns, and acts otherwise than without it', () => {
    const doc = pinnedLearnersDocument(SCENARIO_VERSION, 60);
    doc.serving.lanes = [
      { scheduler: 'bcedge', params: { warmup: 32 } },
      { scheduler: 'bcedge', params: { warmup: 32, stateSlot: 1 } },
      { scheduler: 'tac', params: { warmup: 32, stateSlot: 1 } },
      { scheduler: 'ppo', params: { rolloutSize: 64, stateSlot: 1 } },
      { scheduler: 'ddqn', params: { warmup: 32, stateSlot: 1 } },
    ];
    const { rows } = runPinnedLearners(tf, doc);
    for (const [scheduler, utility, violated, updates] of rows) {
      expect(Number.isFinite(utility), scheduler).toBe(true);
      expect(violated, scheduler).toBeGreaterThanOrEqual(0);
      expect(updates, scheduler).toBeGreaterThan(0);
    }
    expect(rows[1]![1]).not.toBe(rows[0]![1]);
  }, 120_000);

  it('a pretrained lane reads the state its agent was trained on, whatever its stateSlot says', () => {
    const context = { rng: createRng(1, 1), models: [] };
    const plain = createLearner(tf, 'bcedge', {}, context);
    const withSlot = createLearner(tf, 'bcedge', { stateSlot: 1 }, context);
    const agents = { plain: plain.save(), withSlot: withSlot.save() };
    plain.dispose();
    withSlot.dispose();
    const doc = pinnedLearnersDocument(SCENARIO_VERSION, 20);
    const lanes = (stateSlot: number) => [
      { scheduler: 'bcedge' as const, params: { pretrained: 1, stateSlot } },
      { scheduler: 'bcedge' as const, params: { pretrained: 1, stateSlot: 1 - stateSlot } },
    ];
    for (const [agent, size] of [[agents.plain, STATE_SIZE], [agents.withSlot, STATE_SIZE + 1]] as const) {
      doc.serving.lanes = lanes(0);
      const { rows } = runPinnedLearners(tf, doc, { bcedge: agent, 'bcedge-fixed-slot': agent });
      expect(rows.map((r) => r[0]), `agent of ${size}`).toEqual(['bcedge', 'bcedge']);
      // Both lanes load the same agent and read the same state: the same run, whichever stateSlot they name.
      expect(rows[1]![1], `agent of ${size}`).toBe(rows[0]![1]);
      expect(Number.isFinite(rows[0]![1])).toBe(true);
    }
  }, 120_000);

  it('a pretrained lane under the fixed slot starts from the agent trained on it; slotAgent = 0 keeps the Eq. 1 agent (the earlier reading)', () => {
    expect(agentKeyOf('bcedge', 'fixed', {})).toBe('bcedge-fixed-slot');
    expect(agentKeyOf('bcedge', 'fixed', { slotAgent: 0 })).toBe('bcedge');
    expect(agentKeyOf('bcedge', 'eq1', {})).toBe('bcedge');
    expect(agentKeyOf('bcedge', undefined, {})).toBe('bcedge');
    expect(agentKeyOf('tac', 'fixed', {})).toBe('tac');
    // Two agents that act differently: the same network from two seeds.
    const [eq1Agent, fixedAgent] = [1, 2].map((seed) => {
      const learner = createLearner(tf, 'bcedge', {}, { rng: createRng(seed, 1), models: [] });
      const file = learner.save();
      learner.dispose();
      // As if trained (one update): it acts on its own policy, not the warm-up's uniform actions.
      return { ...file, scalars: { ...file.scalars, updates: 1 } };
    });
    const doc = pinnedLearnersDocument(SCENARIO_VERSION, 20, { slot: 'fixed' });
    doc.serving.lanes = [
      { scheduler: 'bcedge', params: { pretrained: 1, train: 0, explore: 0 } },
      { scheduler: 'bcedge', params: { pretrained: 1, train: 0, explore: 0, slotAgent: 0 } },
    ];
    const both = runPinnedLearners(tf, doc, { bcedge: eq1Agent!, 'bcedge-fixed-slot': fixedAgent! }).rows;
    doc.serving.lanes = [{ scheduler: 'bcedge', params: { pretrained: 1, train: 0, explore: 0 } }];
    const alone = (agent: typeof eq1Agent) => runPinnedLearners(tf, doc, { bcedge: agent!, 'bcedge-fixed-slot': agent! }).rows[0]!;
    expect(both[0]).toEqual(alone(fixedAgent));
    expect(both[1]).toEqual(alone(eq1Agent));
    expect(both[0]![1]).not.toBe(both[1]![1]);
    // The agent it needs and lacks is named.
    expect(() => runPinnedLearners(tf, doc, { bcedge: eq1Agent! })).toThrow('bcedge: pretrained = 1 but no saved agent is loaded for it (bcedge-fixed-slot.json)');
  }, 120_000);
});
