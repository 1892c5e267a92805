import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contendedBatchMs,
  DEFAULT_CONTENTION,
  emptyDeviceLoad,
  fitsInMemory,
  gpuContentionFactor,
  memoryPressureFactor,
  usedMemoryMb,
} from './contention';
import { batchOneLatencyMs, compileModel, gpuDemand, gpuWorkMs, isolatedBatchMs, isolatedGpuMs, MODEL_IDS, MODELS } from './models';
import { PLATFORMS, relativeCompute, usableMemoryMb } from './platforms';

const NX = PLATFORMS['xavier-nx'];

describe('the paper’s tables', () => {
  it('has Table IV’s SLOs and input shapes', () => {
    expect(Object.fromEntries(MODEL_IDS.map((id) => [id, MODELS[id].sloMs]))).toEqual({
      yolo: 138,
      mob: 86,
      res: 58,
      eff: 93,
      inc: 66,
      bert: 114,
    });
    for (const id of MODEL_IDS.filter((m) => m !== 'bert')) expect(MODELS[id].inputShape).toEqual([3, 224, 224]);
    expect(MODELS.bert.inputShape).toEqual([1, 14]);
  });

  it('has Table V’s memories and CUDA cores, and derives compute on one basis', () => {
    expect([PLATFORMS.nano.memoryMb, PLATFORMS.tx2.memoryMb, NX.memoryMb]).toEqual([4096, 8192, 8192]);
    expect([PLATFORMS.nano.cudaCores, PLATFORMS.tx2.cudaCores, NX.cudaCores]).toEqual([128, 256, 384]);
    expect([PLATFORMS.nano.effectiveTflops, PLATFORMS.tx2.effectiveTflops]).toEqual([0.47, 1.33]);
    expect(relativeCompute(NX)).toBe(1);
    expect(relativeCompute(PLATFORMS.nano)).toBeLessThan(relativeCompute(PLATFORMS.tx2));
    expect(usableMemoryMb(NX)).toBe(8192 - NX.reservedMemoryMb);
  });

  it('keeps FP16 weights at 2 bytes per parameter', () => {
    for (const id of MODEL_IDS) expect(MODELS[id].weightsMb).toBeCloseTo(2 * MODELS[id].paramsM, 6);
  });
});

describe('the performance model', () => {
  it('gives the table’s batch-1 latency on Xavier NX, and slower ones on TX2 and Nano', () => {
    for (const id of MODEL_IDS) {
      const nx = batchOneLatencyMs(id, NX, 'lab');
      expect(nx).toBeCloseTo(MODELS[id].latencyB1NxMs, 9);
      expect(batchOneLatencyMs(id, PLATFORMS.tx2, 'lab')).toBeGreaterThan(nx);
      expect(batchOneLatencyMs(id, PLATFORMS.nano, 'lab')).toBeGreaterThan(batchOneLatencyMs(id, PLATFORMS.tx2, 'lab'));
      // Every model meets its SLO alone at batch 1 on the reference platform.
      expect(nx).toBeLessThan(MODELS[id].sloMs / 2);
    }
  });

  it('grows batch time sub-linearly: per-sample time falls, batch time rises', () => {
    for (const platform of Object.values(PLATFORMS)) {
      for (const id of MODEL_IDS) {
        const model = compileModel(MODELS[id], platform, 'lab');
        for (let b = 1; b < 128; b *= 2) {
          const t = isolatedBatchMs(model, b);
          const t2 = isolatedBatchMs(model, 2 * b);
          expect(t2).toBeGreaterThan(t);
          expect(t2).toBeLessThanOrEqual(2 * t + 1e-9);
          // GPU work per sample falls with batching (per-batch work is amortized) …
          expect(gpuWorkMs(model, 2 * b) / (2 * b)).toBeLessThanOrEqual(gpuWorkMs(model, b) / b + 1e-12);
          // … and the batch never keeps more than the whole GPU busy.
          expect(gpuWorkMs(model, b)).toBeLessThanOrEqual(isolatedGpuMs(model, b) + 1e-12);
          expect(gpuDemand(model, b)).toBeGreaterThan(0);
          expect(gpuDemand(model, b)).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});

describe('contention', () => {
  const yolo = compileModel(MODELS.yolo, NX, 'lab');

  it('leaves a batch alone on an idle device at its isolated time', () => {
    const load = emptyDeviceLoad();
    load.instanceMb = yolo.instanceMemoryMb;
    expect(contendedBatchMs(yolo, 4, NX, load, DEFAULT_CONTENTION)).toBeCloseTo(isolatedBatchMs(yolo, 4), 9);
  });

  it('is non-decreasing in GPU load and superlinear when oversubscribed', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 4, noNaN: true }), fc.double({ min: 0, max: 4, noNaN: true }), (x, y) => {
        const [lo, hi] = x < y ? [x, y] : [y, x];
        const f = (total: number) => gpuContentionFactor(DEFAULT_CONTENTION, 0.5, 0.2, 0.2 + total);
        expect(f(hi)).toBeGreaterThanOrEqual(f(lo) - 1e-12);
      }),
    );
    // Twice oversubscribed costs more than time-slicing alone would (× 2).
    expect(gpuContentionFactor(DEFAULT_CONTENTION, 0, 1, 2)).toBeGreaterThan(2);
    expect(gpuContentionFactor(DEFAULT_CONTENTION, 0, 1, 4) / gpuContentionFactor(DEFAULT_CONTENTION, 0, 1, 2)).toBeGreaterThan(2);
  });

  it('adds a superlinear memory-pressure penalty above the threshold only', () => {
    const theta = DEFAULT_CONTENTION.memoryPressureThreshold;
    expect(memoryPressureFactor(DEFAULT_CONTENTION, theta)).toBe(1);
    const a = memoryPressureFactor(DEFAULT_CONTENTION, theta + (1 - theta) / 2) - 1;
    const b = memoryPressureFactor(DEFAULT_CONTENTION, 1) - 1;
    expect(a).toBeGreaterThan(0);
    expect(b).toBeCloseTo(4 * a, 9);
  });

  it('slows a batch when others run, and more with background interference', () => {
    const idle = emptyDeviceLoad();
    const busy = { ...idle, gpuDemand: 1.5, runningBatches: 3 };
    const jammed = { ...busy, backgroundDemand: 1 };
    const alone = contendedBatchMs(yolo, 8, NX, idle, DEFAULT_CONTENTION);
    const shared = contendedBatchMs(yolo, 8, NX, busy, DEFAULT_CONTENTION);
    expect(shared).toBeGreaterThan(alone * 1.5);
    expect(contendedBatchMs(yolo, 8, NX, jammed, DEFAULT_CONTENTION)).toBeGreaterThan(shared);
  });

  it('fits a batch exactly up to the platform’s memory', () => {
    const load = emptyDeviceLoad();
    load.instanceMb = 100;
    const free = NX.memoryMb - usedMemoryMb(NX, load);
    expect(fitsInMemory(NX, load, free)).toBe(true);
    expect(fitsInMemory(NX, load, free + 0.001)).toBe(false);
  });
});
