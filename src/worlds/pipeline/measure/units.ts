/**
 * The units of VGG16, ResNet-50 and ResNet-152 as TensorFlow.js ops (ARCHITECTURE §2):
 * the same units, names and shapes as src/worlds/pipeline/engine/profiles/layers.ts (a ResNet-152
 * residual block is one unit; a ResNet-50 block is three, the projection shortcut and the
 * add folded into the third), with seeded random weights, so nothing is downloaded. The
 * ODIN paper measured Keras layers (§4.1); these are the same computations in tfjs.
 *
 * Each unit is first a plan (name, input shapes, how to build it) and is built on its own,
 * its weights drawn from the seed and its index only: a real pipeline's stage builds just
 * the units it holds, and a unit rebuilt on another stage after a reconfiguration is the
 * same unit, to the bit.
 *
 * Inference batch-norm is folded into each conv's bias and ReLU fused into it, as
 * layers.ts counts them. tfjs is passed in: this module never imports it at runtime.
 */
import type { Rank, Tensor, Tensor1D, Tensor2D, Tensor4D } from '@tensorflow/tfjs';
import type { Tf } from '../../../lib/tf';
import type { ModelId } from '../engine/profiles/types';
import { createRng } from '../../../engine/rng';

/** One unit, ready to run: its inputs' shapes (NHWC, batch 1) and its forward pass. */
export interface TfUnit {
  readonly name: string;
  /** The feature map entering the unit, then (ResNet-50's `_conv3`) the block input its shortcut reads. */
  readonly inputShapes: readonly (readonly number[])[];
  /** See {@link TfUnitPlan.role}. */
  readonly role: UnitRole;
  /** The unit's forward pass; the caller disposes the result. */
  run(inputs: readonly Tensor[]): Tensor;
  /** Frees the unit's weights. */
  dispose(): void;
}

/**
 * Where a unit sits in a residual block whose units are apart (ResNet-50): `blockStart`'s
 * input is the block input that `blockEnd` also reads (its shortcut); `plain` otherwise.
 * A pipeline that cuts inside such a block hands the block input on with the feature map.
 */
export type UnitRole = 'plain' | 'blockStart' | 'blockEnd';

/** A unit before it is built. */
export interface TfUnitPlan {
  readonly name: string;
  readonly inputShapes: readonly (readonly number[])[];
  readonly role: UnitRole;
  /** Allocates the unit's weights from `weights` and returns its forward pass. */
  build(tf: Tf, weights: Weights): (inputs: readonly Tensor[]) => Tensor;
}

/** Which network: one of the paper's three at an input size, or a tiny one for tests. */
export type UnitSource =
  | { readonly kind: 'model'; readonly model: ModelId; readonly inputSize: number }
  /** `units` 3×3 convolutions (ReLU) over `inputSize`² × `channels`, then a dense layer: a few milliseconds in all. */
  | { readonly kind: 'tiny'; readonly units: number; readonly inputSize: number; readonly channels: number };

interface Weights {
  readonly tensors: Tensor[];
  conv(kernel: number, inChannels: number, outChannels: number): { filter: Tensor4D; bias: Tensor1D };
  dense(inFeatures: number, outFeatures: number): { weights: Tensor2D; bias: Tensor1D };
}

/** `count` uniform values in [−limit, limit) from the engine's seeded generator (tfjs's own random ops are several times slower for VGG16's 138 M weights). */
function uniformValues(count: number, limit: number, seed: number, stream: number): Float32Array {
  const rng = createRng(seed >>> 0, stream);
  const values = new Float32Array(count);
  for (let i = 0; i < count; i += 1) values[i] = (2 * rng.nextFloat() - 1) * limit;
  return values;
}

/** Streams of the generator per unit: unit `index`'s k-th tensor draws from stream (index + 1) · 64 + k. */
const STREAMS_PER_UNIT = 64;

/**
 * He-uniform weights (limit √(6 / fan-in)), so activations neither vanish nor blow up
 * through the ReLUs (denormals would slow a CPU down and skew the times), and a small
 * bias. Each tensor has its own stream of `seed`, numbered from the unit's index.
 */
