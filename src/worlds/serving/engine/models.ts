import { PLATFORMS, relativeBandwidth, relativeCompute, REFERENCE_PLATFORM, type Platform } from './platforms';

/**
 * The six DNN models of BCEdge Table IV and the performance model the serving world runs
 * them on.
 *
 * From the paper: names, input shapes and SLOs (Table IV), 224×224 RGB images for the
 * vision models and a 1×14 input for TinyBERT (§V-A), TensorRT on Xavier NX (Table III).
 * From public knowledge of the models: parameters and FLOPs (at 224×224; FLOPs = 2 × MACs),
 * hence FP16 weight sizes. Assumed (the paper gives no latencies, no memory figures): the
 * batch-1 latency on Xavier NX, its CPU share, the GPU occupancy at batch 1, the per-sample
 * activation memory and the memory intensity. They were chosen so that
 * - each model meets its SLO alone at batch 1 with room for batching (SLO ≈ 2.5–5 × t1);
 * - the six models at the paper's 30 rps load Xavier NX enough that the choice of batch
 *   and concurrency matters, with a few % SLO violations for good configurations at 30 rps
 *   and many more at 40 rps (§V-E, Fig. 14–15: 4–9 % at 30 rps, "does not exceed 5 % even at
 *   40 rps" for BCEdge, more for the baselines);
 * - the batch-1 latencies are slower than bare TensorRT benchmarks of these models: they
 *   include Triton's request path and pre/post-processing, as end-to-end figures must
 *   (otherwise 30 rps would leave an 8 GB Xavier NX nearly idle and no scheduler would
 *   matter, against the paper's results).
 * - YOLO-v5 reproduces the shape of Figure 1 (figure1.test.ts checks it).
 *
 * Performance model of one batch of b requests of model m, alone on platform p:
 *
 *   t_iso(b) = cpu1 · b + gpu1 · (1 + s · (b − 1))
 *
 * - cpu1: per-sample CPU time (decoding, resize and normalization, NMS for YOLO, feature
 *   extraction for TinyBERT, Triton's request handling): linear in b, it does not batch.
 * - gpu1: the GPU phase at batch 1; s: what one more sample adds to it, as a share of gpu1
 *   (the per-sample time once the GPU is full).
 * - GPU work, in ms of the whole GPU: w(b) = gpu1 · (u1 + s · (b − 1)), where u1 is the
 *   share of the GPU a batch-1 inference keeps busy. The part u1 − s is per batch (weights
 *   read once per batch, kernel launches), the part s per sample; the occupancy
 *   w / t_gpu rises from u1 at batch 1 towards 1. Batching thus helps twice: it fills idle
 *   SMs (the GPU phase grows sub-linearly: flat while SMs are idle, linear once full) and it
 *   amortizes the per-batch work, which matters once concurrent batches fill the GPU.
 * - Per-sample time t_iso(b)/b falls from t1 to cpu1 + gpu1·s; overlapping one instance's
 *   CPU phase with another's GPU phase is what concurrent instances add (BCEdge §IV-D,
 *   Fig. 4).
 *
 * Across platforms (Table V): the GPU phase scales as a roofline mix,
 *   gpu1(p) = gpu1(NX) · ((1 − μ) / compute(p) + μ / bandwidth(p)),
 * with μ the model's memory intensity (the share of its GPU time bound by DRAM bandwidth);
 * the CPU phase scales with the CPU's single-core speed; u1 and s scale with the CUDA cores
 * (a batch-1 inference fills more of a smaller GPU), capped at 1 (and s at u1).
 */

export const MODEL_IDS = ['yolo', 'mob', 'res', 'eff', 'inc', 'bert'] as const;
export type ModelId = (typeof MODEL_IDS)[number];

