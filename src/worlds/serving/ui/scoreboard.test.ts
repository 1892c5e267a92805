import { describe, expect, it } from 'vitest';
import { ServingSeriesBuffer } from '../store/servingSeriesBuffer';
import type { ServingLaneInfo } from '../worker/servingProtocol';
import { gapText, laneScores, oracleLanes, perModelUtility, spanScores, staleness, utilityGap } from './scoreboard';

/** A series of one point per second for two models: utility u[i][m] over c[i][m] intervals, violations and arrivals per point. */
function seriesOf(points: readonly { u: readonly number[]; c?: readonly number[]; v?: number; a?: number }[], every = 1000): ServingSeriesBuffer {
  const n = points.length;
  const models = points[0]?.u.length ?? 2;
  const flat = (f: (p: (typeof points)[number], m: number) => number) => Float64Array.from({ length: n * models }, (_, k) => f(points[Math.floor(k / models)]!, k % models));
  const buffer = new ServingSeriesBuffer(8);
  buffer.add(
    {
      endMs: Float64Array.from(points, (_, i) => (i + 1) * every),
      slots: new Float64Array(n).fill(1),
      throughputRps: flat(() => 0),
      latencyMeanMs: flat(() => 0),
      utility: flat((p, m) => p.u[m]!),
      utilityCount: flat((p, m) => p.c?.[m] ?? (Number.isFinite(p.u[m]!) ? 1 : 0)),
      arrivals: flat((p) => p.a ?? 10),
      violations: flat((p) => p.v ?? 0),
      batchSize: new Int32Array(n * models),
      instances: new Int32Array(n * models),
    },
    true,
    models,
  );
  return buffer;
}

const lane = (index: number, scheduler: string, params: Record<string, number> = {}): ServingLaneInfo => ({ index, scheduler, learning: false, label: scheduler, params, configurable: false });

describe('the live scoreboard', () => {
  it('adds points up as the summary does: the mean over every model’s intervals, weighted by their count', () => {
    // Point 1: model 0 at 1 over 2 intervals, model 1 at 4 over 1; point 2: model 0 none, model 1 at −2.
    const s = seriesOf([{ u: [1, 4], c: [2, 1], v: 1, a: 10 }, { u: [Number.NaN, -2], c: [0, 1], v: 3, a: 10 }]);
    const { run, window } = spanScores(s, 2000, 1000);
    expect(run!.utility).toBeCloseTo((1 * 2 + 4 - 2) / 4, 12);
    // Violations 1 + 3 on each of two models, over 40 arrivals.
    expect(run!.violationPct).toBeCloseTo(20, 12);
    expect([run!.fromMs, run!.toMs]).toEqual([0, 2000]);
    // The last second only: model 1's −2, and its 6 violations of 20.
    expect(window!.utility).toBe(-2);
    expect(window!.violationPct).toBeCloseTo(30, 12);
    expect([window!.fromMs, window!.toMs]).toEqual([1000, 2000]);
  });

  it('has nothing to say of a lane without points, and no utility where no model had one', () => {
    expect(spanScores(undefined, 1000, 1000)).toEqual({ run: null, window: null });
    const s = seriesOf([{ u: [Number.NaN, Number.NaN], a: 0 }]);
    expect(spanScores(s, 1000, 1000).run).toEqual({ fromMs: 0, toMs: 1000, utility: null, violationPct: null });
  });

  it('picks the per-model hindsight lane over Triton’s best uniform one, and the per-phase lane', () => {
    const lanes = [lane(0, 'fixed'), lane(1, 'fixed-hindsight', { perModel: 0 }), lane(2, 'fixed-hindsight', { perModel: 1 }), lane(3, 'fixed-per-phase')];
    expect(oracleLanes(lanes)).toEqual({ hindsight: 2, perPhase: 3 });
    expect(oracleLanes([lane(0, 'fixed'), lane(1, 'fixed-hindsight', { perModel: 0 })])).toEqual({ hindsight: 1, perPhase: null });
    expect(oracleLanes([lane(0, 'deeprt')])).toEqual({ hindsight: null, perPhase: null });
  });

  it('sets each lane against the oracles as exp(ΔU) − 1 over the span both have, and waits for an oracle without points', () => {
    const lanes = [lane(0, 'fixed'), lane(1, 'fixed-hindsight'), lane(2, 'fixed-per-phase')];
    const mine = seriesOf([{ u: [0, 0] }, { u: [0, 0] }, { u: [-1, -1] }]);
    // The hindsight lane has two points only (it caught up to 2 s): the gap is over 0–2 s.
    const hindsight = seriesOf([{ u: [0.5, 0.5] }, { u: [0.5, 0.5] }]);
    const [score] = laneScores(lanes, [mine, hindsight, undefined], 1000);
    expect(score!.asOfMs).toBe(3000);
    expect(score!.run!.utility).toBeCloseTo(-1 / 3, 12);
    const [h, p] = score!.gaps;
    expect(h).toMatchObject({ kind: 'hindsight', oracle: 1, asOfMs: 2000 });
    expect(h!.run).toBeCloseTo(Math.expm1(-0.5), 12);
    expect(h!.window).toBeCloseTo(Math.expm1(-0.5), 12);
    expect(p).toEqual({ kind: 'perPhase', oracle: 2, run: null, window: null, asOfMs: null });
    // An oracle is not set against itself.
    const scores = laneScores(lanes, [mine, hindsight, undefined], 1000);
    expect(scores[1]!.gaps.map((g) => g.kind)).toEqual(['perPhase']);
    expect(scores[2]!.gaps.map((g) => g.kind)).toEqual(['hindsight']);
  });

  it('gives Fig. 7 each lane’s utility per model over its run', () => {
    const lanes = [lane(0, 'fixed'), lane(1, 'deeprt')];
    const a = seriesOf([{ u: [1, 2], c: [1, 3] }, { u: [3, Number.NaN], c: [1, 0] }]);
    expect(perModelUtility(2, lanes, [a, undefined])).toEqual([
      [2, null],
      [2, null],
    ]);
  });

  it('says when numbers are stale: behind the run by more than a point and an interval, or older than an edit', () => {
    expect(staleness(null, 5000, 1000, 1000, null)).toBeNull();
    expect(staleness(4000, 5000, 1000, 1000, null)).toBeNull();
    expect(staleness(2000, 5000, 1000, 1000, null)).toEqual({ kind: 'behind', asOfMs: 2000 });
    expect(staleness(4000, 4500, 1000, 1000, 4200)).toEqual({ kind: 'edited', asOfMs: 4000, editMs: 4200 });
    // An edit the numbers already run past, or one ahead of the run (after a seek back), does not make them stale.
    expect(staleness(5000, 5500, 1000, 1000, 4200)).toBeNull();
    expect(staleness(1000, 1500, 1000, 1000, 4200)).toBeNull();
  });

  it('prints a gap with its sign and a sensible number of digits', () => {
    expect(utilityGap(1, 1)).toBe(0);
    expect(gapText(-0.0812)).toBe('−8.1 %');
    expect(gapText(0.1234)).toBe('+12 %');
    expect(gapText(0.00004)).toBe('0 %');
    expect(gapText(null)).toBe('–');
  });
});