function weightsFor(tf: Tf, seed: number, unitIndex: number): Weights {
  let stream = (unitIndex + 1) * STREAMS_PER_UNIT;
  const tensors: Tensor[] = [];
  const keep = <T extends Tensor>(t: T): T => {
    tensors.push(t);
    return t;
  };
  const uniform = (shape: number[], fanIn: number) => {
    stream += 1;
    const count = shape.reduce((a, b) => a * b, 1);
    return tf.tensor(uniformValues(count, Math.sqrt(6 / fanIn), seed, stream), shape, 'float32');
  };
  return {
    tensors,
    conv: (kernel, inChannels, outChannels) => ({
      filter: keep(uniform([kernel, kernel, inChannels, outChannels], kernel * kernel * inChannels) as Tensor4D),
      bias: keep(tf.fill([outChannels], 0.01) as Tensor1D),
    }),
    dense: (inFeatures, outFeatures) => ({
      weights: keep(uniform([inFeatures, outFeatures], inFeatures) as Tensor2D),
      bias: keep(tf.fill([outFeatures], 0.01) as Tensor1D),
    }),
  };
}

/** Output side of a sliding window, as layers.ts computes it. */
function windowOut(n: number, kernel: number, stride: number, pad: number): number {
  return Math.floor((n + 2 * pad - kernel) / stride) + 1;
}

type Activation = 'relu' | 'linear';

function convOp(tf: Tf, weights: Weights, inChannels: number, outChannels: number, kernel: number, stride: number, pad: number, activation: Activation) {
  const { filter, bias } = weights.conv(kernel, inChannels, outChannels);
  return (x: Tensor4D): Tensor4D => tf.fused.conv2d({ x, filter, bias, strides: stride, pad, activation });
}

function plan(name: string, inputShapes: number[][], build: TfUnitPlan['build'], role: UnitRole = 'plain'): TfUnitPlan {
  return { name, inputShapes, role, build };
}

/** A dense unit: flattens its input, then x·W + b, shaped [1, 1, 1, out] for the next unit. */
function densePlan(name: string, inputShape: number[], features: number, out: number, activation: Activation): TfUnitPlan {
  return plan(name, [inputShape], (tf, weights) => {
    const { weights: w, bias } = weights.dense(features, out);
    return ([x]) => tf.tidy(() => tf.fused.matMul({ a: tf.reshape(x as Tensor, [1, -1]) as Tensor2D, b: w, bias, activation }).reshape([1, 1, 1, out]));
  });
}

function vgg16(size: number): TfUnitPlan[] {
  const blocks = [
    [64, 64],
    [128, 128],
    [256, 256, 256],
    [512, 512, 512],
    [512, 512, 512],
  ];
  const plans: TfUnitPlan[] = [];
  let side = size;
  let channels = 3;
  blocks.forEach((widths, b) => {
    widths.forEach((width, c) => {
      const pooled = c === widths.length - 1;
      const inChannels = channels;
      plans.push(
        plan(`conv${b + 1}_${c + 1}`, [[1, side, side, channels]], (tf, weights) => {
          const conv = convOp(tf, weights, inChannels, width, 3, 1, 1, 'relu');
          return ([x]) => {
            const y = conv(x as Tensor4D);
            if (!pooled) return y;
            const p = tf.maxPool(y, 2, 2, 'valid');
            y.dispose();
            return p;
          };
        }),
      );
      channels = width;
      if (pooled) side = windowOut(side, 2, 2, 0);
    });
  });
  let features = side * side * channels;
  const inputShape = [1, side, side, channels];
  for (const [name, out] of [
    ['fc6', 4096],
    ['fc7', 4096],
    ['fc8', 1000],
  ] as const) {
    plans.push(densePlan(name, name === 'fc6' ? inputShape : [1, 1, 1, features], features, out, name === 'fc8' ? 'linear' : 'relu'));
    features = out;
  }
  return plans;
}

interface Stage {
  readonly index: number;
  readonly blocks: number;
  readonly width: number;
}

