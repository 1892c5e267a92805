// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCdfChart } from '../worlds/serving/charts/cdfChart';
import type { DataChart } from './runtime';
import { createDecisionTimeChart } from '../worlds/serving/charts/decisionTimeChart';
import { createHeatmapChart, type HeatmapData } from '../worlds/serving/charts/heatmapChart';
import { createPerModelLinesChart } from '../worlds/serving/charts/perModelLinesChart';
import { createPerModelStackChart } from '../worlds/serving/charts/perModelStackChart';
import { createRpsSweepChart } from '../worlds/serving/charts/rpsSweepChart';
import { createTemperatureChart } from '../worlds/serving/charts/temperatureChart';
import { createTrainingCurvesChart } from '../worlds/serving/charts/trainingCurvesChart';
import { createUtilityBarsChart } from '../worlds/serving/charts/utilityBarsChart';
import { createConfigChart } from '../worlds/pipeline/charts/configChart';
import { drawExplore } from './exploreChart';
import { createLatencyBoxChart } from '../worlds/pipeline/charts/latencyBoxChart';
import { createLatencyChart } from '../worlds/pipeline/charts/latencyChart';
import { createSloChart } from '../worlds/pipeline/charts/sloChart';
import { renderSlowdownChart } from '../worlds/pipeline/charts/slowdownChart';
import { createStagesChart } from '../worlds/pipeline/charts/stagesChart';
import { createThroughputChart } from '../worlds/pipeline/charts/throughputChart';
import { plottable } from './pointSampling';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { inProcessPipeline } from '../store/testing/inProcessStores';

/**
 * No chart module writes a non-finite attribute (NaN, Infinity, undefined)
 * whatever numbers it is fed — empty data, one point, all equal, zeros, negatives, NaN,
 * ±Infinity and the largest and smallest doubles. Each chart is drawn into a DOM (happy-dom)
 * and every attribute and inline style of what it drew is read back.
 */

/** Every attribute (and inline style) under `root` whose value is or contains NaN, Infinity or undefined. */
function nonFiniteAttributes(root: Element): string[] {
  const bad: string[] = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const { name, value } of Array.from(el.attributes)) {
      if (/NaN|Infinity|undefined/.test(value)) bad.push(`<${el.tagName.toLowerCase()} ${name}="${value.slice(0, 300)}">`);
    }
  }
  return bad;
}

/** The extremes every numeric input is fed, one at a time and mixed. */
const EXTREMES = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0, -1, 1e308, -1e308, 5e-324, 1e-12, 1] as const;

/** Series of n samples drawn from the extremes (and a mixed one): the shapes a chart must survive. */
function seriesShapes(): number[][] {
  const shapes: number[][] = [[], [1], [0], [Number.NaN], [1e308, 1e308], [5, 5, 5, 5], [0, 0, 0]];
  for (const v of EXTREMES) shapes.push([v, v, v]);
  shapes.push([...EXTREMES]);
  shapes.push([1, Number.NaN, 3, Number.POSITIVE_INFINITY, 2, -1, 1e308]);
  return shapes;
}

const hosts: HTMLElement[] = [];
/** What the draws of the current test wrote that is not finite; each test expects none. */
const problems: string[] = [];
beforeEach(() => {
  problems.length = 0;
});
afterEach(() => {
  for (const h of hosts.splice(0)) h.remove();
});

/** A host with a width, as a laid-out card has (happy-dom does no layout). */
function host(widthPx = 480): HTMLElement {
  const el = document.createElement('div');
  Object.defineProperty(el, 'clientWidth', { configurable: true, get: () => widthPx });
  Object.defineProperty(el, 'getBoundingClientRect', { configurable: true, value: () => ({ x: 0, y: 0, top: 0, left: 0, right: widthPx, bottom: 300, width: widthPx, height: 300 }) });
  document.body.append(el);
  hosts.push(el);
  return el;
}

/** Animation frames run when the test says (`frames`), so a draw follows each update at once. */
const pendingFrames = new Map<number, FrameRequestCallback>();
let nextFrame = 1;
beforeAll(() => {
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    pendingFrames.set(nextFrame, callback);
    return nextFrame++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => pendingFrames.delete(id));
});
afterAll(() => vi.unstubAllGlobals());

/** Runs the charts' coalesced redraws. */
function frames(): void {
  while (pendingFrames.size > 0) {
    const due = [...pendingFrames.values()];
    pendingFrames.clear();
    for (const callback of due) callback(0);
  }
}

/** Feeds a serving chart every data set; returns what each draw wrote that is not finite. */
function feed<D>(name: string, make: (h: HTMLElement) => DataChart<D>, datasets: readonly D[]): void {
  for (const width of [480, 41, 4000]) {
    const h = host(width);
    const chart = make(h);
    for (const [i, data] of datasets.entries()) {
      chart.update(data);
      frames();
      for (const bad of nonFiniteAttributes(h)) problems.push(`${name}, data set ${i}, width ${width}: ${bad}`);
    }
    chart.destroy();
  }
}

