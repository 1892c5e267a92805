/**
 * The real layer shapes of the three CNNs of the ODIN paper (§4.1: VGG16, ResNet-50,
 * ResNet-152) at a 224×224×3 input, batch 1, fp32, cut into the units the pipeline
 * partitions (ARCHITECTURE §2: 16, 50 and 52 units). For each unit: its FLOPs and the bytes it
 * moves, which the roofline model (roofline.ts) turns into milliseconds per co-location
 * mode. Nothing here is measured or invented: every number follows from the shapes.
 *
 * Counting conventions (the paper does not give them; these are the usual ones):
 * - FLOPs = 2 × multiply–accumulates of conv and fully connected layers only, so the
 *   totals match the published GMAC figures (VGG16 ≈ 15.5, ResNet-50 ≈ 4.1,
 *   ResNet-152 ≈ 11.5 GMACs). Pooling, ReLU, batch-norm and residual adds do a few
 *   operations per element: negligible as FLOPs, but they stream whole feature maps, so
 *   they are counted as bytes.
 * - Bytes = 4 × (weights + input activations + output activations) per conv/FC, plus
 *   4 × (inputs + outputs) per pooling or residual add. ReLU and inference batch-norm are
 *   fused into the conv before them (BN folds into a per-channel scale and bias; ReLU is
 *   a post-op), so they add no traffic of their own.
 * - Params = conv/FC weights and biases; ResNet convs have no bias but count their BN's
 *   scale and shift (2 per channel), as torchvision's parameter counts do.
 */
import type { ModelId } from './types';

/** A feature map of one image (batch 1): height × width × channels. */
export interface FeatureMap {
  readonly height: number;
  readonly width: number;
  readonly channels: number;
}

/** One unit of a pipeline: what the partitioner moves between stages. */
export interface LayerUnit {
  /** Unit name, unique within its model (e.g. `conv1_2`, `res3a_conv2`, `res4b12`). */
  readonly name: string;
  /** Feature map entering the unit. */
  readonly input: FeatureMap;
  /** Feature map leaving the unit (after any pooling folded into it). */
  readonly output: FeatureMap;
  /** Floating-point operations: 2 × MACs of its conv/FC layers. */
  readonly flops: number;
  /** Learned parameters (weights, biases, BN scale and shift). */
  readonly params: number;
  /** Bytes moved: weights + input + output activations of every op folded in, fp32. */
  readonly bytes: number;
  /** Conv/FC kernels folded into the unit: each one costs a fixed dispatch overhead. */
  readonly kernels: number;
}

/** fp32. */
const BYTES_PER_VALUE = 4;

/** The cost of one or more ops before they are named as a unit. */
interface Cost {
  readonly flops: number;
  readonly params: number;
  readonly bytes: number;
  readonly kernels: number;
}

interface Op {
  readonly output: FeatureMap;
  readonly cost: Cost;
}

const NO_COST: Cost = { flops: 0, params: 0, bytes: 0, kernels: 0 };

function values(map: FeatureMap): number {
  return map.height * map.width * map.channels;
}

function addCosts(...costs: readonly Cost[]): Cost {
  let flops = 0;
  let params = 0;
  let bytes = 0;
  let kernels = 0;
  for (const cost of costs) {
    flops += cost.flops;
    params += cost.params;
    bytes += cost.bytes;
    kernels += cost.kernels;
  }
  return { flops, params, bytes, kernels };
}

/** Output side of a sliding window: floor((n + 2·pad − k) / stride) + 1. */
function windowOut(n: number, kernel: number, stride: number, pad: number): number {
  return Math.floor((n + 2 * pad - kernel) / stride) + 1;
}

/**
 * A k×k convolution. `perChannelParams` is 1 for a conv with bias (VGG16) and 2 for a
 * bias-free conv followed by batch-norm (ResNet), see the counting conventions above.
 */
