import type { Variable } from '@tensorflow/tfjs';
import type { Tf } from '../../../lib/tf';

/**
 * What `tf.train.adam` holds between steps, read through the fields of tfjs's `AdamOptimizer`
 * (its own `getWeights`/`setWeights` are asynchronous, and a checkpoint is taken between two
 * stretches of a run): β₁ᵗ and β₂ᵗ, each variable's first and second moment, the step count.
 */
interface AdamInternals {
  readonly accBeta1: Variable;
  readonly accBeta2: Variable;
  readonly accumulatedFirstMoment: readonly ({ readonly variable: Variable } | undefined)[];
  readonly accumulatedSecondMoment: readonly ({ readonly variable: Variable } | undefined)[];
  iterations_?: number;
}

/** A tfjs Adam optimizer's state, copied into host arrays. */
export interface AdamState {
  /** β₁ᵗ and β₂ᵗ as float32, as the optimizer keeps them. */
  readonly accBeta: Float32Array;
  /** Per variable, in the order the optimizer met them: the moments (null before its first step). */
  readonly first: readonly (Float32Array | null)[];
  readonly second: readonly (Float32Array | null)[];
  readonly iterations: number;
}

function internals(optimizer: unknown): AdamInternals {
  const o = optimizer as Partial<AdamInternals> | null;
  if (o === null || typeof o !== 'object' || o.accBeta1 === undefined || o.accBeta2 === undefined || !Array.isArray(o.accumulatedFirstMoment) || !Array.isArray(o.accumulatedSecondMoment)) {
    throw new TypeError('not a tfjs Adam optimizer (its state cannot be checkpointed)');
  }
  return o as AdamInternals;
}

/** Copies an Adam optimizer's state (`dataSync`: no tensor is made). */
export function adamState(optimizer: unknown): AdamState {
  const o = internals(optimizer);
  const read = (v: { readonly variable: Variable } | undefined) => (v === undefined ? null : (v.variable.dataSync() as Float32Array).slice());
  return {
    accBeta: Float32Array.of(o.accBeta1.dataSync()[0]!, o.accBeta2.dataSync()[0]!),
    first: o.accumulatedFirstMoment.map(read),
    second: o.accumulatedSecondMoment.map(read),
    iterations: o.iterations_ ?? 0,
  };
}

/**
 * Puts back a state taken by `adamState` into an optimizer of the same variables: every
 * moment it holds is assigned (zero where the state had none yet, as a fresh moment is), so
 * the next step is the one the checkpointed optimizer would have taken. The temporary
 * tensors are disposed.
 */
export function restoreAdamState(tf: Tf, optimizer: unknown, state: AdamState): void {
  const o = internals(optimizer);
  tf.tidy(() => {
    o.accBeta1.assign(tf.scalar(state.accBeta[0]!));
    o.accBeta2.assign(tf.scalar(state.accBeta[1]!));
    const put = (moments: AdamInternals['accumulatedFirstMoment'], values: AdamState['first']) => {
      moments.forEach((m, i) => {
        if (m === undefined) return;
        const value = values[i] ?? null;
        m.variable.assign(value === null ? tf.zerosLike(m.variable) : tf.tensor(value, m.variable.shape));
      });
    };
    put(o.accumulatedFirstMoment, state.first);
    put(o.accumulatedSecondMoment, state.second);
  });
  o.iterations_ = state.iterations;
}
