import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../engine/rng';
import { Mlp } from './nn';
import { MASKED_LOGIT } from './replay';
import { DEFAULT_SAC_CONFIG, DiscreteSac, type SacConfig } from './sac';
import type { Tf } from './tf';
import { loadTfNode } from './tfNode';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

const S = 8;
const A = 8;
/** Context c (one-hot in the first 3 inputs) pays 1 for arm BEST[c], 0 otherwise. */
const BEST = [5, 2, 7];

function contextState(c: number): Float32Array {
  const s = new Float32Array(S);
  s[c] = 1;
  return s;
}

function small(overrides: Partial<SacConfig> = {}): SacConfig {
  return { ...DEFAULT_SAC_CONFIG, hidden: [32, 32], warmup: 64, batchSize: 32, updatesPerStep: 1, bufferCapacity: 5000, gamma: 0, ...overrides };
}

/** Plays the bandit for `steps` (one context per step), learning online. */
function playBandit(sac: DiscreteSac, steps: number, seed: number): void {
  const env = createRng(seed, 77);
  const allowed = new Uint8Array(A).fill(1);
  const bias = new Float32Array(A);
  for (let t = 0; t < steps; t++) {
    const c = env.nextInt(3);
    const s = contextState(c);
    const [a] = sac.act(s, bias, 1, true);
    const reward = (a === BEST[c] ? 1 : 0) + (env.nextFloat() - 0.5) * 0.1;
    sac.record({ row: 0, state: s, mask: allowed, action: a!, reward, nextState: s, nextMask: allowed });
    sac.train();
  }
}

