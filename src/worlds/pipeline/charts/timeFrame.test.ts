import { describe, expect, it } from 'vitest';
import { PipelineSeriesBuffer } from '../store/pipelineSeriesBuffer';
import type { PipelineSeriesChunk } from '../worker/pipelineProtocol';
import { queryDomain } from './timeFrame';

function chunk(queries: number[], stages = 2): PipelineSeriesChunk {
  const col = () => Float64Array.from(queries, () => 1);
  return {
    query: Float64Array.from(queries),
    timeMs: col(),
    measuredQps: col(),
    configQps: col(),
    optimalQps: col(),
    latencyMs: col(),
    configLatencyMs: col(),
    counts: new Int32Array(queries.length * stages),
  };
}

describe('queryDomain', () => {
  it('spans 0 to the last query any lane reached', () => {
    const a = new PipelineSeriesBuffer(8);
    const b = new PipelineSeriesBuffer(8);
    a.add(chunk([0, 50, 99]), false, 2);
    b.add(chunk([0, 50, 120]), false, 2);
    expect(queryDomain([a, b])).toEqual([0, 120]);
  });

  it('is at least ten queries wide, also with no data', () => {
    const a = new PipelineSeriesBuffer(8);
    a.add(chunk([0, 1]), false, 2);
    expect(queryDomain([a])).toEqual([0, 10]);
    expect(queryDomain([])).toEqual([0, 10]);
  });
});
