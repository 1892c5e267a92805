import { batchActivationMb, gpuDemand, isolatedBatchMs, isolatedGpuMs, type CompiledModel } from './models';
import type { Platform } from './platforms';

/**
 * Contention on one edge GPU (BCEdge §I, Fig. 1 and §IV-F: "multiple models compete for the
 * shared resources on edge platform, especially the memory"; the interference "is not a
 * simple linear relationship", §V-E). A batch's time is its isolated time stretched by
 * what runs with it:
 *
 *   t = (cpu1·b · f_cpu + gpu(b) · f_gpu) · f_mem
 *
 * - f_gpu, GPU load: D = Σ demands of all running batches (this one included, models.ts
 *   `gpuDemand`) + background intensity. Below capacity (D ≤ 1) a batch slows only through
 *   shared caches and DRAM, in proportion to its memory intensity μ and to what the others
 *   demand: 1 + ε·μ·min(1, D − d_self). Above capacity the GPU is time-sliced (× D) and
 *   every extra unit of oversubscription costs more (context switches, L2 thrashing):
 *   × (1 + κ·(D − 1)). Superlinear in load.
 * - f_cpu: the CPU phases of concurrent batches share the platform's cores:
 *   max(1, running batches / cores).
 * - f_mem, memory pressure: P = used / total memory (reserved + loaded instances + running
 *   activations + background). Above θ a Jetson, whose CPU and GPU share DRAM, starts to
 *   reclaim pages and compress into zram: 1 + ρ·((P − θ)/(1 − θ))². Superlinear in memory.
 *
 * Choice (the paper gives no model): a batch's slowdown is fixed when it starts, from what
 * is running at that instant — the view the paper's interference predictor has when the
 * scheduler decides (§IV-F: available memory, compute and concurrency as inputs). Batches
 * that start later see it; it does not see them. This keeps one event per batch; under a
 * steady load (Fig. 1) every batch starts among the same neighbours, so the error is small.
 *
 * Out of memory: a batch whose activations would take the used memory past the platform's
 * total fails at once (simulation.ts counts it and its requests).
 */
export interface ContentionParams {
  /** ε: slowdown of a fully memory-bound batch next to co-runners that demand a whole GPU. */
  readonly coRunnerPenalty: number;
  /** κ: extra slowdown per unit of GPU oversubscription. */
  readonly oversubscriptionPenalty: number;
  /** θ: used-memory fraction where pressure begins. */
  readonly memoryPressureThreshold: number;
  /** ρ: slowdown added at full memory. */
  readonly memoryPressurePenalty: number;
}

/** Defaults (assumed; tuned so that yolo on Xavier NX has the shape of Fig. 1, see figure1.test.ts). */
export const DEFAULT_CONTENTION: ContentionParams = {
  coRunnerPenalty: 0.5,
  oversubscriptionPenalty: 0.25,
  memoryPressureThreshold: 0.5,
  memoryPressurePenalty: 8,
};

/** What runs on the device now (aggregates, so a batch start costs O(1)). */
export interface DeviceLoad {
  /** Σ GPU demand of running batches. */
  gpuDemand: number;
  runningBatches: number;
  /** Σ activation memory of running batches, MB. */
  activationMb: number;
  /** Σ memory of loaded instances (busy or idle), MB. */
  instanceMb: number;
  /** GPU demand taken by background interference (1 = a whole GPU). */
  backgroundDemand: number;
  /** Memory taken by background interference, MB. */
  backgroundMemoryMb: number;
}

/** An idle device with nothing loaded. */
export function emptyDeviceLoad(): DeviceLoad {
  return { gpuDemand: 0, runningBatches: 0, activationMb: 0, instanceMb: 0, backgroundDemand: 0, backgroundMemoryMb: 0 };
}

/** Memory in use, MB (reserved + instances + activations + background). */
export function usedMemoryMb(platform: Platform, load: DeviceLoad): number {
  return platform.reservedMemoryMb + load.instanceMb + load.activationMb + load.backgroundMemoryMb;
}

/** Whether a batch adding `activationMb` fits in the platform's memory now. */
export function fitsInMemory(platform: Platform, load: DeviceLoad, activationMb: number): boolean {
  return usedMemoryMb(platform, load) + activationMb <= platform.memoryMb;
}

/** f_gpu for a batch of demand `self` when the total demand (itself included) is `total`. */
export function gpuContentionFactor(params: ContentionParams, memoryIntensity: number, self: number, total: number): number {
  const others = Math.min(1, Math.max(0, total - self));
  const shared = 1 + params.coRunnerPenalty * memoryIntensity * others;
  if (total <= 1) return shared;
  return shared * total * (1 + params.oversubscriptionPenalty * (total - 1));
}

/** f_mem at a used-memory fraction. */
export function memoryPressureFactor(params: ContentionParams, usedFraction: number): number {
  const theta = params.memoryPressureThreshold;
  if (usedFraction <= theta) return 1;
  const x = Math.min(1, (usedFraction - theta) / (1 - theta));
  return 1 + params.memoryPressurePenalty * x * x;
}

/**
 * The time of a batch that starts now, with `load` describing what already runs (the
 * batch itself not yet included), ms.
 */
export function contendedBatchMs(
  model: CompiledModel,
  batch: number,
  platform: Platform,
  load: DeviceLoad,
  params: ContentionParams,
): number {
  return contendedMs(isolatedBatchMs(model, batch), isolatedGpuMs(model, batch), gpuDemand(model, batch), batchActivationMb(model, batch), model.memoryIntensity, platform, load, params);
}

/**
 * `contendedBatchMs` from the batch's own figures (t_iso, its GPU phase, its demand, its
 * activations), taken from a table where a run looks them up (the same numbers).
 */
export function contendedMs(
  isolatedMs: number,
  isolatedGpu: number,
  self: number,
  activationMb: number,
  memoryIntensity: number,
  platform: Platform,
  load: DeviceLoad,
  params: ContentionParams,
): number {
  const total = load.gpuDemand + self + load.backgroundDemand;
  const gpu = isolatedGpu * gpuContentionFactor(params, memoryIntensity, self, total);
  const cpuFactor = Math.max(1, (load.runningBatches + 1) / platform.cpuCores);
  const cpu = (isolatedMs - isolatedGpu) * cpuFactor;
  const used = usedMemoryMb(platform, load) + activationMb;
  return (cpu + gpu) * memoryPressureFactor(params, used / platform.memoryMb);
}
