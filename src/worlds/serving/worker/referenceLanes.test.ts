import { describe, expect, it } from 'vitest';
import type { ServingRunSpec } from '../engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../engine/assumptions';
import { searchFixedInHindsight, searchFixedPerPhase, type ReferenceResult, type ReferenceSearchParams } from '../schedulers/reference';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import { oracleApi } from './oracleApi';
import { canonicalJson, ReferencePlanCache, referencePlanKey, ReferenceSearches, type SearchRequest, type SearchWorkerPort } from './referenceLanes';

// Two models for 20 s, a tenant from 10 s: two phases, a grid of 4 (b ≤ 2, m_c ≤ 2).
const spec: ServingRunSpec = {
  platform: 'xavier-nx',
  models: [
    { model: 'res', weight: 1 },
    { model: 'mob', weight: 1 },
  ],
  rateRps: 40,
  durationMs: 20_000,
  seed: 3,
  background: [{ fromMs: 10_000, toMs: null, intensity: 0.5 }],
  assumptions: DEFAULT_SERVING_ASSUMPTIONS,
};
const params: ReferenceSearchParams = { maxBatch: 2, maxInstances: 2, rounds: 1, perModel: true, phaseS: 0 };

const request = (kind: 'fixed-hindsight' | 'fixed-per-phase', p = params, s = spec): SearchRequest => ({
  key: referencePlanKey(kind, s, p),
  search: SERVING_SCHEDULERS[kind].reference!,
  spec: s,
  params: p,
});

/** Steps the searches until none is left; the keys in the order they finished. */
function runAll(searches: ReferenceSearches): string[] {
  const finished: string[] = [];
  while (searches.busy) {
    const key = searches.step();
    if (key !== null) finished.push(key);
  }
  return finished;
}

const result = (evaluations: number): ReferenceResult => ({ plan: [{ fromMs: 0, actions: [] }], utility: 0, evaluations });

