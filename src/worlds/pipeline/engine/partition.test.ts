import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { MODE_IDS, type LayerTimeDatabase } from './profiles/types';
import { isValidConfiguration } from './configuration';
import { bruteForcePartition, compositionCount, exhaustivePartition, optimalPartition } from './partition';
import { compileDatabase, computeStageTimes } from './stageTimes';
import { toyDatabase } from './testing/fixtures';

const randomDatabase = fc
  .record({
    units: fc.integer({ min: 1, max: 9 }),
    modes: fc.integer({ min: 1, max: 4 }),
  })
  .chain(({ units, modes }) =>
    fc.record({
      times: fc.array(fc.array(fc.double({ min: 0.01, max: 50, noNaN: true }), { minLength: units, maxLength: units }), {
        minLength: modes,
        maxLength: modes,
      }),
      stages: fc.integer({ min: 1, max: 5 }),
      hopMs: fc.constantFrom(0, 0.5),
    }),
  )
  .chain(({ times, stages, hopMs }) =>
    fc.record({
      db: fc.constant<LayerTimeDatabase>({
        model: 'random',
        layers: times[0]!.map((_, l) => `u${l}`),
        modes: Object.fromEntries(times.map((t, k) => [MODE_IDS[k]!, t])),
      }),
      modes: fc.array(fc.integer({ min: 0, max: times.length - 1 }), { minLength: stages, maxLength: stages }),
      hopMs: fc.constant(hopMs),
    }),
  );

describe('optimalPartition', () => {
  it('matches brute-force enumeration on random databases', () => {
    fc.assert(
      fc.property(randomDatabase, ({ db, modes, hopMs }) => {
        const compiled = compileDatabase(db);
        const m = Uint8Array.from(modes);
        const dp = optimalPartition(compiled, m, hopMs);
        const brute = bruteForcePartition(compiled, m, hopMs)!;
        const plain = exhaustivePartition(compiled, m, hopMs)!;
        expect(dp.bottleneckMs).toBe(brute.bottleneckMs);
        expect(plain.bottleneckMs).toBe(brute.bottleneckMs);
        expect(isValidConfiguration(dp.counts, compiled.unitCount)).toBe(true);
        // The partition it returns really has the bottleneck it claims.
        const times = new Float64Array(m.length);
        expect(computeStageTimes(compiled, dp.counts, m, hopMs, times)).toBe(dp.bottleneckMs);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('balances the toy model by hand', () => {
    // Units 1,2,3,4,4,3,2,1 over 2 EPs alone: 10 | 10.
    const p = optimalPartition(toyDatabase(), new Uint8Array(2));
    expect(Array.from(p.counts)).toEqual([4, 4]);
    expect(p.bottleneckMs).toBe(10);
    // EP 1 in mode B (every unit doubled): best is 1+2+3+4+4 = 14 | (3+2+1)·2 = 12.
    const q = optimalPartition(toyDatabase(), Uint8Array.of(0, 1));
    expect(Array.from(q.counts)).toEqual([5, 3]);
    expect(q.bottleneckMs).toBe(14);
  });

  it('leaves stages empty when that is optimal', () => {
    // One unit over three EPs: only one stage can hold it.
    const one = compileDatabase({ model: 'one', layers: ['x'], modes: { A: [5], B: [50] } });
    const p = optimalPartition(one, Uint8Array.of(1, 0, 1));
    expect(Array.from(p.counts)).toEqual([0, 1, 0]);
    expect(p.bottleneckMs).toBe(5);
  });

  it('counts compositions', () => {
    expect(compositionCount(16, 4)).toBe(969);
    expect(compositionCount(3, 1)).toBe(1);
    expect(compositionCount(2, 3)).toBe(6);
  });

  it('refuses enumeration over the limit', () => {
    expect(bruteForcePartition(toyDatabase(), new Uint8Array(4), 0, 10)).toBeNull();
    expect(exhaustivePartition(toyDatabase(), new Uint8Array(4), 0, 10)).toBeNull();
  });
});
