import { describe, expect, it } from 'vitest';
import { TABLE1_COLOCATIONS } from '../engine/profiles/roofline';
import { INTERFERENCE_MODE_IDS } from '../engine/profiles/types';
import { describeHogPlan, hogPlan } from './hogs';

describe('hogPlan', () => {
  it('on the paper’s 8 cores starts one hog per Table 1 hog thread', () => {
    for (const mode of INTERFERENCE_MODE_IDS) {
      const plan = hogPlan(mode, 8);
      const row = TABLE1_COLOCATIONS[mode].hogs;
      expect(plan.cpu).toBe(row.filter((h) => h.kind === 'cpu').reduce((s, h) => s + h.cores.length, 0));
      expect(plan.memBW).toBe(row.filter((h) => h.kind === 'memBW').reduce((s, h) => s + h.cores.length, 0));
    }
    expect(hogPlan('A', 8)).toEqual({ cpu: 0, memBW: 0 });
  });

  it('on 2 cores keeps the proportions, at least one hog per kind', () => {
    const on2 = Object.fromEntries(INTERFERENCE_MODE_IDS.map((m) => [m, describeHogPlan(hogPlan(m, 2))]));
    expect(on2).toEqual({
      B: '1 memBW hog',
      C: '1 memBW hog',
      D: '1 memBW hog',
      E: '2 memBW hogs',
      F: '1 CPU hog',
      G: '1 CPU hog',
      H: '1 CPU hog',
      I: '2 CPU hogs',
      J: '1 memBW hog',
      K: '1 CPU hog',
      L: '1 CPU hog + 1 memBW hog',
    });
    expect(describeHogPlan(hogPlan('A', 2))).toBe('alone');
  });

  it('rejects a core count that is not a positive integer', () => {
    expect(() => hogPlan('B', 0)).toThrow(RangeError);
  });
});