function conv(
  input: FeatureMap,
  outChannels: number,
  kernel: number,
  stride: number,
  pad: number,
  perChannelParams: 1 | 2,
): Op {
  const output: FeatureMap = {
    height: windowOut(input.height, kernel, stride, pad),
    width: windowOut(input.width, kernel, stride, pad),
    channels: outChannels,
  };
  const weights = kernel * kernel * input.channels * outChannels;
  const params = weights + perChannelParams * outChannels;
  const macs = output.height * output.width * weights;
  return {
    output,
    cost: {
      flops: 2 * macs,
      params,
      bytes: BYTES_PER_VALUE * (params + values(input) + values(output)),
      kernels: 1,
    },
  };
}

/** A fully connected layer with bias on the flattened input. */
function fullyConnected(input: FeatureMap, outFeatures: number): Op {
  const inFeatures = values(input);
  const params = inFeatures * outFeatures + outFeatures;
  return {
    output: { height: 1, width: 1, channels: outFeatures },
    cost: {
      flops: 2 * inFeatures * outFeatures,
      params,
      bytes: BYTES_PER_VALUE * (params + inFeatures + outFeatures),
      kernels: 1,
    },
  };
}

/** Max pooling: reads its input, writes its output; no FLOPs worth counting. */
function maxPool(input: FeatureMap, kernel: number, stride: number, pad: number): Op {
  const output: FeatureMap = {
    height: windowOut(input.height, kernel, stride, pad),
    width: windowOut(input.width, kernel, stride, pad),
    channels: input.channels,
  };
  return {
    output,
    cost: { ...NO_COST, bytes: BYTES_PER_VALUE * (values(input) + values(output)) },
  };
}

/** Global average pooling to 1×1×C. */
function globalAvgPool(input: FeatureMap): Op {
  const output: FeatureMap = { height: 1, width: 1, channels: input.channels };
  return {
    output,
    cost: { ...NO_COST, bytes: BYTES_PER_VALUE * (values(input) + values(output)) },
  };
}

/** Residual add (with its fused ReLU): reads two maps, writes one. */
function residualAdd(map: FeatureMap): Op {
  return { output: map, cost: { ...NO_COST, bytes: BYTES_PER_VALUE * 3 * values(map) } };
}

function unit(name: string, input: FeatureMap, output: FeatureMap, cost: Cost): LayerUnit {
  return Object.freeze({
    name,
    input: Object.freeze({ ...input }),
    output: Object.freeze({ ...output }),
    flops: cost.flops,
    params: cost.params,
    bytes: cost.bytes,
    kernels: cost.kernels,
  });
}

/** The input side of the paper's models (§4.1: ImageNet 224×224×3). */
export const PAPER_INPUT_SIZE = 224;

/** An RGB image of `size`×`size`, batch 1. */
function image(size: number): FeatureMap {
  return { height: size, width: size, channels: 3 };
}

/**
 * VGG16 (configuration D of Simonyan & Zisserman): 13 3×3 convs and 3 FC layers, each
 * one unit (16, as the paper's §4.1 counts). Each 2×2/2 max-pool is folded into the
 * conv before it, since a pool alone is not a layer the paper's pipeline moves.
 */
function buildVgg16(size: number): LayerUnit[] {
  const blocks: readonly (readonly number[])[] = [
    [64, 64],
    [128, 128],
    [256, 256, 256],
    [512, 512, 512],
    [512, 512, 512],
  ];
  const units: LayerUnit[] = [];
  let map = image(size);
  blocks.forEach((widths, blockIndex) => {
    widths.forEach((width, convIndex) => {
      const c = conv(map, width, 3, 1, 1, 1);
      let output = c.output;
      let cost = c.cost;
      if (convIndex === widths.length - 1) {
        const pool = maxPool(output, 2, 2, 0);
        output = pool.output;
        cost = addCosts(cost, pool.cost);
      }
      units.push(unit(`conv${blockIndex + 1}_${convIndex + 1}`, map, output, cost));
      map = output;
    });
  });
  for (const [name, features] of [
    ['fc6', 4096],
    ['fc7', 4096],
    ['fc8', 1000],
  ] as const) {
    const fc = fullyConnected(map, features);
    units.push(unit(name, map, fc.output, fc.cost));
    map = fc.output;
  }
  return units;
}

