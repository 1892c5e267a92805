import { useEffect, useRef, type ReactNode } from 'react';
import { laneColour } from '../../../charts/palette';
import type { PipelineLabStore } from '../store/pipelineStore';
import { usePipelineStore } from './pipelineContext';
import { ChartCard } from '../../../ui/shell/ChartCard';

/** A chart module's entry point: builds its SVG in `host`, returns the cleanup. */
export type CreatePipelineChart = (host: HTMLElement, store: PipelineLabStore) => () => void;

export interface PipelineChartHostProps {
  /** Shown as the figure's caption (a level-3 heading). */
  readonly title: string;
  /** Dotted test id of the figure, e.g. "chart.throughput". */
  readonly testId: string;
  /** The chart module, e.g. `createThroughputChart`. Keep it stable (a module function). */
  readonly create: CreatePipelineChart;
  readonly caption?: ReactNode | undefined;
  readonly controls?: ReactNode | undefined;
}

/**
 * A pipeline chart card that hosts one imperative D3 chart: React renders the frame once, the
 * chart owns everything inside the host div and follows the store by itself (ARCHITECTURE §8:
 * charts subscribe, React does not re-render per frame). The card (`ChartCard`) brings the
 * PNG/SVG export, with one legend line per lane in its palette colour when the chart has
 * drawn no legend on screen.
 */
export function PipelineChartHost({ title, testId, create, caption, controls }: PipelineChartHostProps) {
  const store = usePipelineStore();
  const hostRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = hostRef.current;
    if (host === null) return undefined;
    return create(host, store);
  }, [create, store]);
  return (
    <ChartCard
      title={title}
      testId={testId}
      host={hostRef}
      caption={caption}
      controls={controls}
      fallbackLegend={() => store.getState().lanes.map((lane, i) => ({ label: lane.label, colour: laneColour(i), swatch: 'line' }))}
    />
  );
}
