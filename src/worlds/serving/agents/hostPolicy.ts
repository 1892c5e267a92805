import type { Rng } from '../../../engine/rng';
import type { Tf } from '../../../lib/tf';
import { createGemv, type Gemv } from './hostGemv';
import type { Layout } from './nn';
import { argmaxRow, sampleRowAt } from './sampling';

/**
 * Decisions without tfjs (issue 38 part 1): the learners' small networks run forward in plain
 * typed arrays, from the flat parameter vector in `nn.ts`'s layout (SAC keeps it on the host
 * already; PPO and DDQN read a mirror of their tfjs variable, refreshed when the variable
 * changes: `Mlp.hostParams`). tfjs stays the training library. A decision through tfjs costs
 * ~30 kernel calls of a few µs each for a few thousand multiply-adds; here it is the
 * multiply-adds alone (`npm run bench`, the "decision" rows).
 *
 * Same numbers as tfjs's wasm backend, by construction:
 * - a dense layer is what XNNPACK's f32 GEMM computes there: per output, the bias, then
 *   `acc = acc + x_k·W_kj` for k in order, each product and each sum rounded to float32
 *   (wasm SIMD has no fused multiply-add), then max(·, 0) between layers. In JS the float32
 *   product of two float32 values is `Math.fround(x·w)` (exact in float64, rounded once),
 *   and `Math.fround(acc + p)` is their float32 sum: double rounding of a sum of two float32
 *   values is innocuous (53 ≥ 2·24 + 2). Skipping an input of
 *   0 changes at most the sign of a zero sum, which no later step can see. hostPolicy.test.ts
 *   checks the logits bit for bit against the tfjs forward on random weights and states.
 * - the softmax is not reproduced: XNNPACK computes its own polynomial exp, and tfjs's
 *   composite logSoftmax calls the C library's expf and logf. Probabilities here are
 *   computed in float64 from the (exact) logits; they differ from tfjs's float32 ones by a
 *   few ulp (≤ 1e-6 in each cumulative sum, tested). An action, though, is exact: a sampled
 *   action is decided on the host unless the uniform draw falls within `GUARD` (1e-5) of a
 *   cumulative probability, and a greedy one unless two allowed logits are within `GUARD`
 *   without being equal; those rows (≈ 0.1 % of them) take tfjs's softmax of the same
 *   logits (`exactRow`). The draws from the random stream are the same (one per sampled
 *   row), so whole runs stay identical. `policy` (what the page shows) is tfjs's softmax of
 *   the host's logits: the same numbers, one kernel instead of the network.
 */

/** How close a draw may come to a cumulative probability (or two logits to each other) before the row asks tfjs. */
export const GUARD = 1e-5;

/**
 * The forward pass of the ReLU MLP whose parameters start at `offset` in `flat`: `rows` rows
 * of `x` (rows × layers[0].fanIn) in, rows × last fanOut out (ReLU between layers, linear
 * output), bit for bit as tfjs's wasm backend computes it (see above).
 *
 * With `scratch`, the layers run in WebAssembly SIMD (hostGemv.ts, same numbers, ~5× faster
 * than the plain loop) on a copy of the weights kept in the kernel's memory: copied again when
 * `flat` or `offset` is another than last time or `version` changed — a caller that changes
 * `flat` in place (SAC's `online`) passes a version that changes with it; a mirror that is a
 * new array after each change (`Mlp.hostParams`) needs none. Without scratch (or without
 * WebAssembly SIMD), the plain loop below.
 */
export function hostForward(flat: Float32Array, offset: number, layers: readonly Layout[], x: Float32Array, rows: number, scratch?: HostScratch, version?: number): Float32Array {
  if (scratch !== undefined) {
    scratch.gemv ??= createGemv();
    if (scratch.gemv !== null) return gemvForward(scratch, scratch.gemv, flat, offset, layers, x, rows, version);
  }
  let input = x;
  const last = layers.length - 1;
  for (let i = 0; i <= last; i++) {
    const l = layers[i]!;
    const out = new Float32Array(rows * l.fanOut);
    denseLayer(flat, offset + l.wOffset, offset + l.bOffset, l.fanIn, l.fanOut, input, rows, out, i < last);
    input = out;
  }
  return input;
}

/** What `hostForward` keeps between calls: the kernel and which weights its memory holds. */
export interface HostScratch {
  gemv?: Gemv | null;
  loaded?: { readonly flat: Float32Array; readonly offset: number; readonly version: number | undefined } | undefined;
}

export function createHostScratch(): HostScratch {
  return {};
}

