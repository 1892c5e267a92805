import fc from 'fast-check';
import { INTERFERENCE_MODE_IDS, MODEL_IDS } from '../../worlds/pipeline/engine/profiles/types';
import { PIPELINE_SCHEDULER_IDS, PIPELINE_SCHEDULERS } from '../../worlds/pipeline/schedulers/registry';
import { pipelinePresets } from '../../worlds/pipeline/presets';
import type { Sweep } from '../sweep';
import { HIDEABLE_CONTROLS, PIPELINE_LIMITS, VIEW_MODES } from '../schema';
import { type InterferenceEventSpec, type PipelineLane, type PipelineSpec, type PipelineScenario } from '../../worlds/pipeline/schema';

/** An integer within one of the schema's `{ min, max }` bounds. */
const within = (bounds: { readonly min: number; readonly max: number }) => fc.integer(bounds);

/**
 * A finite double within bounds. `+ 0` turns -0 into 0: JSON writes -0 as 0, and a round
 * trip is compared with Object.is semantics.
 */
const real = (bounds: { readonly min: number; readonly max: number }) =>
  fc.double({ ...bounds, noNaN: true, noDefaultInfinity: true }).map((v) => v + 0);

/** Either the preset's value or a fresh one, half and half, so presets stay recognizable. */
const keepOr = <T>(kept: T, fresh: fc.Arbitrary<T>): fc.Arbitrary<T> => fc.oneof(fc.constant(kept), fresh);

/** Titles with any code point, lone surrogates included (JSON escapes them, so they survive). */
const titleArbitrary = fc.string({
  unit: fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)) },
  ),
  maxLength: 60,
});

/** Records with an ordinary prototype, like the objects JSON.parse and zod give back. */
const plainRecord = { noNullPrototype: true } as const;

