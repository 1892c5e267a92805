import type { PipelineSeriesChunk } from '../worker/pipelineProtocol';
import { ColumnBuffer, int32 } from '../../../store/series';

const PIPELINE_COLUMNS = ['query', 'timeMs', 'measuredQps', 'configQps', 'optimalQps', 'latencyMs', 'configLatencyMs'] as const satisfies readonly (keyof PipelineSeriesChunk)[];
export type PipelineSeriesColumn = (typeof PIPELINE_COLUMNS)[number];

/** A pipeline lane's series: one point per bucket of queries, and the units per stage (`stages` per point). */
export class PipelineSeriesBuffer extends ColumnBuffer<PipelineSeriesColumn, 'counts'> {
  constructor(capacity?: number) {
    super(PIPELINE_COLUMNS, { counts: int32 }, capacity);
  }

  /** Stages per point of `counts`. */
  get stages(): number {
    return this.width;
  }

  /** Units per stage, `stages` values per point, row-major. */
  get counts(): Int32Array {
    return this.wideColumns.counts as Int32Array;
  }

  /** The configuration (units per stage) of point `i`. */
  countsAt(i: number): Int32Array {
    return this.row('counts', i) as Int32Array;
  }
}
