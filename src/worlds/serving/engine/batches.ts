import { batchActivationMb, gpuDemand, isolatedBatchMs, isolatedGpuMs, type CompiledModel } from './models';
import { MAX_BATCH_SIZE } from './scheduler';

/**
 * The batches running in one serving run (simulation.ts), as a struct of arrays with a free
 * list (slots handed out lowest first from fresh capacity, last-freed first after that), their
 * members in one flat array of `MAX_BATCH_SIZE` per slot.
 */

/** The running batches as a checkpoint holds them (`ServingRunSnapshot.batches`). */
export interface BatchPoolSnapshot {
  readonly model: Int32Array<ArrayBuffer>;
  readonly shapeClass: Int32Array<ArrayBuffer>;
  readonly size: Int32Array<ArrayBuffer>;
  readonly start: Float64Array<ArrayBuffer>;
  readonly serialization: Float64Array<ArrayBuffer>;
  readonly inference: Float64Array<ArrayBuffer>;
  readonly demand: Float64Array<ArrayBuffer>;
  readonly activation: Float64Array<ArrayBuffer>;
  readonly sloSum: Float64Array<ArrayBuffer>;
  readonly freeMemory: Float64Array<ArrayBuffer>;
  readonly freeCompute: Float64Array<ArrayBuffer>;
  readonly running: Int32Array<ArrayBuffer>;
  readonly instances: Int32Array<ArrayBuffer>;
  readonly active: Uint8Array<ArrayBuffer>;
  readonly members: Int32Array<ArrayBuffer>;
  readonly free: Int32Array;
}

export class BatchPool {
  model = new Int32Array(0);
  /** The widest request class among its members (the batch runs at that class's scale). */
  shapeClass = new Int32Array(0);
  size = new Int32Array(0);
  /** When it started, ms. */
  start = new Float64Array(0);
  /** t_s and t_m, ms. */
  serialization = new Float64Array(0);
  inference = new Float64Array(0);
  /** Its share of the device's compute and its activations' memory while it runs. */
  demand = new Float64Array(0);
  activation = new Float64Array(0);
  /** The sum of its members' SLOs, ms. */
  sloSum = new Float64Array(0);
  /** The profiler's view when it started (filled only when the scheduler observes batches). */
  freeMemory = new Float64Array(0);
  freeCompute = new Float64Array(0);
  running = new Int32Array(0);
  instances = new Int32Array(0);
  /** 1 while it runs. */
  active = new Uint8Array(0);
  /** Its members, `MAX_BATCH_SIZE` entries a slot. */
  members = new Int32Array(0);
  private freeList: number[] = [];
  /** Slots in the arrays. */
  capacity = 0;

  constructor(capacity = 64) {
    this.grow(capacity);
  }

  /** A free slot (growing the arrays when none is left). */
  alloc(): number {
    if (this.freeList.length === 0) this.grow(this.capacity * 2);
    return this.freeList.pop()!;
  }

  release(b: number): void {
    this.active[b] = 0;
    this.freeList.push(b);
  }

