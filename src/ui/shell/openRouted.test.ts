import { describe, expect, it, vi } from 'vitest';
import { encodeLinkJson, openLink } from '../../scenario/link';
import { encodePipelineScenarioLink } from '../../worlds/pipeline/door';
import { SERVING_PRESETS } from '../../worlds/serving/presets';
import { defaultPipelineScenario } from '../../worlds/pipeline/defaultPreset';
import type { ServingScenario } from '../../worlds/serving/schema';
import { inProcessPipeline, inProcessServing } from '../../store/testing/inProcessStores';
import { loadRouted } from './pageWorld';

// Count the scenario doors (every world's door is `parseWorldScenario`, the command line's
// `parseAnyScenario`): a link opened in the page must pass exactly one, its lab's worker's.
const doors = vi.hoisted(() => ({ world: 0, any: 0 }));
vi.mock('../../scenario/parse', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../scenario/parse')>();
  return {
    ...real,
    parseWorldScenario: (...args: Parameters<typeof real.parseWorldScenario>) => (doors.world++, real.parseWorldScenario(...args)),
    parseAnyScenario: (...args: Parameters<typeof real.parseAnyScenario>) => (doors.any++, real.parseAnyScenario(...args)),
  };
});

/** The serving default without its learning lanes (the in-process session has no TensorFlow.js). */
const servingDefault = (): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, lanes: [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }] } };
};
const counted = () => doors.world + doors.any;
const reset = () => Object.assign(doors, { world: 0, any: 0 });

describe('a link opened in the page is validated once, by its lab’s worker', () => {
  it('a pipeline link: unpacked on the page, validated at the worker’s door, loaded', async () => {
    const { store } = inProcessPipeline();
    reset();
    const link = openLink(encodePipelineScenarioLink({ ...defaultPipelineScenario(), seed: 7 }));
    expect(link.ok).toBe(true);
    expect(counted()).toBe(0);
    expect(await loadRouted({ store, module: { defaultScenario: defaultPipelineScenario } }, { world: link.world, scenario: (link as { document: unknown }).document, source: 'link', play: false })).toBe(true);
    expect(counted()).toBe(1);
    expect(store.getState().scenario?.seed).toBe(7);
  });

  it('a serving link with a bad field: its own field error over the lab’s default, after one validation of the link', async () => {
    const { store } = inProcessServing();
    const bad = { ...servingDefault(), serving: { ...servingDefault().serving, rateRps: 0 } };
    reset();
    const link = openLink(encodeLinkJson(JSON.stringify(bad)));
    expect(link).toMatchObject({ ok: true, world: 'serving' });
    const ok = await loadRouted({ store, module: { defaultScenario: servingDefault } }, { world: 'serving', scenario: (link as { document: unknown }).document, source: 'link', play: false });
    expect(ok).toBe(false);
    // One validation of the link; the default that replaces it passes the door too.
    expect(counted()).toBe(2);
    expect(store.getState().errors?.source).toBe('link');
    expect(store.getState().errors?.errors.map((e) => e.path)).toContain('serving.rateRps');
    expect(store.getState().scenario).toEqual(servingDefault());
  });

  it('a link that cannot be unpacked never reaches a door; the lab shows it over its default', async () => {
    const { store } = inProcessPipeline();
    reset();
    const link = openLink('z1=@@@');
    expect(link).toStrictEqual({ ok: false, world: 'pipeline', errors: [{ path: 'link', message: 'is not valid base64url' }] });
    expect(await loadRouted({ store, module: { defaultScenario: defaultPipelineScenario } }, link as Extract<typeof link, { ok: false }>)).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'link', errors: [{ path: 'link', message: 'is not valid base64url' }] });
    expect(store.getState().scenario).not.toBeNull();
  });
});