describe('DiscreteSac (BCEdge §IV-B2)', () => {
  it('learns a contextual bandit with a known best arm in every context (seeded)', () => {
    const sac = new DiscreteSac(tf, S, A, small(), createRng(3, 1));
    playBandit(sac, 1500, 3);
    const states = new Float32Array(3 * S);
    for (let c = 0; c < 3; c++) states.set(contextState(c), c * S);
    expect(Array.from(sac.act(states, new Float32Array(3 * A), 3, false))).toEqual(BEST);
    sac.dispose();
  }, 60_000);

  it('TAC (entropy off) is the same learner with α = 0 and learns the bandit too', () => {
    const tac = new DiscreteSac(tf, S, A, small({ entropy: false }), createRng(4, 1));
    expect(tac.kind).toBe('tac');
    expect(tac.temperature).toBe(0);
    playBandit(tac, 1500, 4);
    const states = new Float32Array(3 * S);
    for (let c = 0; c < 3; c++) states.set(contextState(c), c * S);
    expect(Array.from(tac.act(states, new Float32Array(3 * A), 3, false))).toEqual(BEST);
    expect(tac.stats().temperature).toBeNull();
    tac.dispose();
  }, 60_000);

  it('the temperature falls when the entropy is above target and rises when below (Eq. 12)', () => {
    // A fresh policy is near uniform: entropy ≈ ln 8 = 2.08 nats.
    const fill = (sac: DiscreteSac) => {
      const allowed = new Uint8Array(A).fill(1);
      const rng = createRng(9, 9);
      for (let i = 0; i < 200; i++) {
        const s = contextState(rng.nextInt(3));
        sac.record({ row: 0, state: s, mask: allowed, action: rng.nextInt(A), reward: 0, nextState: s, nextMask: allowed });
      }
    };
    const above = new DiscreteSac(tf, S, A, small({ targetEntropyRatio: 0.2, initialTemperature: 0.5 }), createRng(5, 1));
    fill(above);
    for (let i = 0; i < 30; i++) above.update();
    expect(above.stats().entropy!).toBeGreaterThan(0.2 * Math.log(A));
    expect(above.temperature).toBeLessThan(0.5);
    // Target above the largest possible entropy (ratio > 1): α must grow.
    const below = new DiscreteSac(tf, S, A, small({ targetEntropyRatio: 1.2, initialTemperature: 0.5 }), createRng(5, 1));
    fill(below);
    for (let i = 0; i < 30; i++) below.update();
    expect(below.temperature).toBeGreaterThan(0.5);
    above.dispose();
    below.dispose();
  }, 60_000);

  it('never takes a masked action, sampling or greedy', () => {
    const sac = new DiscreteSac(tf, S, A, small(), createRng(6, 1));
    const rows = 4;
    const states = new Float32Array(rows * S);
    const bias = new Float32Array(rows * A);
    const allowedOf = (r: number) => [r % A, (r * 3 + 1) % A];
    for (let r = 0; r < rows; r++) {
      states.set(contextState(r % 3), r * S);
      for (let a = 0; a < A; a++) bias[r * A + a] = allowedOf(r).includes(a) ? 0 : MASKED_LOGIT;
    }
    for (let t = 0; t < 300; t++) {
      const chosen = sac.act(states, bias, rows, t % 2 === 0);
      for (let r = 0; r < rows; r++) expect(allowedOf(r)).toContain(chosen[r]);
    }
    const probs = sac.policy(states, bias, rows);
    for (let r = 0; r < rows; r++) for (let a = 0; a < A; a++) if (!allowedOf(r).includes(a)) expect(probs[r * A + a]).toBe(0);
    sac.dispose();
  });

  it('leaks no tensor over 1,000 updates, and dispose frees everything it made', () => {
    const before = tf.memory().numTensors;
    const sac = new DiscreteSac(tf, S, A, small(), createRng(7, 1));
    playBandit(sac, 100, 7);
    sac.stats();
    const steady = tf.memory().numTensors;
    for (let i = 0; i < 1000; i++) sac.update();
    sac.stats();
    expect(tf.memory().numTensors).toBe(steady);
    sac.dispose();
    expect(tf.memory().numTensors).toBe(before);
  }, 60_000);

  it('a loaded agent acts exactly like the saved one', () => {
    const sac = new DiscreteSac(tf, S, A, small(), createRng(8, 1));
    playBandit(sac, 300, 8);
    const file = JSON.parse(JSON.stringify(sac.save('test'))) as ReturnType<DiscreteSac['save']>;
    const copy = new DiscreteSac(tf, S, A, small(), createRng(99, 1));
    copy.load(file);
    const rows = 3;
    const states = new Float32Array(rows * S);
    for (let c = 0; c < rows; c++) states.set(contextState(c), c * S);
    const bias = new Float32Array(rows * A);
    expect(Array.from(copy.policy(states, bias, rows))).toEqual(Array.from(sac.policy(states, bias, rows)));
    expect(Array.from(copy.act(states, bias, rows, false))).toEqual(Array.from(sac.act(states, bias, rows, false)));
    expect(copy.temperature).toBe(sac.temperature);
    sac.dispose();
    copy.dispose();
  }, 60_000);

  it('refuses a file for another learner or with networks of other sizes, naming the field', () => {
    const sac = new DiscreteSac(tf, S, A, small(), createRng(10, 1));
    const file = sac.save();
    expect(() => sac.load({ ...file, kind: 'ddqn' })).toThrow(/agent\.kind/);
    expect(() => sac.load({ ...file, stateSize: 3 })).toThrow(/agent\.stateSize/);
    const actor = file.networks['actor']!;
    expect(() => sac.load({ ...file, networks: { ...file.networks, actor: { ...actor, sizes: [S, 16, A] } } })).toThrow(/agent\.networks\.actor\.sizes/);
    expect(() => sac.load({ ...file, networks: { ...file.networks, actor: { ...actor, float32: actor.float32.slice(8) } } })).toThrow(/agent\.networks\.actor\.float32/);
    expect(() => sac.load({ ...file, networks: { ...file.networks, actor: { ...actor, float32: '%%%' } } })).toThrow(/agent\.networks\.actor\.float32: is not valid base64/);
    // All or nothing: a file whose last network is broken changes none of the others.
    const trained = new DiscreteSac(tf, S, A, small(), createRng(13, 1));
    const before = sac.save();
    expect(() => sac.load({ ...trained.save(), networks: { ...trained.save().networks, q2Target: { ...actor, float32: 'AAAA' } } })).toThrow(/agent\.networks\.q2Target/);
    expect(() => sac.load({ ...trained.save(), scalars: { logAlpha: Number.NaN } })).toThrow(/agent\.scalars\.logAlpha/);
    expect(sac.save()).toEqual(before);
    trained.dispose();
    const rest = Object.fromEntries(Object.entries(file.networks).filter(([name]) => name !== 'q2'));
    expect(() => sac.load({ ...file, networks: rest })).toThrow(/agent\.networks\.q2/);
    sac.dispose();
  });
});

