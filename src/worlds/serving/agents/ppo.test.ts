import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import type { AgentFile } from './learner';
import { DEFAULT_PPO_CONFIG, gaeByStream, Ppo, type GaeItem, type PpoConfig } from './ppo';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { A, contextStates, randomMaskBias, runBandit, S } from './testing/bandit';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** The training tests take 1–3 s alone; the machine may be shared, so they get room. */
const SLOW = 30_000;

/** Small rollouts so that the tests see many updates in little time. */
const SMALL: PpoConfig = { ...DEFAULT_PPO_CONFIG, rolloutSize: 48, minibatchSize: 16 };


/** A rollout item as `record` leaves it: log π_old from `act`, or (decided on the host) the logits it is taken from in `train`. */
interface RolloutView {
  readonly row: number;
  readonly action: number;
  readonly logp: number;
  readonly value: number;
  readonly logits?: Float32Array;
}

/** The item's log π_old(a|s): its own, or the log-softmax of its logits (in float64; `train` takes it through tfjs). */
function logpOf(it: RolloutView): number {
  if (!Number.isNaN(it.logp) || it.logits === undefined) return it.logp;
  const z = Array.from(it.logits);
  const max = Math.max(...z);
  return z[it.action]! - max - Math.log(z.reduce((sum, x) => sum + Math.exp(x - max), 0));
}

describe('gaeByStream', () => {
  const item = (row: number, state: number, nextState: number, reward: number, value: number): GaeItem => ({ row, state: [state], nextState: [nextState], reward, value });

  it('runs backwards along each stream, interleaved, and bootstraps the last transition with V(s′)', () => {
    // Stream 0: states 1 → 2 → 3; stream 1: 10 → 11. Interleaved as the adapter records them.
    const items = [item(0, 1, 2, 1, 0.5), item(1, 10, 11, 2, 1), item(0, 2, 3, 0, 0.25), item(1, 11, 12, -1, 0.75), item(0, 3, 4, 3, 1)];
    const nextValues = [0.25, 0.75, 1, 4, 2];
    const g = 0.9;
    const l = 0.5;
    const { advantages, returns } = gaeByStream(items, nextValues, g, l);
    const d = items.map((it, i) => it.reward + g * nextValues[i]! - it.value);
    const a4 = d[4]!;
    const a2 = d[2]! + g * l * a4;
    const a0 = d[0]! + g * l * a2;
    const a3 = d[3]!;
    const a1 = d[1]! + g * l * a3;
    const expected = [a0, a1, a2, a3, a4];
    expected.forEach((a, i) => {
      expect(advantages[i]).toBeCloseTo(a, 12);
      expect(returns[i]).toBeCloseTo(a + items[i]!.value, 12);
    });
  });

  it('cuts the λ-trace where a stream skips (s′ is not the next transition’s s)', () => {
    const items = [item(0, 1, 2, 1, 0), item(0, 5, 6, 1, 0)];
    const { advantages } = gaeByStream(items, [3, 7], 0.9, 0.95);
    expect(advantages[0]).toBeCloseTo(1 + 0.9 * 3, 12);
    expect(advantages[1]).toBeCloseTo(1 + 0.9 * 7, 12);
  });
});

