import { describe, expect, it } from 'vitest';
import { PipelineSeriesBuffer } from '../worlds/pipeline/store/pipelineSeriesBuffer';
import { ColumnBuffer } from './series';
import { ServingSeriesBuffer } from '../worlds/serving/store/servingSeriesBuffer';

/** `n` points from point `from` on: `t` counts them, each wide column holds `width` values per point (point · 100 + item). */
const chunk = (from: number, n: number, width: number) => ({
  t: Float64Array.from({ length: n }, (_, i) => from + i),
  f: Float64Array.from({ length: n * width }, (_, k) => (from + Math.floor(k / width)) * 100 + (k % width)),
  i: Int32Array.from({ length: n * width }, (_, k) => -((from + Math.floor(k / width)) * 100 + (k % width))),
});

describe('the column buffer both worlds’ series use', () => {
  it('appends past its capacity, keeping every column (point and wide, float and integer) in order', () => {
    const buffer = new ColumnBuffer(['t'], { f: (n) => new Float64Array(n), i: (n) => new Int32Array(n) }, 2);
    for (let from = 0; from < 9; from += 3) buffer.add(chunk(from, 3, 4), false, 4);
    expect(buffer.length).toBe(9);
    expect(buffer.width).toBe(4);
    expect(Array.from(buffer.columns.t.subarray(0, 9))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(buffer.wideColumns.i).toBeInstanceOf(Int32Array);
    expect(buffer.at('f', 8, 3)).toBe(803);
    expect(buffer.at('i', 5, 1)).toBe(-501);
    expect(Array.from(buffer.row('f', 2))).toEqual([200, 201, 202, 203]);
  });

  it('starts again on a replacing chunk, and on a chunk of another width', () => {
    const buffer = new ColumnBuffer(['t'], { f: (n) => new Float64Array(n), i: (n) => new Int32Array(n) }, 4);
    buffer.add(chunk(0, 3, 2), false, 2);
    buffer.add(chunk(10, 2, 2), true, 2);
    expect(buffer.length).toBe(2);
    expect(buffer.at('f', 1, 1)).toBe(1101);
    buffer.add(chunk(20, 1, 5), false, 5);
    expect(buffer.length).toBe(1);
    expect(buffer.width).toBe(5);
    expect(Array.from(buffer.row('i', 0))).toEqual([-2000, -2001, -2002, -2003, -2004]);
  });

  it('is the pipeline’s series (units per stage as its wide column) and the serving world’s (per-model columns)', () => {
    const pipeline = new PipelineSeriesBuffer(1);
    const point = (q: number) => ({
      query: Float64Array.of(q),
      timeMs: Float64Array.of(q * 10),
      measuredQps: Float64Array.of(1),
      configQps: Float64Array.of(2),
      optimalQps: Float64Array.of(3),
      latencyMs: Float64Array.of(4),
      configLatencyMs: Float64Array.of(5),
      counts: Int32Array.of(q, 16 - q),
    });
    for (let q = 0; q < 5; q++) pipeline.add(point(q), false, 2);
    expect(pipeline.stages).toBe(2);
    expect(Array.from(pipeline.countsAt(4))).toEqual([4, 12]);
    expect(Array.from(pipeline.counts.subarray(0, 4))).toEqual([0, 16, 1, 15]);
    expect(pipeline.columns.timeMs[3]).toBe(30);
    const serving = new ServingSeriesBuffer(1);
    const models = 3;
    const wide = (v: number) => new Float64Array(models).fill(v);
    const slot = { endMs: Float64Array.of(1000), slots: Float64Array.of(1), throughputRps: wide(7), latencyMeanMs: wide(8), utility: wide(9), utilityCount: wide(1), arrivals: wide(1), violations: wide(0) };
    serving.add({ ...slot, batchSize: Int32Array.of(1, 2, 4), instances: Int32Array.of(1, 1, 2) }, false, models);
    expect(serving.models).toBe(3);
    expect(serving.at('batchSize', 0, 2)).toBe(4);
    expect(serving.modelColumns.utility[1]).toBe(9);
    expect(serving.intColumns.instances).toBeInstanceOf(Int32Array);
  });
});