export interface ModelProfile {
  readonly id: ModelId;
  readonly label: string;
  readonly task: 'object detection' | 'image classification' | 'speech recognition';
  /** Table IV "Input Shape". */
  readonly inputShape: readonly number[];
  /** The request's input type d_t (BCEdge §III-A1). */
  readonly inputType: 'image' | 'audio';
  /** Table IV "SLO (ms)". */
  readonly sloMs: number;
  /** Parameters, millions (public). */
  readonly paramsM: number;
  /** FLOPs per sample at the paper's input size, G (public; 2 × MACs). */
  readonly gflops: number;
  /** FP16 weights of the TensorRT engine, MB (= 2 bytes × parameters). */
  readonly weightsMb: number;
  /** Memory one sample of a running batch holds, MB (assumed; see the table's notes). */
  readonly activationMbPerSample: number;
  /** Bytes sent per request (uint8 tensor of the input shape; float32 for TinyBERT's 14 values). */
  readonly inputBytes: number;
  /** Bytes returned per request (class scores or detections). */
  readonly outputBytes: number;
  /** Batch-1 latency alone on Xavier NX, ms (assumed; CPU + GPU phases). */
  readonly latencyB1NxMs: number;
  /** Share of the batch-1 latency spent on the CPU (assumed). */
  readonly cpuShare: number;
  /** u1: GPU share a batch-1 inference keeps busy on Xavier NX (assumed). */
  readonly gpuOccupancyB1: number;
  /** s: GPU time one more sample adds, as a share of the batch-1 GPU phase, on Xavier NX (assumed; ≤ u1). */
  readonly gpuSampleShare: number;
  /** μ: share of the GPU time bound by memory bandwidth (assumed from the layer mix). */
  readonly memoryIntensity: number;
  /** Why the assumed numbers are what they are. */
  readonly notes: string;
}

/** Memory an instance holds besides its weights: TensorRT execution context, workspace, Triton buffers, MB (assumed). */
export const INSTANCE_OVERHEAD_MB = 64;

const IMAGE_BYTES = 3 * 224 * 224;

/**
 * The parameter table. Public numbers: YOLO-v5s (the variant the paper's Jetson setting
 * suggests; 7.2 M params, 16.5 GFLOPs at 640² → × (224/640)² = 2.0 at 224²), MobileNet-v3
 * Large (5.4 M, 0.22 GMACs), ResNet-18 (11.7 M, 1.82 GMACs), EfficientNet-B0 (5.3 M,
 * 0.39 GMACs), Inception-v3 (23.8 M, 5.7 GMACs at 299² → 3.2 at 224²), TinyBERT-4 (14.5 M,
 * of which ≈ 4.6 M in the 4 transformer layers: ≈ 2 × 4.6 M × 14 tokens ≈ 0.13 GFLOPs).
 */
