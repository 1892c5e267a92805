import { describe, expect, it } from 'vitest';
import { BoundedSeries } from './boundedSeries';

const sum = (a: number, b: number) => a + b;

describe('a bounded series', () => {
  it('merges neighbours and doubles its stride at the bound, so a run of any length keeps fewer points than the bound', () => {
    const s = new BoundedSeries<number>(sum, 8);
    // As a lane does: one point per `stride` samples (here each sample is 1).
    let pending = 0;
    for (let i = 1; i <= 1000; i++) {
      if (++pending < s.stride) continue;
      s.push(pending);
      pending = 0;
    }
    expect(s.length).toBeLessThan(8);
    expect(s.stride).toBe(128);
    // Merging sums is exact: every sample pushed is still counted.
    const { points, replace } = s.take();
    expect(points.reduce(sum, 0) + pending).toBe(1000);
    expect(replace).toBe(true);
  });

  it('gives the points not sent yet, all of them again after a compaction, a resend or a restore', () => {
    const s = new BoundedSeries<number>(sum, 4);
    s.push(1);
    s.push(2);
    expect(s.take()).toEqual({ points: [1, 2], replace: false });
    s.push(3);
    expect(s.take()).toEqual({ points: [3], replace: false });
    expect(s.take()).toEqual({ points: [], replace: false });
    // The fourth point reaches the bound: pairs merge, and the page's series is replaced.
    s.push(4);
    expect(s.take()).toEqual({ points: [3, 7], replace: true });
    const saved = s.snapshot();
    s.push(5);
    s.resend();
    expect(s.take()).toEqual({ points: [3, 7, 5], replace: true });
    s.restore(saved);
    expect(s.stride).toBe(2);
    expect(s.take()).toEqual({ points: [3, 7], replace: true });
  });
});
