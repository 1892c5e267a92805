import { describe, expect, it } from 'vitest';
import { arrangedOrder, chartLayout, moveChart, resetChartLayout, setChartCollapsed } from './chartLayout';

const currentOrder = () => chartLayout().order;
const currentCollapsed = () => chartLayout().collapsed;

describe('the chart layout', () => {
  it('keeps the world order for cards the person never moved, after the ones they did', () => {
    expect(arrangedOrder(['a', 'b', 'c'], [])).toEqual(['a', 'b', 'c']);
    expect(arrangedOrder(['a', 'b', 'c'], ['c', 'a'])).toEqual(['c', 'a', 'b']);
    // Ids of another grid (the other world's) are ignored here.
    expect(arrangedOrder(['a', 'b'], ['x', 'b'])).toEqual(['b', 'a']);
  });

  it('moves a card one place earlier or later, and not past either end', () => {
    resetChartLayout();
    const ids = ['a', 'b', 'c'];
    moveChart(ids, 'c', -1);
    expect(arrangedOrder(ids, currentOrder())).toEqual(['a', 'c', 'b']);
    moveChart(ids, 'a', -1);
    expect(arrangedOrder(ids, currentOrder())).toEqual(['a', 'c', 'b']);
    moveChart(ids, 'b', 1);
    expect(arrangedOrder(ids, currentOrder())).toEqual(['a', 'c', 'b']);
    moveChart(ids, 'a', 1);
    expect(arrangedOrder(ids, currentOrder())).toEqual(['c', 'a', 'b']);
  });

  it('keeps the order of the other grid when one grid is rearranged', () => {
    resetChartLayout();
    moveChart(['x', 'y'], 'y', -1);
    moveChart(['a', 'b'], 'b', -1);
    expect(arrangedOrder(['x', 'y'], currentOrder())).toEqual(['y', 'x']);
    expect(arrangedOrder(['a', 'b'], currentOrder())).toEqual(['b', 'a']);
  });

  it('collapses and opens cards one by one', () => {
    resetChartLayout();
    setChartCollapsed('a', true);
    setChartCollapsed('b', true);
    setChartCollapsed('a', false);
    expect(currentCollapsed()).toEqual(['b']);
  });
});