  private grow(capacity: number): void {
    const old = this.capacity;
    const g64 = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(capacity);
      b.set(a.subarray(0, old));
      return b;
    };
    const g32 = (a: Int32Array, scale = 1): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(capacity * scale);
      b.set(a.subarray(0, old * scale));
      return b;
    };
    this.model = g32(this.model);
    this.shapeClass = g32(this.shapeClass);
    this.size = g32(this.size);
    this.start = g64(this.start);
    this.serialization = g64(this.serialization);
    this.inference = g64(this.inference);
    this.demand = g64(this.demand);
    this.activation = g64(this.activation);
    this.sloSum = g64(this.sloSum);
    this.freeMemory = g64(this.freeMemory);
    this.freeCompute = g64(this.freeCompute);
    this.running = g32(this.running);
    this.instances = g32(this.instances);
    const active = new Uint8Array(capacity);
    active.set(this.active.subarray(0, old));
    this.active = active;
    this.members = g32(this.members, MAX_BATCH_SIZE);
    for (let b = capacity - 1; b >= old; b--) this.freeList.push(b);
    this.capacity = capacity;
  }

  /** The running batches, copied (ARCHITECTURE §7a). */
  snapshot(): BatchPoolSnapshot {
    return {
      model: this.model.slice(),
      shapeClass: this.shapeClass.slice(),
      size: this.size.slice(),
      start: this.start.slice(),
      serialization: this.serialization.slice(),
      inference: this.inference.slice(),
      demand: this.demand.slice(),
      activation: this.activation.slice(),
      sloSum: this.sloSum.slice(),
      freeMemory: this.freeMemory.slice(),
      freeCompute: this.freeCompute.slice(),
      running: this.running.slice(),
      instances: this.instances.slice(),
      active: this.active.slice(),
      members: this.members.slice(),
      free: Int32Array.from(this.freeList),
    };
  }

  restore(b: BatchPoolSnapshot): void {
    this.model = b.model.slice();
    this.shapeClass = b.shapeClass.slice();
    this.size = b.size.slice();
    this.start = b.start.slice();
    this.serialization = b.serialization.slice();
    this.inference = b.inference.slice();
    this.demand = b.demand.slice();
    this.activation = b.activation.slice();
    this.sloSum = b.sloSum.slice();
    this.freeMemory = b.freeMemory.slice();
    this.freeCompute = b.freeCompute.slice();
    this.running = b.running.slice();
    this.instances = b.instances.slice();
    this.active = b.active.slice();
    this.members = b.members.slice();
    this.freeList = Array.from(b.free);
    this.capacity = b.model.length;
  }
}

/** A batch's own figures by its size (index 0 unused, up to `MAX_BATCH_SIZE`), of one model at one class: what `models.ts` computes, looked up. */
export interface BatchFigures {
  readonly isolatedMs: Float64Array;
  readonly isolatedGpuMs: Float64Array;
  readonly demand: Float64Array;
  readonly activationMb: Float64Array;
  readonly memoryIntensity: number;
}

export function batchFigures(compiled: CompiledModel): BatchFigures {
  // The figures depend on these numbers alone; a run reads them and never writes, so runs of the
  // same models share them (a search builds hundreds of runs, some of a few seconds' work).
  const key = `${compiled.cpuMsPerSample} ${compiled.gpuMsB1} ${compiled.occupancyB1} ${compiled.sampleShare} ${compiled.activationMbPerSample} ${compiled.memoryIntensity}`;
  const known = figuresKept.get(key);
  if (known !== undefined) return known;
  const sizes = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, b) => Math.max(1, b));
  const figures: BatchFigures = {
    isolatedMs: Float64Array.from(sizes, (b) => isolatedBatchMs(compiled, b)),
    isolatedGpuMs: Float64Array.from(sizes, (b) => isolatedGpuMs(compiled, b)),
    demand: Float64Array.from(sizes, (b) => gpuDemand(compiled, b)),
    activationMb: Float64Array.from(sizes, (b) => batchActivationMb(compiled, b)),
    memoryIntensity: compiled.memoryIntensity,
  };
  if (figuresKept.size >= FIGURES_KEPT) figuresKept.clear();
  figuresKept.set(key, figures);
  return figures;
}

/** The figures computed last, by the numbers they depend on (at most `FIGURES_KEPT`: models × platforms × classes of a few scenarios). */
const figuresKept = new Map<string, BatchFigures>();
const FIGURES_KEPT = 256;

/** A model's performance model at an input `scale` (`RequestClass` in spec.ts). */
export function scaleCompiled(c: CompiledModel, scale: number): CompiledModel {
  return { ...c, cpuMsPerSample: c.cpuMsPerSample * scale, gpuMsB1: c.gpuMsB1 * scale, activationMbPerSample: c.activationMbPerSample * scale };
}
