import { describe, expect, it } from 'vitest';
import { decodeLink, encodeAnyScenarioLink, encodeLinkJson } from './link';
import { encodePipelineScenarioLink } from '../worlds/pipeline/door';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../worlds/serving/presets';
import type { ServingScenario } from '../worlds/serving/schema';

const servingDefault = (): ServingScenario => structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;

/** A serving link whose JSON was changed by `change` (unvalidated, as a hand-edited link is). */
function servingLinkWith(change: (json: Record<string, Record<string, unknown>>) => void): string {
  const json = JSON.parse(JSON.stringify(servingDefault())) as Record<string, Record<string, unknown>>;
  change(json);
  return encodeLinkJson(JSON.stringify(json));
}

describe('decodeLink routes a link by its world', () => {
  it('opens a pipeline link in the pipeline world and a serving link in the serving world', () => {
    expect(decodeLink(encodePipelineScenarioLink(defaultPipelineScenario()))).toStrictEqual({ ok: true, world: 'pipeline', scenario: defaultPipelineScenario() });
    const serving = decodeLink(encodeAnyScenarioLink(servingDefault()));
    expect(serving).toStrictEqual({ ok: true, world: 'serving', scenario: servingDefault() });
  });

  it("reports a serving link's own field errors, to the serving world", () => {
    const zeroRate = decodeLink(servingLinkWith((s) => (s.serving!.rateRps = 0)));
    expect(zeroRate.ok).toBe(false);
    expect(zeroRate.world).toBe('serving');
    if (zeroRate.ok) return;
    expect(zeroRate.errors.map((e) => e.path)).toEqual(['serving.rateRps']);
    const platform = decodeLink(servingLinkWith((s) => (s.serving!.platform = 'h100')));
    expect(platform.world).toBe('serving');
    expect(platform.ok ? [] : platform.errors.map((e) => e.path)).toEqual(['serving.platform']);
    expect(platform.ok ? '' : platform.errors[0]!.message).not.toContain('command line');
  });

  it('gives a link that cannot be read at all to the pipeline world, with the link error', () => {
    expect(decodeLink('z1=@@@')).toStrictEqual({ ok: false, world: 'pipeline', errors: [{ path: 'link', message: 'is not valid base64url' }] });
    // A forbidden key in a serving link is still the serving world's to report.
    const json = JSON.stringify(servingDefault()).replace('"serving":{', '"serving":{"__proto__":{"alpha":1},');
    const forbidden = decodeLink(encodeLinkJson(json));
    expect(forbidden.world).toBe('serving');
    expect(forbidden.ok ? [] : forbidden.errors.map((e) => e.path)).toEqual(['serving']);
  });
});
