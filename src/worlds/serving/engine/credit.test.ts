import { describe, expect, it } from 'vitest';
import { EARLIER_SERVING_READINGS, PAPER_SERVING_READINGS } from './readings';
import type { ModelId } from './models';
import type { ServingAction, ServingObservation, ServingScheduler } from './scheduler';
import type { SettledDecision } from './credit';
import { ServingRun } from './simulation';
import type { RequestRecord, ServingRunSpec, TracedRequest } from './spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from './assumptions';

function spec(models: readonly ModelId[], overrides: Partial<ServingRunSpec> = {}, readings: Partial<ServingRunSpec['assumptions']> = {}): ServingRunSpec {
  return {
    platform: 'xavier-nx',
    models: models.map((model) => ({ model, weight: 1 })),
    rateRps: 30,
    durationMs: 10_000,
    seed: 1,
    background: [],
    assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, ...PAPER_SERVING_READINGS, ...readings },
    ...overrides,
  };
}

/** Holds one action and keeps every settled decision it is shown. */
class Watcher implements ServingScheduler {
  readonly id = 'watcher';
  readonly settled: SettledDecision[][] = [];
  readonly decisions: number[][] = [];
  constructor(private readonly action: ServingAction) {}
  decide(o: ServingObservation): ServingAction {
    o.models.forEach((m, i) => {
      (this.settled[i] ??= []).push(...(m.settled ?? []));
      if (m.due !== false && m.decision !== undefined) (this.decisions[i] ??= []).push(m.decision);
    });
    return this.action;
  }
}

const trace = (...requests: [sentMs: number, model: number, sloMs?: number][]): TracedRequest[] =>
  requests.map(([sentMs, model, sloMs]) => (sloMs === undefined ? { sentMs, model } : { sentMs, model, sloMs }));

describe('credit "governed": a decision is rewarded for the requests it governed', () => {
  it('numbers each model’s decisions from 0 and settles each one once, in order, with its length', () => {
    const w = new Watcher([{ batchSize: 2, instances: 1 }]);
    new ServingRun(spec(['res'], { durationMs: 5000 }), w).runToEnd();
    const decisions = w.decisions[0]!;
    expect(decisions.slice(0, 4)).toEqual([0, 1, 2, 3]);
    const settled = w.settled[0]!.map((s) => s.decision);
    expect(new Set(settled).size).toBe(settled.length);
    expect(settled).toEqual([...settled].sort((a, b) => a - b));
    // Eq. 1: b = 2, m_c = 1 at ResNet's 58 ms: each decision is in force 116 ms (no jitter).
    for (const s of w.settled[0]!) expect(s.durationMs).toBeCloseTo(116, 6);
    // Some decisions governed no request (their slot ended before a batch of theirs started): no reward, no stall.
    expect(w.settled[0]!.some((s) => s.utility === null)).toBe(true);
    expect(w.settled[0]!.every((s) => s.utility === null || s.utility > -10)).toBe(true);
  });

  it('is not built under credit "slot": no decision index, nothing settled', () => {
    const w = new Watcher([{ batchSize: 2, instances: 1 }]);
    new ServingRun(spec(['res'], { durationMs: 2000 }, { credit: 'slot' }), w).runToEnd();
    expect(w.decisions.length).toBe(0);
    expect(w.settled.flat().length).toBe(0);
  });

  it('changes no number of the run: the summary is the same under both credits', () => {
    const a = new ServingRun(spec(['res', 'yolo'], {}, { credit: 'governed' }), new Watcher([{ batchSize: 4, instances: 1 }, { batchSize: 2, instances: 2 }])).runToEnd();
    const b = new ServingRun(spec(['res', 'yolo'], {}, { credit: 'slot' }), new Watcher([{ batchSize: 4, instances: 1 }, { batchSize: 2, instances: 2 }])).runToEnd();
    expect(a).toEqual(b);
  });
});

describe('lateRequests', () => {
  // Under `fixed` slots of 1 s and b = 1 with one instance, a burst of 40 ResNet requests at
  // once cannot all meet 58 ms: 16 ms each.
  const burst = trace(...Array.from({ length: 40 }, () => [0, 0] as [number, number]));
  const run = (late: 'reject' | 'keep') => {
    const out: RequestRecord[] = [];
    const r = new ServingRun(spec(['res'], { trace: burst, durationMs: 3000 }, { ...EARLIER_SERVING_READINGS, lateRequests: late }), new Watcher([{ batchSize: 1, instances: 1 }]));
    r.onRequest = (x) => out.push(x);
    return { summary: r.runToEnd(), records: out };
  };

  it('"keep" serves every request, however late', () => {
    const { summary, records } = run('keep');
    expect(summary.completed).toBe(40);
    expect(summary.dropped).toBe(0);
    expect(records.filter((r) => r.completionMs > r.deadlineMs).length).toBeGreaterThan(30);
  });

  it('"reject" rejects the requests that could no longer meet their SLO, and serves the others in time', () => {
    const { summary, records } = run('reject');
    expect(summary.dropped).toBeGreaterThan(30);
    expect(summary.completed + summary.dropped).toBe(40);
    // Every rejected request could not have finished alone before its deadline when rejected.
    const served = records.filter((r) => r.outcome === 'served');
    expect(served.length).toBe(summary.completed);
    expect(served.filter((r) => r.completionMs > r.deadlineMs).length).toBeLessThanOrEqual(1);
    expect(summary.sloViolationPct).toBeCloseTo(100 * (summary.dropped + served.filter((r) => r.completionMs > r.deadlineMs).length) / 40, 9);
  });

  it('"reject" keeps the queue bounded under a sustained overload that grows it without bound under "keep"', () => {
    const overload = { durationMs: 60_000, rateRps: 400 };
    const backlogOf = (late: 'reject' | 'keep') => {
      const r = new ServingRun(spec(['yolo'], overload, { ...EARLIER_SERVING_READINGS, lateRequests: late }), new Watcher([{ batchSize: 1, instances: 1 }]));
      r.advanceTo(30_000);
      const early = r.backlog().requests;
      r.advanceTo(60_000);
      return { early, late: r.backlog().requests };
    };
    const keep = backlogOf('keep');
    const reject = backlogOf('reject');
    expect(keep.late).toBeGreaterThan(1.5 * keep.early);
    expect(reject.late).toBeLessThan(200);
  });
});
