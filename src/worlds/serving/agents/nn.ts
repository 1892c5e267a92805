import type { Tensor, Tensor1D, Tensor2D, Variable } from '@tensorflow/tfjs';
import type { Rng } from '../../../engine/rng';
import type { Tf } from '../../../lib/tf';

/**
 * Small multilayer perceptrons for the learners (BCEdge §V-A: "two-layer ReLU neural
 * network with 128 and 64 hidden units"), on raw tfjs variables rather than tfjs-layers:
 * the learners need a few forward passes and one gradient pass per update, nothing else.
 *
 * Speed on the wasm backend, where every kernel call costs a few µs whatever its size:
 * - all parameters of a network live in ONE flat variable, so Adam and the target update
 *   touch one tensor per network instead of two per layer (19 → 4 variables for SAC);
 * - the whole network is one `customGrad`: the forward pass runs one fused kernel per layer
 *   (matMul + bias + ReLU); the backward pass is written out, with explicit transposes and
 *   plain matMuls (autodiff emits transposeA/transposeB matMuls, ~9× slower on wasm), no
 *   gradient for the input (it is data), and the parameter gradient assembled flat.
 */

/**
 * Saved weights of a network: the flat parameter vector (layer by layer, W row-major in ×
 * out, then b) as little-endian float32 in base64 — exact, and a quarter of the size of
 * the same numbers printed in JSON.
 */
export interface MlpWeights {
  readonly sizes: readonly number[];
  readonly float32: string;
}

/** Float32 values → base64 of their little-endian bytes. */
export function encodeFloat32(values: Float32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The inverse of `encodeFloat32`; throws a RangeError naming `field` on bad input. */
export function decodeFloat32(text: unknown, expected: number, field: string): Float32Array {
  if (typeof text !== 'string') throw new RangeError(`${field}: expected a base64 string`);
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new RangeError(`${field}: is not valid base64`);
  }
  if (binary.length !== expected * 4) throw new RangeError(`${field}: expected ${expected} float32 values, got ${binary.length / 4}`);
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  const out = new Float32Array(expected);
  for (let i = 0; i < expected; i++) {
    const v = view.getFloat32(i * 4, true);
    if (!Number.isFinite(v)) throw new RangeError(`${field}: weights must be finite numbers`);
    out[i] = v;
  }
  return out;
}

type MlpFn = (x: Tensor2D, params: Tensor1D) => Tensor2D;

/** Where each layer's W and b sit in the flat parameter vector. */
export interface Layout {
  readonly wOffset: number;
  readonly bOffset: number;
  readonly fanIn: number;
  readonly fanOut: number;
}

/** The flat layout of an MLP of `sizes`: per layer W (row-major, fanIn × fanOut) then b. */
export function layoutOf(sizes: readonly number[]): { readonly layers: readonly Layout[]; readonly total: number } {
  const layers: Layout[] = [];
  let offset = 0;
  for (let i = 0; i + 1 < sizes.length; i++) {
    const fanIn = sizes[i]!;
    const fanOut = sizes[i + 1]!;
    layers.push({ wOffset: offset, bOffset: offset + fanIn * fanOut, fanIn, fanOut });
    offset += fanIn * fanOut + fanOut;
  }
  return { layers, total: offset };
}

/** The network as one differentiable op of (input, flat parameters). */
function mlpOp(tf: Tf, layout: readonly Layout[]): MlpFn {
  const last = layout.length - 1;
  const custom = tf.customGrad((...args: unknown[]) => {
    const [x, params, save] = args as [Tensor2D, Tensor1D, (tensors: Tensor[]) => void];
    const Ws: Tensor2D[] = [];
    const hs: Tensor2D[] = [x];
    let h = x;
    layout.forEach((l, i) => {
      const W = tf.reshape(tf.slice(params, l.wOffset, l.fanIn * l.fanOut), [l.fanIn, l.fanOut]) as Tensor2D;
      const b = tf.slice(params, l.bOffset, l.fanOut);
      h = tf.fused.matMul({ a: h, b: W, bias: b, activation: i < last ? 'relu' : 'linear' }) as Tensor2D;
      Ws.push(W);
      hs.push(h);
    });
    save([...hs, ...Ws]);
    return {
      value: h,
      gradFunc: (dy: Tensor | Tensor[], saved: Tensor[]) => {
        const acts = saved.slice(0, layout.length + 1) as Tensor2D[];
        const weights = saved.slice(layout.length + 1) as Tensor2D[];
        const parts: Tensor1D[] = new Array<Tensor1D>(layout.length * 2);
        let g = dy as Tensor2D;
        for (let i = last; i >= 0; i--) {
          const input = acts[i]!;
          parts[2 * i] = tf.reshape(tf.matMul(tf.transpose(input), g), [-1]) as Tensor1D;
          parts[2 * i + 1] = tf.sum(g, 0) as Tensor1D;
          // Back through layer i into the ReLU of layer i − 1 (1 where its output was positive).
          if (i > 0) g = tf.mul(tf.matMul(g, tf.transpose(weights[i]!)), tf.step(input));
        }
        return [tf.zerosLike(acts[0]!), tf.concat(parts)];
      },
    };
  });
  return (x, params) => custom(x, params) as Tensor2D;
}

