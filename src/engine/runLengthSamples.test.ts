import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../testing/propertySeed';
import { quantileSelect } from './quantiles';
import { RunLengthSamples } from './runLengthSamples';

/** Samples with long runs of equal values (a configuration's latency, query after query), and some that change every time. */
const samples = fc.array(
  fc.tuple(fc.constantFrom(10, 10.5, 42.25, 7, 0, 1e6 / 3), fc.integer({ min: 1, max: 40 })),
  { minLength: 0, maxLength: 60 },
).map((runsOf) => runsOf.flatMap(([v, k]) => Array<number>(k).fill(v)));
const mixed = fc.oneof(samples, fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { maxLength: 200 }));

function filled(values: readonly number[]): RunLengthSamples {
  const s = new RunLengthSamples(4);
  for (const v of values) s.push(v);
  return s;
}

describe('RunLengthSamples: samples as runs of equal values, exact', () => {
  it('gives the quantiles quantileSelect gives of the samples written out, bit for bit (property test)', () => {
    fc.assert(
      fc.property(mixed, fc.double({ min: 0, max: 1, noNaN: true }), (values, p) => {
        const s = filled(values);
        expect(Array.from(s.expand())).toEqual(values);
        for (const q of [p, 0, 0.5, 0.99, 1]) expect(s.quantile(q)).toBe(quantileSelect(Float64Array.from(values), q));
      }),
      { numRuns: runs(300) },
    );
  });

  it('keeps ⌊n/2⌋ samples, those of even index, when decimated, as the metrics’ systematic sample does (property test)', () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: 1, max: 3 }), (values, times) => {
        const s = filled(values);
        let kept = values;
        for (let t = 0; t < times; t++) {
          s.decimate();
          kept = kept.filter((_, i) => i % 2 === 0 && i < 2 * Math.floor(kept.length / 2));
        }
        expect(s.length).toBe(kept.length);
        expect(Array.from(s.expand())).toEqual(kept);
        expect(s.quantile(0.99)).toBe(quantileSelect(Float64Array.from(kept), 0.99));
      }),
      { numRuns: runs(200) },
    );
  });

  it('a static run of a million equal samples is one run', () => {
    const s = new RunLengthSamples();
    for (let i = 0; i < 1_000_000; i++) s.push(70.5);
    expect(s.runCount).toBe(1);
    expect(s.quantile(0.99)).toBe(70.5);
  });

  it('a snapshot restored is the samples as they were, whatever was appended since (the last run’s end moved on, runs added)', () => {
    const s = filled([1, 1, 2]);
    const snap = s.snapshot();
    for (const v of [2, 2, 3, 3]) s.push(v);
    s.restore(snap);
    expect(Array.from(s.expand())).toEqual([1, 1, 2]);
    s.push(5);
    expect(Array.from(s.expand())).toEqual([1, 1, 2, 5]);
    // The snapshot's arrays were not written by the restored run's appends.
    const again = new RunLengthSamples();
    again.restore(snap);
    expect(Array.from(again.expand())).toEqual([1, 1, 2]);
  });
});