export const MODELS: Readonly<Record<ModelId, ModelProfile>> = {
  yolo: {
    id: 'yolo',
    label: 'YOLO-v5',
    task: 'object detection',
    inputShape: [3, 224, 224],
    inputType: 'image',
    sloMs: 138,
    paramsM: 7.2,
    gflops: 2.0,
    weightsMb: 14.4,
    activationMbPerSample: 10,
    inputBytes: IMAGE_BYTES,
    outputBytes: 2048,
    latencyB1NxMs: 48,
    cpuShare: 0.2,
    gpuOccupancyB1: 0.6,
    gpuSampleShare: 0.25,
    memoryIntensity: 0.4,
    notes:
      'The heaviest model per request: most GPU work at batch 1 (u1 0.6) and NMS on the CPU (cpuShare 0.2); batching ' +
      'amortizes weight reads and launches (s 0.25 < u1). Activations: live FP16 maps at 224² kept for the FPN/PAN skips, ' +
      'float32 input staging (0.6 MB) and detection/NMS buffers ≈ 10 MB per sample; 8 instances × 128 samples exceed the ' +
      'NX’s 8 GB (Fig. 1).',
  },
  mob: {
    id: 'mob',
    label: 'MobileNet-v3',
    task: 'image classification',
    inputShape: [3, 224, 224],
    inputType: 'image',
    sloMs: 86,
    paramsM: 5.4,
    gflops: 0.44,
    weightsMb: 10.8,
    activationMbPerSample: 3,
    inputBytes: IMAGE_BYTES,
    outputBytes: 4000,
    latencyB1NxMs: 24,
    cpuShare: 0.2,
    gpuOccupancyB1: 0.4,
    gpuSampleShare: 0.1,
    memoryIntensity: 0.6,
    notes:
      'Few FLOPs but many small depthwise kernels: launch- and bandwidth-bound (μ 0.6), low occupancy at batch 1 (0.4) ' +
      'and the largest amortization by batching (s 0.1).',
  },
  res: {
    id: 'res',
    label: 'ResNet-18',
    task: 'image classification',
    inputShape: [3, 224, 224],
    inputType: 'image',
    sloMs: 58,
    paramsM: 11.7,
    gflops: 3.6,
    weightsMb: 23.4,
    activationMbPerSample: 2.5,
    inputBytes: IMAGE_BYTES,
    outputBytes: 4000,
    latencyB1NxMs: 16,
    cpuShare: 0.15,
    gpuOccupancyB1: 0.6,
    gpuSampleShare: 0.25,
    memoryIntensity: 0.25,
    notes:
      'Dense 3×3 convolutions: compute-bound (μ 0.25), fast for its FLOPs, tight SLO (58 ms).',
  },
  eff: {
    id: 'eff',
    label: 'EfficientNet-B0',
    task: 'image classification',
    inputShape: [3, 224, 224],
    inputType: 'image',
    sloMs: 93,
    paramsM: 5.3,
    gflops: 0.78,
    weightsMb: 10.6,
    activationMbPerSample: 5,
    inputBytes: IMAGE_BYTES,
    outputBytes: 4000,
    latencyB1NxMs: 30,
    cpuShare: 0.15,
    gpuOccupancyB1: 0.5,
    gpuSampleShare: 0.15,
    memoryIntensity: 0.65,
    notes:
      'Depthwise convolutions and squeeze-excite on wide expanded maps (96×112²): the most memory-bound (μ 0.65), ' +
      'large activations for its size (5 MB), slow on GPUs for its FLOPs.',
  },
  inc: {
    id: 'inc',
    label: 'Inception-v3',
    task: 'image classification',
    inputShape: [3, 224, 224],
    inputType: 'image',
    sloMs: 66,
    paramsM: 23.8,
    gflops: 6.4,
    weightsMb: 47.6,
    activationMbPerSample: 4,
    inputBytes: IMAGE_BYTES,
    outputBytes: 4000,
    latencyB1NxMs: 26,
    cpuShare: 0.1,
    gpuOccupancyB1: 0.7,
    gpuSampleShare: 0.35,
    memoryIntensity: 0.3,
    notes:
      'Most FLOPs and weights of the set; parallel branches fill the GPU at batch 1 (u1 0.7) and leave less to gain from ' +
      'batching (s 0.35); tightest SLO relative to its latency (66 ms).',
  },
  bert: {
    id: 'bert',
    label: 'TinyBERT',
    task: 'speech recognition',
    inputShape: [1, 14],
    inputType: 'audio',
    sloMs: 114,
    paramsM: 14.5,
    gflops: 0.13,
    weightsMb: 29,
    activationMbPerSample: 0.3,
    inputBytes: 14 * 4,
    outputBytes: 48,
    latencyB1NxMs: 24,
    cpuShare: 0.4,
    gpuOccupancyB1: 0.3,
    gpuSampleShare: 0.06,
    memoryIntensity: 0.5,
    notes:
      'Tiny GEMMs on 14 tokens: the GPU is nearly idle at batch 1 (0.3, s 0.06) and much of the time is audio feature ' +
      'extraction and request handling on the CPU (cpuShare 0.4).',
  },
};

/**
 * Where the batch-1 latencies on Xavier NX come from (`serving.assumptions.latencyProfile`).
 * - `lab`: the table's `latencyB1NxMs`, slower than bare TensorRT on purpose, so that 30 rps
 *   *in total* over the six models loads the device (the earlier reading of §V-A's rate).
 * - `tensorrt`: published TensorRT figures of these models on Jetson Xavier NX
 *   (`TENSORRT_B1_NX_MS`, each number with its source), for §V-A's 30 rps read per model.
 * Only t1 changes; the CPU share, occupancy, batching slope, memory and the platform
 * scaling stay the table's, so every other property of the model is the same under both.
 */
