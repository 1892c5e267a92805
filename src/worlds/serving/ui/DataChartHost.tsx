import { useEffect, useRef, type ReactNode } from 'react';
import type { DataChart } from '../../../charts/runtime';
import { ChartCard } from '../../../ui/shell/ChartCard';

/**
 * Mounts a data-driven chart (`createXxxChart(host)`) in a figure with its title and feeds
 * it `data` whenever it changes (null: nothing yet). `minIntervalMs` throttles the updates of
 * charts fed on every frame (the latest data is always drawn, at most that often); `caption`
 * is a sentence under the title; `controls` sit beside it; `attributes` are `data-*` values
 * on the figure. The card (`ChartCard`) has the PNG and SVG export buttons (`<testId>.png`, `.svg`).
 */
export function DataChartHost<D>({
  title,
  testId,
  create,
  data,
  caption,
  controls,
  minIntervalMs = 0,
  attributes,
}: {
  readonly title: string;
  readonly testId: string;
  readonly create: (host: HTMLElement) => DataChart<D>;
  readonly data: D | null;
  readonly caption?: ReactNode;
  readonly controls?: ReactNode;
  readonly minIntervalMs?: number;
  /** `data-*` attributes of the figure (values tests read). */
  readonly attributes?: Readonly<Record<`data-${string}`, string | number>>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<DataChart<D> | null>(null);
  const last = useRef(Number.NEGATIVE_INFINITY);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (host.current === null) return;
    chart.current = create(host.current);
    last.current = Number.NEGATIVE_INFINITY;
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [create]);
  useEffect(() => {
    if (data === null) return;
    const now = performance.now();
    const wait = minIntervalMs - (now - last.current);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    if (wait <= 0) {
      last.current = now;
      chart.current?.update(data);
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = performance.now();
      chart.current?.update(data);
    }, wait);
  }, [data, minIntervalMs]);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return <ChartCard title={title} testId={testId} host={host} caption={caption} controls={controls} attributes={attributes} fallbackLegend={() => []} />;
}