/** The ResNet stem: 7×7/2 conv to 64 channels with the 3×3/2 max-pool folded in. */
function resnetStem(size: number): LayerUnit {
  const input = image(size);
  const c = conv(input, 64, 7, 2, 3, 2);
  const pool = maxPool(c.output, 3, 2, 1);
  return unit('conv1', input, pool.output, addCosts(c.cost, pool.cost));
}

/** The classifier head: global average pool folded into the 2048→1000 FC. */
function resnetHead(input: FeatureMap): LayerUnit {
  const pool = globalAvgPool(input);
  const fc = fullyConnected(pool.output, 1000);
  return unit('fc', input, fc.output, addCosts(pool.cost, fc.cost));
}

/** The three parts of a bottleneck block, in forward order. */
interface Bottleneck {
  readonly reduce: Op;
  readonly spatial: Op;
  /** The expanding 1×1 conv with the projection shortcut (if any) and the add folded in. */
  readonly expandAndAdd: Op;
}

/**
 * A bottleneck block as in torchvision's ResNet v1.5: 1×1 reduce, 3×3 (carrying the
 * stride), 1×1 expand ×4; the first block of a stage projects its shortcut with a
 * strided 1×1 conv. The projection and the residual add run after the expand conv, so
 * they are folded into it.
 */
function bottleneck(input: FeatureMap, width: number, stride: number, project: boolean): Bottleneck {
  const reduce = conv(input, width, 1, 1, 0, 2);
  const spatial = conv(reduce.output, width, 3, stride, 1, 2);
  const expand = conv(spatial.output, width * 4, 1, 1, 0, 2);
  const projection = project ? conv(input, width * 4, 1, stride, 0, 2).cost : NO_COST;
  const add = residualAdd(expand.output);
  return {
    reduce,
    spatial,
    expandAndAdd: {
      output: add.output,
      cost: addCosts(expand.cost, projection, add.cost),
    },
  };
}

interface Stage {
  readonly index: number;
  readonly blocks: number;
  readonly width: number;
}

const RESNET50_STAGES: readonly Stage[] = [
  { index: 2, blocks: 3, width: 64 },
  { index: 3, blocks: 4, width: 128 },
  { index: 4, blocks: 6, width: 256 },
  { index: 5, blocks: 3, width: 512 },
];

const RESNET152_STAGES: readonly Stage[] = [
  { index: 2, blocks: 3, width: 64 },
  { index: 3, blocks: 8, width: 128 },
  { index: 4, blocks: 36, width: 256 },
  { index: 5, blocks: 3, width: 512 },
];

/** Walks the stages, handing each block with its name suffix and input to `visit`. */
function forEachBlock(
  stages: readonly Stage[],
  input: FeatureMap,
  blockName: (stage: Stage, block: number) => string,
  visit: (name: string, input: FeatureMap, block: Bottleneck) => void,
): FeatureMap {
  let map = input;
  for (const stage of stages) {
    for (let b = 0; b < stage.blocks; b += 1) {
      const first = b === 0;
      // Stage 2 follows the max-pool, so only stages 3–5 halve the map (torchvision).
      const stride = first && stage.index > 2 ? 2 : 1;
      const block = bottleneck(map, stage.width, stride, first);
      visit(blockName(stage, b), map, block);
      map = block.expandAndAdd.output;
    }
  }
  return map;
}

/** Block letters a, b, c, … as in the original ResNet-50 layer names (at most 6 per stage). */
function letterName(stage: Stage, block: number): string {
  return `res${stage.index}${String.fromCharCode(97 + block)}`;
}

