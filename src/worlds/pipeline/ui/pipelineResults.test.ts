import { describe, expect, it } from 'vitest';
import { PipelineMetrics } from '../engine/metrics';
import { PipelineSeriesBuffer } from '../store/pipelineSeriesBuffer';
import type { PipelineLaneInfo, PipelineSeriesChunk } from '../worker/pipelineProtocol';
import { pipelineResultsCsv, pipelineResultsJson, type PipelineResultsState } from './pipelineResults';

const LANES: readonly PipelineLaneInfo[] = [
  { index: 0, scheduler: 'odin', label: 'ODIN α=10', params: { alpha: 10 } },
  { index: 1, scheduler: 'lls', label: 'LLS', params: {} },
  { index: 2, scheduler: 'evict', label: 'Evict, k=2', params: { k: 2, alpha: 1 } },
];

/** A summary with known numbers: two queries, bottleneck 10 ms then 20 ms against a 10 ms peak. */
function summary() {
  const m = new PipelineMetrics(10, 2);
  m.recordQuery(0, 0, 30, 20, 10, 10);
  m.recordQuery(10, 10, 60, 25, 20, 10);
  return m.summary();
}

function buffer(points: readonly (readonly number[])[]): PipelineSeriesBuffer {
  const column = (k: number) => Float64Array.from(points, (p) => p[k]!);
  const chunk: PipelineSeriesChunk = {
    query: column(0),
    timeMs: column(1),
    measuredQps: column(2),
    configQps: column(3),
    optimalQps: column(4),
    latencyMs: column(5),
    configLatencyMs: column(6),
    counts: new Int32Array(points.length),
  };
  const b = new PipelineSeriesBuffer(4);
  b.add(chunk, true, 1);
  return b;
}

function state(withSummaries: boolean): PipelineResultsState {
  return {
    scenario: { title: 'Two lanes', seed: 7 },
    lanes: LANES,
    summaries: withSummaries ? [summary(), summary(), summary()] : null,
    served: 42,
    status: 'paused',
    series: [
      buffer([
        [9, 100, Number.NaN, 100, 100, 30, 20],
        [19, 210, 95.5, 50, 100, 50, 25],
      ]),
      buffer([]),
    ],
  } as unknown as PipelineResultsState;
}

describe('resultsJson', () => {
  it('writes scenario, progress, one result per lane and the series as points', () => {
    const text = pipelineResultsJson(state(true));
    expect(text).toContain('\n  "served": 42');
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json.scenario).toEqual({ title: 'Two lanes', seed: 7 });
    expect(json.status).toBe('paused');
    const results = json.results as { scheduler: string; label: string; params: object; summary: Record<string, unknown> }[];
    expect(results.map((r) => [r.scheduler, r.label, r.params])).toEqual([
      ['odin', 'ODIN α=10', { alpha: 10 }],
      ['lls', 'LLS', {}],
      ['evict', 'Evict, k=2', { k: 2, alpha: 1 }],
    ]);
    expect(results[0]!.summary.queries).toBe(2);
    expect(results[0]!.summary.configThroughputMeanQps).toBe(75);
    expect((results[0]!.summary.sloViolationPct as Record<string, number>)['1.00']).toBe(50);
    expect(json.series).toEqual([
      {
        label: 'ODIN α=10',
        points: [
          { query: 9, timeMs: 100, measuredQps: null, configQps: 100, optimalQps: 100, latencyMs: 30, configLatencyMs: 20 },
          { query: 19, timeMs: 210, measuredQps: 95.5, configQps: 50, optimalQps: 100, latencyMs: 50, configLatencyMs: 25 },
        ],
      },
      { label: 'LLS', points: [] },
    ]);
  });

  it('writes null summaries before the worker has sent any', () => {
    const json = JSON.parse(pipelineResultsJson(state(false))) as { results: { summary: unknown }[] };
    expect(json.results.map((r) => r.summary)).toEqual([null, null, null]);
  });
});

describe('resultsCsv', () => {
  it('writes one row per lane with parameters together and the flattened summary', () => {
    const lines = pipelineResultsCsv(state(true)).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const header = lines[0]!.split(',');
    expect(header.slice(0, 6)).toEqual(['scheduler', 'label', 'params.alpha', 'params.k', 'served', 'queries']);
    expect(header).toContain('sloViolationPct.0.05');
    expect(header).toContain('sloViolationPctOfOptimum.1.00');
    const row = (i: number) => Object.fromEntries(header.map((h, k) => [h, lines[i]!.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[k]]));
    expect(row(1)).toMatchObject({ scheduler: 'odin', label: 'ODIN α=10', 'params.alpha': '10', 'params.k': '', served: '42', queries: '2', configThroughputMeanQps: '75', 'sloViolationPct.1.00': '50' });
    expect(row(2)).toMatchObject({ scheduler: 'lls', 'params.alpha': '', 'params.k': '' });
    // A comma in a label is quoted.
    expect(row(3)).toMatchObject({ label: '"Evict, k=2"', 'params.alpha': '1', 'params.k': '2' });
  });

  it('keeps scheduler, label, params and served when there are no summaries yet', () => {
    expect(pipelineResultsCsv(state(false))).toBe(
      'scheduler,label,params.alpha,params.k,served\nodin,ODIN α=10,10,,42\nlls,LLS,,,42\nevict,"Evict, k=2",1,2,42\n',
    );
  });

  it('writes a header for a lab without lanes', () => {
    expect(pipelineResultsCsv({ ...state(false), lanes: [], series: [] })).toBe('scheduler,label,served\n');
  });
});
