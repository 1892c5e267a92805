/**
 * The edge platforms of BCEdge Table V (and Table III for Xavier NX). The paper gives, per
 * platform, its "computility", memory and CUDA cores; everything else here is derived from
 * those numbers or taken from public NVIDIA specifications, and says which.
 *
 * Computility is given in two incomparable units: FP16 TFLOPS for Nano (0.47) and TX2
 * (1.33), INT8 TOPS for Xavier NX (21). The Nano and TX2 numbers are exactly the CUDA-core
 * FP16 peaks (cores × clock × 2 FLOP per FMA × 2 for FP16: 128 × 0.921 GHz × 4 = 0.47,
 * 256 × 1.3 GHz × 4 = 1.33). Xavier NX's 21 TOPS counts its two DLAs and INT8 tensor-core
 * rates, which Triton's TensorRT backend on the GPU does not reach at small batches. On the
 * same basis as the other two, its 384 CUDA cores at 1.1 GHz give 1.69 TFLOPS FP16. We use
 * that CUDA-core figure for all three (one basis, two of three numbers straight from the
 * table): Xavier NX is then 1.27 × TX2 and 3.6 × Nano in compute. It leaves out the NX's
 * 48 tensor cores, which TensorRT uses only for some layers at small batches; a scenario
 * that wants them counted can raise `effectiveTflops` (an assumption, shown as such).
 */

export const PLATFORM_IDS = ['xavier-nx', 'tx2', 'nano'] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

export interface Platform {
  readonly id: PlatformId;
  readonly label: string;
  /** Table V "Computility", as printed (value and unit). */
  readonly computilityAsPrinted: string;
  /** Table V "CUDA Cores". */
  readonly cudaCores: number;
  /** Table V "Memory": the RAM the CPU and the GPU share on a Jetson, MB. */
  readonly memoryMb: number;
  /**
   * Memory the inference server cannot use: the OS, the Triton process and its CUDA
   * context (assumed; a headless L4T with Triton running uses about this much).
   */
  readonly reservedMemoryMb: number;
  /** Effective FP16 TFLOPS for TensorRT inference (derived, see the module comment). */
  readonly effectiveTflops: number;
  /** DRAM bandwidth, GB/s (public NVIDIA specifications, not in the paper). */
  readonly memoryBandwidthGBps: number;
  /** CPU cores (public specifications; Table III gives 6 for Xavier NX). */
  readonly cpuCores: number;
  /**
   * Single-core CPU speed relative to Xavier NX's Carmel cores (assumed from public
   * per-core benchmarks: TX2's A57/Denver cores ≈ 0.8, Nano's A57 at 1.43 GHz ≈ 0.55).
   */
  readonly relativeCpu: number;
}

export const PLATFORMS: Readonly<Record<PlatformId, Platform>> = {
  'xavier-nx': {
    id: 'xavier-nx',
    label: 'Jetson Xavier NX',
    computilityAsPrinted: '21 TOPS (INT8)',
    cudaCores: 384,
    memoryMb: 8192,
    reservedMemoryMb: 1536,
    effectiveTflops: 1.69,
    memoryBandwidthGBps: 51.2,
    cpuCores: 6,
    relativeCpu: 1,
  },
  tx2: {
    id: 'tx2',
    label: 'Jetson TX2',
    computilityAsPrinted: '1.33 TFLOPS (FP16)',
    cudaCores: 256,
    memoryMb: 8192,
    reservedMemoryMb: 1536,
    effectiveTflops: 1.33,
    memoryBandwidthGBps: 59.7,
    cpuCores: 6,
    relativeCpu: 0.8,
  },
  nano: {
    id: 'nano',
    label: 'Jetson Nano',
    computilityAsPrinted: '0.47 TFLOPS (FP16)',
    cudaCores: 128,
    memoryMb: 4096,
    // A 4 GB Nano runs a lighter OS image; the CUDA context costs the same.
    reservedMemoryMb: 1024,
    effectiveTflops: 0.47,
    memoryBandwidthGBps: 25.6,
    cpuCores: 4,
    relativeCpu: 0.55,
  },
};

/** The reference platform: every model's batch-1 latency is given on it (BCEdge §V-A). */
export const REFERENCE_PLATFORM: PlatformId = 'xavier-nx';

/** Memory the models may use on a platform, MB. */
export function usableMemoryMb(platform: Platform): number {
  return platform.memoryMb - platform.reservedMemoryMb;
}

/** Effective compute relative to the reference platform (Xavier NX = 1). */
export function relativeCompute(platform: Platform): number {
  return platform.effectiveTflops / PLATFORMS[REFERENCE_PLATFORM].effectiveTflops;
}

/** DRAM bandwidth relative to the reference platform (Xavier NX = 1). */
export function relativeBandwidth(platform: Platform): number {
  return platform.memoryBandwidthGBps / PLATFORMS[REFERENCE_PLATFORM].memoryBandwidthGBps;
}
