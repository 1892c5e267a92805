import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { Ddqn, DEFAULT_DDQN_CONFIG, type DdqnConfig } from './ddqn';
import type { AgentFile } from './learner';
import { DEFAULT_SAC_CONFIG } from './sac';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { A, contextStates, randomMaskBias, runBandit, S } from './testing/bandit';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** The training tests take 1–3 s alone; the machine may be shared, so they get room. */
const SLOW = 30_000;

/** A short schedule so that the tests see exploration end and many updates in little time. */
const SMALL: DdqnConfig = { ...DEFAULT_DDQN_CONFIG, warmup: 64, updatesPerStep: 1, targetUpdateEvery: 50, epsilonDecaySteps: 100 };


function oneHot(i: number): Float32Array {
  const s = new Float32Array(S);
  s[i] = 1;
  return s;
}

describe('Ddqn', { timeout: SLOW }, () => {
  it('shares the SAC scheduler’s discount', () => {
    expect(DEFAULT_DDQN_CONFIG.gamma).toBe(DEFAULT_SAC_CONFIG.gamma);
  });

  it('learns the best arm of every context of a bandit (seeded)', () => {
    const best = [2, 5, 7];
    const ddqn = new Ddqn(tf, S, A, SMALL, createRng(11, 1));
    expect(ddqn.epsilon).toBe(1);
    runBandit(ddqn, createRng(11, 2), 250, 3, best);
    const states = contextStates(3);
    const none = new Float32Array(3 * A);
    expect(Array.from(ddqn.act(states, none, 3, false))).toEqual(best);
    const stats = ddqn.stats();
    expect(stats.epsilon).toBeCloseTo(SMALL.epsilonEnd, 12);
    // Updates start once the buffer holds `warmup` transitions (3 per step).
    expect(stats.updates).toBe(250 - Math.ceil(SMALL.warmup / 3) + 1);
    expect(stats.temperature).toBeNull();
    expect(stats.entropy).toBeNull();
    expect(Object.keys(stats.losses)).toEqual(['q']);
    // ε-greedy distribution: 1 − ε + ε/8 on the best arm.
    const p = ddqn.policy(states, none, 3);
    best.forEach((b, c) => expect(p[c * A + b]).toBeCloseTo(1 - SMALL.epsilonEnd + SMALL.epsilonEnd / A, 6));
    ddqn.dispose();
  });

  it('decays ε linearly over exploring act calls only', () => {
    const ddqn = new Ddqn(tf, S, A, { ...SMALL, epsilonStart: 0.9, epsilonEnd: 0.1, epsilonDecaySteps: 8 }, createRng(1, 1));
    const s = contextStates(2);
    const none = new Float32Array(2 * A);
    ddqn.act(s, none, 2, false);
    expect(ddqn.epsilon).toBe(0.9);
    for (let k = 1; k <= 4; k++) {
      ddqn.act(s, none, 2, true);
      expect(ddqn.epsilon).toBeCloseTo(0.9 - 0.1 * k, 12);
    }
    for (let k = 0; k < 10; k++) ddqn.act(s, none, 2, true);
    expect(ddqn.epsilon).toBe(0.1);
    ddqn.dispose();
  });

  it('under per-model slots, decays ε only on the first call of a reporting interval', () => {
    const ddqn = new Ddqn(tf, S, A, { ...SMALL, epsilonStart: 0.9, epsilonEnd: 0.1, epsilonDecaySteps: 8 }, createRng(1, 1));
    const s = contextStates(1);
    const none = new Float32Array(A);
    const models = Int32Array.of(1);
    ddqn.act(s, none, 1, true, { models, newInterval: true });
    expect(ddqn.epsilon).toBeCloseTo(0.8, 12);
    for (let k = 0; k < 5; k++) ddqn.act(s, none, 1, true, { models, newInterval: false });
    expect(ddqn.epsilon).toBeCloseTo(0.8, 12);
    ddqn.act(s, none, 1, true, { models, newInterval: true });
    expect(ddqn.epsilon).toBeCloseTo(0.7, 12);
    ddqn.dispose();
  });

  it('bootstraps with the best action allowed in s′ (Double DQN target under the next mask)', () => {
    // γ = 0.5. In Y (allow all) arm 0 pays 1 and the others 0, and Y leads to Y: Q(Y, 0) = 2,
    // Q(Y, a ≠ 0) = 1. From X every arm pays 0 and leads to Y with arm 0 masked, so
    // Q(X, ·) = 0.5 · max_{a ≠ 0} Q(Y, a) = 0.5 (ignoring the mask would give 1).
    const config: DdqnConfig = { ...SMALL, gamma: 0.5, warmup: 1, batchSize: 32, targetUpdateEvery: 10 };
    const ddqn = new Ddqn(tf, S, A, config, createRng(4, 1));
    const all = new Uint8Array(A).fill(1);
    const noZero = Uint8Array.from({ length: A }, (_, a) => (a === 0 ? 0 : 1));
    const X = oneHot(0);
    const Y = oneHot(1);
    for (let a = 0; a < A; a++) {
      ddqn.record({ row: 0, state: X, mask: all, action: a, reward: 0, nextState: Y, nextMask: noZero });
      ddqn.record({ row: 1, state: Y, mask: all, action: a, reward: a === 0 ? 1 : 0, nextState: Y, nextMask: all });
    }
    for (let k = 0; k < 400; k++) ddqn.update();
    const q = ddqn.qValues(new Float32Array([...X, ...Y]), 2);
    expect(q[A]).toBeCloseTo(2, 1);
    for (let a = 1; a < A; a++) expect(q[A + a]).toBeCloseTo(1, 1);
    for (let a = 0; a < A; a++) expect(q[a]).toBeCloseTo(0.5, 1);
    ddqn.dispose();
  });

  it('never takes a masked action: ε = 1 draws uniformly among the allowed ones, greedy skips the masked best arm', () => {
    const rng = createRng(6, 4);
    const rows = 6;
    // ε = 1 throughout.
    const random = new Ddqn(tf, S, A, { ...SMALL, epsilonStart: 1, epsilonEnd: 1 }, createRng(6, 1));
    const counts = new Float64Array(A);
    const expected = new Float64Array(A);
    for (let k = 0; k < 400; k++) {
      const states = Float32Array.from({ length: rows * S }, () => rng.nextFloat());
      const bias = randomMaskBias(rng, rows);
      const actions = random.act(states, bias, rows, true);
      const p = random.policy(states, bias, rows);
      for (let r = 0; r < rows; r++) {
        expect(bias[r * A + actions[r]!]).toBe(0);
        counts[actions[r]!]!++;
        let allowed = 0;
        for (let a = 0; a < A; a++) if (bias[r * A + a] === 0) allowed++;
        for (let a = 0; a < A; a++) {
          const q = bias[r * A + a] === 0 ? 1 / allowed : 0;
          expected[a]! += q;
          expect(p[r * A + a]).toBeCloseTo(q, 6);
        }
      }
    }
    // Uniform over the allowed actions: each arm's count near its expectation (2400 draws).
    for (let a = 0; a < A; a++) expect(Math.abs(counts[a]! - expected[a]!)).toBeLessThan(4 * Math.sqrt(expected[a]!));
    random.dispose();

    // Trained so that arm 3 is the best everywhere, then asked with arm 3 often masked.
    const ddqn = new Ddqn(tf, S, A, SMALL, createRng(6, 1));
    const maskRng = createRng(6, 3);
    const maskOf = () => Uint8Array.from({ length: A }, (_, a) => (maskRng.nextFloat() < (a === 3 ? 0.5 : 0.7) ? 1 : 0));
    runBandit(ddqn, createRng(6, 2), 200, 3, [3, 3, 3], maskOf);
    let preferred = 0;
    let allowedRows = 0;
    for (let k = 0; k < 200; k++) {
      const states = new Float32Array(rows * S);
      for (let r = 0; r < rows; r++) states[r * S + rng.nextInt(3)] = 1;
      const bias = randomMaskBias(rng, rows);
      const explored = ddqn.act(states, bias, rows, true);
      const greedy = ddqn.act(states, bias, rows, false);
      const p = ddqn.policy(states, bias, rows);
      for (let r = 0; r < rows; r++) {
        expect(bias[r * A + explored[r]!]).toBe(0);
        expect(bias[r * A + greedy[r]!]).toBe(0);
        for (let a = 0; a < A; a++) if (bias[r * A + a] !== 0) expect(p[r * A + a]).toBe(0);
        if (bias[r * A + 3] === 0) {
          allowedRows++;
          if (greedy[r] === 3) preferred++;
        }
      }
    }
    // It did learn to want arm 3: greedy takes it wherever it is allowed.
    expect(preferred).toBe(allowedRows);
    ddqn.dispose();
  });

  it('leaks no tensor over 200 updates, and dispose frees all it made', () => {
    const before = tf.memory().numTensors;
    const ddqn = new Ddqn(tf, S, A, { ...SMALL, warmup: 32, targetUpdateEvery: 30 }, createRng(3, 1));
    runBandit(ddqn, createRng(3, 2), 20, 2, [1, 2, 3]); // past the warm-up: Adam's moments exist now
    const warm = tf.memory().numTensors;
    const start = ddqn.stats().updates;
    expect(start).toBeGreaterThan(0);
    runBandit(ddqn, createRng(3, 3), 200, 2, [1, 2, 3]);
    ddqn.policy(contextStates(3), new Float32Array(3 * A), 3);
    ddqn.stats();
    expect(ddqn.stats().updates - start).toBe(200);
    expect(tf.memory().numTensors).toBe(warm);
    ddqn.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('save → load into a learner with another seed gives the same actions, policy, ε and target', () => {
    const ddqn = new Ddqn(tf, S, A, SMALL, createRng(7, 1));
    runBandit(ddqn, createRng(7, 2), 60, 3, [0, 4, 6]);
    const file = JSON.parse(JSON.stringify(ddqn.save('test bandit'))) as AgentFile;
    expect(file.kind).toBe('ddqn');
    expect(Object.keys(file.networks).sort()).toEqual(['q', 'qTarget']);
    // ε, the update count and the reward scale it learned under (rewardTerms.ts).
    expect(Object.keys(file.scalars).sort()).toEqual(['epsilon', 'rewardCount', 'rewardM2', 'rewardMean', 'updates']);
    expect(file.hyper['targetUpdateEvery']).toBe(50);

    const copy = new Ddqn(tf, S, A, SMALL, createRng(8, 1));
    const rng = createRng(7, 9);
    const rows = 16;
    const states = Float32Array.from({ length: rows * S }, () => rng.nextFloat());
    const bias = randomMaskBias(rng, rows);
    expect(Array.from(copy.qValues(states, rows))).not.toEqual(Array.from(ddqn.qValues(states, rows)));
    copy.load(file);
    expect(copy.epsilon).toBe(ddqn.epsilon);
    expect(Array.from(copy.act(states, bias, rows, false))).toEqual(Array.from(ddqn.act(states, bias, rows, false)));
    expect(Array.from(copy.policy(states, bias, rows))).toEqual(Array.from(ddqn.policy(states, bias, rows)));
    expect(copy.qTarget.getWeights()).toEqual(ddqn.qTarget.getWeights());
    expect(copy.stats().updates).toBe(ddqn.stats().updates);
    ddqn.dispose();
    copy.dispose();
  });

  it('load rejects a wrong kind, wrong network sizes or a bad ε with a RangeError naming the field', () => {
    const ddqn = new Ddqn(tf, S, A, SMALL, createRng(1, 1));
    const file = ddqn.save();
    expect(() => ddqn.load({ ...file, kind: 'ppo' })).toThrow(RangeError);
    expect(() => ddqn.load({ ...file, kind: 'ppo' })).toThrow(/agent\.kind/);
    expect(() => ddqn.load({ ...file, actionCount: A + 1 })).toThrow(/agent\.actionCount/);

    const small = new Ddqn(tf, S, A, { ...SMALL, hidden: [16, 8] }, createRng(1, 1));
    const smallFile = small.save();
    expect(() => ddqn.load(smallFile)).toThrow(RangeError);
    expect(() => ddqn.load(smallFile)).toThrow(/agent\.networks\.q\.sizes/);
    expect(() => ddqn.load({ ...file, networks: { ...file.networks, qTarget: smallFile.networks['q']! } })).toThrow(/agent\.networks\.qTarget\.sizes/);
    expect(() => ddqn.load({ ...file, scalars: { ...file.scalars, epsilon: 1.5 } })).toThrow(RangeError);
    expect(() => ddqn.load({ ...file, scalars: { ...file.scalars, epsilon: Number.NaN } })).toThrow(/agent\.scalars\.epsilon/);
    small.dispose();
    ddqn.dispose();
  });
});
