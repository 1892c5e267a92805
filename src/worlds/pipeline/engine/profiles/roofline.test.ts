import { describe, it, expect } from 'vitest';
import {
  ALDER_LAKE_P_CORES,
  TABLE1_COLOCATIONS,
  modeResources,
  resourcesFor,
  unitTimeMs,
} from './roofline';
import { INTERFERENCE_MODE_IDS, MODE_IDS } from './types';

const ep = ALDER_LAKE_P_CORES;
const peakGflops = ep.cores * ep.clockGHz * ep.flopsPerCyclePerCore;
const sustainedGBs = ep.dramPeakGBs * ep.dramSustainableFraction;

describe('ALDER_LAKE_P_CORES', () => {
  it('is the 8 P-cores of an i9-12900K with dual-channel DDR5-4800 (§4.1)', () => {
    expect(ep.cores).toBe(8);
    expect(peakGflops).toBeCloseTo(1254.4, 6); // 8 × 32 FLOP/cycle × 4.9 GHz
    expect(ep.dramPeakGBs).toBeCloseTo(2 * 8 * 4.8, 9); // 2 channels × 8 B × 4.8 GT/s
    expect(Object.isFrozen(ep)).toBe(true);
  });
});

describe('TABLE1_COLOCATIONS', () => {
  it('encodes Table 1', () => {
    expect(TABLE1_COLOCATIONS.A).toEqual({ cnnCores: [0, 1, 2, 3, 4, 5, 6, 7], hogs: [] });
    expect(TABLE1_COLOCATIONS.C.hogs).toEqual([{ kind: 'memBW', cores: [0, 1] }]);
    expect(TABLE1_COLOCATIONS.H.hogs).toEqual([{ kind: 'cpu', cores: [0, 1, 2, 3] }]);
    expect(TABLE1_COLOCATIONS.L).toEqual({
      cnnCores: [0, 1, 2, 3],
      hogs: [
        { kind: 'cpu', cores: [4, 5, 6, 7] },
        { kind: 'memBW', cores: [4, 5, 6, 7] },
      ],
    });
  });
});

describe('modeResources', () => {
  it('gives the CNN all 8 cores and the sustainable bandwidth alone', () => {
    const a = modeResources('A');
    expect(a.cnnCores).toBe(8);
    expect(a.computeGflops).toBeCloseTo(peakGflops * ep.computeEfficiency, 9);
    expect(a.bandwidthGBs).toBeCloseTo(sustainedGBs, 9);
  });

  it('takes half of each core a CPU hog shares, and no bandwidth', () => {
    expect(modeResources('F').cnnCores).toBe(7.5);
    expect(modeResources('I').cnnCores).toBe(4);
    // Four core-equivalents still pull 4 × 20 GB/s > the sustainable 61 GB/s.
    expect(modeResources('I').bandwidthGBs).toBeCloseTo(sustainedGBs, 9);
  });

  it('takes a quarter of each core a memBW hog shares, and bandwidth by demand', () => {
    const e = modeResources('E');
    expect(e.cnnCores).toBe(6);
    // CNN demand 6 × 20, hogs 8 × 20 / 2 (each shares its core): CNN gets 120/200.
    expect(e.bandwidthGBs).toBeCloseTo(sustainedGBs * 0.6, 9);
  });

  it('splits bandwidth evenly in J and gives the memBW hog half its cores in L', () => {
    expect(modeResources('J').bandwidthGBs).toBeCloseTo(sustainedGBs / 2, 9);
    expect(modeResources('K').bandwidthGBs).toBeCloseTo(sustainedGBs, 9);
    expect(modeResources('L').bandwidthGBs).toBeCloseTo((sustainedGBs * 80) / 120, 9);
    for (const mode of ['J', 'K', 'L'] as const) expect(modeResources(mode).cnnCores).toBe(4);
  });

  it('never gives the CNN more compute or bandwidth than alone', () => {
    const a = modeResources('A');
    for (const mode of INTERFERENCE_MODE_IDS) {
      const r = modeResources(mode);
      expect(r.computeGflops).toBeLessThanOrEqual(a.computeGflops);
      expect(r.bandwidthGBs).toBeLessThanOrEqual(a.bandwidthGBs);
    }
  });

  it('hurts more as hogs take more cores', () => {
    for (const series of [['A', 'B', 'C', 'D', 'E'], ['A', 'F', 'G', 'H', 'I']] as const) {
      for (let i = 1; i < series.length; i += 1) {
        const before = modeResources(series[i - 1] ?? 'A');
        const after = modeResources(series[i] ?? 'A');
        expect(after.computeGflops).toBeLessThan(before.computeGflops);
        expect(after.bandwidthGBs).toBeLessThanOrEqual(before.bandwidthGBs);
      }
    }
  });

  it('refuses a co-location that leaves the CNN nothing', () => {
    expect(() =>
      resourcesFor({ cnnCores: [0], hogs: [{ kind: 'cpu', cores: [0] }, { kind: 'cpu', cores: [0] }] }),
    ).toThrow(RangeError);
  });
});

describe('unitTimeMs', () => {
  const a = modeResources('A');

  it('is the slower of the compute and memory times plus a fixed overhead per kernel', () => {
    const computeBound = { flops: a.computeGflops * 1e9 * 1e-3, bytes: 1, kernels: 1 };
    expect(unitTimeMs(computeBound, a)).toBeCloseTo(1 + ep.kernelOverheadMs, 9);
    const memoryBound = { flops: 1, bytes: a.bandwidthGBs * 1e9 * 2e-3, kernels: 3 };
    expect(unitTimeMs(memoryBound, a)).toBeCloseTo(2 + 3 * ep.kernelOverheadMs, 9);
  });

  it('doubles a compute-bound unit when a CPU hog shares every core', () => {
    const work = { flops: 1e10, bytes: 1e3, kernels: 0 };
    expect(unitTimeMs(work, modeResources('I')) / unitTimeMs(work, a)).toBeCloseTo(2, 9);
    expect(unitTimeMs(work, modeResources('E')) / unitTimeMs(work, a)).toBeCloseTo(8 / 6, 9);
  });

  it('is finite and positive in every mode for any real unit', () => {
    for (const mode of MODE_IDS) {
      const t = unitTimeMs({ flops: 1, bytes: 1, kernels: 1 }, modeResources(mode));
      expect(Number.isFinite(t) && t > 0).toBe(true);
    }
  });
});