export type LatencyProfileId = 'tensorrt' | 'lab';
export const LATENCY_PROFILE_IDS: readonly LatencyProfileId[] = ['tensorrt', 'lab'];

/** The batch-1 latency alone on Xavier NX of a model under a profile, ms. */
export function latencyB1NxMs(profile: ModelProfile, latency: LatencyProfileId): number {
  return latency === 'lab' ? profile.latencyB1NxMs : TENSORRT_B1_NX_MS[profile.id];
}

/** A model's performance model compiled for one platform (see the module comment). */
export interface CompiledModel {
  readonly profile: ModelProfile;
  /** Per-sample CPU time, ms. */
  readonly cpuMsPerSample: number;
  /** GPU phase at batch 1, ms. */
  readonly gpuMsB1: number;
  /** u1 on this platform. */
  readonly occupancyB1: number;
  /** s on this platform. */
  readonly sampleShare: number;
  /** Weights + per-instance overhead, MB. */
  readonly instanceMemoryMb: number;
  readonly activationMbPerSample: number;
  readonly memoryIntensity: number;
}

/** Compiles a model's performance model for a platform (Table V scaling, see the module comment). */
export function compileModel(profile: ModelProfile, platform: Platform, latency: LatencyProfileId): CompiledModel {
  const reference = PLATFORMS[REFERENCE_PLATFORM];
  const mu = profile.memoryIntensity;
  const gpuScale = (1 - mu) / relativeCompute(platform) + mu / relativeBandwidth(platform);
  const occupancyB1 = Math.min(1, (profile.gpuOccupancyB1 * reference.cudaCores) / platform.cudaCores);
  const t1 = latencyB1NxMs(profile, latency);
  return {
    profile,
    cpuMsPerSample: (t1 * profile.cpuShare) / platform.relativeCpu,
    gpuMsB1: t1 * (1 - profile.cpuShare) * gpuScale,
    occupancyB1,
    sampleShare: Math.min(occupancyB1, (profile.gpuSampleShare * reference.cudaCores) / platform.cudaCores),
    instanceMemoryMb: profile.weightsMb + INSTANCE_OVERHEAD_MB,
    activationMbPerSample: profile.activationMbPerSample,
    memoryIntensity: mu,
  };
}

/** t_iso(b): time of a batch of `batch` requests alone on the platform, ms. */
export function isolatedBatchMs(model: CompiledModel, batch: number): number {
  return model.cpuMsPerSample * batch + isolatedGpuMs(model, batch);
}

/** GPU phase of a batch alone, ms. */
export function isolatedGpuMs(model: CompiledModel, batch: number): number {
  return model.gpuMsB1 * (1 + model.sampleShare * (batch - 1));
}

/** w(b): GPU work of a batch, in ms of the whole GPU. */
export function gpuWorkMs(model: CompiledModel, batch: number): number {
  return model.gpuMsB1 * (model.occupancyB1 + model.sampleShare * (batch - 1));
}

/**
 * The batch's GPU demand: the share of the whole GPU it keeps busy, averaged over its
 * isolated batch time (w(b) / t_iso(b)). Demands of concurrent batches add up; above 1 the
 * GPU is oversubscribed (contention.ts).
 */
export function gpuDemand(model: CompiledModel, batch: number): number {
  return gpuWorkMs(model, batch) / isolatedBatchMs(model, batch);
}

/** Memory a running batch adds to its instance's, MB. */
export function batchActivationMb(model: CompiledModel, batch: number): number {
  return model.activationMbPerSample * batch;
}

/** Batch-1 latency alone on a platform, ms (the derived column of the parameter table). */
export function batchOneLatencyMs(id: ModelId, platform: Platform, latency: LatencyProfileId): number {
  return isolatedBatchMs(compileModel(MODELS[id], platform, latency), 1);
}

