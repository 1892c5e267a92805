import type { ServingSeriesChunk } from '../worker/servingProtocol';
import { ColumnBuffer, float64, int32 } from '../../../store/series';

/** Scalar columns of the serving series: one value per point. */
const SERVING_POINT_COLUMNS = ['endMs', 'slots'] as const satisfies readonly (keyof ServingSeriesChunk)[];
export type ServingPointColumn = (typeof SERVING_POINT_COLUMNS)[number];
/** Per-model columns: `models` values per point, row-major (point i, model m at i · models + m). */
const SERVING_MODEL_COLUMNS = { throughputRps: float64, latencyMeanMs: float64, utility: float64, utilityCount: float64, arrivals: float64, violations: float64 } as const;
export type ServingModelColumn = keyof typeof SERVING_MODEL_COLUMNS;
/** Per-model integer columns, row-major as the per-model columns. */
const SERVING_MODEL_INT_COLUMNS = { batchSize: int32, instances: int32 } as const;
export type ServingModelIntColumn = keyof typeof SERVING_MODEL_INT_COLUMNS;

/** A serving lane's per-slot series: one point per `stride` slots, and the per-model columns (`models` per point). */
export class ServingSeriesBuffer extends ColumnBuffer<ServingPointColumn, ServingModelColumn | ServingModelIntColumn> {
  constructor(capacity?: number) {
    super(SERVING_POINT_COLUMNS, { ...SERVING_MODEL_COLUMNS, ...SERVING_MODEL_INT_COLUMNS }, capacity);
  }

  /** Models per point of the per-model columns. */
  get models(): number {
    return this.width;
  }

  /** The per-model columns of floats. */
  get modelColumns(): Readonly<Record<ServingModelColumn, Float64Array>> {
    return this.wideColumns as Record<ServingModelColumn, Float64Array>;
  }

  /** The per-model columns of integers. */
  get intColumns(): Readonly<Record<ServingModelIntColumn, Int32Array>> {
    return this.wideColumns as Record<ServingModelIntColumn, Int32Array>;
  }
}
