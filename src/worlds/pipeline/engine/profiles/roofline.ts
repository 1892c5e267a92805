/**
 * A roofline model of ONE execution place of the ODIN paper (§4.1: the 8 P-cores of an
 * Intel i9-12900K, Alder Lake) and of what each co-location mode of its Table 1 leaves to
 * the CNN. The paper measured its layer-time database on that machine (§3.3); we cannot,
 * so we derive it: unit time = max(FLOPs / compute roof, bytes / bandwidth roof) + a
 * fixed dispatch overhead per kernel. Every parameter sits in one table,
 * {@link ALDER_LAKE_P_CORES}, with the reason for its value.
 */
import type { ModeId } from './types';
import { TABLE1_COLOCATIONS, type CoLocation, type HogKind } from './table1';

/** The parameters of one execution place and of the co-located hogs. */
export interface ExecutionPlaceSpec {
  /** Physical cores in the execution place. */
  readonly cores: number;
  /** Sustained clock of a busy core, GHz. */
  readonly clockGHz: number;
  /** Peak fp32 FLOPs per cycle per core. */
  readonly flopsPerCyclePerCore: number;
  /** Fraction of peak FLOP/s a batch-1 CNN layer reaches (framework, threading, tails). */
  readonly computeEfficiency: number;
  /** Theoretical DRAM bandwidth, GB/s (1 GB = 1e9 bytes). */
  readonly dramPeakGBs: number;
  /** Fraction of the theoretical DRAM bandwidth that streaming code can sustain. */
  readonly dramSustainableFraction: number;
  /** DRAM bandwidth one thread can pull on its own, GB/s. */
  readonly perThreadStreamGBs: number;
  /** Fixed cost per conv/FC kernel (dispatch, thread-pool fork/join), ms. */
  readonly kernelOverheadMs: number;
  /** Share of a core's compute an iBench CPU hog thread takes from a thread on its core. */
  readonly cpuHogCoreShare: number;
  /** Share of a core's compute an iBench memBW hog thread takes from a thread on its core. */
  readonly memBwHogCoreShare: number;
}

/**
 * The execution place of the paper's §4.1: the 8 P-cores (Golden Cove) of an i9-12900K
 * with dual-channel DDR5-4800.
 */
export const ALDER_LAKE_P_CORES: ExecutionPlaceSpec = Object.freeze({
  // §4.1: "We consider the set of 8 P-cores as a single execution place".
  cores: 8,
  // Intel's all-core P-core turbo for the i9-12900K is 4.9 GHz (5.1/5.2 GHz on 1–2 cores
  // only); a CNN keeps all 8 busy.
  clockGHz: 4.9,
  // AVX2 (Alder Lake ships with AVX-512 disabled): 2 FMA ports × 8 fp32 lanes × 2 FLOPs
  // per FMA. 8 cores × 32 × 4.9 GHz = 1254 GFLOP/s peak.
  flopsPerCyclePerCore: 32,
  // A Keras/TensorFlow CPU forward pass at batch 1 runs oneDNN/Eigen kernels that reach
  // roughly a third to a half of peak on large convs and less on small ones; 0.4 gives
  // ≈ 502 GFLOP/s, i.e. ≈ 62 ms for VGG16's 31 GFLOPs, in the range reported for desktop
  // CPUs. The paper gives no absolute times, so only ratios between modes matter to it.
  computeEfficiency: 0.4,
  // DDR5-4800, 2 channels × 8 bytes × 4.8 GT/s = 76.8 GB/s.
  dramPeakGBs: 76.8,
  // STREAM-like kernels sustain ≈ 80 % of theoretical DDR bandwidth (refresh, bank
  // conflicts, read/write turnarounds): ≈ 61 GB/s.
  dramSustainableFraction: 0.8,
  // One core's bandwidth is bounded by the misses it keeps in flight (Little's law:
  // ≈ 48 L2 misses × 64 B / ≈ 100 ns ≈ 30 GB/s for pure reads); 20 GB/s for a mix of
  // reads and writes. So 3–4 threads saturate DRAM: the reason memBW hogs hurt.
  perThreadStreamGBs: 20,
  // Keras runs layer by layer; each kernel pays dispatch and a fork/join of the thread
  // pool, a few tens of µs on a desktop CPU. Counted per conv/FC kernel, so a ResNet-152
  // block unit (3–4 convs) pays 3–4 times a VGG16 layer's.
  kernelOverheadMs: 0.03,
  // iBench CPU is a dense arithmetic loop: next to a CNN thread it wins half the core,
  // whether the OS time-slices the two (fair share) or they run as SMT siblings on the
  // same FMA ports (the P-cores are 2-way SMT, "2xP-cores" in §4.1).
  cpuHogCoreShare: 0.5,
  // iBench memBW is a streaming loop stalled on DRAM most of its cycles: as an SMT
  // sibling it issues few instructions, so the CNN keeps most of the core. The paper
  // leaves the pinning details open; 0.25 (half the CPU hog's share) is our reading. It
  // is what lets compute-bound layers suffer more from CPU hogs than from memBW hogs
  // (§4.1, Figure 4); with 0.5 every memBW mode would be at least as bad as the CPU mode
  // on the same cores for every layer.
  memBwHogCoreShare: 0.25,
});

