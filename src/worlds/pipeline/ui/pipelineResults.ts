import type { PipelineSummary } from '../engine/metrics';
import { toCsv } from '../../../scenario/csv';
import type { PipelineLabState } from '../store/pipelineStore';
import type { PipelineSeriesBuffer, PipelineSeriesColumn } from '../store/pipelineSeriesBuffer';

/** The parts of the lab's state that results are made of (a PipelineLabState is one). */
export type PipelineResultsState = Pick<PipelineLabState, 'scenario' | 'lanes' | 'summaries' | 'served' | 'status'> & {
  readonly series: readonly Pick<PipelineSeriesBuffer, 'length' | 'columns'>[];
};

/** Columns of a series point, in the order they are written. */
const POINT_COLUMNS: readonly PipelineSeriesColumn[] = ['query', 'timeMs', 'measuredQps', 'configQps', 'optimalQps', 'latencyMs', 'configLatencyMs'];

type SeriesPoint = Record<PipelineSeriesColumn, number | null>;

function laneLabel(state: PipelineResultsState, index: number): string {
  return state.lanes[index]?.label ?? `lane ${index + 1}`;
}

function summaryOf(state: PipelineResultsState, index: number): PipelineSummary | null {
  return state.summaries?.[index] ?? null;
}

/**
 * The run as JSON, pretty-printed: the scenario, how far it got, each lane's scheduler,
 * label, parameters and summary (null until the worker has sent one), and each lane's
 * downsampled series as points. Non-finite numbers (e.g. a bucket too small to measure)
 * are written as null.
 */
export function pipelineResultsJson(state: PipelineResultsState): string {
  const results = state.lanes.map((lane, i) => ({
    scheduler: lane.scheduler,
    label: lane.label,
    params: lane.params,
    summary: summaryOf(state, i),
  }));
  const series = state.series.map((buffer, i) => {
    const points: SeriesPoint[] = [];
    for (let k = 0; k < buffer.length; k++) {
      const point = {} as SeriesPoint;
      for (const c of POINT_COLUMNS) {
        const v = buffer.columns[c][k]!;
        point[c] = Number.isFinite(v) ? v : null;
      }
      points.push(point);
    }
    return { label: laneLabel(state, i), points };
  });
  return `${JSON.stringify({ scenario: state.scenario, served: state.served, status: state.status, results, series }, null, 2)}\n`;
}

/**
 * The run as CSV, one row per lane: scheduler, label, parameters (`params.<name>`, every
 * lane's names in every row), queries served so far in the whole run (`served`), then the
 * lane's summary flattened into dotted columns (`sloViolationPct.0.05` …) once there is one.
 */
export function pipelineResultsCsv(state: PipelineResultsState): string {
  // Every parameter name in first-seen order, so that the params columns stay together
  // even when lanes have different parameters (toCsv orders columns by first appearance).
  const paramNames: string[] = [];
  for (const lane of state.lanes) for (const name of Object.keys(lane.params)) if (!paramNames.includes(name)) paramNames.push(name);
  const rows = state.lanes.map((lane, i) => {
    const params: Record<string, number | undefined> = {};
    for (const name of paramNames) params[name] = lane.params[name];
    return { scheduler: lane.scheduler, label: lane.label, params, served: state.served, ...summaryOf(state, i) };
  });
  // No lanes: still a header, so that the file says what it would hold.
  return rows.length === 0 ? 'scheduler,label,served\n' : toCsv(rows);
}