const MODELS = ['yolo', 'mob', 'res', 'eff', 'inc', 'bert'] as const;

describe('serving charts fed extremes write only finite attributes', { timeout: 60_000 }, () => {
  it('the per-model throughput stack and latency lines', () => {
    const shapes = seriesShapes();
    const stacks = shapes.map((values) => ({ timeS: values.map((_, i) => i), series: MODELS.map((model) => ({ model, rps: values })) }));
    const odd = shapes.map((values) => ({ timeS: values, series: MODELS.map((model) => ({ model, rps: values.map((_, i) => i) })) }));
    feed('per-model stack', (h) => createPerModelStackChart(h), [...stacks, ...odd]);
    const lines = [
      ...shapes.map((values) => ({ timeS: values.map((_, i) => i), series: MODELS.map((model) => ({ model, latencyMs: values, sloMs: 50 })) })),
      ...shapes.map((values) => ({ timeS: values.map((_, i) => i), series: MODELS.map((model, k) => ({ model, latencyMs: [1, 2, 3], sloMs: values[k % Math.max(1, values.length)] ?? Number.NaN })) })),
      ...EXTREMES.map((sloMs) => ({ timeS: [0, 1, 2], series: MODELS.map((model) => ({ model, latencyMs: [sloMs, sloMs, 5e-324], sloMs })) })),
    ];
    const schedule = { bands: [{ key: 't', fromS: Number.NaN, toS: Number.POSITIVE_INFINITY, label: 'tenant', kind: 'tenant' as const }], boundaries: [{ key: 'b', atS: 1e308, label: 'step' }] };
    feed('per-model lines', (h) => createPerModelLinesChart(h), [...lines, { timeS: [0, 1, 2], series: MODELS.map((model) => ({ model, latencyMs: [1, 2, 3], sloMs: 50 })), schedule }]);
    expect(problems).toEqual([]);
  });

  it('the CDF, decision-time, rps-sweep, utility and heatmap charts', () => {
    const shapes = seriesShapes();
    feed(
      'cdf',
      (h) => createCdfChart(h),
      shapes.map((quantiles) => ({ xLabel: 'latency', unit: 'ms', empty: 'no samples', description: 'latency', series: [{ key: 'a', label: 'A', colour: '#000', quantiles }] })),
    );
    feed(
      'decision time',
      (h) => createDecisionTimeChart(h),
      shapes.map((values) => ({ lanes: values.map((decisionUs, i) => ({ label: `lane ${i}`, index: i, decisionUs })) })).concat([{ lanes: [{ label: 'none', index: 0, decisionUs: null as unknown as number }] }]),
    );
    feed(
      'rps sweep',
      (h) => createRpsSweepChart(h),
      shapes.map((values) => ({ lanes: [{ label: 'A', index: 0, points: values.map((v, i) => ({ rps: v, violationPct: values[values.length - 1 - i]! })) }] })),
    );
    feed(
      'utility bars',
      (h) => createUtilityBarsChart(h),
      shapes.map((values) => ({ models: [...MODELS], lanes: values.map((_, i) => ({ label: `lane ${i}`, index: i })), utility: MODELS.map(() => values) })),
    );
    const batchSizes = [1, 2, 4, 8];
    const instanceCounts = [1, 2, 3];
    feed<HeatmapData>(
      'heatmap',
      (h) => createHeatmapChart(h),
      (['throughput', 'latency'] as const).flatMap((metric) =>
        EXTREMES.map((v) => ({ metric, batchSizes, instanceCounts, values: batchSizes.map((_, r) => instanceCounts.map((_, c) => (r === c ? null : r === 0 ? v : r + c))), marker: { batchSize: 1, instances: 1 } })),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('the learning charts: temperature and training curves', () => {
    const shapes = seriesShapes();
    feed(
      'temperature',
      (h) => createTemperatureChart(h),
      shapes.map((values) => ({ lanes: [{ label: 'SAC', index: 0, slot: values.map((_, i) => i), temperature: values }] })),
    );
    feed(
      'training curves',
      (h) => createTrainingCurvesChart(h),
      shapes.flatMap((values) => [
        { lanes: [{ label: 'SAC', index: 0, learning: true, slot: values.map((_, i) => i), reward: values }] },
        { lanes: [{ label: 'SAC', index: 0, learning: true, slot: values, reward: values }], windowSlots: 0, slotSeconds: Number.NaN },
      ]),
    );
    expect(problems).toEqual([]);
  });
});

/** Every number of an object (summaries, live state) replaced by `v`, arrays and typed arrays included. */
function poisoned<T>(value: T, v: number): T {
  if (typeof value === 'number') return v as T;
  // Float arrays take the extreme; integer arrays (configurations, modes) keep their values.
  if (value instanceof Float64Array || value instanceof Float32Array) return value.slice().fill(v) as T;
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((x: unknown) => poisoned(x, v)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, poisoned(x, v)])) as T;
  return value;
}

describe('pipeline charts fed extremes write only finite attributes', { timeout: 60_000 }, () => {
  it('throughput, latency, latency boxes, SLO, stages and configuration, on a run whose numbers are replaced by extremes', async () => {
    const { store } = inProcessPipeline();
    expect(await store.getState().load(defaultPipelineScenario(), 'preset')).toBe(true);
    await store.getState().step(300);
    const real = store.getState();
    expect(real.series[0]!.length).toBeGreaterThan(1);
    const charts: [string, (h: HTMLElement) => () => void][] = [
      ['throughput', (h) => createThroughputChart(h, store)],
      ['latency', (h) => createLatencyChart(h, store)],
      ['latency boxes', (h) => createLatencyBoxChart(h, store)],
      ['SLO', (h) => createSloChart(h, store)],
      ['stages', (h) => createStagesChart(h, store)],
      ['configuration', (h) => createConfigChart(h, store)],
    ];
    const mounted = charts.map(([name, make]) => {
      const h = host();
      return { name, h, cleanup: make(h) };
    });
    const check = (what: string) => {
      frames();
      for (const m of mounted) for (const bad of nonFiniteAttributes(m.h)) problems.push(`${m.name}, ${what}: ${bad}`);
    };
    check('the real run');
    for (const v of EXTREMES) {
      for (const view of ['measured', 'config'] as const) {
        for (const s of real.series) for (const column of Object.values(s.columns)) column.fill(v, 0, s.length);
        store.setState({
          throughputView: view,
          peakQps: v,
          summaries: poisoned(real.summaries, v),
          // A histogram holds counts: any count ≥ 0 (here the largest double) is a count; NaN is not (histogramQuantiles refuses it).
          live: real.live.map((l) => ({ ...poisoned(l, v), latencyHistogram: l.latencyHistogram.map((c) => (c > 0 ? (plottable(v) && v > 0 ? v : c) : 0)) })),
          version: store.getState().version + 1,
        });
        check(`every number ${v}, ${view} view`);
      }
    }
    for (const m of mounted) m.cleanup();
    expect(problems).toEqual([]);
  });
});

describe('the Explore and slowdown charts fed extremes write only finite attributes', { timeout: 60_000 }, () => {
  it('the Explore lines and heatmap', () => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    document.body.append(svg);
    const handlers = { onHover: () => undefined, onOpen: () => undefined };
    const axes = [
      { name: 'α', path: 'pipeline.lanes[0].params.alpha', values: [1, 2, 10] },
      { name: 'trial cost', path: 'pipeline.assumptions.trialCost', values: ['serial', 'free'] },
    ];
    for (const v of EXTREMES) {
      for (const halfWidth95 of [0, v, Number.NaN]) {
        const point = (i: number, j: number) => ({ i, j, total: 4, mean: i === 0 ? v : i + j, halfWidth95, seeds: i === 2 ? 0 : 4 });
        drawExplore(svg, { metric: 'throughputMeanQps', metricLabel: 'mean throughput (queries/s)', axes: [axes[0]!], laneLabels: ['ODIN', 'LLS'], lines: [0, 1].map((lane) => ({ lane, label: `lane ${lane}`, points: [0, 1, 2].map((i) => point(i, 0)) })), heatmap: null }, handlers);
        for (const bad of nonFiniteAttributes(svg)) problems.push(`explore lines, mean ${v}, half-width ${halfWidth95}: ${bad}`);
        for (const mode of [{ kind: 'lane', lane: 0 }, { kind: 'difference', a: 0, b: 1 }] as const) {
          drawExplore(svg, { metric: 'throughputMeanQps', metricLabel: 'mean throughput (queries/s)', axes, laneLabels: ['ODIN', 'LLS'], lines: [], heatmap: { mode, title: 'ODIN', cells: [0, 1, 2].flatMap((i) => [0, 1].map((j) => point(i, j))) } }, handlers);
          for (const bad of nonFiniteAttributes(svg)) problems.push(`explore heatmap ${mode.kind}, mean ${v}, half-width ${halfWidth95}: ${bad}`);
        }
      }
    }
    svg.remove();
    expect(problems).toEqual([]);
  });

  it('the Figure-4 slowdown chart', () => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    document.body.append(svg);
    for (const shape of seriesShapes()) {
      const layers = shape.map((_, i) => `conv${i}`);
      for (const width of [600, 41]) {
        renderSlowdownChart(svg, { layers, boundness: layers.map((_, i) => (i % 2 === 0 ? 'memory' : 'compute')), modes: ['B', 'F'], panels: [{ title: 'measured', slowdowns: { B: shape, F: shape.map((x) => -x) } }] }, width);
        for (const bad of nonFiniteAttributes(svg)) problems.push(`slowdown, ${JSON.stringify(shape.map(String))}, width ${width}: ${bad}`);
      }
    }
    svg.remove();
    expect(problems).toEqual([]);
  });
});
