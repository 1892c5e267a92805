/**
 * The units of VGG16, ResNet-50 and ResNet-152 as TensorFlow.js ops (ARCHITECTURE §2):
 * the same units, names and shapes as src/engine/profiles/layers.ts (a ResNet-152
 * residual block is one unit; a ResNet-50 block is three, the projection shortcut and the
 * add folded into the third), with seeded random weights, so nothing is downloaded. The
 * ODIN paper measured Keras layers (§4.1); these are the same computations in tfjs.
 *
 * Inference batch-norm is folded into each conv's bias and ReLU fused into it, as
 * layers.ts counts them. tfjs is passed in: this module never imports it at runtime.
 */
import type { Rank, Tensor, Tensor1D, Tensor2D, Tensor4D } from '@tensorflow/tfjs';
import type { Tf } from '../agents/tf';
import type { ModelId } from '../engine/profiles/types';
import { createRng } from '../engine/rng';

/** One unit, ready to time: its inputs' shapes (NHWC, batch 1) and its forward pass. */
export interface TfUnit {
  readonly name: string;
  /** The feature map entering the unit, then (ResNet-50's `_conv3`) the block input its shortcut reads. */
  readonly inputShapes: readonly (readonly number[])[];
  /** The unit's forward pass; the caller disposes the result. */
  run(inputs: readonly Tensor[]): Tensor;
  /** Frees the unit's weights. */
  dispose(): void;
}

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

/**
 * He-uniform weights (limit √(6 / fan-in)), so activations neither vanish nor blow up
 * through the ReLUs (denormals would slow a CPU down and skew the times), and a small
 * bias. Each tensor has its own stream of `seed`.
 */