describe('Mlp (one flat parameter vector, hand-written gradient)', () => {
  it('gives the same gradient as tfjs autodiff of the plain layers', () => {
    const sizes = [5, 7, 4, 3];
    const net = new Mlp(tf, sizes, createRng(11, 1));
    const x = tf.tensor2d(Float32Array.from({ length: 6 * 5 }, (_, i) => Math.sin(i)), [6, 5]);
    const flatWeights = net.params.dataSync();
    let offset = 0;
    const plainVars = sizes.slice(1).map((fanOut, i) => {
      const fanIn = sizes[i]!;
      const W = tf.variable(tf.tensor2d(flatWeights.slice(offset, offset + fanIn * fanOut), [fanIn, fanOut]));
      offset += fanIn * fanOut;
      const b = tf.variable(tf.tensor1d(flatWeights.slice(offset, offset + fanOut)));
      offset += fanOut;
      return { W, b };
    });
    const loss = (y: ReturnType<typeof tf.matMul>) => tf.sum(tf.mul(y, tf.tensor2d(Float32Array.from({ length: 18 }, (_, i) => Math.cos(i)), [6, 3]))) as ReturnType<typeof tf.scalar>;
    const ours = tf.variableGrads(() => loss(net.apply(x)), net.variables());
    const reference = tf.variableGrads(() => {
      let h: ReturnType<typeof tf.matMul> = x;
      plainVars.forEach((v, i) => {
        h = tf.add(tf.matMul(h, v.W), v.b);
        if (i < plainVars.length - 1) h = tf.relu(h);
      });
      return loss(h);
    }, plainVars.flatMap((v) => [v.W, v.b]));
    expect(ours.value.dataSync()[0]).toBeCloseTo(reference.value.dataSync()[0]!, 4);
    const flat = ours.grads[net.params.name]!.dataSync();
    const expected = plainVars.flatMap((v) => [...reference.grads[v.W.name]!.dataSync(), ...reference.grads[v.b.name]!.dataSync()]);
    expect(flat.length).toBe(expected.length);
    expected.forEach((g, i) => expect(flat[i]).toBeCloseTo(g, 4));
  });
});

describe('DiscreteSac.explainUpdate (the teaching walkthrough)', () => {
  it('reports the numbers of an update that is then applied, consistent with Eq. 7–12', () => {
    const sac = new DiscreteSac(tf, S, A, small({ gamma: 0.5 }), createRng(12, 1));
    playBandit(sac, 120, 12);
    const before = sac.stats().updates;
    const explained = sac.explainUpdate(3)!;
    expect(sac.stats().updates).toBe(before + 1);
    expect(explained.samples).toHaveLength(3);
    for (const x of explained.samples) {
      expect(x.target).toBeCloseTo(x.reward + 0.5 * x.nextValue, 4); // Eq. 7
      expect(x.entropy).toBeGreaterThanOrEqual(0);
      expect(x.entropy).toBeLessThanOrEqual(Math.log(x.allowed) + 1e-5);
    }
    expect(explained.criticLoss).toBeGreaterThanOrEqual(0);
    // Eq. 12: entropy above target → α falls; below → α rises.
    if (explained.entropy > explained.targetEntropy) expect(explained.alphaAfter).toBeLessThan(explained.alphaBefore);
    else expect(explained.alphaAfter).toBeGreaterThan(explained.alphaBefore);
    sac.dispose();
  }, 60_000);
});