describe('the reference lanes’ plans in the serving worker', () => {
  it('key a plan by what it depends on: the spec (whatever the order of its fields) and the search', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe('{"a":{"d":[2,{"e":0,"f":1}]},"b":1}');
    const reordered = Object.fromEntries(Object.entries(spec).reverse()) as unknown as ServingRunSpec;
    expect(referencePlanKey('fixed-hindsight', reordered, params)).toBe(referencePlanKey('fixed-hindsight', spec, params));
    expect(referencePlanKey('fixed-hindsight', { ...spec, seed: 4 }, params)).not.toBe(referencePlanKey('fixed-hindsight', spec, params));
    expect(referencePlanKey('fixed-per-phase', spec, params)).not.toBe(referencePlanKey('fixed-hindsight', spec, params));
    // Hindsight reads no phases; per phase does.
    expect(referencePlanKey('fixed-hindsight', spec, { ...params, phaseS: 5 })).toBe(referencePlanKey('fixed-hindsight', spec, params));
    expect(referencePlanKey('fixed-per-phase', spec, { ...params, phaseS: 5 })).not.toBe(referencePlanKey('fixed-per-phase', spec, params));
  });

  it('keep at most 32 plans and a bounded length of keys, the least recently used dropped first', () => {
    const cache = new ReferencePlanCache();
    for (let i = 0; i < 40; i++) {
      cache.set(`k${i}`, result(i));
      // k0 is looked at every time: it stays.
      expect(cache.get('k0')?.evaluations).toBe(0);
    }
    expect(cache.size).toBe(32);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k8')).toBeUndefined();
    expect(cache.get('k9')?.evaluations).toBe(9);
    const small = new ReferencePlanCache(32, 10);
    small.set('aaaa', result(1));
    small.set('bbbb', result(2));
    small.set('cccc', result(3));
    expect([small.get('aaaa'), small.get('bbbb')?.evaluations, small.get('cccc')?.evaluations]).toEqual([undefined, 2, 3]);
    small.set('x'.repeat(11), result(4));
    expect([small.size, small.get('x'.repeat(11))]).toEqual([2, undefined]);
  });

  it('run the hindsight search first, and the per-phase one of the same spec and parameters from its plan', () => {
    const searches = new ReferenceSearches();
    const perPhase = request('fixed-per-phase');
    const hindsight = request('fixed-hindsight');
    searches.want([perPhase, hindsight]);
    expect(searches.progress(perPhase.key)).toEqual({ done: 0, total: 4 + 2 * 3 + 2 * (1 + 4 + 2 * 3) + 1 });
    expect(runAll(searches)).toEqual([hindsight.key, perPhase.key]);
    const alone = { hindsight: searchFixedInHindsight(spec, params), perPhase: searchFixedPerPhase(spec, params) };
    expect(searches.plans.get(hindsight.key)).toEqual(alone.hindsight);
    expect(searches.plans.get(perPhase.key)).toEqual(alone.perPhase);
    // The hindsight part was run once, not twice.
    expect(searches.evaluations).toBe(alone.perPhase.evaluations);
    // Known plans are not searched again.
    searches.want([perPhase, hindsight]);
    expect(searches.busy).toBe(false);
  });

  it('go on with a search still wanted where it was, and drop one no lane waits for', () => {
    const searches = new ReferenceSearches();
    const first = request('fixed-hindsight');
    const other = request('fixed-hindsight', params, { ...spec, seed: 9 });
    searches.want([first, other]);
    // Partway: past its first evaluation (however many stretches of the trace that takes), not at its end.
    for (let i = 0; i < 10_000 && searches.progress(first.key)!.done === 0; i++) expect(searches.step()).toBeNull();
    expect(searches.step()).toBeNull();
    const partway = searches.progress(first.key)!;
    expect(partway.done).toBeLessThan(partway.total);
    expect(partway.done).toBeGreaterThan(0);
    // Wanted again (a rebuild: a seek back) with the other one gone (another scenario's lane).
    searches.want([first]);
    expect(searches.progress(first.key)).toEqual(partway);
    expect(searches.progress(other.key)).toBeNull();
    expect(runAll(searches)).toEqual([first.key]);
    expect(searches.plans.get(first.key)).toEqual(searchFixedInHindsight(spec, params));
    expect(searches.evaluations).toBe(searchFixedInHindsight(spec, params).evaluations);
  });

  it('in a search worker of their own: the same plans, one search at a time, progress and ends told as news; a dropped search stops the worker, one that fails there runs here', async () => {
    // The search worker's very call (oracleApi), in this thread, answering after the caller has gone on.
    let stops = 0;
    let fail = false;
    const sent: string[] = [];
    const port: SearchWorkerPort = {
      search: async (req, progress) => {
        sent.push(req.kind);
        await Promise.resolve();
        if (fail) throw new Error('no worker');
        return oracleApi.search(req, progress);
      },
      stop: () => stops++,
    };
    const searches = new ReferenceSearches(undefined, port);
    const news: (string | null)[] = [];
    let settle: () => void = () => {};
    searches.listen((found) => {
      news.push(found);
      if (found !== null) settle();
    });
    const perPhase = request('fixed-per-phase');
    const hindsight = request('fixed-hindsight');
    searches.want([perPhase, hindsight]);
    const next = () => new Promise<void>((resolve) => (settle = resolve));
    // A step sends the first search (hindsight) and nothing is left to step here while it runs there.
    let done = next();
    expect(searches.step()).toBeNull();
    expect(searches.busy).toBe(false);
    await done;
    expect(searches.plans.get(hindsight.key)).toEqual(searchFixedInHindsight(spec, params));
    done = next();
    expect(searches.busy).toBe(true);
    expect(searches.step()).toBeNull();
    await done;
    expect(sent).toEqual(['fixed-hindsight', 'fixed-per-phase']);
    expect(searches.plans.get(perPhase.key)).toEqual(searchFixedPerPhase(spec, params));
    expect(news.filter((n) => n !== null)).toEqual([hindsight.key, perPhase.key]);
    expect(news.filter((n) => n === null).length).toBeGreaterThan(0);
    expect(searches.evaluations).toBe(searchFixedPerPhase(spec, params).evaluations);
    expect(searches.busy).toBe(false);
    // A search sent and no longer wanted stops the worker; what it sends back later is not used.
    const other = request('fixed-hindsight', params, { ...spec, seed: 9 });
    searches.want([other]);
    searches.step();
    searches.want([]);
    expect(stops).toBe(1);
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(searches.plans.get(other.key)).toBeUndefined();
    // One that fails there is run here, step by step, to the same plan.
    fail = true;
    searches.want([other]);
    searches.step();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(searches.busy).toBe(true);
    expect(runAll(searches)).toEqual([other.key]);
    expect(searches.plans.get(other.key)).toEqual(searchFixedInHindsight({ ...spec, seed: 9 }, params));
  });
});