export { TABLE1_COLOCATIONS, type CoLocation, type HogKind, type HogPlacement } from './table1';

/** What a co-location mode leaves to the CNN on one execution place. */
export interface ModeResources {
  /** Core-equivalents of compute the CNN gets (8 alone, 4 with a CPU hog on every core). */
  readonly cnnCores: number;
  /** The CNN's compute roof, GFLOP/s. */
  readonly computeGflops: number;
  /** The CNN's bandwidth roof, GB/s. */
  readonly bandwidthGBs: number;
}

function hogCoreShare(kind: HogKind, ep: ExecutionPlaceSpec): number {
  return kind === 'cpu' ? ep.cpuHogCoreShare : ep.memBwHogCoreShare;
}

/**
 * The compute and bandwidth the CNN gets under `colocation` (a Table 1 row). The
 * contention model (our reading; §4.1 describes the setup, not a model):
 * - Cores: on each of its cores the CNN keeps 1 − Σ (share of each hog pinned there).
 *   Keras's thread pool shards work finely, so the CNN's threads rebalance across
 *   cores and its compute roof scales with the sum of what it keeps, not with its
 *   slowest core.
 * - DRAM: the CNN can pull `perThreadStreamGBs` per core-equivalent it keeps. A memBW
 *   hog thread pulls `perThreadStreamGBs` alone on its core and a 1/n part of it when n
 *   threads share the core (half the time slices, or half the core's miss buffers as an
 *   SMT sibling); CPU hogs stream nothing. If the demands exceed the sustainable
 *   bandwidth, it is shared in proportion to demand (fair arbitration of the memory
 *   controller among outstanding requests).
 * Cores outside 0..ep.cores−1 are ignored. Throws RangeError if the CNN is left no
 * compute.
 */
export function resourcesFor(
  colocation: CoLocation,
  ep: ExecutionPlaceSpec = ALDER_LAKE_P_CORES,
): ModeResources {
  let cnnCores = 0;
  let hogStreams = 0;
  for (let core = 0; core < ep.cores; core += 1) {
    const cnnHere = colocation.cnnCores.includes(core);
    const hogsHere = colocation.hogs.filter((hog) => hog.cores.includes(core));
    const threads = (cnnHere ? 1 : 0) + hogsHere.length;
    if (cnnHere) {
      const taken = hogsHere.reduce((sum, hog) => sum + hogCoreShare(hog.kind, ep), 0);
      cnnCores += Math.max(0, 1 - taken);
    }
    for (const hog of hogsHere) {
      if (hog.kind === 'memBW') hogStreams += 1 / threads;
    }
  }
  if (!(cnnCores > 0)) throw new RangeError('the co-location leaves the CNN no compute');

  const supply = ep.dramPeakGBs * ep.dramSustainableFraction;
  const cnnDemand = cnnCores * ep.perThreadStreamGBs;
  const hogDemand = hogStreams * ep.perThreadStreamGBs;
  const total = cnnDemand + hogDemand;
  // supply × (a share below 1) rounds to at most supply, and with no hog the CNN gets
  // supply exactly: so no mode ever gives the CNN more bandwidth than mode A, bit for bit.
  const bandwidthGBs =
    total <= supply ? cnnDemand : hogDemand === 0 ? supply : supply * (cnnDemand / total);

  return Object.freeze({
    cnnCores,
    computeGflops: cnnCores * ep.clockGHz * ep.flopsPerCyclePerCore * ep.computeEfficiency,
    bandwidthGBs,
  });
}

/** {@link resourcesFor} the Table 1 row of `mode`. */
export function modeResources(
  mode: ModeId,
  ep: ExecutionPlaceSpec = ALDER_LAKE_P_CORES,
): ModeResources {
  return resourcesFor(TABLE1_COLOCATIONS[mode], ep);
}

/** The work of one unit, as the roofline needs it (see layers.ts). */
export interface UnitWork {
  readonly flops: number;
  readonly bytes: number;
  readonly kernels: number;
}

/**
 * Milliseconds for one unit under `resources`: the classic roofline, max(compute time,
 * memory time), plus a fixed overhead per kernel. The overhead does not grow with
 * interference; a choice that keeps tiny layers near their alone-time in every mode.
 */
export function unitTimeMs(
  work: UnitWork,
  resources: ModeResources,
  ep: ExecutionPlaceSpec = ALDER_LAKE_P_CORES,
): number {
  const computeMs = (work.flops / (resources.computeGflops * 1e9)) * 1e3;
  const memoryMs = (work.bytes / (resources.bandwidthGBs * 1e9)) * 1e3;
  return Math.max(computeMs, memoryMs) + work.kernels * ep.kernelOverheadMs;
}