/**
 * A ReLU MLP: `sizes` = [inputs, hidden…, outputs]; the output layer is linear.
 * Initialization is PyTorch's default for nn.Linear (uniform in ±1/√fan_in for W and b),
 * drawn from the scheduler's seeded stream, so a seed gives the same network everywhere.
 */
export class Mlp {
  readonly sizes: readonly number[];
  /** Every parameter, layer by layer: W (row-major) then b. */
  readonly params: Variable;
  /** Where each layer sits in `params` (for the host forward pass, hostPolicy.ts). */
  readonly layers: readonly Layout[];
  private readonly op: MlpFn;
  /** `params` read back, and the tensor data it was read from (a variable's data changes identity on every assign). */
  private host: { readonly dataId: object; readonly values: Float32Array } | null = null;

  constructor(
    private readonly tf: Tf,
    sizes: readonly number[],
    rng: Rng,
    trainable = true,
  ) {
    if (sizes.length < 2) throw new RangeError('an MLP needs at least an input and an output size');
    this.sizes = [...sizes];
    const { layers, total } = layoutOf(sizes);
    this.layers = layers;
    const init = new Float32Array(total);
    initMlpParams(layers, rng, init);
    this.params = tf.tidy(() => tf.variable(tf.tensor1d(init), trainable));
    this.op = mlpOp(tf, layers);
  }

  /** Forward pass; call inside `tf.tidy`. */
  apply(x: Tensor2D): Tensor2D {
    return this.op(x, this.params as unknown as Tensor1D);
  }

  /**
   * The parameters in a host array, a mirror of `params` read back once after each change:
   * every write to a tfjs variable (an optimizer step, `assign`) gives it new data, so the
   * mirror is keyed on the data's identity and needs no bookkeeping by the learners.
   */
  hostParams(): Float32Array {
    const id = this.params.dataId;
    if (this.host?.dataId !== id) this.host = { dataId: id, values: this.params.dataSync() as Float32Array };
    return this.host.values;
  }

  variables(): Variable[] {
    return [this.params];
  }

  /** Copies another network's weights (hard target update). */
  copyFrom(other: Mlp): void {
    this.params.assign(other.params);
  }

  /** θ' ← τ·θ + (1 − τ)·θ' (soft target update). */
  softUpdateFrom(other: Mlp, tau: number): void {
    const tf = this.tf;
    tf.tidy(() => this.params.assign(tf.add(tf.mul(other.params, tau), tf.mul(this.params, 1 - tau))));
  }

  /** The weights, for files and IndexedDB. */
  getWeights(): MlpWeights {
    return { sizes: [...this.sizes], float32: encodeFloat32(this.params.dataSync() as Float32Array) };
  }

  /** Checks saved weights against this network and decodes them; throws a RangeError naming what does not fit. */
  decodeWeights(weights: MlpWeights, name = 'network'): Float32Array {
    return decodeMlpWeights(weights, this.sizes, name);
  }

  /** Installs decoded weights (from `decodeWeights`). */
  setFlat(flat: Float32Array): void {
    const tf = this.tf;
    tf.tidy(() => this.params.assign(tf.tensor1d(flat)));
  }

  /** Loads saved weights; throws a RangeError naming what does not fit (and then changes nothing). */
  setWeights(weights: MlpWeights, name = 'network'): void {
    this.setFlat(this.decodeWeights(weights, name));
  }

  dispose(): void {
    this.params.dispose();
  }
}

/**
 * PyTorch's default initialization for nn.Linear (uniform in ±1/√fan_in for W and b), drawn
 * layer by layer from `rng` into `out` from `offset` on.
 */
export function initMlpParams(layers: readonly Layout[], rng: Rng, out: Float32Array, offset = 0): void {
  for (const l of layers) {
    const bound = 1 / Math.sqrt(l.fanIn);
    for (let k = l.wOffset; k < l.bOffset + l.fanOut; k++) out[offset + k] = (rng.nextFloat() * 2 - 1) * bound;
  }
}

/** Checks saved weights against an MLP of `sizes` and decodes them; throws a RangeError naming what does not fit. */
export function decodeMlpWeights(weights: MlpWeights, sizes: readonly number[], name = 'network'): Float32Array {
  if (typeof weights !== 'object' || weights === null || !Array.isArray(weights.sizes)) throw new RangeError(`${name}: expected { sizes, float32 }`);
  if (weights.sizes.length !== sizes.length || weights.sizes.some((s, i) => s !== sizes[i])) {
    throw new RangeError(`${name}.sizes: expected [${sizes.join(', ')}], got [${weights.sizes.join(', ')}]`);
  }
  return decodeFloat32(weights.float32, layoutOf(sizes).total, `${name}.float32`);
}

/** The identity whose gradient is zero (PyTorch's `detach`; tfjs has no stopGradient). */
export function stopGradient(tf: Tf): (x: Tensor) => Tensor {
  let fn = stopCache.get(tf);
  if (fn === undefined) {
    const custom = tf.customGrad((...args: unknown[]) => {
      const x = args[0] as Tensor;
      return { value: tf.clone(x), gradFunc: (dy: Tensor | Tensor[]) => tf.zerosLike(dy as Tensor) };
    });
    fn = (x) => custom(x) as Tensor;
    stopCache.set(tf, fn);
  }
  return fn;
}

const stopCache = new WeakMap<Tf, (x: Tensor) => Tensor>();
