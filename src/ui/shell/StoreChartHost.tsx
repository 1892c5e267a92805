import { useEffect, useRef, type ReactNode } from 'react';
import type { DataChart } from '../../charts/runtime';
import { ChartCard } from './ChartCard';

/** What a store-fed chart needs of a store: its state and a subscription (every lab's store has both). */
export interface ChartSource<S> {
  getState(): S;
  subscribe(listener: (state: S, previous: S) => void): () => void;
}

/**
 * A data chart fed by a store outside React (ARCHITECTURE §8: charts subscribe, React does not
 * re-render per frame): the card is rendered once; on every change of the store, `select`
 * builds the chart's data (null: nothing yet) and the chart draws it, at most every
 * `minIntervalMs` (the latest data is always drawn). `select` may return the same object when
 * nothing it reads changed: the chart is then not fed again. Keep `select` and `create` stable
 * (module functions or memoized) — a new one remounts the subscription.
 */
export function StoreChartHost<S, D>({
  title,
  testId,
  create,
  source,
  select,
  caption,
  controls,
  minIntervalMs = 0,
}: {
  readonly title: string;
  readonly testId: string;
  readonly create: (host: HTMLElement) => DataChart<D>;
  readonly source: ChartSource<S>;
  readonly select: (state: S) => D | null;
  readonly caption?: ReactNode;
  readonly controls?: ReactNode;
  readonly minIntervalMs?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (host.current === null) return;
    const chart = create(host.current);
    let last = Number.NEGATIVE_INFINITY;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let fed: D | null = null;
    const feed = () => {
      const data = select(source.getState());
      if (data === null || data === fed) return;
      const wait = minIntervalMs - (performance.now() - last);
      if (wait > 0) {
        timer ??= setTimeout(() => {
          timer = null;
          feed();
        }, wait);
        return;
      }
      fed = data;
      last = performance.now();
      chart.update(data);
    };
    feed();
    const unsubscribe = source.subscribe(feed);
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
      chart.destroy();
    };
  }, [create, source, select, minIntervalMs]);
  return <ChartCard title={title} testId={testId} host={host} caption={caption} controls={controls} fallbackLegend={() => []} />;
}
