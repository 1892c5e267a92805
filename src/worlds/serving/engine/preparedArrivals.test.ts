import { describe, expect, it } from 'vitest';
import { changingServingWorld } from '../../../testing/changingServingWorld';
import type { ServingScheduler } from './scheduler';
import { drawServingArrivals, ServingRun } from './simulation';
import type { RequestRecord, ServingArrivals, ServingRunSpec } from './spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from './assumptions';

// The engine's tests do not import the schedulers layer: a scheduler that changes its mind with the time.
const stepping = (count: number): ServingScheduler => ({
  id: 'stepping',
  decide: (o) => Array.from({ length: count }, (_, m) => (o.nowMs < 15_000 ? { batchSize: 1 + m, instances: 1 } : { batchSize: 4, instances: 1 + (m % 2) })),
});

/** The run's summary, its slot records and every request's fate. */
function outcome(spec: ServingRunSpec, arrivals?: ServingArrivals) {
  const run = new ServingRun(spec, stepping(spec.models.length), arrivals);
  const requests: RequestRecord[] = [];
  run.onRequest = (r) => requests.push(r);
  const summary = run.runToEnd();
  return { summary, series: run.series.values, requests };
}

/** The changing world, with mixed resolutions, SLO jitter, an MMPP model and Eq. 1's slots. */
const world: ServingRunSpec = (() => {
  const base = changingServingWorld(30_000, [12_000, 22_000]);
  return {
    ...base,
    models: [
      { ...base.models[0]!, classes: [{ label: 'small', scale: 1, weight: 3 }, { label: 'large', scale: 1.65, weight: 1 }] },
      { ...base.models[1]!, rate: { kind: 'mmpp', onRps: 40, offRps: 2, meanOnMs: 3000, meanOffMs: 5000, startOn: false } },
      base.models[2]!,
    ],
    assumptions: { ...base.assumptions, sloJitter: 0.1, slot: 'eq1' },
  };
})();

describe('arrivals drawn before the run (drawServingArrivals)', () => {
  it('give the run that draws them as it goes, bit for bit: per-model streams (rates, MMPP, classes, a service window) and the one stream', () => {
    const oneStream: ServingRunSpec = {
      platform: 'xavier-nx',
      models: [
        { model: 'res', weight: 2 },
        { model: 'bert', weight: 1 },
      ],
      rateRps: 40,
      durationMs: 20_000,
      seed: 3,
      background: [],
      assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, sloJitter: 0.2 },
    };
    for (const spec of [world, oneStream]) {
      const arrivals = drawServingArrivals(spec)!;
      const drawn = outcome(spec);
      expect(outcome(spec, arrivals)).toEqual(drawn);
      // Each request as the run sent it (those still in flight at the end have no record).
      expect(drawn.requests.length).toBeGreaterThan(arrivals.sentMs.length * 0.95);
      expect(drawn.requests.map((r) => [arrivals.sentMs[r.id], arrivals.model[r.id], arrivals.sloMs[r.id]])).toEqual(drawn.requests.map((r) => [r.sentMs, r.model, r.sloMs]));
    }
  });

  it('a run given them goes on from a checkpoint as it did', () => {
    const arrivals = drawServingArrivals(world)!;
    const whole = outcome(world, arrivals);
    const first = new ServingRun(world, stepping(3), arrivals);
    first.advanceTo(17_300);
    const checkpoint = first.snapshot();
    const resumed = new ServingRun(world, stepping(3), arrivals);
    resumed.restore(checkpoint);
    expect(resumed.runToEnd()).toEqual(whole.summary);
    expect(resumed.series.values).toEqual(whole.series);
  });

  it('are none past a limit on their number (a search then draws in each run)', () => {
    const all = drawServingArrivals(world)!;
    expect(drawServingArrivals(world, all.sentMs.length)).toEqual(all);
    expect(drawServingArrivals(world, all.sentMs.length - 1)).toBeNull();
  });

  it('are none for a trace or a closed loop, and a run refuses them there', () => {
    const traced: ServingRunSpec = { ...world, trace: [{ sentMs: 5, model: 0 }] };
    expect(drawServingArrivals(traced)).toBeNull();
    expect(drawServingArrivals({ ...world, closedLoop: { outstanding: 2 } })).toBeNull();
    expect(() => new ServingRun(traced, stepping(3), drawServingArrivals(world)!)).toThrow(/arrivals/);
  });
});
