import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exploreData } from '../../charts/exploreData';
import { estimateRunCost } from '../../scenario/cost';
import { decodeLink, encodeAnyScenarioLink } from '../../scenario/link';
import { parseAnyScenario } from '../../scenario/parse';
import type { AnyScenario } from '../../scenario/schema';
import { sweepCells } from '../../scenario/sweep';
import { runCell, sweepReport } from '../../scenario/sweepReport';
import { defaultSweep, sweepableFields } from '../../ui/explore/fields';
import { registerWorld, worldOf } from '../../kit/worlds';
import type { QueueSummary } from './engine/queueRun';
import { queueScenario, type QueueScenario } from './schema';
import { queueWorld, runQueueLane } from './world';

// The kit's functions are typed over the list's worlds (AnyScenario); this world is added to
// the list at run time only, so its scenarios are handed over as `AnyScenario`.
const any = (s: QueueScenario) => s as unknown as AnyScenario;

let unregister: () => void;
beforeAll(() => {
  unregister = registerWorld(queueWorld);
});
afterAll(() => unregister());

describe('a third world through the kit (ARCHITECTURE §7b)', () => {
  it('is found by its id and passes the scenario door: valid, a bad field named, a hostile key refused', () => {
    expect(worldOf(any(queueScenario())).id).toBe('queue');
    const parsed = parseAnyScenario(queueScenario());
    expect(parsed.ok).toBe(true);
    const bad = parseAnyScenario({ ...queueScenario(), queue: { ...queueScenario().queue, arrivalRps: -1 } });
    expect(bad.ok ? [] : bad.errors.map((e) => e.path)).toEqual(['queue.arrivalRps']);
    const hostile = parseAnyScenario(JSON.parse('{"version":4,"world":"queue","__proto__":{}}'));
    expect(hostile.ok ? '' : hostile.errors[0]!.message).toContain('forbidden');
  });

  it('travels in a link and comes back the same', () => {
    const scenario = queueScenario();
    const decoded = decodeLink(encodeAnyScenarioLink(any(scenario)));
    expect(decoded.world).toBe('queue');
    expect(decoded.ok ? decoded.scenario : decoded.errors).toEqual(scenario);
  });

  it('sweeps: cells, one run per cell, the report; M/M/c behaves (more servers, shorter waits)', () => {
    const scenario: QueueScenario = {
      ...queueScenario(),
      queue: { ...queueScenario().queue, durationS: 2000 },
      sweep: { axes: [{ path: 'queue.lanes[0].params.servers', values: [3, 6] }], seeds: 2 },
    };
    expect(parseAnyScenario(scenario).ok).toBe(true);
    const cells = sweepCells(any(scenario));
    expect(cells).toHaveLength(4);
    const outcomes = cells.map((cell) => runCell(any(scenario), cell, () => 0, undefined));
    const wait = (o: (typeof outcomes)[number]) => (o.results[0]!.summary as QueueSummary).waitMeanMs;
    // 2 rps on servers of 1 rps: ρ = 2/3 with 3 servers, 1/3 with 6; the wait shrinks.
    expect(wait(outcomes[2]!)).toBeLessThan(wait(outcomes[0]!));
    // Stable queues serve what arrives.
    for (const o of outcomes) expect((o.results[0]!.summary as QueueSummary).servedRps).toBeGreaterThan(1.8);
    const report = sweepReport(any(scenario), [7, 8], outcomes) as { results: { metric: { name: string } }[] };
    expect(report.results.map((r) => r.metric.name)).toEqual(Array(4).fill('waitMeanMs'));
  });

  it('a sweep over a field the world does not have is refused by name', () => {
    const scenario = { ...queueScenario(), sweep: { axes: [{ path: 'queue.nothing', values: [1, 2] }] } };
    const parsed = parseAnyScenario(scenario);
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.path)).toEqual(['sweep.axes[0].path']);
  });

  it('is costed in its own events, and Explore offers its fields and draws its sweep', () => {
    const scenario = queueScenario();
    const cost = estimateRunCost(any(scenario), 2);
    expect(cost.eventName).toBe('requests');
    expect(cost.laneEvents).toBe(2 * 600 * 2 * 2);
    const paths = sweepableFields(any(scenario)).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['queue.arrivalRps', 'queue.lanes[0].params.servers', 'queue.lanes[1].params.perServer']));
    const swept = { ...scenario, sweep: defaultSweep(any(scenario)) } as QueueScenario;
    const cells = sweepCells(any(swept));
    const data = exploreData(any(swept), [7, 8], cells.map((c) => runCell(any(swept), c, () => 0, undefined)), { kind: 'lane', lane: 0 });
    expect(data.metric).toBe('waitMeanMs');
    expect(data.lines.map((l) => l.points.length)).toEqual([3, 3]);
    // More arrivals on the same servers: longer waits, on each lane's line.
    for (const line of data.lines) expect(line.points[2]!.mean).toBeGreaterThan(line.points[0]!.mean);
  });

  it('runs the same for the same seed, in any process (pure engine)', () => {
    expect(runQueueLane(queueScenario(), 1)).toEqual(runQueueLane(queueScenario(), 1));
    // Printed by this build; a change to the engine's streams or event order changes them.
    expect(runQueueLane(queueScenario(), 0)).toEqual({ requests: 1185, servedRps: 1.9683333333333333, waitMeanMs: 314.71744109228075, serverSeconds: 1162.0462792911806 });
    expect(runQueueLane(queueScenario(), 1).waitMeanMs).toBe(2409.0858365077374);
  });
});

