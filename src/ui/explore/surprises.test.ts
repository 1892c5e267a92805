import { describe, expect, it } from 'vitest';
import type { ExploreData } from '../../charts/exploreData';
import { ODIN_CLAIMS } from '../../worlds/pipeline/claims';
import { BCEDGE_CLAIMS } from '../../worlds/serving/claims';
import { findSurprises, SURPRISE_CLAIMS } from './surprises';

/** Lines of one axis: per lane, its means at each value (null: not run yet). */
function lines(metric: string, means: readonly (readonly (number | null)[])[]): ExploreData {
  return {
    metric,
    metricLabel: metric,
    axes: [{ name: 'the axis', path: 'x', values: means[0]!.map((_, i) => i) }],
    laneLabels: means.map((_, l) => `lane ${l}`),
    lines: means.map((row, lane) => ({
      lane,
      label: `lane ${lane}`,
      points: row.map((mean, i) => ({ i, j: 0, total: 1, seeds: mean === null ? 0 : 1, mean: mean ?? Number.NaN, halfWidth95: 0 })),
    })),
    heatmap: null,
  };
}

describe('Explore results that contradict a lesson', () => {
  it('points at the claims registry', () => {
    const ids = [...ODIN_CLAIMS, ...BCEDGE_CLAIMS].map((c) => c.id);
    for (const c of Object.values(SURPRISE_CLAIMS)) expect(ids).toContain(c.id);
  });

  it('ODIN below Static at every α: a line pointing at the throughput claim', () => {
    const pipeline = { schedulers: ['odin', 'lls', 'static'], axisPath: 'pipeline.lanes[0].params.alpha', axisName: 'ODIN α' };
    const found = findSurprises(lines('throughputMeanQps', [[10, 11, 12], [13, 13, 13], [12, 12, 12.5]]), pipeline);
    expect(found.map((s) => s.claimId)).toEqual(['odin-fig6-throughput']);
    expect(found[0]!.text).toContain('lane 0 is below lane 2 at every ODIN α');
    // Above Static once: nothing to explain; one value measured: too early to say; another metric: nothing.
    expect(findSurprises(lines('throughputMeanQps', [[10, 13, 12], [13, 13, 13], [12, 12, 12.5]]), pipeline)).toEqual([]);
    expect(findSurprises(lines('throughputMeanQps', [[10, null, null], [13, 13, 13], [12, 12, 12.5]]), pipeline)).toEqual([]);
    expect(findSurprises(lines('latencyMeanMs', [[10, 11, 12], [13, 13, 13], [12, 12, 12.5]]), pipeline)).toEqual([]);
  });

  it('SLO violations falling as the rate rises: a line pointing at Fig. 15', () => {
    const serving = { schedulers: ['fixed', 'deeprt'], axisPath: 'serving.rateRps', axisName: 'requests per second a model' };
    const found = findSurprises(lines('sloViolationPct', [[12, 8, 3], [0.1, 0.1, 0.2]]), serving);
    expect(found.map((s) => s.claimId)).toEqual(['bcedge-fig15-40rps']);
    expect(found[0]!.text).toContain('for lane 0.');
    // Rising, or a wobble under a point: nothing.
    expect(findSurprises(lines('sloViolationPct', [[3, 8, 12], [0.5, 0.3, 0.2]]), serving)).toEqual([]);
    expect(findSurprises(lines('sloViolationPct', [[12, 8, 3]]), { ...serving, axisPath: 'seed' })).toEqual([]);
  });
});