const RESNET50: readonly Stage[] = [
  { index: 2, blocks: 3, width: 64 },
  { index: 3, blocks: 4, width: 128 },
  { index: 4, blocks: 6, width: 256 },
  { index: 5, blocks: 3, width: 512 },
];
const RESNET152: readonly Stage[] = [
  { index: 2, blocks: 3, width: 64 },
  { index: 3, blocks: 8, width: 128 },
  { index: 4, blocks: 36, width: 256 },
  { index: 5, blocks: 3, width: 512 },
];

/** layers.ts's names: `res3a`…, and for long stages of ResNet-152 `res4b1`…`res4b35`. */
function blockName(stage: Stage, block: number, caffe152: boolean): string {
  if (caffe152 && stage.blocks > 3 && block > 0) return `res${stage.index}b${block}`;
  return `res${stage.index}${String.fromCharCode(97 + block)}`;
}

/** The block's add: expanded + shortcut (the input, or its projection), then ReLU. */
function addAndRelu(tf: Tf, project: ((x: Tensor4D) => Tensor4D) | null, expanded: Tensor4D, input: Tensor4D): Tensor {
  const shortcut = project === null ? input : project(input);
  const sum = tf.add(expanded, shortcut);
  const out = tf.relu(sum);
  sum.dispose();
  expanded.dispose();
  if (shortcut !== input) shortcut.dispose();
  return out;
}

function resnet(size: number, model: 'resnet50' | 'resnet152'): TfUnitPlan[] {
  const plans: TfUnitPlan[] = [];
  plans.push(
    plan('conv1', [[1, size, size, 3]], (tf, weights) => {
      const stem = convOp(tf, weights, 3, 64, 7, 2, 3, 'relu');
      return ([x]) => {
        const y = stem(x as Tensor4D);
        const p = tf.maxPool(y, 3, 2, 1);
        y.dispose();
        return p;
      };
    }),
  );
  let side = windowOut(windowOut(size, 7, 2, 3), 3, 2, 1);
  let channels = 64;
  const stages = model === 'resnet50' ? RESNET50 : RESNET152;
  for (const stage of stages) {
    for (let b = 0; b < stage.blocks; b += 1) {
      const first = b === 0;
      const stride = first && stage.index > 2 ? 2 : 1;
      const width = stage.width;
      const inChannels = channels;
      const name = blockName(stage, b, model === 'resnet152');
      const outSide = windowOut(side, 3, stride, 1);
      const blockInput = [1, side, side, channels];
      const projectOp = (tf: Tf, weights: Weights) => (first ? convOp(tf, weights, inChannels, width * 4, 1, stride, 0, 'linear') : null);
      if (model === 'resnet152') {
        plans.push(
          plan(name, [blockInput], (tf, weights) => {
            const reduce = convOp(tf, weights, inChannels, width, 1, 1, 0, 'relu');
            const spatial = convOp(tf, weights, width, width, 3, stride, 1, 'relu');
            const expand = convOp(tf, weights, width, width * 4, 1, 1, 0, 'linear');
            const project = projectOp(tf, weights);
            return ([x]) => {
              const a = reduce(x as Tensor4D);
              const s = spatial(a);
              a.dispose();
              const e = expand(s);
              s.dispose();
              return addAndRelu(tf, project, e, x as Tensor4D);
            };
          }),
        );
      } else {
        plans.push(
          plan(
            `${name}_conv1`,
            [blockInput],
            (tf, weights) => {
              const reduce = convOp(tf, weights, inChannels, width, 1, 1, 0, 'relu');
              return ([x]) => reduce(x as Tensor4D);
            },
            'blockStart',
          ),
        );
        plans.push(
          plan(`${name}_conv2`, [[1, side, side, width]], (tf, weights) => {
            const spatial = convOp(tf, weights, width, width, 3, stride, 1, 'relu');
            return ([x]) => spatial(x as Tensor4D);
          }),
        );
        plans.push(
          plan(
            `${name}_conv3`,
            [[1, outSide, outSide, width], blockInput],
            (tf, weights) => {
              const expand = convOp(tf, weights, width, width * 4, 1, 1, 0, 'linear');
              const project = projectOp(tf, weights);
              return ([x, input]) => addAndRelu(tf, project, expand(x as Tensor4D), input as Tensor4D);
            },
            'blockEnd',
          ),
        );
      }
      side = outSide;
      channels = width * 4;
    }
  }
  const finalSide = side;
  const finalChannels = channels;
  plans.push(
    plan('fc', [[1, finalSide, finalSide, finalChannels]], (tf, weights) => {
      const { weights: w, bias } = weights.dense(finalChannels, 1000);
      return ([x]) => tf.tidy(() => tf.fused.matMul({ a: tf.mean(x as Tensor, [1, 2]) as Tensor2D, b: w, bias }).reshape([1, 1, 1, 1000]));
    }),
  );
  return plans;
}