/**
 * Erlang C: the probability that a request of an M/M/c queue waits, with offered load a = λ/μ
 * erlangs on c servers (a < c), and the mean wait W_q = C(c, a) / (cμ − λ).
 */
function erlangC(c: number, a: number): number {
  let term = 1;
  let below = 0;
  for (let k = 0; k < c; k++) {
    below += term;
    term *= a / (k + 1);
  }
  const waiting = term * (c / (c - a));
  return waiting / (below + waiting);
}

describe('the queue world against the exact M/M/c answer (Erlang C)', () => {
  it('computes Erlang C as the tables give it', () => {
    // a = 2 on 3 servers: (8/6 · 3) / (1 + 2 + 2 + 4) = 4/9.
    expect(erlangC(3, 2)).toBeCloseTo(4 / 9, 12);
    // One server: the probability of waiting is ρ.
    expect(erlangC(1, 0.7)).toBeCloseTo(0.7, 12);
  });

  // λ, c at μ = 1 rps: ρ = 2/3, 0.9 (heavy traffic) and 0.625 on 8 servers.
  for (const [arrivalRps, servers] of [[2, 3], [2.7, 3], [5, 8]] as const) {
    it(`waits as W_q = C(c, a)/(cμ − λ) and keeps a = λ/μ servers busy: λ = ${arrivalRps} rps, c = ${servers}`, () => {
      const durationS = 20_000;
      const runs = [1, 2, 3, 4, 5].map((seed) =>
        runQueueLane({ ...queueScenario(), seed, queue: { arrivalRps, serviceRps: 1, durationS, lanes: [{ scheduler: 'fixed', params: { servers } }] } }, 0),
      );
      const exactWaitMs = (1000 * erlangC(servers, arrivalRps)) / (servers - arrivalRps);
      const waits = runs.map((r) => r.waitMeanMs);
      const mean = waits.reduce((x, y) => x + y, 0) / waits.length;
      const sd = Math.sqrt(waits.reduce((x, w) => x + (w - mean) ** 2, 0) / (waits.length - 1));
      // The five seeds' mean within three of its standard errors of the exact wait.
      expect(Math.abs(mean - exactWaitMs)).toBeLessThan((3 * sd) / Math.sqrt(waits.length));
      // And within 5 % of it: the test still means something if the seeds happened to agree.
      expect(Math.abs(mean / exactWaitMs - 1)).toBeLessThan(0.05);
      // The mean number of busy servers is the offered load in erlangs.
      for (const r of runs) expect(r.serverSeconds / durationS / arrivalRps).toBeCloseTo(1, 1);
    });
  }
});
