import type { Rng } from '../../../../engine/rng';
import type { Learner } from '../learner';
import { MASKED_LOGIT } from '../replay';

/** The learners' test bandit: states of S numbers, A arms (shared by the PPO and DDQN tests). */
export const S = 8;
export const A = 8;

/**
 * A contextual bandit with `rows` independent streams: each step every stream sees one of
 * three contexts (one-hot, padded to S), and arm `best[c]` pays 1, every other arm 0, plus
 * noise in ±0.05. `maskOf` (optional) gives each row's mask (1 = allowed).
 */
export function runBandit(learner: Learner, env: Rng, steps: number, rows: number, best: readonly number[], maskOf?: (row: number) => Uint8Array): void {
  const states = new Float32Array(rows * S);
  const ctx = new Int32Array(rows);
  const next = () => {
    states.fill(0);
    for (let r = 0; r < rows; r++) {
      ctx[r] = env.nextInt(best.length);
      states[r * S + ctx[r]!] = 1;
    }
  };
  const allowAll = new Uint8Array(A).fill(1);
  let masks = Array.from({ length: rows }, (_, r) => maskOf?.(r) ?? allowAll);
  next();
  for (let t = 0; t < steps; t++) {
    const bias = new Float32Array(rows * A);
    masks.forEach((m, r) => m.forEach((ok, a) => (bias[r * A + a] = ok === 1 ? 0 : MASKED_LOGIT)));
    const actions = learner.act(states, bias, rows, true);
    const prev = states.slice();
    const prevCtx = ctx.slice();
    const prevMasks = masks;
    next();
    masks = Array.from({ length: rows }, (_, r) => maskOf?.(r) ?? allowAll);
    for (let r = 0; r < rows; r++) {
      const reward = (actions[r] === best[prevCtx[r]!] ? 1 : 0) + 0.1 * (env.nextFloat() - 0.5);
      learner.record({ row: r, state: prev.subarray(r * S, r * S + S), mask: prevMasks[r]!, action: actions[r]!, reward, nextState: states.subarray(r * S, r * S + S), nextMask: masks[r]! });
    }
    learner.train();
  }
}

/** One row per context. */
export function contextStates(n: number): Float32Array {
  const s = new Float32Array(n * S);
  for (let c = 0; c < n; c++) s[c * S + c] = 1;
  return s;
}

export function randomMaskBias(rng: Rng, rows: number): Float32Array {
  const bias = new Float32Array(rows * A);
  for (let r = 0; r < rows; r++) {
    const keep = rng.nextInt(A);
    for (let a = 0; a < A; a++) bias[r * A + a] = a === keep || rng.nextFloat() < 0.5 ? 0 : MASKED_LOGIT;
  }
  return bias;
}