/**
 * The `tensorrt` profile: batch-1 latency alone on Xavier NX, ms. Its GPU phase is a
 * TensorRT FP16 engine time at Table IV's input size, from published Jetson figures; the
 * table's CPU share is kept for pre- and post-processing, so t1 = engine / (1 − cpuShare).
 * No source measures these six models with TensorRT on Xavier NX itself, so each engine time
 * is derived from a cited neighbour (P = published, D = derived):
 * - AGX Xavier → Xavier NX: ×1.66, the GPUs' cores × clock (512 × 1.377 GHz against
 *   384 × 1.109 GHz; NVIDIA-AI-IOT/jetson_benchmarks README). Two measured pairs bracket it:
 *   MLPerf Inference v1.0 ResNet-50 INT8 single-stream, NX 2.574 ms / AGX 1.951 ms = 1.32
 *   (mlcommons/inference_results_v1.0, closed/NVIDIA/results/{Xavier_NX,AGX_Xavier}_TRT); trt_pose
 *   resnet18 224, AGX 251 FPS (NVIDIA-AI-IOT/trt_pose README) / NX 128 FPS (trt_pose issue 44) = 1.96.
 * - ResNet-18: AGX FP16 batch 1, 1.64 ms (P, NVIDIA-AI-IOT/torch2trt benchmarks, JETSON_XAVIER.md
 *   "resnet18 | float16 | … | 1.64") × 1.66 = 2.7 ms (D). Nano: 11.4 ms (P, JETSON_NANO.md).
 * - MobileNet-v3 Large: none published; at batch 1 such nets are bound by kernel count, not FLOPs
 *   (AGX: mobilenet_v2 1.67 ms ≈ resnet18 1.64 ms, P, torch2trt). MnasNet-1.0 AGX 1.77 ms (P) ×
 *   1.66, +5 % for squeeze-excite and h-swish = 3.0 ms (D).
 * - EfficientNet-B0: none published; the MobileNet proxy (2.9 ms) × 1.4 for 16 MBConv blocks with
 *   squeeze-excite and swish and 0.39 against 0.30 GMACs = 4.0 ms (D).
 * - Inception-v3: ResNet-50 AGX FP16 3.37 ms (P, torch2trt) × 1.66 = 5.6 ms on NX, × 1.66 for
 *   Inception-v3 at 299² (TX2 TF-TRT FP16: inception_v3 20.7 ms / resnet_v1_50 12.5 ms, P,
 *   NVIDIA-AI-IOT/tf_trt_models README) = 9.3 ms at 299², × (224/299)² for Table IV's 224² input
 *   (it is FLOP-bound) = 5.2 ms (D).
 * - YOLO-v5s: Nano 2 GB FP16 at 640², ≈ 70 ms engine and copies (P, wang-xinyu/tensorrtx issue
 *   1160); ÷ 4.2–5.3 (the Nano/NX ratios of ResNet-18 and ResNet-50 above) = 13–17 ms at 640² on
 *   NX, 15 ms; × (224/640)² for 224² = 1.8 ms, which is below what a net of YOLO-v5s's some 200
 *   kernels takes on this GPU at batch 1 (the kernel-bound MobileNets: 2.9 ms), so 3.0 ms (D).
 * - TinyBERT-4 (14 tokens, 4.6 M weights, 9.1 MB in FP16): no Jetson figure; weight streaming at the
 *   ≈ 21 GB/s MLPerf BERT-Large INT8 reaches on NX (302 MB in its 14.6 ms minimum query, P) gives
 *   0.44 ms, plus ≈ 30 kernel launches = 0.7 ms (D, the least certain row).
 * The platform scaling of the module comment then gives Nano 3.2× NX for ResNet-18, against 4.2×
 * between the published Nano and the derived NX figure: the scaling is kept, and stated.
 */
export const TENSORRT_ENGINE_B1_NX_MS: Readonly<Record<ModelId, number>> = { yolo: 3.0, mob: 3.0, res: 2.7, eff: 4.0, inc: 5.2, bert: 0.7 };

/** t1 of the `tensorrt` profile: the engine time plus the table's CPU share (see `TENSORRT_ENGINE_B1_NX_MS`), ms. */
export const TENSORRT_B1_NX_MS: Readonly<Record<ModelId, number>> = Object.fromEntries(
  MODEL_IDS.map((id) => [id, TENSORRT_ENGINE_B1_NX_MS[id] / (1 - MODELS[id].cpuShare)]),
) as Record<ModelId, number>;
