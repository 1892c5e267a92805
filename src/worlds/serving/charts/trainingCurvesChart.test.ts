import { describe, expect, it } from 'vitest';
import { lastValue, slotLinesDomain, type SlotLine } from './slotLinesChart';
import { movingAverage, smoothingWindow } from './trainingCurvesChart';

const lineOf = (slot: number[], value: number[]): SlotLine => ({ key: 'a', label: 'a', colour: '#000', slot, value });

describe('movingAverage', () => {
  it('averages the trailing window of slots (slot − w, slot]', () => {
    const out = movingAverage([0, 1, 2, 3, 4], [1, 2, 3, 4, 5], 2);
    expect(Array.from(out)).toEqual([1, 1.5, 2.5, 3.5, 4.5]);
  });

  it('counts the window in slots, not in points, so downsampled lines smooth alike', () => {
    // Points every 4 slots: a window of 8 slots holds two points.
    const out = movingAverage([3, 7, 11, 15], [0, 4, 8, 12], 8);
    expect(Array.from(out)).toEqual([0, 2, 6, 10]);
  });

  it('skips NaN values and gives NaN where the window holds none', () => {
    const out = movingAverage([0, 1, 2, 3], [Number.NaN, 2, Number.NaN, Number.NaN], 2);
    expect(Number.isNaN(out[0]!)).toBe(true);
    expect(out[1]).toBe(2);
    expect(out[2]).toBe(2);
    expect(Number.isNaN(out[3]!)).toBe(true);
  });

  it('leaves values alone with a window of 1 slot, and handles empty input', () => {
    expect(Array.from(movingAverage([0, 1, 2], [5, -1, 3], 1))).toEqual([5, -1, 3]);
    expect(movingAverage([], [], 10).length).toBe(0);
  });
});

describe('smoothingWindow', () => {
  it('takes about a thirtieth of the run, rounded down to 1, 2, 5 × 10^k', () => {
    expect(smoothingWindow(0)).toBe(1);
    expect(smoothingWindow(45)).toBe(1);
    expect(smoothingWindow(600)).toBe(20);
    expect(smoothingWindow(3000)).toBe(100);
    expect(smoothingWindow(1e7)).toBe(500);
    expect(smoothingWindow(Number.NaN)).toBe(1);
  });
});

describe('slotLinesDomain', () => {
  it('runs x from 0 to the last drawable slot (at least 10) and pads y by 5 %', () => {
    const d = slotLinesDomain([lineOf([0, 50, 100], [0, 10, Number.NaN])], false);
    expect(d.x).toEqual([0, 50]);
    expect(d.y[0]).toBeCloseTo(-0.5);
    expect(d.y[1]).toBeCloseTo(10.5);
    expect(slotLinesDomain([lineOf([1], [2])], false).x).toEqual([0, 10]);
  });

  it('widens a flat line and keeps negative rewards', () => {
    expect(slotLinesDomain([lineOf([1, 2], [-2, -2])], false).y).toEqual([-2.2, -1.8]);
    expect(slotLinesDomain([lineOf([1, 2], [0, 0])], false).y).toEqual([-0.5, 0.5]);
  });

  it('keeps only positive values on a log axis and defaults without data', () => {
    const d = slotLinesDomain([lineOf([1, 2, 3], [0, 0.01, 1])], true);
    expect(d.y[0]).toBeCloseTo(0.008);
    expect(d.y[1]).toBeCloseTo(1.25);
    expect(slotLinesDomain([], false)).toEqual({ x: [0, 10], y: [0, 1] });
    expect(slotLinesDomain([lineOf([1], [0])], true).y).toEqual([0.01, 1]);
  });
});

describe('lastValue', () => {
  it('is the last drawable value of a line', () => {
    expect(lastValue(lineOf([0, 1, 2], [3, 4, Number.NaN]))).toBe(4);
    expect(lastValue(lineOf([0, 1], [3, 0]), true)).toBe(3);
    expect(Number.isNaN(lastValue(lineOf([], [])))).toBe(true);
  });
});
