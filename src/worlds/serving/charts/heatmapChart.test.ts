import { describe, expect, it } from 'vitest';
import { HEATMAP_METRIC, LOG_SPAN, PROBABILITY_TEXT_MIN, bestCell, cellText, colourDomain, textOn } from './heatmapChart';

describe('bestCell', () => {
  const values = [
    [10, 20, null],
    [30, 25, null],
    [5, null, null],
  ];

  it('finds the largest value for throughput and the smallest for latency, skipping OOM cells', () => {
    expect(bestCell(values, 'higher')).toEqual({ row: 1, col: 0, value: 30 });
    expect(bestCell(values, 'lower')).toEqual({ row: 2, col: 0, value: 5 });
  });

  it('keeps the first cell in row-major order on ties and skips non-finite values', () => {
    expect(bestCell([[Number.NaN, 7], [7, Number.POSITIVE_INFINITY]], 'higher')).toEqual({ row: 0, col: 1, value: 7 });
  });

  it('returns null when every cell is out of memory or the matrix is empty', () => {
    expect(bestCell([[null, null]], 'higher')).toBeNull();
    expect(bestCell([], 'lower')).toBeNull();
  });
});

describe('colourDomain', () => {
  it('spans the finite values and ignores OOM cells', () => {
    expect(colourDomain([[4, null], [12, 8]])).toEqual({ min: 4, max: 12, log: false });
  });

  it('turns logarithmic when positive values span more than LOG_SPAN', () => {
    expect(colourDomain([[1, LOG_SPAN * 2]])).toEqual({ min: 1, max: LOG_SPAN * 2, log: true });
    expect(colourDomain([[0, 1000]]).log).toBe(false);
  });

  it('widens a flat matrix and defaults an empty one', () => {
    expect(colourDomain([[5, 5]])).toEqual({ min: 2.5, max: 7.5, log: false });
    expect(colourDomain([[0, 0]])).toEqual({ min: -1, max: 1, log: false });
    expect(colourDomain([[null]])).toEqual({ min: 0, max: 1, log: false });
  });
});

describe('colourDomain for shares (zeroBased)', () => {
  it('runs linearly from 0 to the largest value, never logarithmic', () => {
    expect(colourDomain([[0.001, 80], [null, 2]], true)).toEqual({ min: 0, max: 80, log: false });
  });

  it('falls back to [0, 1] when nothing is above 0', () => {
    expect(colourDomain([[0, 0]], true)).toEqual({ min: 0, max: 1, log: false });
    expect(colourDomain([[null]], true)).toEqual({ min: 0, max: 1, log: false });
  });

  it('is what the probability metric asks for, and only it', () => {
    expect(HEATMAP_METRIC.probability.zeroBased).toBe(true);
    expect(HEATMAP_METRIC.throughput.zeroBased).toBe(false);
    expect(HEATMAP_METRIC.probability.missing).toBe('');
    expect(HEATMAP_METRIC.probability.missingText).toContain('masked');
    expect(HEATMAP_METRIC.latency.missing).toBe('OOM');
  });
});

describe('cellText', () => {
  it('writes probabilities as percents: whole from 10 %, one decimal below, nothing for a trace', () => {
    expect(cellText(42.4, 'probability')).toBe('42');
    expect(cellText(3.14159, 'probability')).toBe('3.1');
    expect(cellText(PROBABILITY_TEXT_MIN, 'probability')).toBe('0.5');
    expect(cellText(0.01, 'probability')).toBe('');
    expect(cellText(0, 'probability')).toBe('');
  });

  it('keeps three significant digits for throughput and latency', () => {
    expect(cellText(93.14, 'throughput')).toBe('93.1');
    expect(cellText(2781.4, 'latency')).toBe('2780');
  });
});

describe('textOn', () => {
  it('writes black on light fills and white on dark ones', () => {
    expect(textOn('#fde725')).toBe('#000000');
    expect(textOn('#440154')).toBe('#ffffff');
  });
});