function gemvForward(scratch: HostScratch, kernel: Gemv, flat: Float32Array, offset: number, layers: readonly Layout[], x: Float32Array, rows: number, version: number | undefined): Float32Array {
  const total = layers.at(-1)!.bOffset + layers.at(-1)!.fanOut;
  // Floats: the weights, then the input rows, then each layer's output rows.
  const ends: number[] = [];
  let at = total + rows * layers[0]!.fanIn;
  for (const l of layers) ends.push((at += rows * l.fanOut));
  const bytes = at * 4;
  if (kernel.memory.buffer.byteLength < bytes) {
    kernel.memory.grow(Math.ceil((bytes - kernel.memory.buffer.byteLength) / 65_536));
    scratch.loaded = undefined;
  }
  const heap = new Float32Array(kernel.memory.buffer);
  const loaded = scratch.loaded;
  if (loaded === undefined || loaded.flat !== flat || loaded.offset !== offset || loaded.version !== version) {
    heap.set(flat.subarray(offset, offset + total), 0);
    scratch.loaded = { flat, offset, version };
  }
  heap.set(x.subarray(0, rows * layers[0]!.fanIn), total);
  let input = total;
  const last = layers.length - 1;
  layers.forEach((l, i) => {
    const output = ends[i]! - rows * l.fanOut;
    if (l.fanOut % 4 === 0) {
      for (let r = 0; r < rows; r++) kernel.gemv(4 * (input + r * l.fanIn), 4 * l.wOffset, 4 * l.bOffset, 4 * (output + r * l.fanOut), l.fanIn, l.fanOut, i < last ? 1 : 0);
    } else {
      // An output the kernel's four lanes do not fit (a value network's one): the plain loop, on the same numbers.
      const out = new Float32Array(rows * l.fanOut);
      denseLayer(flat, offset + l.wOffset, offset + l.bOffset, l.fanIn, l.fanOut, heap.subarray(input, input + rows * l.fanIn), rows, out, i < last);
      heap.set(out, output);
    }
    input = output;
  });
  return heap.slice(input, input + rows * layers[last]!.fanOut);
}

const f32 = Math.fround;

/**
 * One layer, eight outputs at a time in locals (three times faster than summing into the
 * output array): each output still starts at its bias and adds x_k·W_kj for k in order.
 */
function denseLayer(flat: Float32Array, w: number, b: number, fanIn: number, fanOut: number, x: Float32Array, rows: number, out: Float32Array, relu: boolean): void {
  for (let r = 0; r < rows; r++) {
    const xo = r * fanIn;
    const o = r * fanOut;
    let j = 0;
    for (; j + 8 <= fanOut; j += 8) {
      let a0 = flat[b + j]!;
      let a1 = flat[b + j + 1]!;
      let a2 = flat[b + j + 2]!;
      let a3 = flat[b + j + 3]!;
      let a4 = flat[b + j + 4]!;
      let a5 = flat[b + j + 5]!;
      let a6 = flat[b + j + 6]!;
      let a7 = flat[b + j + 7]!;
      for (let k = 0, p = w + j; k < fanIn; k++, p += fanOut) {
        const xk = x[xo + k]!;
        if (xk === 0) continue;
        a0 = f32(a0 + f32(xk * flat[p]!));
        a1 = f32(a1 + f32(xk * flat[p + 1]!));
        a2 = f32(a2 + f32(xk * flat[p + 2]!));
        a3 = f32(a3 + f32(xk * flat[p + 3]!));
        a4 = f32(a4 + f32(xk * flat[p + 4]!));
        a5 = f32(a5 + f32(xk * flat[p + 5]!));
        a6 = f32(a6 + f32(xk * flat[p + 6]!));
        a7 = f32(a7 + f32(xk * flat[p + 7]!));
      }
      out[o + j] = relu && !(a0 > 0) ? 0 : a0;
      out[o + j + 1] = relu && !(a1 > 0) ? 0 : a1;
      out[o + j + 2] = relu && !(a2 > 0) ? 0 : a2;
      out[o + j + 3] = relu && !(a3 > 0) ? 0 : a3;
      out[o + j + 4] = relu && !(a4 > 0) ? 0 : a4;
      out[o + j + 5] = relu && !(a5 > 0) ? 0 : a5;
      out[o + j + 6] = relu && !(a6 > 0) ? 0 : a6;
      out[o + j + 7] = relu && !(a7 > 0) ? 0 : a7;
    }
    for (; j < fanOut; j++) {
      let a = flat[b + j]!;
      for (let k = 0, p = w + j; k < fanIn; k++, p += fanOut) {
        const xk = x[xo + k]!;
        if (xk !== 0) a = f32(a + f32(xk * flat[p]!));
      }
      out[o + j] = relu && !(a > 0) ? 0 : a;
    }
  }
}

/** logits + maskBias, rounded to float32 as tfjs's `add` does (rows × n); into `into` when it has that length (a buffer the caller reuses). */
export function maskedLogits(logits: Float32Array, maskBias: Float32Array, rows: number, n: number, into?: Float32Array): Float32Array {
  const z = into !== undefined && into.length === rows * n ? into : new Float32Array(rows * n);
  for (let i = 0; i < rows * n; i++) z[i] = logits[i]! + maskBias[i]!;
  return z;
}

