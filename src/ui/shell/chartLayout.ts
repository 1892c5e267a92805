import { useSyncExternalStore } from 'react';

/**
 * How the person arranged the chart grid: which cards are collapsed and their order, per
 * chart test id (`chart.latency`), remembered in this browser (localStorage) so that a
 * reload keeps it. Not part of the scenario or the link: it is the reader's desk, not the
 * experiment.
 */
export interface ChartLayout {
  readonly collapsed: readonly string[];
  /** Card ids in the order the person put them; ids not listed keep the world's order after these. */
  readonly order: readonly string[];
}

const KEY = 'interference-lab.chart-layout';
const EMPTY: ChartLayout = { collapsed: [], order: [] };

function read(): ChartLayout {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (raw == null) return EMPTY;
    const value = JSON.parse(raw) as Partial<ChartLayout>;
    const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return { collapsed: strings(value.collapsed), order: strings(value.order) };
  } catch {
    // No storage (a private window, a sandboxed iframe) or a value from elsewhere: the default layout.
    return EMPTY;
  }
}

let layout: ChartLayout = read();
const listeners = new Set<() => void>();

function write(next: ChartLayout): void {
  layout = next;
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(next));
  } catch {
    // The layout still holds for this page.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chart layout as it is now. */
export function chartLayout(): ChartLayout {
  return layout;
}

/** The chart layout, re-rendering when it changes. */
export function useChartLayout(): ChartLayout {
  return useSyncExternalStore(subscribe, chartLayout);
}

/** Collapses or expands one chart card. */
export function setChartCollapsed(id: string, collapsed: boolean): void {
  const rest = layout.collapsed.filter((c) => c !== id);
  write({ ...layout, collapsed: collapsed ? [...rest, id] : rest });
}

/** `ids` (the world's order) as the person arranged them. */
export function arrangedOrder(ids: readonly string[], order: readonly string[]): string[] {
  const known = order.filter((id) => ids.includes(id));
  return [...known, ...ids.filter((id) => !known.includes(id))];
}

/** Moves a card one place earlier (-1) or later (+1) among `ids` as currently arranged. */
export function moveChart(ids: readonly string[], id: string, direction: -1 | 1): void {
  const current = arrangedOrder(ids, layout.order);
  const from = current.indexOf(id);
  const to = from + direction;
  if (from < 0 || to < 0 || to >= current.length) return;
  [current[from], current[to]] = [current[to]!, current[from]!];
  // Ids of the other world's grid keep their place in the remembered order.
  write({ ...layout, order: [...current, ...layout.order.filter((o) => !current.includes(o))] });
}

/** Back to the world's order with every card open. */
export function resetChartLayout(): void {
  write(EMPTY);
}