function weightsFor(tf: Tf, seed: number): Weights {
  let stream = 0;
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

function makeUnit(name: string, inputShapes: number[][], weights: Weights, run: (inputs: readonly Tensor[]) => Tensor): TfUnit {
  const tensors = weights.tensors.splice(0);
  return {
    name,
    inputShapes,
    run,
    dispose: () => {
      for (const t of tensors) t.dispose();
    },
  };
}

type Activation = 'relu' | 'linear';

function convOp(tf: Tf, weights: Weights, inChannels: number, outChannels: number, kernel: number, stride: number, pad: number, activation: Activation) {
  const { filter, bias } = weights.conv(kernel, inChannels, outChannels);
  return (x: Tensor4D): Tensor4D => tf.fused.conv2d({ x, filter, bias, strides: stride, pad, activation });
}

function vgg16(tf: Tf, size: number, seed: number): TfUnit[] {
  const blocks = [
    [64, 64],
    [128, 128],
    [256, 256, 256],
    [512, 512, 512],
    [512, 512, 512],
  ];
  const weights = weightsFor(tf, seed);
  const units: TfUnit[] = [];
  let side = size;
  let channels = 3;
  blocks.forEach((widths, b) => {
    widths.forEach((width, c) => {
      const conv = convOp(tf, weights, channels, width, 3, 1, 1, 'relu');
      const pooled = c === widths.length - 1;
      units.push(
        makeUnit(`conv${b + 1}_${c + 1}`, [[1, side, side, channels]], weights, ([x]) => {
          const y = conv(x as Tensor4D);
          if (!pooled) return y;
          const p = tf.maxPool(y, 2, 2, 'valid');
          y.dispose();
          return p;
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
    const { weights: w, bias } = weights.dense(features, out);
    const activation: Activation = name === 'fc8' ? 'linear' : 'relu';
    const shape = name === 'fc6' ? inputShape : [1, 1, 1, features];
    units.push(
      makeUnit(name, [shape], weights, ([x]) =>
        tf.tidy(() => tf.fused.matMul({ a: tf.reshape(x as Tensor, [1, -1]) as Tensor2D, b: w, bias, activation }).reshape([1, 1, 1, out])),
      ),
    );
    features = out;
  }
  return units;
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

function resnet(tf: Tf, size: number, seed: number, model: 'resnet50' | 'resnet152'): TfUnit[] {
  const weights = weightsFor(tf, seed);
  const units: TfUnit[] = [];
  const stem = convOp(tf, weights, 3, 64, 7, 2, 3, 'relu');
  units.push(
    makeUnit('conv1', [[1, size, size, 3]], weights, ([x]) => {
      const y = stem(x as Tensor4D);
      const p = tf.maxPool(y, 3, 2, 1);
      y.dispose();
      return p;
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
      const name = blockName(stage, b, model === 'resnet152');
      const reduce = convOp(tf, weights, channels, width, 1, 1, 0, 'relu');
      const reduceTensors = weights.tensors.splice(0);
      const spatial = convOp(tf, weights, width, width, 3, stride, 1, 'relu');
      const spatialTensors = weights.tensors.splice(0);
      const expand = convOp(tf, weights, width, width * 4, 1, 1, 0, 'linear');
      const project = first ? convOp(tf, weights, channels, width * 4, 1, stride, 0, 'linear') : null;
      const outSide = windowOut(side, 3, stride, 1);
      const blockInput = [1, side, side, channels];
      const addAndRelu = (expanded: Tensor4D, input: Tensor4D): Tensor => {
        const shortcut = project === null ? input : project(input);
        const sum = tf.add(expanded, shortcut);
        const out = tf.relu(sum);
        sum.dispose();
        expanded.dispose();
        if (shortcut !== input) shortcut.dispose();
        return out;
      };
      if (model === 'resnet152') {
        weights.tensors.unshift(...reduceTensors, ...spatialTensors);
        units.push(
          makeUnit(name, [blockInput], weights, ([x]) => {
            const a = reduce(x as Tensor4D);
            const s = spatial(a);
            a.dispose();
            const e = expand(s);
            s.dispose();
            return addAndRelu(e, x as Tensor4D);
          }),
        );
      } else {
        const expandTensors = weights.tensors.splice(0);
        weights.tensors.push(...reduceTensors);
        units.push(makeUnit(`${name}_conv1`, [blockInput], weights, ([x]) => reduce(x as Tensor4D)));
        weights.tensors.push(...spatialTensors);
        units.push(makeUnit(`${name}_conv2`, [[1, side, side, width]], weights, ([x]) => spatial(x as Tensor4D)));
        weights.tensors.push(...expandTensors);
        units.push(
          makeUnit(`${name}_conv3`, [[1, outSide, outSide, width], blockInput], weights, ([x, input]) => addAndRelu(expand(x as Tensor4D), input as Tensor4D)),
        );
      }
      side = outSide;
      channels = width * 4;
    }
  }
  const { weights: w, bias } = weights.dense(channels, 1000);
  units.push(
    makeUnit('fc', [[1, side, side, channels]], weights, ([x]) =>
      tf.tidy(() => tf.fused.matMul({ a: tf.mean(x as Tensor, [1, 2]) as Tensor2D, b: w, bias }).reshape([1, 1, 1, 1000])),
    ),
  );
  return units;
}

/**
 * The units of `model` at `inputSize`×`inputSize`×3, batch 1, with weights drawn from
 * `seed`. At 224 VGG16's weights take about 550 MB (fc6 alone 400 MB); dispose every unit
 * when done.
 */
export function buildTfUnits(tf: Tf, model: ModelId, inputSize: number, seed = 1): TfUnit[] {
  switch (model) {
    case 'vgg16':
      return vgg16(tf, inputSize, seed);
    case 'resnet50':
    case 'resnet152':
      return resnet(tf, inputSize, seed, model);
    default:
      throw new RangeError(`unknown model: ${String(model)}`);
  }
}

/** Random inputs of a unit's shapes (non-negative, like the ReLU outputs it would see). */
export function unitInputs(tf: Tf, unit: TfUnit, seed: number): Tensor<Rank>[] {
  return unit.inputShapes.map((shape, i) => {
    const values = uniformValues(shape.reduce((a, b) => a * b, 1), 1, seed, i);
    // [0, 1): the absolute value of a uniform in [−1, 1).
    for (let j = 0; j < values.length; j += 1) values[j] = Math.abs(values[j]!);
    return tf.tensor(values, [...shape], 'float32');
  });
}
