import { describe, expect, it } from 'vitest';
import { formatEstimate, formatNumber, unitOfRow } from './claimNumbers';

describe('the Claims view’s numbers', () => {
  it('writes a row with its unit and its interval', () => {
    expect(formatEstimate({ mean: 4.2, halfWidth95: 1.1, seeds: 2, unit: 'points' })).toBe('4.20 ± 1.10 pp (2 seeds)');
    expect(formatEstimate({ mean: -12.62, halfWidth95: 0.71, seeds: 5 }, ' %')).toBe('−12.6 ± 0.71 % (5 seeds)');
    expect(formatEstimate({ mean: 19.16, halfWidth95: 0.001, seeds: 5 }, '')).toBe('19.2 ± 0 (5 seeds)');
    expect(formatEstimate({ mean: 0.97, halfWidth95: 0, seeds: 1 }, '')).toBe('0.97 (1 seed)');
    expect(formatNumber(-0.001)).toBe('0.00');
  });

  it('gives a large number to the precision of its interval, grouped, and says how many times as large a large change is (Fig. 16)', () => {
    expect(formatEstimate({ mean: 121745.55179863606, halfWidth95: 111205.70213935213, seeds: 5 }, ' %')).toBe('+120,000 ± 110,000 % (≈ 1,200 ×; 5 seeds)');
    expect(formatEstimate({ mean: 2345.6, halfWidth95: 12.3, seeds: 3 }, ' %')).toBe('+2,346 ± 12 % (≈ 24 ×; 3 seeds)');
    expect(formatEstimate({ mean: -1500, halfWidth95: 0, seeds: 1 }, '')).toBe('−1,500 (1 seed)');
  });

  it('takes a row’s unit from its words', () => {
    expect(unitOfRow({ mean: 1, halfWidth95: 0, seeds: 1 }, 'wall-clock time per scheduling decision on this machine, %')).toBe(' %');
    expect(unitOfRow({ mean: 1, halfWidth95: 0, seeds: 1 }, 'trial queries per rebalancing, grid mean (both models)')).toBe('');
    expect(unitOfRow({ mean: 1, halfWidth95: 0, seeds: 1, unit: 'points' }, 'anything, %')).toBe(' pp');
  });
});