function tiny(units: number, size: number, channels: number): TfUnitPlan[] {
  const plans: TfUnitPlan[] = [];
  for (let u = 0; u < units - 1; u += 1) {
    const inChannels = u === 0 ? 3 : channels;
    plans.push(
      plan(`conv${u + 1}`, [[1, size, size, inChannels]], (tf, weights) => {
        const conv = convOp(tf, weights, inChannels, channels, 3, 1, 1, 'relu');
        return ([x]) => conv(x as Tensor4D);
      }),
    );
  }
  plans.push(densePlan('fc', [1, size, size, units === 1 ? 3 : channels], size * size * (units === 1 ? 3 : channels), 10, 'linear'));
  return plans;
}

/** The plans of a network's units, in forward order. */
export function tfUnitPlans(source: UnitSource): TfUnitPlan[] {
  if (source.kind === 'tiny') {
    if (!Number.isInteger(source.units) || source.units < 1) throw new RangeError(`a tiny network needs at least one unit, got ${source.units}`);
    return tiny(source.units, source.inputSize, source.channels);
  }
  switch (source.model) {
    case 'vgg16':
      return vgg16(source.inputSize);
    case 'resnet50':
    case 'resnet152':
      return resnet(source.inputSize, source.model);
    default:
      throw new RangeError(`unknown model: ${String(source.model)}`);
  }
}

/** Builds unit `index` of `plans` with weights drawn from `seed` (the same unit wherever it is built). */
export function buildTfUnit(tf: Tf, plans: readonly TfUnitPlan[], index: number, seed: number): TfUnit {
  const p = plans[index];
  if (p === undefined) throw new RangeError(`unit ${index} is not one of the network's ${plans.length}`);
  const weights = weightsFor(tf, seed, index);
  const run = p.build(tf, weights);
  const tensors = weights.tensors.splice(0);
  return {
    name: p.name,
    inputShapes: p.inputShapes,
    role: p.role,
    run,
    dispose: () => {
      for (const t of tensors) t.dispose();
    },
  };
}

/**
 * The units of `model` at `inputSize`×`inputSize`×3, batch 1, with weights drawn from
 * `seed`. At 224 VGG16's weights take about 550 MB (fc6 alone 400 MB); dispose every unit
 * when done.
 */
export function buildTfUnits(tf: Tf, model: ModelId, inputSize: number, seed = 1): TfUnit[] {
  const plans = tfUnitPlans({ kind: 'model', model, inputSize });
  return plans.map((_, index) => buildTfUnit(tf, plans, index, seed));
}

/** `count` values in [0, 1) (the absolute value of a uniform in [−1, 1)), like the ReLU outputs a unit would see. */
export function nonNegativeValues(count: number, seed: number, stream: number): Float32Array {
  const values = uniformValues(count, 1, seed, stream);
  for (let j = 0; j < values.length; j += 1) values[j] = Math.abs(values[j]!);
  return values;
}

/** Random inputs of a unit's shapes (non-negative, like the ReLU outputs it would see). */
export function unitInputs(tf: Tf, unit: Pick<TfUnit, 'inputShapes'>, seed: number): Tensor<Rank>[] {
  return unit.inputShapes.map((shape, i) => tf.tensor(nonNegativeValues(shape.reduce((a, b) => a * b, 1), seed, i), [...shape], 'float32'));
}