const laneArbitrary: fc.Arbitrary<PipelineLane> = fc.constantFrom(...PIPELINE_SCHEDULER_IDS).chain((scheduler) => {
  const parameters = PIPELINE_SCHEDULERS[scheduler].parameters;
  const params = fc.record(
    Object.fromEntries(parameters.map((p) => [p.name, p.integer ? fc.integer({ min: p.min, max: p.max }) : real({ min: p.min, max: p.max })])),
    { ...plainRecord, requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, number>>;
  // Lanes without `params`, with `{}` and with some or all parameters set are all valid.
  return fc.oneof(fc.constant<PipelineLane>({ scheduler }), params.map((p): PipelineLane => ({ scheduler, params: p })));
});

const assumptionsArbitrary: fc.Arbitrary<PipelineSpec['assumptions']> = fc.record(
  {
    trialCost: fc.constantFrom('serial', 'pipelined', 'free'),
    llsReading: fc.constantFrom('literal', 'repaired'),
    bufferCapacity: within(PIPELINE_LIMITS.bufferCapacity),
    admission: fc.oneof(
      fc.constant({ kind: 'saturated' as const }),
      real(PIPELINE_LIMITS.rateQps).map((rateQps) => ({ kind: 'poisson' as const, rateQps })),
      real(PIPELINE_LIMITS.shareOfPeak).map((shareOfPeak) => ({ kind: 'poissonShare' as const, shareOfPeak })),
    ),
    detectionThreshold: real(PIPELINE_LIMITS.detectionThreshold),
    detectionSignal: fc.constantFrom('bottleneck', 'anyStage'),
    hopMs: real(PIPELINE_LIMITS.hopMs),
  },
  plainRecord,
);

const randomArbitrary: fc.Arbitrary<PipelineSpec['interference']['random']> = fc
  .record(
    {
      enabled: fc.boolean(),
      periodQueries: within(PIPELINE_LIMITS.periodQueries),
      durationQueries: within(PIPELINE_LIMITS.durationQueries),
      modes: fc.option(fc.array(fc.constantFrom(...INTERFERENCE_MODE_IDS), { minLength: 1, maxLength: 11 }), { nil: undefined }),
    },
    plainRecord,
  )
  // Leave `modes` out rather than set it to undefined: JSON cannot carry an undefined key.
  .map(({ modes, ...rest }) => (modes === undefined ? rest : { ...rest, modes }));

const gridValues = (bounds: { readonly min: number; readonly max: number }) =>
  fc.option(fc.array(within(bounds), { minLength: 1, maxLength: 6 }), { nil: undefined });

/** Sweeps over the fields every pipeline scenario has (EPs, period, duration); at least one axis. */
const sweepArbitrary: fc.Arbitrary<Sweep> = fc
  .record({
    executionPlaces: gridValues(PIPELINE_LIMITS.executionPlaces),
    periodQueries: gridValues(PIPELINE_LIMITS.periodQueries),
    durationQueries: gridValues(PIPELINE_LIMITS.durationQueries),
    seeds: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
  })
  .filter((g) => g.executionPlaces !== undefined || g.periodQueries !== undefined || g.durationQueries !== undefined)
  .map(({ periodQueries, durationQueries, executionPlaces, seeds }) => ({
    axes: [
      ...(executionPlaces === undefined ? [] : [{ path: 'pipeline.executionPlaces', values: executionPlaces }]),
      ...(periodQueries === undefined ? [] : [{ path: 'pipeline.interference.random.periodQueries', values: periodQueries }]),
      ...(durationQueries === undefined ? [] : [{ path: 'pipeline.interference.random.durationQueries', values: durationQueries }]),
    ],
    ...(seeds === undefined ? {} : { seeds }),
  }));

/** The sweep without its seed count when that count would take the seeds past the largest seed. */
function fitSeeds(sweep: Sweep, seed: number): Sweep {
  if (sweep.seeds === undefined || seed + sweep.seeds - 1 <= PIPELINE_LIMITS.seed.max) return sweep;
  const { seeds: _seeds, ...rest } = sweep;
  void _seeds;
  return rest;
}

/** The EP counts a sweep's cells may run on. */
function sweptExecutionPlaces(sweep: Sweep | undefined): number[] {
  const axis = sweep?.axes.find((a) => a.path === 'pipeline.executionPlaces');
  return (axis?.values ?? []) as number[];
}

/** Events that fit `executionPlaces` EPs: each on an existing EP, ending after it starts or never. */
function eventsArbitrary(executionPlaces: number): fc.Arbitrary<InterferenceEventSpec[]> {
  const event = fc
    .record(
      {
        executionPlace: fc.integer({ min: 0, max: executionPlaces - 1 }),
        mode: fc.constantFrom(...INTERFERENCE_MODE_IDS),
        fromQuery: fc.integer({ min: 0, max: PIPELINE_LIMITS.queries.max - 1 }),
        lengthQueries: fc.option(fc.integer({ min: 1, max: PIPELINE_LIMITS.queries.max }), { nil: null }),
      },
      plainRecord,
    )
    .map(({ lengthQueries, ...e }) => ({ ...e, toQuery: lengthQueries === null ? null : Math.min(e.fromQuery + lengthQueries, PIPELINE_LIMITS.queries.max) }));
  // size 'max': the default size would rarely draw more than ten events.
  return fc.array(event, { maxLength: 60, size: 'max' });
}

const viewArbitrary: fc.Arbitrary<NonNullable<PipelineScenario['view']>> = fc.record(
  { mode: fc.constantFrom(...VIEW_MODES), hide: fc.array(fc.constantFrom(...HIDEABLE_CONTROLS), { maxLength: 12 }) },
  plainRecord,
);

/**
 * Valid current-version scenarios: a random preset with any of its fields varied within the
 * schema's limits. Events are drawn after the EP counts (scenario and sweep) so that each
 * lands on an EP every cell has. Optional fields are left out, never set to undefined,
 * so a JSON round trip gives a strictly equal object. Each scenario is a fresh copy: a test
 * may change it without touching the presets.
 */
export const scenarioArbitrary: fc.Arbitrary<PipelineScenario> = fc.constantFrom(...pipelinePresets()).chain(({ scenario: preset }) => {
  const p = preset.pipeline;
  return fc
    .record({
      title: keepOr(preset.title, titleArbitrary),
      seed: keepOr(preset.seed, within(PIPELINE_LIMITS.seed)),
      model: keepOr(p.model, fc.constantFrom(...MODEL_IDS)),
      executionPlaces: keepOr(p.executionPlaces, within(PIPELINE_LIMITS.executionPlaces)),
      queries: keepOr(p.queries, within(PIPELINE_LIMITS.queries)),
      random: keepOr(p.interference.random, randomArbitrary),
      assumptions: keepOr(p.assumptions, assumptionsArbitrary),
      lanes: keepOr(p.lanes, fc.array(laneArbitrary, { minLength: 1, maxLength: PIPELINE_LIMITS.lanes })),
      sweep: keepOr(preset.sweep, fc.option(sweepArbitrary, { nil: undefined })),
      view: fc.option(viewArbitrary, { nil: undefined }),
    })
    .chain((v) => {
      const minEps = Math.min(v.executionPlaces, ...sweptExecutionPlaces(v.sweep));
      const fits = p.interference.events.every((e) => e.executionPlace < minEps);
      const events = fits ? keepOr(p.interference.events, eventsArbitrary(minEps)) : eventsArbitrary(minEps);
      return events.map((eventList): PipelineScenario => {
        const pipeline: PipelineSpec = {
          model: v.model,
          executionPlaces: v.executionPlaces,
          queries: v.queries,
          interference: { random: v.random, events: eventList },
          assumptions: v.assumptions,
          lanes: v.lanes,
        };
        return structuredClone({
          version: preset.version,
          world: preset.world,
          title: v.title,
          seed: v.seed,
          pipeline,
          ...(v.sweep === undefined ? {} : { sweep: fitSeeds(v.sweep, v.seed) }),
          ...(v.view === undefined ? {} : { view: v.view }),
        });
      });
    });
});