/**
 * The original (Caffe) ResNet-152 names: `res4a`, then `res4b1` … `res4b35` for stages
 * with more blocks than letters make readable; stages 2 and 5 keep `a`, `b`, `c`.
 */
function caffe152Name(stage: Stage, block: number): string {
  if (stage.blocks <= 3 || block === 0) return letterName(stage, block);
  return `res${stage.index}b${block}`;
}

/** ResNet-50: stem, 16 bottlenecks × 3 convs, head = 50 units (ARCHITECTURE §2). */
function buildResNet50(size: number): LayerUnit[] {
  const units: LayerUnit[] = [resnetStem(size)];
  const start = units[0]?.output ?? image(size);
  const end = forEachBlock(RESNET50_STAGES, start, letterName, (name, input, block) => {
    units.push(unit(`${name}_conv1`, input, block.reduce.output, block.reduce.cost));
    units.push(
      unit(`${name}_conv2`, block.reduce.output, block.spatial.output, block.spatial.cost),
    );
    units.push(
      unit(
        `${name}_conv3`,
        block.spatial.output,
        block.expandAndAdd.output,
        block.expandAndAdd.cost,
      ),
    );
  });
  units.push(resnetHead(end));
  return units;
}

/**
 * ResNet-152: stem, 50 bottleneck blocks each as ONE unit (ARCHITECTURE §2: "residual blocks
 * count as one unit"), head = 52 units.
 */
function buildResNet152(size: number): LayerUnit[] {
  const units: LayerUnit[] = [resnetStem(size)];
  const start = units[0]?.output ?? image(size);
  const end = forEachBlock(RESNET152_STAGES, start, caffe152Name, (name, input, block) => {
    const cost = addCosts(block.reduce.cost, block.spatial.cost, block.expandAndAdd.cost);
    units.push(unit(name, input, block.expandAndAdd.output, cost));
  });
  units.push(resnetHead(end));
  return units;
}

const BUILDERS: Readonly<Record<ModelId, (size: number) => LayerUnit[]>> = {
  vgg16: buildVgg16,
  resnet50: buildResNet50,
  resnet152: buildResNet152,
};

const cache = new Map<string, readonly LayerUnit[]>();

/** Smallest input side every model accepts: ResNet halves the map 5 times (32 → 1). */
export const MIN_INPUT_SIZE = 32;

/**
 * The units of `model` in forward order, with their FLOPs, parameters and bytes moved at
 * `inputSize`×`inputSize`×3 (default 224, the paper's), batch 1, fp32. The same units and
 * names at every size; only the feature maps (and VGG16's fc6 input) shrink. A smaller
 * size is for quick measurements (`measure --size 112`, ARCHITECTURE §5). Computed once per model and size; the array
 * and its units are frozen.
 */
export function getModelLayers(model: ModelId, inputSize: number = PAPER_INPUT_SIZE): readonly LayerUnit[] {
  const key = `${model}@${inputSize}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const build = BUILDERS[model];
  if (!build) throw new RangeError(`unknown model: ${String(model)}`);
  if (!Number.isInteger(inputSize) || inputSize < MIN_INPUT_SIZE || inputSize > 1024) {
    throw new RangeError(`input size must be an integer from ${MIN_INPUT_SIZE} to 1024, got ${inputSize}`);
  }
  const units = Object.freeze(build(inputSize));
  cache.set(key, units);
  return units;
}

/** Sums of a model's units: FLOPs, parameters, bytes moved and kernels for one forward pass. */
export interface ModelTotals {
  readonly flops: number;
  readonly params: number;
  readonly bytes: number;
  readonly kernels: number;
}

/** Totals over `units` (e.g. to check a model against its published GMACs and params). */
export function sumUnits(units: readonly LayerUnit[]): ModelTotals {
  return addCosts(...units);
}
