import { describe, expect, it } from 'vitest';
import { presetOraclePlanRequests } from '../scenario/oraclePlanRequests';
import { ORACLE_PLANS } from './oraclePlans.generated';
import { fnv1a64, referencePlanKey, shippedPlanHash } from './planKey';
import { fixedInHindsightSearch, runSearch } from './reference';
import { SERVING_SCHEDULERS, servingSchedulerContext } from './registry';
import { shippedPlan } from './shippedPlans';

/** FNV-1a 64 in BigInt, byte by byte (each UTF-16 code unit low byte first): what `fnv1a64` computes in halves. */
function fnvBigInt(text: string): string {
  let h = 0xcbf29ce484222325n;
  const mix = (byte: number) => {
    h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  };
  for (let i = 0; i < text.length; i++) {
    mix(text.charCodeAt(i) & 0xff);
    mix(text.charCodeAt(i) >>> 8);
  }
  return h.toString(16).padStart(16, '0');
}

describe('the shipped oracle plans (npm run oracle-plans)', () => {
  it('hash keys with 64-bit FNV-1a, exactly', () => {
    for (const text of ['', 'a', 'oracle-plan v1\n{"kind":"fixed-hindsight"}', 'b·SLO/m_c ≤ 30 s ✓', 'x'.repeat(5000)]) expect(fnv1a64(text)).toBe(fnvBigInt(text));
    expect(fnv1a64('a')).not.toBe(fnv1a64('b'));
  });

  it('hold a plan for every reference lane of every serving preset under its current key, and nothing else (a stale file fails: run npm run oracle-plans)', () => {
    const requests = presetOraclePlanRequests();
    expect(requests.length).toBeGreaterThan(5);
    const wanted = new Map(requests.map((r) => [shippedPlanHash(r.key), r]));
    const missing = requests.filter((r) => ORACLE_PLANS[shippedPlanHash(r.key)] === undefined).map((r) => `${r.preset} lane ${r.lane} (${r.kind})`);
    expect(missing, 'presets whose plans are not shipped under their current key: run npm run oracle-plans').toEqual([]);
    const stale = Object.entries(ORACLE_PLANS)
      .filter(([hash]) => !wanted.has(hash))
      .map(([, p]) => `${p.preset} lane ${p.lane}`);
    expect(stale, 'shipped plans no preset asks for any more: run npm run oracle-plans').toEqual([]);
    for (const [hash, plan] of Object.entries(ORACLE_PLANS)) {
      const r = wanted.get(hash)!;
      expect([plan.preset, plan.lane, plan.kind]).toEqual([r.preset, r.lane, r.kind]);
      expect(plan.result.plan[0]!.fromMs).toBe(0);
      for (const phase of plan.result.plan) expect(phase.actions).toHaveLength(r.spec.models.length);
    }
  });

  it('are what the search finds on its preset today (the cheapest: a uniform search of 600 s)', () => {
    const cheapest = presetOraclePlanRequests().find((r) => r.kind === 'fixed-hindsight' && !r.params.perModel && r.spec.durationMs <= 600_000)!;
    expect(cheapest).toBeDefined();
    expect(shippedPlan(cheapest.key)).toEqual(runSearch(fixedInHindsightSearch(cheapest.spec, cheapest.params)));
    // Eighteen runs of 600 s: seconds, more on a loaded machine.
  }, 120_000);

  it('are taken by a lane of the command line instead of searching; an edited scenario searches', () => {
    const request = presetOraclePlanRequests().find((r) => r.kind === 'fixed-hindsight' && r.spec.durationMs <= 600_000)!;
    let progress = 0;
    const lane = SERVING_SCHEDULERS[request.kind].create(
      { ...request.params, perModel: request.params.perModel ? 1 : 0 },
      { ...servingSchedulerContext(request.spec.seed, request.spec.models.map((m) => m.model), undefined, request.spec), searchProgress: () => progress++ },
    );
    expect(progress).toBe(0);
    expect(lane.report?.()['plan']).toEqual(shippedPlan(request.key)!.plan.map((p) => ({ fromS: p.fromMs / 1000, actions: p.actions.map((a) => [a.batchSize, a.instances]) })));
    // The same lane on a scenario that is not a preset's (another seed): no shipped plan.
    expect(shippedPlan(referencePlanKey(request.kind, { ...request.spec, seed: request.spec.seed + 1 }, request.params))).toBeUndefined();
  });
});
