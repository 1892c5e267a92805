import type { ServingLaneResult } from '../../worlds/serving/scenario/servingRunner';

/** The numbers of a serving lane's result that the pin tests hold fixed (their fixtures' keys). */
export function pinnedNumbers(x: ServingLaneResult) {
  return {
    scheduler: x.scheduler,
    ...(x.cell === undefined ? {} : { cell: x.cell }),
    u: x.summary.utilityMean,
    v: x.summary.sloViolationPct,
    l: x.summary.latencyMeanMs,
    t: x.summary.throughputRps,
    n: x.summary.requests,
  };
}