describe('Ppo', { timeout: SLOW }, () => {
  it('learns the best arm of every context of a bandit (seeded)', () => {
    const best = [2, 5, 7];
    const ppo = new Ppo(tf, S, A, SMALL, createRng(11, 1));
    runBandit(ppo, createRng(11, 2), 300, 3, best);
    const states = contextStates(3);
    const none = new Float32Array(3 * A);
    expect(Array.from(ppo.act(states, none, 3, false))).toEqual(best);
    const p = ppo.policy(states, none, 3);
    best.forEach((b, c) => expect(p[c * A + b]).toBeGreaterThan(0.8));
    const stats = ppo.stats();
    expect(stats.updates).toBe(Math.floor(300 * 3 / SMALL.rolloutSize) * SMALL.epochs * (SMALL.rolloutSize / SMALL.minibatchSize));
    expect(stats.temperature).toBeNull();
    expect(stats.epsilon).toBeNull();
    expect(stats.entropy).toBeGreaterThan(0);
    expect(stats.entropy).toBeLessThan(Math.log(A));
    expect(Object.keys(stats.losses).sort()).toEqual(['policy', 'value']);
    ppo.dispose();
  });

  it('trains only on a full rollout, then clears it, and counts its gradient steps', () => {
    const ppo = new Ppo(tf, S, A, { ...SMALL, rolloutSize: 12, minibatchSize: 4, epochs: 3 }, createRng(2, 1));
    const s = new Float32Array(S);
    const mask = new Uint8Array(A).fill(1);
    for (let k = 0; k < 11; k++) {
      ppo.record({ row: k % 2, state: s, mask, action: 1, reward: 1, nextState: s, nextMask: mask });
      expect(ppo.train()).toBe(0);
    }
    expect(ppo.stats().updates).toBe(0);
    ppo.record({ row: 1, state: s, mask, action: 1, reward: 1, nextState: s, nextMask: mask });
    expect(ppo.train()).toBe(9);
    expect(ppo.rolloutLength).toBe(0);
    expect(ppo.stats().updates).toBe(9);
    expect(ppo.train()).toBe(0);
    ppo.dispose();
  });

  it('record keeps, per row, the log-probability and value that act computed for the action', () => {
    const ppo = new Ppo(tf, S, A, SMALL, createRng(9, 1));
    const rng = createRng(9, 2);
    const rows = 3;
    const states = Float32Array.from({ length: rows * S }, () => rng.nextFloat());
    const bias = randomMaskBias(rng, rows);
    const actions = ppo.act(states, bias, rows, true);
    const p = ppo.policy(states, bias, rows);
    const values = tf.tidy(() => ppo.valueNet.apply(tf.tensor2d(states, [rows, S])).dataSync());
    const mask = (r: number) => Uint8Array.from({ length: A }, (_, a) => (bias[r * A + a] === 0 ? 1 : 0));
    const view = ppo as unknown as { rollout: RolloutView[] };
    // Out of order, as an adapter may report the models; a row recorded twice has no act behind the second.
    for (const r of [2, 0, 1, 1]) {
      ppo.record({ row: r, state: states.subarray(r * S, r * S + S), mask: mask(r), action: actions[r]!, reward: 0, nextState: states.subarray(r * S, r * S + S), nextMask: mask(r) });
    }
    view.rollout.slice(0, 3).forEach((it) => {
      expect(it.action).toBe(actions[it.row]);
      expect(logpOf(it)).toBeCloseTo(Math.log(p[it.row * A + it.action]!), 5);
      expect(it.value).toBeCloseTo(values[it.row]!, 6);
    });
    expect(logpOf(view.rollout[3]!)).toBeNaN();
    ppo.dispose();
  });

  it('under per-model slots, keeps each model’s last act until its transition arrives, whatever was asked of the others since', () => {
    const ppo = new Ppo(tf, S, A, SMALL, createRng(9, 1));
    const rng = createRng(9, 2);
    const states = Float32Array.from({ length: 3 * S }, () => rng.nextFloat());
    const bias = randomMaskBias(rng, 3);
    const row = (r: number) => states.subarray(r * S, r * S + S);
    const rowBias = (r: number) => bias.subarray(r * A, r * A + A);
    const mask = (r: number) => Uint8Array.from({ length: A }, (_, a) => (bias[r * A + a] === 0 ? 1 : 0));
    // Model 2 decides alone, then model 0 alone twice: model 2's act must survive them.
    const [a2] = ppo.act(row(2), rowBias(2), 1, true, { models: Int32Array.of(2) });
    const p2 = ppo.policy(row(2), rowBias(2), 1);
    ppo.act(row(0), rowBias(0), 1, true, { models: Int32Array.of(0) });
    const [a0] = ppo.act(row(0), rowBias(0), 1, true, { models: Int32Array.of(0) });
    const p0 = ppo.policy(row(0), rowBias(0), 1);
    const view = ppo as unknown as { rollout: RolloutView[] };
    ppo.record({ row: 2, state: row(2), mask: mask(2), action: a2!, reward: 0, nextState: row(2), nextMask: mask(2) });
    ppo.record({ row: 0, state: row(0), mask: mask(0), action: a0!, reward: 0, nextState: row(0), nextMask: mask(0) });
    expect(logpOf(view.rollout[0]!)).toBeCloseTo(Math.log(p2[a2!]!), 5);
    expect(logpOf(view.rollout[1]!)).toBeCloseTo(Math.log(p0[a0!]!), 5);
    ppo.dispose();
  });

  it('never takes a masked action, even the one it learned to prefer', () => {
    // Arm 3 pays in every context but is masked in about half of the rows.
    const ppo = new Ppo(tf, S, A, SMALL, createRng(5, 1));
    const maskRng = createRng(5, 3);
    const maskOf = () => Uint8Array.from({ length: A }, (_, a) => (a === 3 ? (maskRng.nextFloat() < 0.5 ? 1 : 0) : maskRng.nextFloat() < 0.7 ? 1 : 0));
    runBandit(ppo, createRng(5, 2), 160, 3, [3, 3, 3], maskOf);

    const rng = createRng(5, 4);
    const rows = 6;
    let preferred = 0;
    let allowedRows = 0;
    for (let k = 0; k < 300; k++) {
      const states = new Float32Array(rows * S);
      for (let r = 0; r < rows; r++) states[r * S + rng.nextInt(3)] = 1;
      const bias = randomMaskBias(rng, rows);
      const sampled = ppo.act(states, bias, rows, true);
      const greedy = ppo.act(states, bias, rows, false);
      const p = ppo.policy(states, bias, rows);
      for (let r = 0; r < rows; r++) {
        expect(bias[r * A + sampled[r]!]).toBe(0);
        expect(bias[r * A + greedy[r]!]).toBe(0);
        for (let a = 0; a < A; a++) if (bias[r * A + a] !== 0) expect(p[r * A + a]).toBe(0);
        if (bias[r * A + 3] === 0) {
          allowedRows++;
          if (sampled[r] === 3) preferred++;
        }
      }
    }
    // It did learn to want arm 3: it takes it in most rows that allow it.
    expect(preferred / allowedRows).toBeGreaterThan(0.6);
    ppo.dispose();
  });

  it('leaks no tensor over 200 updates, and dispose frees all it made', () => {
    const before = tf.memory().numTensors;
    const config = { ...SMALL, rolloutSize: 32, minibatchSize: 8, epochs: 2 };
    const ppo = new Ppo(tf, S, A, config, createRng(3, 1));
    runBandit(ppo, createRng(3, 2), 16, 2, [1, 2, 3]); // one rollout: Adam's moments exist now
    expect(ppo.stats().updates).toBe(8);
    const warm = tf.memory().numTensors;
    runBandit(ppo, createRng(3, 3), 16 * 25, 2, [1, 2, 3]);
    ppo.policy(contextStates(3), new Float32Array(3 * A), 3);
    ppo.stats();
    expect(ppo.stats().updates).toBe(208);
    expect(tf.memory().numTensors).toBe(warm);
    ppo.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('save → load into a learner with another seed gives the same actions and policy', () => {
    const ppo = new Ppo(tf, S, A, SMALL, createRng(7, 1));
    runBandit(ppo, createRng(7, 2), 40, 3, [0, 4, 6]);
    const file = JSON.parse(JSON.stringify(ppo.save('test bandit'))) as AgentFile;
    expect(file.kind).toBe('ppo');
    expect(Object.keys(file.networks).sort()).toEqual(['policy', 'value']);
    expect(file.hyper['rolloutSize']).toBe(48);
    expect(file.trainedOn).toBe('test bandit');

    const copy = new Ppo(tf, S, A, SMALL, createRng(8, 1));
    const rng = createRng(7, 9);
    const rows = 16;
    const states = Float32Array.from({ length: rows * S }, () => rng.nextFloat());
    const bias = randomMaskBias(rng, rows);
    expect(Array.from(copy.policy(states, bias, rows))).not.toEqual(Array.from(ppo.policy(states, bias, rows)));
    copy.load(file);
    expect(Array.from(copy.act(states, bias, rows, false))).toEqual(Array.from(ppo.act(states, bias, rows, false)));
    expect(Array.from(copy.policy(states, bias, rows))).toEqual(Array.from(ppo.policy(states, bias, rows)));
    expect(copy.valueNet.getWeights()).toEqual(ppo.valueNet.getWeights());
    expect(copy.stats().updates).toBe(ppo.stats().updates);
    ppo.dispose();
    copy.dispose();
  });

  it('load rejects a wrong kind or wrong network sizes with a RangeError naming the field', () => {
    const ppo = new Ppo(tf, S, A, SMALL, createRng(1, 1));
    const file = ppo.save();
    expect(() => ppo.load({ ...file, kind: 'ddqn' })).toThrow(RangeError);
    expect(() => ppo.load({ ...file, kind: 'ddqn' })).toThrow(/agent\.kind/);
    expect(() => ppo.load({ ...file, stateSize: S + 1 })).toThrow(/agent\.stateSize/);

    const small = new Ppo(tf, S, A, { ...SMALL, hidden: [16, 8] }, createRng(1, 1));
    const smallFile = small.save();
    expect(() => ppo.load(smallFile)).toThrow(RangeError);
    expect(() => ppo.load(smallFile)).toThrow(/agent\.networks\.policy\.sizes/);
    expect(() => ppo.load({ ...file, networks: { ...file.networks, value: smallFile.networks['value']! } })).toThrow(/agent\.networks\.value\.sizes/);
    expect(() => ppo.load({ ...file, networks: { policy: file.networks['policy']! } })).toThrow(/agent\.networks\.value/);
    small.dispose();
    ppo.dispose();
  });
});
