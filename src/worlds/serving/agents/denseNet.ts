import type { Tensor, Tensor1D, Tensor2D } from '@tensorflow/tfjs';
import type { Layout } from './nn';
import type { Tf } from '../../../lib/tf';

/**
 * The pieces of a tape-free gradient step for ReLU MLPs whose parameters live in host
 * arrays (one flat Float32Array, `nn.ts`'s layout): upload the layers, run the forward pass
 * keeping each layer's input, write the backward pass out by hand, and apply Adam on the
 * host. Used by discrete SAC (sac.ts), whose update is a handful of such passes.
 *
 * Why on the host: on the wasm backend every kernel call has a fixed cost of several µs and
 * tfjs's `slice` copies the WHOLE source tensor before cutting (it reads the input back
 * from the heap), so taking layers out of one flat variable costs a copy of the variable
 * per layer; Adam over tensors is ~14 kernels per variable. Uploading each layer from a
 * subarray is one exact copy; reading each gradient back is one exact copy; Adam is one
 * loop over one flat vector.
 */

/** One dense layer as tensors: W [fanIn, fanOut] and b [fanOut]. */
export interface DenseLayer {
  readonly W: Tensor2D;
  readonly b: Tensor1D;
}

/**
 * Tensors of the layers of the network whose flat parameters start at `offset` in `flat`.
 * `copy`: copy the values first. Needed for tensors that outlive a change of `flat`: the
 * cpu backend keeps the array it is given instead of copying it (wasm copies into its heap).
 */
export function uploadLayers(tf: Tf, flat: Float32Array, offset: number, layers: readonly Layout[], copy: boolean): DenseLayer[] {
  const part = (from: number, to: number) => (copy ? flat.slice(offset + from, offset + to) : flat.subarray(offset + from, offset + to));
  return layers.map((l) => ({
    W: tf.tensor2d(part(l.wOffset, l.bOffset), [l.fanIn, l.fanOut]),
    b: tf.tensor1d(part(l.bOffset, l.bOffset + l.fanOut)),
  }));
}

/** A forward pass: the output and the input of every layer (kept for `denseBackward`). */
export interface DensePass {
  readonly out: Tensor2D;
  readonly inputs: readonly Tensor2D[];
}

/** ReLU between layers, linear output; one fused kernel (matMul + bias + ReLU) per layer. */
export function denseForward(tf: Tf, x: Tensor2D, layers: readonly DenseLayer[]): DensePass {
  const inputs: Tensor2D[] = [];
  let h = x;
  const last = layers.length - 1;
  layers.forEach((l, i) => {
    inputs.push(h);
    h = tf.fused.matMul({ a: h, b: l.W, bias: l.b, activation: i < last ? 'relu' : 'linear' }) as Tensor2D;
  });
  return { out: h, inputs };
}

/**
 * The parameter gradient of a forward pass given dL/d(output), as [dW₀, db₀, dW₁, db₁, …]
 * (the flat layout's order; each dW is row-major fanIn × fanOut). No gradient for the input
 * (it is data). Plain matMuls with explicit transposes: a matMul with transposeA/transposeB
 * is ~9× slower on wasm. The ReLU's derivative is 1 where its output was positive (tfjs's
 * reluGrad convention at 0). `inputT`: the network's input already transposed (data the
 * caller can transpose on the host, saving a kernel).
 */
export function denseBackward(tf: Tf, dOut: Tensor2D, pass: DensePass, layers: readonly DenseLayer[], inputT?: Tensor2D): Tensor[] {
  const parts: Tensor[] = new Array<Tensor>(layers.length * 2);
  let g = dOut;
  for (let i = layers.length - 1; i >= 0; i--) {
    const input = pass.inputs[i]!;
    parts[2 * i] = tf.matMul(i === 0 && inputT !== undefined ? inputT : tf.transpose(input), g);
    parts[2 * i + 1] = tf.sum(g, 0);
    if (i > 0) g = tf.mul(tf.matMul(g, tf.transpose(layers[i]!.W)), tf.step(input));
  }
  return parts;
}

/** Reads gradient tensors (as from `denseBackward`) into `out` from `offset` on, in order. */
export function readGradients(parts: readonly Tensor[], out: Float32Array, offset: number): number {
  let at = offset;
  for (const t of parts) {
    const values = t.dataSync() as Float32Array;
    out.set(values, at);
    at += values.length;
  }
  return at;
}

/** A `FlatAdam`'s state (see `FlatAdam.snapshot`). */
export interface FlatAdamSnapshot {
  readonly m: Float32Array;
  readonly v: Float32Array;
  readonly steps: number;
}

/**
 * Adam (Kingma & Ba 2015) over one flat parameter vector, as tfjs's `tf.train.adam` computes
 * it: m ← β₁m + (1 − β₁)g, v ← β₂v + (1 − β₂)g², θ ← θ − lr · (m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε),
 * with tfjs's defaults (β₁ = 0.9, β₂ = 0.999, ε = 1e-7, its float32 epsilon). Each element is
 * computed in double precision and stored as float32, like the parameters.
 */
export class FlatAdam {
  readonly m: Float32Array;
  readonly v: Float32Array;
  private steps = 0;

  constructor(
    readonly size: number,
    readonly learningRate: number,
    readonly beta1 = 0.9,
    readonly beta2 = 0.999,
    readonly epsilon = 1e-7,
  ) {
    this.m = new Float32Array(size);
    this.v = new Float32Array(size);
  }

  /** Its moments and step count, copied, for a checkpoint. */
  snapshot(): FlatAdamSnapshot {
    return { m: this.m.slice(), v: this.v.slice(), steps: this.steps };
  }

  restore(s: FlatAdamSnapshot): void {
    this.m.set(s.m);
    this.v.set(s.v);
    this.steps = s.steps;
  }

  /** One step on the first `count` elements of `params` (the rest are not trained). */
  step(params: Float32Array, grads: Float32Array, count = this.size): void {
    this.steps++;
    const { m, v, beta1, beta2, epsilon } = this;
    // The bias corrections as factors (one division per element instead of three).
    adamLoop(params, grads, m, v, count, beta1, beta2, this.learningRate / (1 - beta1 ** this.steps), 1 / (1 - beta2 ** this.steps), epsilon);
  }
}

/** Adam's element loop, a function of its own (a small monomorphic loop the JIT optimizes at once). */
function adamLoop(params: Float32Array, grads: Float32Array, m: Float32Array, v: Float32Array, count: number, beta1: number, beta2: number, stepSize: number, scale2: number, epsilon: number): void {
  const keep1 = 1 - beta1;
  const keep2 = 1 - beta2;
  for (let i = 0; i < count; i++) {
    const g = grads[i]!;
    const mi = beta1 * m[i]! + keep1 * g;
    const vi = beta2 * v[i]! + keep2 * g * g;
    m[i] = mi;
    v[i] = vi;
    params[i] = params[i]! - (stepSize * mi) / (Math.sqrt(vi * scale2) + epsilon);
  }
}

/**
 * θ̄ ← τ·θ + (1 − τ)·θ̄ (the soft target update) for `count` values, θ read from `source`
 * at `sourceOffset`. A function of its own: a small monomorphic loop the JIT optimizes at once.
 */
export function softUpdate(target: Float32Array, source: Float32Array, sourceOffset: number, count: number, tau: number): void {
  const keep = 1 - tau;
  for (let i = 0; i < count; i++) target[i] = tau * source[sourceOffset + i]! + keep * target[i]!;
}