/** tfjs's softmax of the rows of `z` (rows × n): the learners' `policy`, and the rows `hostActions` cannot decide alone. */
export function hostSoftmaxTf(tf: Tf, z: Float32Array, rows: number, n: number): Float32Array {
  return tf.tidy(() => tf.softmax(tf.tensor2d(z, [rows, n])).dataSync() as Float32Array);
}

/** Softmax of each row of `z` (rows × n) in float64 (a few ulp from tfjs's; see above). */
export function hostSoftmax(z: Float32Array, rows: number, n: number): Float64Array {
  const p = new Float64Array(rows * n);
  for (let r = 0; r < rows; r++) {
    const o = r * n;
    let max = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < n; a++) if (z[o + a]! > max) max = z[o + a]!;
    let sum = 0;
    for (let a = 0; a < n; a++) {
      const e = Math.exp(z[o + a]! - max);
      p[o + a] = e;
      sum += e;
    }
    for (let a = 0; a < n; a++) p[o + a] = p[o + a]! / sum;
  }
  return p;
}

/** Below this log-ratio to the row's largest logit, a probability counts as 0 in `hostActions` (e^−50 ≈ 2·10⁻²²). */
const NEGLIGIBLE_LOG = -50;

/** `hostActions`'s row of exponentials, kept between calls (a decision allocates no more than its answer). */
let expScratch = new Float64Array(0);

/**
 * The actions `sampleRow`/`argmaxRow` would pick from tfjs's softmax of `z` (masked logits,
 * rows × n), decided on the host where the float64 probabilities leave no doubt, else from
 * `exactRow(r)` (tfjs's softmax of row r, n values). One draw per row when `explore`.
 */
export function hostActions(z: Float32Array, maskBias: Float32Array, rows: number, n: number, explore: boolean, rng: Rng, exactRow: (row: number) => ArrayLike<number>): Int32Array {
  const out = new Int32Array(rows);
  if (explore && expScratch.length < n) expScratch = new Float64Array(n);
  const e = expScratch;
  for (let r = 0; r < rows; r++) {
    const o = r * n;
    if (explore) {
      // The row's softmax left unnormalised (exp(z − max), in float64): the draw u is compared
      // with the cumulative sum scaled by its total instead of each probability divided by it.
      // The two differ by a few ulp, far inside GUARD, so every row decided here is decided as
      // tfjs's softmax decides it, and the doubtful ones still go to it.
      // A term below e^−50 of the largest (a masked action's, or one the policy has all but
      // ruled out) is taken as 0: it moves the total by less than 64·e^−50, and an action
      // that small could only be drawn within GUARD of a cumulative sum, which tfjs decides.
      let max = Number.NEGATIVE_INFINITY;
      for (let a = 0; a < n; a++) if (z[o + a]! > max) max = z[o + a]!;
      let sum = 0;
      for (let a = 0; a < n; a++) {
        const d = z[o + a]! - max;
        const ea = d < NEGLIGIBLE_LOG ? 0 : Math.exp(d);
        e[a] = ea;
        sum += ea;
      }
      const u = rng.nextFloat();
      const target = u * sum;
      const guard = GUARD * sum;
      let acc = 0;
      let chosen = -1;
      let doubtful = false;
      for (let a = 0; a < n; a++) {
        const ea = e[a]!;
        acc += ea;
        if (Math.abs(target - acc) < guard) {
          doubtful = true;
          break;
        }
        if (target < acc && ea > 0) {
          chosen = a;
          break;
        }
      }
      // Past the end (rounding left u above the total) is decided by tfjs too: its total may differ.
      out[r] = doubtful || chosen < 0 ? sampleRowAt(exactRow(r), 0, n, u) : chosen;
    } else {
      // Greedy: the softmax is monotone, so the largest allowed logit (the first on ties) is
      // argmax π unless another allowed logit is so close that float32 probabilities might tie.
      let best = -1;
      let bestValue = Number.NEGATIVE_INFINITY;
      for (let a = 0; a < n; a++) {
        if (maskBias[o + a] !== 0) continue;
        if (best < 0 || z[o + a]! > bestValue) {
          best = a;
          bestValue = z[o + a]!;
        }
      }
      let doubtful = false;
      for (let a = 0; a < n && best >= 0; a++) {
        if (maskBias[o + a] !== 0 || a === best) continue;
        const gap = bestValue - z[o + a]!;
        if (gap > 0 && gap < GUARD) doubtful = true;
      }
      out[r] = best < 0 ? 0 : doubtful ? argmaxRow(exactRow(r), maskBias.subarray(o, o + n), 0, n) : best;
    }
  }
  return out;
}

let hostDecisions = true;

/**
 * Whether the learners decide on the host (the default) or through tfjs as before; the tests
 * and the bench switch it to compare both paths in one process.
 */
export function useHostDecisions(on: boolean): void {
  hostDecisions = on;
}

/** See `useHostDecisions`. */
export function hostDecisionsOn(): boolean {
  return hostDecisions;
}
