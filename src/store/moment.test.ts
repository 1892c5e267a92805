import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLink, encodeAnyScenarioLink } from '../scenario/link';
import { findPreset } from '../scenario/presets';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { validateAnyScenario, type AnyScenario } from '../scenario/schema';
import { runs } from '../testing/propertySeed';
import { momentIn, momentOf, withMoment, withoutMoment, type Moment } from './moment';

const momentArbitrary = (lanes: number): fc.Arbitrary<Moment> =>
  fc.record(
    {
      position: fc.integer({ min: 0, max: 1_000_000_000 }),
      step: fc.integer({ min: 0, max: 1_000_000 }),
      playing: fc.boolean(),
      lane: fc.integer({ min: 0, max: lanes - 1 }),
      lesson: fc.record({ id: fc.string({ maxLength: 100 }), step: fc.integer({ min: 0, max: 1000 }) }),
    },
    { requiredKeys: ['position', 'playing'] },
  );

describe('a moment in a link (view.at)', () => {
  it('round-trips through the link codec of either world, and the scenario without it is the one given (property)', () => {
    const pipeline = defaultPipelineScenario();
    const serving = findPreset('bcedge-dynamic')!.scenario;
    fc.assert(
      fc.property(fc.constantFrom<AnyScenario>(pipeline, serving), momentArbitrary(4), (scenario, moment) => {
        const decoded = decodeLink(encodeAnyScenarioLink(withMoment(scenario, moment)));
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        expect(momentIn(decoded.scenario)).toEqual(moment);
        expect(withoutMoment(decoded.scenario)).toEqual(scenario);
      }),
      { numRuns: runs(200) },
    );
  });

  it('keeps a classroom view when the moment is taken off, and drops a default one', () => {
    const presented = { ...defaultPipelineScenario(), view: { mode: 'presentation' as const, hide: ['events' as const] } };
    const at: Moment = { position: 156, step: 5, playing: false };
    expect(withMoment(presented, at).view).toEqual({ mode: 'presentation', hide: ['events'], at });
    expect(withoutMoment(withMoment(presented, at))).toEqual(presented);
    expect('view' in withoutMoment(withMoment(defaultPipelineScenario(), at))).toBe(false);
  });

  it('refuses a moment out of bounds by its field', () => {
    const bad = (at: unknown) => {
      const checked = validateAnyScenario({ ...defaultPipelineScenario(), view: { mode: 'normal', hide: [], at } } as never);
      return checked.ok ? [] : checked.errors.map((e) => e.path);
    };
    expect(bad({ position: -1, playing: false })).toEqual(['view.at.position']);
    expect(bad({ position: 3, playing: 'yes' })).toEqual(['view.at.playing']);
    expect(bad({ position: 3, playing: false, step: 0.5 })).toEqual(['view.at.step']);
    // The default scenario has four lanes.
    expect(bad({ position: 3, playing: false, lane: 4 })).toEqual(['view.at.lane']);
    expect(bad({ position: 3, playing: false, lane: 3 })).toEqual([]);
    expect(bad({ position: 3, playing: false, surprise: 1 })).toEqual(['view.at']);
  });

  it('is read from the store: paused at a step, playing without one, lane 0 and no lesson left out', () => {
    const state = { position: 156, status: 'paused', starting: false, selectedLane: 0, lesson: null };
    expect(momentOf(state, 5)).toEqual({ position: 156, step: 5, playing: false });
    expect(momentOf({ ...state, status: 'playing' }, 5)).toEqual({ position: 156, playing: true });
    expect(momentOf({ ...state, starting: true })).toEqual({ position: 156, playing: true });
    expect(momentOf({ ...state, selectedLane: 2, lesson: { id: 'odin-alg1', step: 3 } }, -1)).toEqual({ position: 156, playing: false, lane: 2, lesson: { id: 'odin-alg1', step: 3 } });
  });
});
