import type { Scalar, Tensor, Tensor2D, Variable } from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { FlatAdam } from './denseNet';
import { ACTION_COUNT, STATE_SIZE } from './features';
import type { AgentFile } from './learner';
import { decodeFloat32, layoutOf, Mlp } from './nn';
import { createReplayBatch, MASKED_LOGIT, type ReplayBatch } from './replay';
import { DEFAULT_SAC_CONFIG, DiscreteSac, type SacConfig } from './sac';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';

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

  it('anneals the target entropy linearly over its updates, then holds it; off, the target is the ratio bit for bit', () => {
    const allowed = new Uint8Array(A).fill(1);
    const rng = createRng(9, 9);
    const fill = (sac: DiscreteSac) => {
      for (let i = 0; i < 200; i++) {
        const s = contextState(rng.nextInt(3));
        sac.record({ row: 0, state: s, mask: allowed, action: rng.nextInt(A), reward: rng.nextFloat(), nextState: s, nextMask: allowed });
      }
    };
    const annealed = new DiscreteSac(tf, S, A, small({ targetEntropyRatio: 0.6, targetEntropyAnnealUpdates: 10, targetEntropyFinalRatio: 0.1 }), createRng(5, 1));
    fill(annealed);
    const ratios = [annealed.targetEntropyRatioNow()];
    for (let i = 0; i < 14; i++) {
      annealed.update();
      ratios.push(annealed.targetEntropyRatioNow());
    }
    expect(ratios[0]).toBe(0.6);
    expect(ratios[5]).toBeCloseTo(0.35, 12);
    expect(ratios[10]).toBeCloseTo(0.1, 12);
    expect(ratios[14]).toBeCloseTo(0.1, 12);
    for (let i = 1; i < ratios.length; i++) expect(ratios[i]!).toBeLessThanOrEqual(ratios[i - 1]!);
    // The diagnostic reads the target the update used.
    expect(annealed.explainUpdate()!.targetEntropy).toBeCloseTo(0.1 * Math.log(A), 6);
    // Off (0 updates), whatever the final ratio says: the same learner as without the fields.
    const plain = new DiscreteSac(tf, S, A, small({ targetEntropyRatio: 0.6 }), createRng(5, 1));
    const off = new DiscreteSac(tf, S, A, small({ targetEntropyRatio: 0.6, targetEntropyAnnealUpdates: 0, targetEntropyFinalRatio: 0.1 }), createRng(5, 1));
    for (const sac of [plain, off]) {
      const again = createRng(9, 9);
      for (let i = 0; i < 200; i++) {
        const s = contextState(again.nextInt(3));
        sac.record({ row: 0, state: s, mask: allowed, action: again.nextInt(A), reward: again.nextFloat(), nextState: s, nextMask: allowed });
      }
      for (let i = 0; i < 20; i++) sac.update();
    }
    expect(off.targetEntropyRatioNow()).toBe(0.6);
    expect(off.temperature).toBe(plain.temperature);
    expect(off.save().networks).toEqual(plain.save().networks);
    for (const sac of [annealed, plain, off]) sac.dispose();
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

  it('a fresh learner warms up with uniform actions; a loaded agent samples its own policy from the first decision', () => {
    const trained = new DiscreteSac(tf, S, A, small(), createRng(8, 1));
    playBandit(trained, 300, 8);
    const file = trained.save('test');
    trained.dispose();
    const rows = 3;
    const states = new Float32Array(rows * S);
    for (let c = 0; c < rows; c++) states.set(contextState(c), c * S);
    const bias = new Float32Array(rows * A);
    const draws = (sac: DiscreteSac) => Array.from({ length: 40 }, () => Array.from(sac.act(states, bias, rows, true))).flat();
    const [fresh, warm, plain] = [small({ randomWarmup: true }), small({ randomWarmup: true }), small({ randomWarmup: false })].map((c) => new DiscreteSac(tf, S, A, c, createRng(11, 1)));
    // Fresh, nothing stored: uniform over the 8 actions (the bandit's best arms are no more frequent than the others).
    const uniform = draws(fresh!);
    expect(new Set(uniform).size).toBe(A);
    warm!.load(file);
    plain!.load(file);
    // Loaded (nothing stored, as a frozen lane never stores): the policy it learned, the same draws as without the warm-up.
    const loaded = draws(warm!);
    expect(loaded).toEqual(draws(plain!));
    const best = (xs: number[]) => xs.filter((a, i) => a === BEST[i % rows]).length / xs.length;
    expect(best(loaded)).toBeGreaterThan(0.6);
    expect(best(uniform)).toBeLessThan(0.4);
    for (const sac of [fresh!, warm!, plain!]) sac.dispose();
  });

  it('a loaded agent waits for fineTuneAfter transitions before it learns; a restore before the load forgets it was loaded', () => {
    const trained = new DiscreteSac(tf, S, A, small(), createRng(8, 1));
    playBandit(trained, 100, 8);
    const file = trained.save();
    trained.dispose();
    const sac = new DiscreteSac(tf, S, A, small({ fineTuneAfter: 1000 }), createRng(9, 1));
    playBandit(sac, 80, 9);
    const before = sac.snapshot();
    // Fresh, past its warm-up of 64: it learns.
    expect(sac.train()).toBe(1);
    sac.load(file);
    // Loaded: 80 transitions of 1000.
    expect(sac.train()).toBe(0);
    sac.restore(before);
    expect(sac.train()).toBe(1);
    sac.dispose();
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

  it('a mirror acts as the learner whose acting state it took, stores nothing, and follows it after more updates (train --threads)', () => {
    const sac = new DiscreteSac(tf, S, A, small({ randomWarmup: true }), createRng(8, 1));
    const copy = new DiscreteSac(tf, S, A, small({ randomWarmup: true }), createRng(99, 1));
    const rows = 3;
    const states = new Float32Array(rows * S);
    for (let c = 0; c < rows; c++) states.set(contextState(c), c * S);
    const bias = new Float32Array(rows * A);
    const same = () => {
      expect(Array.from(copy.policy(states, bias, rows))).toEqual(Array.from(sac.policy(states, bias, rows)));
      expect(Array.from(copy.act(states, bias, rows, false))).toEqual(Array.from(sac.act(states, bias, rows, false)));
      expect(copy.temperature).toBe(sac.temperature);
    };
    playBandit(sac, 300, 8);
    copy.mirror(sac.actingState());
    same();
    // Past the original's warm-up, the mirror samples its policy instead of the uniform warm-up.
    expect(sac.actingState()).toMatchObject({ updates: sac.stats().updates, stored: 300 });
    expect(copy.stats().updates).toBe(sac.stats().updates);
    expect(copy.train()).toBe(0);
    playBandit(sac, 100, 9);
    expect(Array.from(copy.policy(states, bias, rows))).not.toEqual(Array.from(sac.policy(states, bias, rows)));
    copy.mirror(sac.actingState());
    same();
    expect(() => copy.mirror({ params: new Float32Array(3), updates: 0, stored: 0 })).toThrow(RangeError);
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

/**
 * The reference formulation: the losses of Eq. 7–12 as written, each differentiated by
 * tfjs autodiff over plain per-layer variables (matMul + add + ReLU), the target and the
 * constants of each loss computed outside its tape, one tf.train.adam over every trained
 * variable, and the soft target update — the update `DiscreteSac` computes without a tape.
 */
class ReferenceSac {
  readonly nets: Record<'actor' | 'q1' | 'q2' | 'q1Target' | 'q2Target', { W: Variable; b: Variable }[]>;
  readonly logAlpha: Variable;
  private readonly optimizer: ReturnType<Tf['train']['adam']>;

  constructor(
    file: AgentFile,
    private readonly config: SacConfig,
  ) {
    const decode = (name: string) => {
      const w = file.networks[name]!;
      const flat = decodeFloat32(w.float32, layoutOf(w.sizes).total, name);
      return layoutOf(w.sizes).layers.map((l) => ({
        W: tf.variable(tf.tensor2d(flat.slice(l.wOffset, l.bOffset), [l.fanIn, l.fanOut])),
        b: tf.variable(tf.tensor1d(flat.slice(l.bOffset, l.bOffset + l.fanOut))),
      }));
    };
    this.nets = { actor: decode('actor'), q1: decode('q1'), q2: decode('q2'), q1Target: decode('q1Target'), q2Target: decode('q2Target') };
    this.logAlpha = tf.variable(tf.scalar(file.scalars['logAlpha']!));
    this.optimizer = tf.train.adam(config.learningRate);
  }

  private apply(net: { W: Variable; b: Variable }[], x: Tensor2D): Tensor2D {
    let h = x;
    net.forEach((l, i) => {
      h = tf.add(tf.matMul(h, l.W as unknown as Tensor2D), l.b);
      if (i < net.length - 1) h = tf.relu(h);
    });
    return h;
  }

  private vars(name: keyof ReferenceSac['nets']): Variable[] {
    return this.nets[name].flatMap((l) => [l.W, l.b]);
  }

  /** The gradients (flat, in the layout of `DiscreteSac.online`) and [critic, policy, temperature, entropy]. */
  gradients(b: ReplayBatch): { grads: Float32Array; losses: number[]; named: Record<string, Tensor> } {
    const c = this.config;
    const n = c.batchSize;
    const A = this.nets.actor.at(-1)!.b.shape[0]!;
    const S = this.nets.actor[0]!.W.shape[0]!;
    return tf.tidy(() => {
      const s = tf.tensor2d(b.states, [n, S]);
      const s2 = tf.tensor2d(b.nextStates, [n, S]);
      const onehot = tf.oneHot(tf.tensor1d(b.actions, 'int32'), A).toFloat();
      const alpha = c.entropy ? tf.exp(this.logAlpha) : tf.scalar(0);
      const logp2 = tf.logSoftmax(tf.add(this.apply(this.nets.actor, s2), tf.tensor2d(b.nextMaskBias, [n, A])));
      const qNext = tf.minimum(this.apply(this.nets.q1Target, s2), this.apply(this.nets.q2Target, s2));
      const y = tf.add(tf.tensor1d(b.rewards), tf.mul(tf.sum(tf.mul(tf.exp(logp2), tf.sub(qNext, tf.mul(alpha, logp2))), 1), c.gamma));
      const critic = tf.variableGrads(() => {
        const e1 = tf.sub(tf.sum(tf.mul(this.apply(this.nets.q1, s), onehot), 1), y);
        const e2 = tf.sub(tf.sum(tf.mul(this.apply(this.nets.q2, s), onehot), 1), y);
        return tf.mul(tf.add(tf.mean(tf.square(e1)), tf.mean(tf.square(e2))), 0.5) as Scalar;
      }, [...this.vars('q1'), ...this.vars('q2')]);
      const minQ = tf.minimum(this.apply(this.nets.q1, s), this.apply(this.nets.q2, s));
      const maskBias = tf.tensor2d(b.maskBias, [n, A]);
      const actor = tf.variableGrads(() => {
        const logp = tf.logSoftmax(tf.add(this.apply(this.nets.actor, s), maskBias));
        return tf.mean(tf.sum(tf.mul(tf.exp(logp), tf.sub(tf.mul(alpha, logp), minQ)), 1)) as Scalar;
      }, this.vars('actor'));
      const logp = tf.logSoftmax(tf.add(this.apply(this.nets.actor, s), maskBias));
      const plogp = tf.sum(tf.mul(tf.exp(logp), logp), 1);
      const targetEntropy = tf.tensor1d(Array.from(b.allowed, (k) => c.targetEntropyRatio * Math.log(k)));
      const temperature = tf.variableGrads(() => tf.mul(tf.neg(this.logAlpha), tf.mean(tf.add(plogp, targetEntropy))) as Scalar, [this.logAlpha]);
      const named = { ...actor.grads, ...critic.grads, ...(c.entropy ? temperature.grads : {}) };
      const order = [...this.vars('actor'), ...this.vars('q1'), ...this.vars('q2')];
      const grads = Float32Array.from([...order.flatMap((v) => Array.from(named[v.name]!.dataSync())), c.entropy ? temperature.grads[this.logAlpha.name]!.dataSync()[0]! : 0]);
      const losses = [critic.value.dataSync()[0]!, actor.value.dataSync()[0]!, c.entropy ? temperature.value.dataSync()[0]! : 0, -tf.mean(plogp).dataSync()[0]!];
      return { grads, losses, named: Object.fromEntries(Object.entries(named).map(([k, v]) => [k, tf.keep(v)])) };
    });
  }

  update(b: ReplayBatch): void {
    const { named } = this.gradients(b);
    this.optimizer.applyGradients(named as unknown as Record<string, Variable>);
    for (const name of Object.keys(named)) named[name]!.dispose();
    tf.tidy(() => {
      for (const [online, target] of [['q1', 'q1Target'], ['q2', 'q2Target']] as const) {
        this.nets[online].forEach((l, i) => {
          const t = this.nets[target][i]!;
          t.W.assign(tf.add(tf.mul(l.W, this.config.tau), tf.mul(t.W, 1 - this.config.tau)));
          t.b.assign(tf.add(tf.mul(l.b, this.config.tau), tf.mul(t.b, 1 - this.config.tau)));
        });
      }
    });
  }

  /** Every parameter of one network, flat (the layout of the saved files). */
  flat(name: keyof ReferenceSac['nets']): Float32Array {
    return Float32Array.from(this.vars(name).flatMap((v) => Array.from(v.dataSync())));
  }

  dispose(): void {
    for (const net of Object.values(this.nets)) for (const l of net) [l.W, l.b].forEach((v) => v.dispose());
    this.logAlpha.dispose();
    this.optimizer.dispose();
  }
}

/** Largest |a − b| relative to the largest |b| (the scale of the vector). */
function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return diff / scale;
}

describe('DiscreteSac update without a tape against autodiff of Eq. 9, 11, 12', () => {
  /** A learner with a filled buffer: random states, some actions masked in s and in s′, rewards in [0, 1). */
  function setup(entropy: boolean): { sac: DiscreteSac; batches: ReplayBatch[]; config: SacConfig } {
    const config = small({ gamma: 0.9, entropy, batchSize: 16, hidden: [16, 12], initialTemperature: 0.3 });
    const sac = new DiscreteSac(tf, S, A, config, createRng(21, 1));
    const rng = createRng(22, 1);
    for (let i = 0; i < 200; i++) {
      const state = Float32Array.from({ length: S }, () => rng.nextFloat() * 2 - 1);
      const nextState = Float32Array.from({ length: S }, () => rng.nextFloat() * 2 - 1);
      const mask = Uint8Array.from({ length: A }, (_, a) => (a === 0 || rng.nextFloat() < 0.7 ? 1 : 0));
      const nextMask = Uint8Array.from({ length: A }, (_, a) => (a === 0 || rng.nextFloat() < 0.7 ? 1 : 0));
      const allowed = Array.from(mask.keys()).filter((a) => mask[a] === 1);
      sac.record({ row: 0, state, mask, action: allowed[rng.nextInt(allowed.length)]!, reward: rng.nextFloat(), nextState, nextMask });
    }
    const batches = Array.from({ length: 6 }, () => {
      const batch = createReplayBatch(config.batchSize, S, A);
      sac.replay.sample(config.batchSize, rng, batch);
      return batch;
    });
    return { sac, batches, config };
  }

  for (const entropy of [true, false]) {
    it(`gives the gradients and losses of autodiff (${entropy ? 'SAC' : 'TAC'})`, () => {
      const { sac, batches, config } = setup(entropy);
      const reference = new ReferenceSac(sac.save(), config);
      const losses = sac.gradients(batches[0]!);
      const expected = reference.gradients(batches[0]!);
      for (const name of Object.keys(expected.named)) expected.named[name]!.dispose();
      const ours = sac.lastGradients;
      expect(ours.length).toBe(expected.grads.length);
      const size = layoutOf(sac.sizes).total;
      // Per network (actor, Q₁, Q₂), relative to the network's largest gradient; then log α.
      for (let k = 0; k < 3; k++) expect(relativeError(ours.subarray(k * size, (k + 1) * size), expected.grads.subarray(k * size, (k + 1) * size))).toBeLessThan(1e-5);
      expect(ours[3 * size]).toBeCloseTo(expected.grads[3 * size]!, 6);
      if (entropy) expect(Math.abs(ours[3 * size]!)).toBeGreaterThan(1e-3);
      else expect(ours[3 * size]).toBe(0);
      losses.forEach((l, i) => expect(l).toBeCloseTo(expected.losses[i]!, 5));
      sac.dispose();
      reference.dispose();
    });

    it(`after several updates holds the parameters of autodiff + tf.train.adam (${entropy ? 'SAC' : 'TAC'})`, () => {
      const { sac, batches, config } = setup(entropy);
      const reference = new ReferenceSac(sac.save(), config);
      const before = Float32Array.from(sac.online);
      for (const batch of batches) {
        sac.updateOn(batch);
        reference.update(batch);
      }
      const size = layoutOf(sac.sizes).total;
      const names = ['actor', 'q1', 'q2'] as const;
      names.forEach((name, k) => {
        const ours = sac.online.subarray(k * size, (k + 1) * size);
        const theirs = reference.flat(name);
        // The update moved the parameters by up to lr per step; both moved them alike.
        const moved = relativeError(ours, before.subarray(k * size, (k + 1) * size));
        expect(moved).toBeGreaterThan(1e-3);
        let worst = 0;
        for (let i = 0; i < size; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!));
        expect(worst).toBeLessThan(1e-5);
      });
      for (const [k, name] of (['q1Target', 'q2Target'] as const).entries()) {
        const theirs = reference.flat(name);
        const ours = sac.target.subarray(k * size, (k + 1) * size);
        let worst = 0;
        for (let i = 0; i < size; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!));
        expect(worst).toBeLessThan(1e-6);
      }
      expect(sac.logAlpha).toBeCloseTo(reference.logAlpha.dataSync()[0]!, 6);
      if (!entropy) expect(sac.logAlpha).toBe(Math.fround(Math.log(0.3)));
      sac.dispose();
      reference.dispose();
    });
  }

  it('FlatAdam computes what tf.train.adam computes', () => {
    const size = 257;
    const rng = createRng(23, 1);
    const start = Float32Array.from({ length: size }, () => rng.nextFloat() - 0.5);
    const params = Float32Array.from(start);
    const adam = new FlatAdam(size, 1e-2);
    const variable = tf.variable(tf.tensor1d(start));
    const optimizer = tf.train.adam(1e-2);
    for (let step = 0; step < 20; step++) {
      const g = Float32Array.from({ length: size }, (_, i) => Math.sin(step * 7 + i) * (i % 5));
      adam.step(params, g);
      tf.tidy(() => optimizer.applyGradients({ [variable.name]: tf.tensor1d(g) } as unknown as Record<string, Variable>));
    }
    const theirs = variable.dataSync();
    // float32 state in both; tfjs also rounds every intermediate to float32 (a few ulp over 20 steps).
    for (let i = 0; i < size; i++) expect(params[i]).toBeCloseTo(theirs[i]!, 5);
    expect(relativeError(params, start)).toBeGreaterThan(0.1);
    variable.dispose();
    optimizer.dispose();
  });
});

describe('the shipped agents (public/agents) in the learner with host-side parameters', () => {
  for (const kind of ['bcedge', 'bcedge-fixed-slot', 'tac'] as const) {
    it(`${kind}.json loads, saves back the same file, and acts as the Mlp forward pass of its actor`, () => {
      const file = JSON.parse(readFileSync(`public/agents/${kind}.json`, 'utf8')) as AgentFile;
      const sac = new DiscreteSac(tf, STATE_SIZE, ACTION_COUNT, { ...DEFAULT_SAC_CONFIG, entropy: kind !== 'tac' }, createRng(1, 1));
      sac.load(file);
      const saved = sac.save(file.trainedOn);
      expect(saved.networks).toEqual(file.networks);
      expect(saved.scalars).toEqual(file.scalars);
      // The policy: bit for bit what the per-network Mlp (the layout of the files) computes.
      const actor = new Mlp(tf, [STATE_SIZE, ...DEFAULT_SAC_CONFIG.hidden, ACTION_COUNT], createRng(2, 1));
      actor.setWeights(file.networks['actor']!);
      const rows = 6;
      const rng = createRng(3, 1);
      const states = Float32Array.from({ length: rows * STATE_SIZE }, () => rng.nextFloat());
      const bias = Float32Array.from({ length: rows * ACTION_COUNT }, (_, i) => (i % 7 === 3 ? MASKED_LOGIT : 0));
      const expected = tf.tidy(() => tf.softmax(tf.add(actor.apply(tf.tensor2d(states, [rows, STATE_SIZE])), tf.tensor2d(bias, [rows, ACTION_COUNT]))).dataSync());
      expect(Array.from(sac.policy(states, bias, rows))).toEqual(Array.from(expected));
      actor.dispose();
      sac.dispose();
    });
  }
});
