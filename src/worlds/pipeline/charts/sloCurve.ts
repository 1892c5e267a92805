import { SLO_LEVELS, sloLevelKey, type PipelineSummary } from '../engine/metrics';
import { plottable } from '../../../charts/pointSampling';

/** Reference of the SLO levels: the peak (interference-free optimum) or the current optimum. */
export type SloReference = 'peak' | 'optimum';

/** One point of an ODIN Figure 9 curve. */
export interface SloPoint {
  /** SLO level, % of the reference throughput (5 … 100). */
  readonly levelPct: number;
  /** Share of queries whose T(C) is below the level, %. */
  readonly violationPct: number;
}

/** The SLO-violation curve of one lane, levels ascending; levels missing from the summary are skipped. */
export function sloCurve(summary: PipelineSummary, reference: SloReference): SloPoint[] {
  const values = reference === 'peak' ? summary.sloViolationPct : summary.sloViolationPctOfOptimum;
  const points: SloPoint[] = [];
  for (const level of SLO_LEVELS) {
    const v = values[sloLevelKey(level)];
    if (v !== undefined && plottable(v)) points.push({ levelPct: Math.round(level * 100), violationPct: v });
  }
  return points;
}
