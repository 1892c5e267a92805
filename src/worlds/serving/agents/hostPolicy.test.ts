import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../../engine/rng';
import { denseForward, uploadLayers } from './denseNet';
import { ACTION_COUNT, STATE_SIZE } from './features';
import { createHostScratch, GUARD, hostActions, hostForward, hostSoftmax, maskedLogits, useHostDecisions } from './hostPolicy';
import { initMlpParams, layoutOf } from './nn';
import { createLatencyPredictor } from './predictorAdapter';
import { createLearningFactory } from './registry';
import { MASKED_LOGIT } from './replay';
import { argmaxRow, sampleRow } from './sampling';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { parseAnyScenario } from '../../../scenario/parse';
import type { ServingScenario } from '../schema';
import { runServingScenario } from '../scenario/servingRunner';
import fixture from '../scenario/testing/servingFixedSlot.json';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});
afterEach(() => useHostDecisions(true));

const S = STATE_SIZE;
const A = ACTION_COUNT;

/** Random weights (PyTorch's init, scaled up so that later layers see large and negative sums), states with zeros, masks with holes. */
function randomCase(rng: Rng, rows: number, outputs = A) {
  const sizes = [S, 128, 64, outputs];
  const { layers, total } = layoutOf(sizes);
  const flat = new Float32Array(total);
  initMlpParams(layers, rng, flat);
  const scale = 1 + rng.nextFloat() * 3;
  for (let i = 0; i < total; i++) flat[i] = flat[i]! * scale;
  const states = Float32Array.from({ length: rows * S }, () => (rng.nextFloat() < 0.2 ? 0 : (rng.nextFloat() * 2 - 1) * 5));
  const maskBias = Float32Array.from({ length: rows * outputs }, (_, i) => (i % outputs === 0 || rng.nextFloat() < 0.7 ? 0 : MASKED_LOGIT));
  return { layers, flat, states, maskBias };
}

const tfForward = (c: ReturnType<typeof randomCase>, rows: number) =>
  tf.tidy(() => denseForward(tf, tf.tensor2d(c.states, [rows, S]), uploadLayers(tf, c.flat, 0, c.layers, true)).out.dataSync() as Float32Array);
const tfSoftmax = (z: Float32Array, rows: number, n: number) => tf.tidy(() => tf.softmax(tf.tensor2d(z, [rows, n])).dataSync() as Float32Array);

describe('the host forward pass (issue 38 part 1)', () => {
  it('gives the tfjs forward pass bit for bit on random weights and states (policy and value shapes), in plain JS and in WebAssembly SIMD', () => {
    const rng = createRng(38, 1);
    const scratch = createHostScratch();
    for (let trial = 0; trial < 40; trial++) {
      const rows = 1 + (trial % 7);
      const outputs = trial % 5 === 0 ? 1 : A;
      const c = randomCase(rng, rows, outputs);
      const expected = Array.from(tfForward(c, rows));
      expect(Array.from(hostForward(c.flat, 0, c.layers, c.states, rows))).toEqual(expected);
      expect(Array.from(hostForward(c.flat, 0, c.layers, c.states, rows, scratch))).toEqual(expected);
    }
    expect(scratch.gemv).not.toBeNull();
  });

  it('copies the weights into the kernel again when they change in place and the version says so', () => {
    const rng = createRng(38, 4);
    const c = randomCase(rng, 2);
    const scratch = createHostScratch();
    hostForward(c.flat, 0, c.layers, c.states, 2, scratch, 1);
    for (let i = 0; i < c.flat.length; i++) c.flat[i] = c.flat[i]! * 0.5;
    expect(Array.from(hostForward(c.flat, 0, c.layers, c.states, 2, scratch, 2))).toEqual(Array.from(tfForward(c, 2)));
  });

  it('gives probabilities within 1e-6 of tfjs softmax in every cumulative sum (the stated tolerance; GUARD is ten times it)', () => {
    const rng = createRng(38, 2);
    let worst = 0;
    for (let trial = 0; trial < 40; trial++) {
      const rows = 6;
      const c = randomCase(rng, rows);
      const z = maskedLogits(hostForward(c.flat, 0, c.layers, c.states, rows), c.maskBias, rows, A);
      const host = hostSoftmax(z, rows, A);
      const exact = tfSoftmax(z, rows, A);
      for (let r = 0; r < rows; r++) {
        let a1 = 0;
        let a2 = 0;
        for (let a = 0; a < A; a++) {
          a1 += host[r * A + a]!;
          a2 += exact[r * A + a]!;
          worst = Math.max(worst, Math.abs(a1 - a2));
        }
      }
    }
    expect(worst).toBeLessThan(1e-6);
    expect(GUARD).toBeGreaterThanOrEqual(10 * 1e-6);
  });

  it('picks the actions sampleRow and argmaxRow pick from tfjs softmax, with the same draws', () => {
    const rng = createRng(38, 3);
    let rowsSeen = 0;
    for (let trial = 0; trial < 60; trial++) {
      const rows = 6;
      const c = randomCase(rng, rows);
      // Near-ties on purpose in some rows: a copy of the best logit's neighbour.
      const z = maskedLogits(hostForward(c.flat, 0, c.layers, c.states, rows), c.maskBias, rows, A);
      if (trial % 3 === 0) z[1] = z[0]! + 1e-7;
      const exact = tfSoftmax(z, rows, A);
      for (const explore of [true, false]) {
        const a = createRng(trial, 9);
        const b = createRng(trial, 9);
        const host = hostActions(z, c.maskBias, rows, A, explore, a, (r) => exact.subarray(r * A, (r + 1) * A));
        const old = Int32Array.from({ length: rows }, (_, r) => (explore ? sampleRow(exact, r, A, b) : argmaxRow(exact, c.maskBias, r, A)));
        expect(Array.from(host)).toEqual(Array.from(old));
        expect(Array.from(a.state())).toEqual(Array.from(b.state()));
        rowsSeen += rows;
      }
    }
    expect(rowsSeen).toBe(720);
  });
});

describe('an epoch decided on the host equals one decided through tfjs', () => {
  it('the four learners from scratch, 60 s on six models: the same actions, rewards and updates', async () => {
    const learning = createLearningFactory(tf, { agents: {}, predictor: (context) => createLatencyPredictor(tf, context) });
    const parsed = parseAnyScenario((fixture as unknown as Record<string, { scenario: unknown }>)['learners-from-scratch']!.scenario);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const scenario = parsed.scenario as ServingScenario;
    // Eq. 1's own slots too (the default of new scenarios): more decisions, fewer rows each.
    const perModel: ServingScenario = { ...scenario, serving: { ...scenario.serving, assumptions: { ...scenario.serving.assumptions, slot: 'eq1' } } } as ServingScenario;
    for (const s of [scenario, perModel]) {
      useHostDecisions(false);
      const old = runServingScenario(s, s.seed, () => 0, undefined, learning).map((r) => r.summary);
      useHostDecisions(true);
      const host = runServingScenario(s, s.seed, () => 0, undefined, learning).map((r) => r.summary);
      expect(host).toEqual(old);
      expect(host.every((x) => (x.learning?.['updates'] as number) > 0)).toBe(true);
    }
  }, 120_000);
});
