import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../testing/propertySeed';
import { DEFAULT_PIPELINE_ASSUMPTIONS } from './assumptions';
import { maxOf, StageMonitor } from './monitor';

describe('the monitor (ODIN §3.1) and its reading', () => {
  it('absent fields: observe is the single-sample rule, decision for decision', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(fc.double({ min: 1, max: 20, noNaN: true }), { minLength: 3, maxLength: 3 }), fc.boolean()), { minLength: 1, maxLength: 60 }), fc.constantFrom('bottleneck', 'anyStage'), (trace, signal) => {
        const a = { ...DEFAULT_PIPELINE_ASSUMPTIONS, detectionSignal: signal as 'bottleneck' | 'anyStage' };
        const shared = new StageMonitor(3);
        const old = new StageMonitor(3);
        for (const [values, reset] of trace) {
          const times = Float64Array.from(values);
          const b = maxOf(times);
          // The rule as it was written before `observe`.
          let expected: string;
          if (old.needsReference) {
            old.setReference(times, b);
            expected = 'reference';
          } else expected = old.changed(a, times, b) ? 'changed' : 'same';
          expect(shared.observe(a, times, b)).toBe(expected);
          expect(Array.from(shared.signalTimes)).toEqual(values);
          if (reset) {
            shared.installed(a, times);
            old.setReference(times, b);
          }
          expect(shared.referenceMs).toBe(old.referenceMs);
        }
      }),
      { numRuns: runs(100) },
    );
  });

  it('a window of 3 does not fire on one slow query, and fires on a sustained change', () => {
    const a = { ...DEFAULT_PIPELINE_ASSUMPTIONS, detectionWindow: 3 };
    const m = new StageMonitor(1);
    const read = (ms: number) => m.observe(a, Float64Array.of(ms), ms);
    expect(read(10)).toBe('reference');
    expect([read(10), read(10), read(10), read(11.2), read(10), read(10)]).toEqual(['same', 'same', 'same', 'same', 'same', 'same']);
    // A sustained +8 %: the mean crosses 5 % at the second slow query.
    expect([read(10.8), read(10.8)]).toEqual(['same', 'changed']);
    expect(m.signalBottleneckMs).toBeCloseTo((10 + 10.8 + 10.8) / 3, 12);
  });

  it('a steady reference ignores the serial trial that installed the configuration and waits for its pipelined queries', () => {
    const a = { ...DEFAULT_PIPELINE_ASSUMPTIONS, monitorReference: 'steady' as const, detectionWindow: 2 };
    const m = new StageMonitor(1);
    // The serial trial ran the stage alone at 9 ms; pipelined it takes 10.
    m.installed(a, Float64Array.of(9));
    expect(m.needsReference).toBe(true);
    expect([m.observe(a, Float64Array.of(10), 10), m.observe(a, Float64Array.of(10), 10)]).toEqual(['same', 'reference']);
    expect(m.referenceMs).toBe(10);
    // The same queries against the trial's reference (`first`) fire at once.
    const first = new StageMonitor(1);
    first.installed(DEFAULT_PIPELINE_ASSUMPTIONS, Float64Array.of(9));
    expect(first.observe(DEFAULT_PIPELINE_ASSUMPTIONS, Float64Array.of(10), 10)).toBe('changed');
  });
});
