// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAxesFrame, layoutLinearAxes, PLOT_MARGIN } from '../../../charts/axes';
import { mountDataChart, type DataChart } from '../../../charts/runtime';
import { scaleLinear, line } from 'd3';
import { LabShell, type LabWorld } from '../../../ui/shell/LabShell';
import { StoreChartHost } from '../../../ui/shell/StoreChartHost';
import type { ShellStore } from '../../../ui/shell/shellStore';
import { manualHost } from '../../../worker/testing/manualHost';
import { registerWorld } from '../../../kit/worlds';
import { queueScenario } from '../schema';
import { queueLab } from '../store/queueLab';
import type { QueueFrame } from '../worker/queuePlugin';
import { queueWorld } from '../world';

/**
 * The third world in the page shell (ARCHITECTURE §7b): the queue lab's store in the kit's
 * `LabShell`, with a main chart built from the chart kit (axes kit, a data chart fed by the
 * store outside React), played and paused with the shell's playback bar. What the world wrote
 * is the `LabWorld` below; everything else is the kit's.
 */

let unregister: () => void;
const frames = new Map<number, FrameRequestCallback>();
let clientWidth: PropertyDescriptor | undefined;
beforeAll(() => {
  unregister = registerWorld(queueWorld);
  (globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => (frames.set(next, callback), next++));
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  // happy-dom lays nothing out: every element is 640 px wide, as a chart card on a laptop.
  clientWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 640 });
});
afterAll(() => {
  unregister();
  vi.unstubAllGlobals();
  if (clientWidth === undefined) delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  else Object.defineProperty(HTMLElement.prototype, 'clientWidth', clientWidth);
});

/** Runs the animation frames the charts asked for. */
function drawFrames(): void {
  const pending = [...frames.values()];
  frames.clear();
  for (const callback of pending) callback(0);
}

interface QueueSeriesData {
  readonly lanes: readonly { readonly timeS: readonly number[]; readonly waiting: readonly number[] }[];
}

/** The queue's one chart: requests waiting over simulated time, per lane, on the kit's axes. */
function createWaitingChart(host: HTMLElement): DataChart<QueueSeriesData> {
  const frame = createAxesFrame(host, 'chart-queue-waiting');
  const x = scaleLinear();
  const y = scaleLinear();
  return mountDataChart<QueueSeriesData>(host, frame.scaffold.root, (data, width) => {
    const height = 200;
    const innerWidth = width - PLOT_MARGIN.left - PLOT_MARGIN.right;
    const innerHeight = height - PLOT_MARGIN.top - PLOT_MARGIN.bottom;
    const last = Math.max(10, ...data.lanes.map((l) => l.timeS.at(-1) ?? 0));
    x.domain([0, last]).range([0, innerWidth]);
    y.domain([0, Math.max(1, ...data.lanes.flatMap((l) => l.waiting))]).range([innerHeight, 0]);
    layoutLinearAxes(frame, width, height, PLOT_MARGIN, x, y, { x: 'simulated time (s)', y: 'waiting' });
    // Each lane its own line, over its own points.
    const path = (l: QueueSeriesData['lanes'][number]) =>
      line<number>()
        .x((i) => x(l.timeS[i]!))
        .y((i) => y(l.waiting[i]!))(l.timeS.map((_, i) => i)) ?? '';
    frame.plot
      .selectAll<SVGPathElement, QueueSeriesData['lanes'][number]>('path')
      .data(data.lanes)
      .join('path')
      .attr('data-points', (l) => l.timeS.length)
      .attr('d', path);
  });
}

function queueLabWorld(store: ShellStore): LabWorld {
  const act0 = store.getState();
  return {
    testId: 'queue',
    title: 'M/M/c queue',
    tagline: 'Two schedulers on one arrival trace.',
    playback: {
      ids: 'queue',
      speeds: [1, 10, 100, 'max'],
      speedLabel: (speed) => `${speed} × real time`,
      step: (
        <button type="button" data-testid="queue.step" onClick={() => void act0.step(1000)}>
          Step
        </button>
      ),
      progress: <span data-testid="queue.progress">queue</span>,
    },
    share: { copyLink: async () => ({ ok: false, reason: 'the queue world has no link codec' }) as never, presets: () => null, parts: {} },
    lessons: async () => [],
    shortcuts: [],
    board: <p data-testid="queue.board">two servers</p>,
    dockLabel: 'Queue',
    dock: [],
    mainChart: (
      <StoreChartHost
        title="Waiting"
        testId="chart.queue-waiting"
        create={createWaitingChart}
        source={store as never}
        select={(s: { readonly series: readonly { readonly length: number; readonly columns: { readonly timeMs: Float64Array; readonly waiting: Float64Array } }[] }) =>
          s.series.length === 0 ? null : { lanes: s.series.map((b) => ({ timeS: Array.from(b.columns.timeMs.subarray(0, b.length), (t) => t / 1000), waiting: Array.from(b.columns.waiting.subarray(0, b.length)) })) }
        }
      />
    ),
    charts: null,
    timeline: null,
  };
}

let root: Root | null = null;
let host: HTMLElement | null = null;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
});

describe('the third world in the page shell (ARCHITECTURE §7b)', () => {
  it("renders the queue lab in the kit's LabShell; the shell's Play and Pause run it, and the kit's chart follows the store", async () => {
    const h = manualHost<QueueFrame>();
    const { store } = queueLab(h.host);
    expect(await store.getState().load(queueScenario(), 'preset')).toBe(true);
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    const shellStore = store as unknown as ShellStore;
    await act(async () => root!.render(<LabShell store={shellStore} world={queueLabWorld(shellStore)} />));
    const q = (id: string) => host!.querySelector(`[data-testid="${id}"]`);
    expect(q('queue')).not.toBeNull();
    expect(q('app.title')?.textContent).toBe('M/M/c queue');
    expect(q('queue.board')?.textContent).toBe('two servers');

    // The shell's playback bar: Play, ten simulated seconds at 10×, Pause.
    const play = q('queue.play') as HTMLButtonElement;
    const pause = q('queue.pause') as HTMLButtonElement;
    expect([play.disabled, pause.disabled]).toEqual([false, true]);
    await act(async () => play.click());
    await act(async () => h.advanceTime(1000));
    expect(store.getState().status).toBe('playing');
    expect((q('queue.pause') as HTMLButtonElement).disabled).toBe(false);
    await act(async () => (q('queue.pause') as HTMLButtonElement).click());
    expect(store.getState().status).toBe('paused');
    expect(store.getState().position).toBe(10_000);

    // The main chart, fed by the store outside React, draws every point of each lane.
    await act(async () => drawFrames());
    const paths = host.querySelectorAll('[data-testid="chart.queue-waiting"] .chart-plot path');
    expect(paths).toHaveLength(2);
    expect(Array.from(paths, (p) => p.getAttribute('data-points'))).toEqual(['10', '10']);
    // Each line is its own lane's: the two schedulers left different queues, and the lines differ.
    const series = store.getState().series.map((b) => Array.from(b.columns.waiting.subarray(0, b.length)));
    expect(series[0]).not.toEqual(series[1]);
    expect(paths[0]!.getAttribute('d')).not.toBe(paths[1]!.getAttribute('d'));
    expect(host.querySelector('[data-testid="chart.queue-waiting"] .chart-x-axis .tick')).not.toBeNull();

    // The world's own step control, in the shell's bar.
    await act(async () => (q('queue.step') as HTMLButtonElement).click());
    expect(store.getState().position).toBe(11_000);
  });
});
