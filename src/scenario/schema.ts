import { z } from 'zod';
import { validateDatabase } from '../worlds/pipeline/engine/profiles/validate';
import { getMeasuredDatabase, MEASURED_MODELS } from '../worlds/pipeline/engine/profiles/measured';
import { DEFAULT_PERCENTILE_RELATIVE_ERROR, type PercentileMethod, type PercentileOptions } from '../engine/quantiles';
import { MODE_IDS, MODEL_IDS, type LayerTimeDatabase, type ModeId } from '../worlds/pipeline/engine/profiles/types';
import { PIPELINE_SCHEDULER_IDS, PIPELINE_SCHEDULERS } from '../worlds/pipeline/schedulers/registry';
import { MODEL_IDS as SERVING_MODEL_IDS } from '../worlds/serving/engine/models';
import { PLATFORM_IDS } from '../worlds/serving/engine/platforms';
import { LATENCY_PROFILE_IDS, type LatencyProfileId } from '../worlds/serving/engine/models';
import { totalRateRps, type RateBlock } from '../worlds/serving/scenario/servingReadings';
export { totalRateRps } from '../worlds/serving/scenario/servingReadings';
import { perModelParameter, SERVING_SCHEDULER_IDS, SERVING_SCHEDULERS } from '../worlds/serving/schedulers/registry';
import { checkSweep } from './sweep';
import { worldOfDocument, type AnyScenario } from '../worlds';
import { sweepSchema } from './sweepSchema';
// Every numeric field is built with these, which record its range in the schema (fieldBounds.ts).
import { above, int, num, withParameters, type NumberBounds } from './fieldBounds';

// The version, bounds and view options live in limits.ts, without zod, so that the page can read
// them without loading the validator (ARCHITECTURE §7a′).
export { HIDEABLE_CONTROLS, MOMENT_LIMITS, PIPELINE_LIMITS, SCENARIO_VERSION, SERVING_LIMITS, VIEW_MODES, type HideableControl } from './limits';
import { HIDEABLE_CONTROLS, MOMENT_LIMITS, PIPELINE_LIMITS, SCENARIO_VERSION, SERVING_LIMITS, VIEW_MODES } from './limits';

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` });

/**
 * How the run's percentiles are computed, for both worlds. Optional;
 * absent means `{"percentiles": "streaming"}` with a 0.1 % relative error bound. `exact`
 * keeps every latency sample (memory grows with the run).
 */
const metricsSchema = z.strictObject({
  percentiles: oneOf(['streaming', 'exact'] as const satisfies readonly PercentileMethod[]),
  relativeError: num(PIPELINE_LIMITS.percentileRelativeError.min, PIPELINE_LIMITS.percentileRelativeError.max).optional(),
});

/**
 * The moment a link reopens at (`view.at`, both worlds; ignored by the CLI): where the run is
 * (`position`: queries served in the pipeline world, simulated ms in the serving world), the
 * algorithm step shown there (the pipeline's teaching view), whether it plays, the selected
 * lane and the lesson under way. Optional and new in version 6 without a version change: a
 * link without it opens as before, at the start, playing (ARCHITECTURE §4).
 */
const momentSchema = (lanes: number) => z.strictObject({
  position: num(MOMENT_LIMITS.position.min, MOMENT_LIMITS.position.max),
  step: int(MOMENT_LIMITS.algorithmStep.min, MOMENT_LIMITS.algorithmStep.max).optional(),
  playing: z.boolean({ error: 'must be true or false' }),
  lane: int(0, lanes - 1).optional(),
  lesson: z
    .strictObject({
      id: z.string({ error: 'must be a string' }).max(MOMENT_LIMITS.lessonIdLength, { message: `must be at most ${MOMENT_LIMITS.lessonIdLength} characters` }),
      step: int(MOMENT_LIMITS.lessonStep.min, MOMENT_LIMITS.lessonStep.max),
    })
    .optional(),
});

/** The view of either world's scenario (`lanes`: its most lanes): how the page shows it (ignored by the CLI). */
const viewSchema = (lanes: number) => z.strictObject({
  mode: oneOf(VIEW_MODES),
  hide: z.array(oneOf(HIDEABLE_CONTROLS)).max(PIPELINE_LIMITS.hiddenControls),
  /** The Explore view is open (on the scenario's sweep). */
  explore: z.literal(true, { error: 'must be true (or left out)' }).optional(),
  /** The Claims view (the reproduction report, ARCHITECTURE §4a) is open over the lab. */
  claims: z.literal(true, { error: 'must be true (or left out)' }).optional(),
  /** The moment the page reopens at (Copy link, the classroom link). */
  at: momentSchema(lanes).optional(),
});

/**
 * The fields every world's scenario has around its body, written once for every world (the
 * queue world of the test tree too): `head` (version, world, title, seed) comes before the
 * body and `tail` (the percentile method, the sweep, the view; `lanes`: the world's most lanes)
 * after it, the order a document lists them in.
 */
export function scenarioEnvelope<W extends string>(world: W, lanes: number) {
  return {
    head: {
      version: z.literal(SCENARIO_VERSION, { error: `must be ${SCENARIO_VERSION}` }),
      world: z.literal(world, { error: `must be "${world}"` }),
      title: z.string({ error: 'must be a string' }).max(PIPELINE_LIMITS.nameLength, { message: `must be at most ${PIPELINE_LIMITS.nameLength} characters` }),
      seed: int(PIPELINE_LIMITS.seed.min, PIPELINE_LIMITS.seed.max),
    },
    tail: {
      /** Percentile method (streaming by default). */
      metrics: metricsSchema.optional(),
      /** Optional sweep: one run per (axis values, seed), e.g. ODIN §4.2's period × duration grid, BCEdge Fig. 15's rates. */
      sweep: sweepSchema.optional(),
      /** How the page shows the scenario (ignored by the CLI). */
      view: viewSchema(lanes).optional(),
    },
  };
}

/** A moment's selected lane must be one of the scenario's lanes (named at `view.at.lane`). */
function checkMomentLane(view: { readonly at?: { readonly lane?: number | undefined } | undefined } | undefined, lanes: number, ctx: z.RefinementCtx): void {
  const lane = view?.at?.lane;
  if (lane !== undefined && lane >= lanes) ctx.addIssue({ code: 'custom', path: ['view', 'at', 'lane'], message: `must be below the number of lanes (${lanes})` });
}

const modeSchema = oneOf(MODE_IDS);
const interferenceModeSchema = modeSchema.refine((m) => m !== 'A', { message: 'must be an interference mode B–L' });

const eventSchema = z.strictObject({
  executionPlace: int(0, PIPELINE_LIMITS.executionPlaces.max - 1),
  mode: interferenceModeSchema,
  fromQuery: int(0, PIPELINE_LIMITS.queries.max),
  toQuery: int(1, PIPELINE_LIMITS.queries.max).nullable(),
});

const randomSchema = z.strictObject({
  enabled: z.boolean({ error: 'must be true or false' }),
  periodQueries: int(PIPELINE_LIMITS.periodQueries.min, PIPELINE_LIMITS.periodQueries.max),
  durationQueries: int(PIPELINE_LIMITS.durationQueries.min, PIPELINE_LIMITS.durationQueries.max),
  /** Modes drawn from; omitted = every interference mode of the database. */
  modes: z.array(interferenceModeSchema).min(1, { message: 'must list at least one mode' }).max(11).optional(),
});

const admissionSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('saturated') }),
    z.strictObject({ kind: z.literal('poisson'), rateQps: num(PIPELINE_LIMITS.rateQps.min, PIPELINE_LIMITS.rateQps.max) }),
    z.strictObject({ kind: z.literal('poissonShare'), shareOfPeak: num(PIPELINE_LIMITS.shareOfPeak.min, PIPELINE_LIMITS.shareOfPeak.max) }),
  ],
  { error: 'must be {"kind": "saturated"}, {"kind": "poisson", "rateQps": …} or {"kind": "poissonShare", "shareOfPeak": …}' },
);

const assumptionsSchema = z.strictObject({
  trialCost: oneOf(['serial', 'pipelined', 'free'] as const),
  llsReading: oneOf(['literal', 'repaired'] as const),
  bufferCapacity: int(PIPELINE_LIMITS.bufferCapacity.min, PIPELINE_LIMITS.bufferCapacity.max),
  admission: admissionSchema,
  detectionThreshold: num(PIPELINE_LIMITS.detectionThreshold.min, PIPELINE_LIMITS.detectionThreshold.max),
  detectionSignal: oneOf(['bottleneck', 'anyStage'] as const),
  hopMs: num(PIPELINE_LIMITS.hopMs.min, PIPELINE_LIMITS.hopMs.max),
  /** Absent: `stack` (ARCHITECTURE §2; worlds/pipeline/engine/assumptions.ts). */
  interferenceOverlap: oneOf(['stack', 'onePerEp', 'replace'] as const).optional(),
  /** Absent: `all`. */
  latencyQueries: oneOf(['all', 'normal'] as const).optional(),
  /** Absent: `roofline` (worlds/pipeline/engine/assumptions.ts; a model without a shipped measured database is refused). */
  database: oneOf(['roofline', 'measured'] as const).optional(),
  /** Absent: `first`, `1`, `0` — the single-sample monitor and ODIN's strict "better" (worlds/pipeline/engine/assumptions.ts). */
  monitorReference: oneOf(['first', 'steady'] as const).optional(),
  detectionWindow: int(PIPELINE_LIMITS.detectionWindow.min, PIPELINE_LIMITS.detectionWindow.max).optional(),
  betterTolerance: num(PIPELINE_LIMITS.betterTolerance.min, PIPELINE_LIMITS.betterTolerance.max).optional(),
});

/** A registry parameter's range as the schema's bounds. */
const boundsOf = (p: { readonly min: number; readonly max: number; readonly integer: boolean }): NumberBounds => ({ min: p.min, max: p.max, integer: p.integer });

const laneObject = z
  .strictObject({
    scheduler: oneOf(PIPELINE_SCHEDULER_IDS),
    params: z.record(z.string(), z.number({ error: 'must be a number' })).optional(),
  })
  .superRefine((lane, ctx) => {
    const entry = PIPELINE_SCHEDULERS[lane.scheduler];
    for (const [name, value] of Object.entries(lane.params ?? {})) {
      const p = entry.parameters.find((q) => q.name === name);
      if (p === undefined) {
        ctx.addIssue({ code: 'custom', path: ['params', name], message: `is not a parameter of ${lane.scheduler}` });
      } else if (!Number.isFinite(value) || value < p.min || value > p.max || (p.integer && !Number.isInteger(value))) {
        ctx.addIssue({ code: 'custom', path: ['params', name], message: `must be ${p.integer ? 'an integer' : 'a number'} from ${p.min} to ${p.max}` });
      }
    }
  });
const laneSchema = withParameters(laneObject, {
  field: 'params',
  by: 'scheduler',
  entries: PIPELINE_SCHEDULER_IDS,
  parameters: (id) => PIPELINE_SCHEDULERS[id as keyof typeof PIPELINE_SCHEDULERS].parameters.map((p) => ({ name: p.name, bounds: boundsOf(p) })),
});

const pipelineSchema = z.strictObject({
  model: oneOf(MODEL_IDS),
  /** A layer-time database embedded in the scenario; replaces `model`'s when present. */
  database: z.unknown().optional(),
  executionPlaces: int(PIPELINE_LIMITS.executionPlaces.min, PIPELINE_LIMITS.executionPlaces.max),
  queries: int(PIPELINE_LIMITS.queries.min, PIPELINE_LIMITS.queries.max),
  interference: z.strictObject({
    random: randomSchema,
    events: z.array(eventSchema).max(PIPELINE_LIMITS.events, { message: `must have at most ${PIPELINE_LIMITS.events} events` }),
  }),
  assumptions: assumptionsSchema,
  /** The machine beyond the database (worlds/pipeline/engine/machine.ts); absent: the paper's ideal machine. */
  machine: z
    .strictObject({
      stageNoiseCv: num(0, 2),
      pipelinedFactor: num(0.1, 100),
      hopMs: num(0, 100_000),
      moveMs: num(0, 1_000_000),
      hogStartMs: num(0, 1_000_000),
      cores: int(1, 4096).optional(),
      noiseSeed: int(PIPELINE_LIMITS.seed.min, PIPELINE_LIMITS.seed.max).optional(),
    })
    .optional(),
  lanes: z.array(laneSchema).min(1, { message: 'must have at least one lane' }).max(PIPELINE_LIMITS.lanes, { message: `must have at most ${PIPELINE_LIMITS.lanes} lanes` }),
});

const PIPELINE_ENVELOPE = scenarioEnvelope('pipeline', PIPELINE_LIMITS.lanes);
export const pipelineScenarioSchema = z
  .strictObject({ ...PIPELINE_ENVELOPE.head, pipeline: pipelineSchema, ...PIPELINE_ENVELOPE.tail })
  .superRefine((s, ctx) => {
    const p = s.pipeline;
    checkMomentLane(s.view, p.lanes.length, ctx);
    const minEps = p.executionPlaces;
    // A rule between two fields names both: whichever one was just changed is named (fieldBounds.ts).
    let highestEp = -1;
    p.interference.events.forEach((e, i) => {
      const at = ['pipeline', 'interference', 'events', i];
      if (e.executionPlace >= minEps) {
        highestEp = Math.max(highestEp, e.executionPlace);
        ctx.addIssue({ code: 'custom', path: [...at, 'executionPlace'], message: `must be below the number of execution places (${minEps})` });
      }
      if (e.toQuery !== null && e.toQuery <= e.fromQuery) {
        ctx.addIssue({ code: 'custom', path: [...at, 'toQuery'], message: 'must be after fromQuery (or null)' });
        ctx.addIssue({ code: 'custom', path: [...at, 'fromQuery'], message: `must be before toQuery (${e.toQuery})` });
      }
    });
    if (highestEp >= 0) {
      ctx.addIssue({ code: 'custom', path: ['pipeline', 'executionPlaces'], message: `must be above every event's execution place (the highest is ${highestEp})` });
    }
    if (p.assumptions.database === 'measured') {
      const path = ['pipeline', 'assumptions', 'database'];
      if (p.database !== undefined) ctx.addIssue({ code: 'custom', path, message: 'must be left out (or "roofline") when the scenario embeds its own database' });
      else if (!MEASURED_MODELS.includes(p.model)) ctx.addIssue({ code: 'custom', path, message: `no measured database of ${p.model} is shipped (${MEASURED_MODELS.join(', ')})` });
    }
    if (p.database !== undefined) {
      const checked = validateDatabase(p.database, 'pipeline.database');
      if (!checked.ok) {
        for (const e of checked.errors) ctx.addIssue({ code: 'custom', path: [], message: `${e.path}: ${e.message}`, params: { preformatted: true } });
        return;
      }
      const present = new Set(Object.keys(checked.database.modes));
      const used: [ModeId, (string | number)[]][] = p.interference.events.map((e, i) => [e.mode, ['pipeline', 'interference', 'events', i, 'mode']]);
      (p.interference.random.modes ?? []).forEach((m, i) => used.push([m, ['pipeline', 'interference', 'random', 'modes', i]]));
      for (const [mode, path] of used) {
        if (!present.has(mode)) ctx.addIssue({ code: 'custom', path, message: `mode ${mode} is not in the embedded database` });
      }
    }
  });

/** A whole scenario of the pipeline world (ODIN): its version, title, seed, view and sweep around the `pipeline` block. */
export type PipelineScenario = z.infer<typeof pipelineScenarioSchema>;

const rate = () => num(0, SERVING_LIMITS.rateRps.max);
const timeS = () => num(0, SERVING_LIMITS.durationS.max);

/**
 * A model's request rate over time (engine load.ts), times in seconds: steps, a
 * piecewise-linear ramp, a daily-cycle sine, or MMPP on/off bursts.
 */
const rateScheduleSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('constant'), rateRps: rate() }),
    z.strictObject({
      kind: z.literal('steps'),
      steps: z.array(z.strictObject({ fromS: timeS(), rateRps: rate() })).min(1, { message: 'must list at least one step' }).max(SERVING_LIMITS.schedulePoints),
    }),
    z.strictObject({
      kind: z.literal('linear'),
      points: z.array(z.strictObject({ atS: timeS(), rateRps: rate() })).min(1, { message: 'must list at least one point' }).max(SERVING_LIMITS.schedulePoints),
    }),
    z.strictObject({ kind: z.literal('sine'), meanRps: rate(), amplitudeRps: rate(), periodS: num(0.001, SERVING_LIMITS.durationS.max), phaseS: timeS() }),
    z.strictObject({
      kind: z.literal('mmpp'),
      onRps: rate(),
      offRps: rate(),
      meanOnS: num(0.001, SERVING_LIMITS.durationS.max),
      meanOffS: num(0.001, SERVING_LIMITS.durationS.max),
      startOn: z.boolean({ error: 'must be true or false' }),
    }),
  ],
  { error: 'must be a rate schedule: {"kind": "constant" | "steps" | "linear" | "sine" | "mmpp", …}' },
);
export type RateScheduleSpec = z.infer<typeof rateScheduleSchema>;

const servingModelSchema = z.strictObject({
  model: oneOf(SERVING_MODEL_IDS),
  weight: num(0, 1000),
  sloMs: num(SERVING_LIMITS.sloMs.min, SERVING_LIMITS.sloMs.max).optional(),
  /** The model's own rate over time; replaces its weight's share of `rateRps`. */
  rate: rateScheduleSchema.optional(),
  /** Its service starts here (s); before, no instance is loaded and no request is sent. */
  serviceFromS: timeS().optional(),
  /** Its service stops here (s; null = never): its instances unload and its queue is dropped. */
  serviceToS: timeS().nullable().optional(),
  /** Input-shape classes of its requests (e.g. camera resolutions); `scale` is the input size relative to Table IV's. */
  classes: z
    .array(
      z.strictObject({
        label: z.string({ error: 'must be a string' }).max(40, { message: 'must be at most 40 characters' }),
        scale: num(SERVING_LIMITS.classScale.min, SERVING_LIMITS.classScale.max),
        weight: num(0, 1000),
      }),
    )
    .min(1, { message: 'must list at least one class' })
    .max(SERVING_LIMITS.classes, { message: `must have at most ${SERVING_LIMITS.classes} classes` })
    .optional(),
});

/** One replayed request: sent at `tS` for `model` (listed in `serving.models`), optionally with its own SLO and class. */
const tracedRequestSchema = z.strictObject({
  tS: timeS(),
  model: oneOf(SERVING_MODEL_IDS),
  sloMs: num(SERVING_LIMITS.sloMs.min, SERVING_LIMITS.sloMs.max).optional(),
  shapeClass: int(0, SERVING_LIMITS.classes - 1).optional(),
});

const servingLaneObject = z
  .strictObject({
    scheduler: oneOf(SERVING_SCHEDULER_IDS),
    params: z.record(z.string(), z.number({ error: 'must be a number' })).optional(),
  })
  .superRefine((lane, ctx) => {
    const entry = SERVING_SCHEDULERS[lane.scheduler];
    for (const [name, value] of Object.entries(lane.params ?? {})) {
      // `batchSize.yolo` is the per-model form of `batchSize` (same range), for the parameters a scheduler reads per model.
      const perModel = perModelParameter(name);
      const p = entry.parameters.find((q) => (perModel === null ? q.name === name : q.name === perModel.base && q.perModel === true));
      if (p === undefined) {
        ctx.addIssue({ code: 'custom', path: ['params', name], message: `is not a parameter of ${lane.scheduler}` });
      } else if (!Number.isFinite(value) || value < p.min || value > p.max || (p.integer && !Number.isInteger(value))) {
        ctx.addIssue({ code: 'custom', path: ['params', name], message: `must be ${p.integer ? 'an integer' : 'a number'} from ${p.min} to ${p.max}` });
      }
    }
  });
const servingLaneSchema = withParameters(servingLaneObject, {
  field: 'params',
  by: 'scheduler',
  entries: SERVING_SCHEDULER_IDS,
  parameters: (id) =>
    SERVING_SCHEDULERS[id as keyof typeof SERVING_SCHEDULERS].parameters.flatMap((p) => [
      { name: p.name, bounds: boundsOf(p) },
      ...(p.perModel === true ? SERVING_MODEL_IDS.map((model) => ({ name: `${p.name}.${model}`, bounds: boundsOf(p) })) : []),
    ]),
});

/**
 * A serving-world scenario (ARCHITECTURE §3): the models on an edge platform under Poisson
 * requests, lanes of schedulers on the identical arrival trace, and an optional grid (rate,
 * platform, or the fixed lane's batch × instances of BCEdge Figure 1), as a sweep.
 */
const SERVING_ENVELOPE = scenarioEnvelope('serving', SERVING_LIMITS.lanes);
export const servingScenarioSchema = z
  .strictObject({
    ...SERVING_ENVELOPE.head,
    serving: z.strictObject({
      platform: oneOf(PLATFORM_IDS),
      rateRps: num(SERVING_LIMITS.rateRps.min, SERVING_LIMITS.rateRps.max),
      durationS: num(SERVING_LIMITS.durationS.min, SERVING_LIMITS.durationS.max),
      models: z.array(servingModelSchema).min(1, { message: 'must list at least one model' }).max(SERVING_MODEL_IDS.length),
      background: z
        .array(
          z.strictObject({
            fromS: num(0, SERVING_LIMITS.durationS.max),
            toS: num(0, SERVING_LIMITS.durationS.max).nullable(),
            intensity: num(0, 1),
            memoryMb: num(0, 100_000).optional(),
            /** What the tenant is, for the device board (e.g. "video analytics"). */
            label: z.string({ error: 'must be a string' }).max(60, { message: 'must be at most 60 characters' }).optional(),
          }),
        )
        .max(SERVING_LIMITS.background),
      /**
       * The modelling choices (worlds/serving/engine/assumptions.ts). Each may be left out, and the
       * block too: absent is its default, `DEFAULT_SERVING_ASSUMPTIONS`, which the presets
       * write out (`servingAssumptionsOf`).
       */
      assumptions: z
        .strictObject({
          slotMs: num(10, 60_000).optional(),
          linkBandwidthMbps: num(0.001, 1_000_000).optional(),
          linkLatencyMs: num(0, 10_000).optional(),
          sloJitter: num(0, 0.99).optional(),
          serializationMBps: num(1, 1_000_000).optional(),
          // Above 0, as the engine requires: a failed batch's CUDA error is caught, its buffers are
          // freed and the error is returned, which takes time; with 0 the instance would be free
          // again at the very instant it failed and take the next batch into the same failure
          // (worlds/serving/engine/assumptions.ts, `oomRecoveryMs`).
          oomRecoveryMs: above(0, 60_000).optional(),
          interferenceNoise: num(SERVING_LIMITS.interferenceNoise.min, SERVING_LIMITS.interferenceNoise.max).optional(),
          // The readings of BCEdge (ARCHITECTURE §3, worlds/serving/engine/assumptions.ts); absent = the paper's.
          /** §V-A's 30 rps: for each model (`perModel`) or in total over the models (`total`). */
          rateBasis: oneOf(['perModel', 'total'] as const).optional(),
          batching: oneOf(['form', 'cap'] as const).optional(),
          throughputTerm: oneOf(['configuration', 'completed'] as const).optional(),
          reward: oneOf(['withinSlo', 'utility'] as const).optional(),
          latencyProfile: oneOf(LATENCY_PROFILE_IDS as readonly LatencyProfileId[] as [LatencyProfileId, ...LatencyProfileId[]]).optional(),
          /** What the interference predictor judges: the joint action of the co-located models, or each model's own action. */
          interference: oneOf(['coLocated', 'ownModel'] as const).optional(),
          /** Figs. 11–12 (§V-D): on Nano and TX2 each model alone on its own copy of the device (`perModel`), or every platform shared (`mixed`). */
          platformSetting: oneOf(['perModel', 'mixed'] as const).optional(),
          /** The scheduling slot: each model's own of Eq. 1 (`eq1`, BCEdge §III-A2) or one of `slotMs` for all (`fixed`). */
          slot: oneOf(['eq1', 'fixed'] as const).optional(),
          /** Which requests a decision's reward is taken over: those it governed (`governed`) or those completed in its slot (`slot`). */
          credit: oneOf(['governed', 'slot'] as const).optional(),
          /** A queued request that can no longer meet its SLO: rejected (`reject`) or kept until served (`keep`). */
          lateRequests: oneOf(['reject', 'keep'] as const).optional(),
          /** The contention constants (worlds/serving/engine/contention.ts); absent = its defaults. */
          contention: z
            .strictObject({
              coRunnerPenalty: num(0, 100),
              oversubscriptionPenalty: num(0, 100),
              memoryPressureThreshold: num(0, 0.99),
              memoryPressurePenalty: num(0, 1000),
            })
            .optional(),
        })
        .optional(),
      /**
       * On/off bursts at a constant mean (the burstiness sweep's axis): every model without a
       * `rate` of its own sends its share of `rateRps` as a two-state MMPP, off rate 0, on for
       * `meanOnS` on average at `burstiness` × its share and off for `meanOnS` × (burstiness − 1);
       * burstiness 1 is a Poisson stream of its own at its share (`modelRateSpec`). Absent: the
       * models' shares are drawn as before (one stream).
       */
      bursts: z.strictObject({ burstiness: num(1, 100), meanOnS: num(0.001, SERVING_LIMITS.durationS.max) }).optional(),
      /**
       * Closed-loop clients instead of open arrivals (BCEdge Fig. 1 measures configurations at
       * load): each model keeps `outstanding` requests in flight, a new one sent as one is served
       * or lost; `rateRps`, the models' rates and bursts are then unused.
       */
      closedLoop: z.strictObject({ outstanding: int(1, SERVING_LIMITS.closedLoopOutstanding) }).optional(),
      /** Replays these requests instead of drawing arrivals (`rateRps` and the models' rates are then unused). */
      trace: z
        .strictObject({
          requests: z
            .array(tracedRequestSchema)
            .min(1, { message: 'must list at least one request' })
            .max(SERVING_LIMITS.traceRequests, { message: `must have at most ${SERVING_LIMITS.traceRequests} requests` }),
        })
        .optional(),
      lanes: z
        .array(servingLaneSchema)
        .min(1, { message: 'must have at least one lane' })
        .max(SERVING_LIMITS.lanes, { message: `must have at most ${SERVING_LIMITS.lanes} lanes` }),
    }),
    ...SERVING_ENVELOPE.tail,
  })
  .superRefine((s, ctx) => {
    const v = s.serving;
    checkMomentLane(s.view, v.lanes.length, ctx);
    const seen = new Set<string>();
    v.models.forEach((m, i) => {
      if (seen.has(m.model)) ctx.addIssue({ code: 'custom', path: ['serving', 'models', i, 'model'], message: `is listed twice (${m.model})` });
      seen.add(m.model);
    });
    // A rule between fields names each of them: whichever one was just changed is named (fieldBounds.ts).
    if (v.models.every((m) => m.weight === 0)) {
      v.models.forEach((_, i) => ctx.addIssue({ code: 'custom', path: ['serving', 'models', i, 'weight'], message: 'must be above 0 for at least one model' }));
    }
    const maxRate = totalRateRps(v);
    // With per-model schedules, the bound is the sum of the models' peak rates.
    const totalWeight = v.models.reduce((sum, m) => sum + m.weight, 0);
    const peakRate = v.models.some((m) => modelRateSpec(v, m) !== undefined)
      ? v.models.reduce((sum, m) => {
          const own = modelRateSpec(v, m);
          return sum + (own === undefined ? (maxRate * m.weight) / Math.max(totalWeight, 1e-9) : schedulePeakRps(own));
        }, 0)
      : maxRate;
    if (v.closedLoop !== undefined && v.durationS > SERVING_LIMITS.closedLoopDurationS) {
      // A closed loop sends as fast as the device serves: its bound is on time.
      ctx.addIssue({ code: 'custom', path: ['serving', 'durationS'], message: `must be at most ${SERVING_LIMITS.closedLoopDurationS} s under a closed loop` });
    } else if (v.closedLoop === undefined && peakRate * v.durationS > SERVING_LIMITS.requests) {
      const perModel = peakRate === maxRate && maxRate !== v.rateRps ? ` (${v.rateRps} rps for each of ${maxRate / v.rateRps} models)` : '';
      const message = `sends ${peakRate === maxRate ? '' : 'up to '}${Math.round(peakRate * v.durationS)} requests at ${peakRate} rps${perModel}; at most ${SERVING_LIMITS.requests}`;
      for (const path of [['serving', 'durationS'], ...peakRateFields(v)]) ctx.addIssue({ code: 'custom', path, message });
    }
    v.models.forEach((m, i) => {
      const at = ['serving', 'models', i];
      if (m.serviceToS !== undefined && m.serviceToS !== null && !(m.serviceToS > (m.serviceFromS ?? 0))) {
        ctx.addIssue({ code: 'custom', path: [...at, 'serviceToS'], message: 'must be after serviceFromS (or null)' });
        if (m.serviceFromS !== undefined) ctx.addIssue({ code: 'custom', path: [...at, 'serviceFromS'], message: `must be before serviceToS (${m.serviceToS})` });
      }
      if (m.classes !== undefined && !m.classes.some((c) => c.weight > 0)) {
        m.classes.forEach((_, k) => ctx.addIssue({ code: 'custom', path: [...at, 'classes', k, 'weight'], message: 'must be above 0 for at least one class' }));
      }
      const r = m.rate;
      if (r === undefined) return;
      const increasing = (times: readonly number[], key: string, field: string): void => {
        times.forEach((t, j) => {
          if (j === 0 || t > times[j - 1]!) return;
          ctx.addIssue({ code: 'custom', path: [...at, 'rate', key, j, field], message: `must be after the previous ${field} (${times[j - 1]})` });
          ctx.addIssue({ code: 'custom', path: [...at, 'rate', key, j - 1, field], message: `must be before the next ${field} (${t})` });
        });
      };
      if (r.kind === 'steps') increasing(r.steps.map((x) => x.fromS), 'steps', 'fromS');
      if (r.kind === 'linear') increasing(r.points.map((x) => x.atS), 'points', 'atS');
      if (r.kind === 'sine' && r.amplitudeRps > r.meanRps) {
        ctx.addIssue({ code: 'custom', path: [...at, 'rate', 'amplitudeRps'], message: `must be at most meanRps (${r.meanRps}) so that the rate stays ≥ 0` });
        ctx.addIssue({ code: 'custom', path: [...at, 'rate', 'meanRps'], message: `must be at least amplitudeRps (${r.amplitudeRps}) so that the rate stays ≥ 0` });
      }
    });
    if (v.trace !== undefined) {
      const listed = new Map(v.models.map((m) => [m.model, m]));
      let last = Number.NEGATIVE_INFINITY;
      let lastAt = -1;
      let reported = 0;
      v.trace.requests.forEach((r, j) => {
        if (reported >= 10) return;
        const at = ['serving', 'trace', 'requests', j];
        const model = listed.get(r.model);
        const problem = (field: string, message: string, path: (string | number)[] = [...at, field]): void => {
          reported++;
          ctx.addIssue({ code: 'custom', path, message });
        };
        if (r.tS < last) {
          problem('tS', `must not be before the previous request's (${last}): a trace is in send order`);
          problem('tS', `must not be after a later request's (${r.tS}): a trace is in send order`, ['serving', 'trace', 'requests', lastAt, 'tS']);
        }
        if (r.tS >= v.durationS) {
          problem('tS', `must be before the end of the run (${v.durationS} s)`);
          problem('durationS', `must be after every traced request (one is sent at ${r.tS} s)`, ['serving', 'durationS']);
        }
        if (model === undefined) problem('model', `is not one of the scenario's models (${v.models.map((m) => m.model).join(', ')})`);
        else if (r.shapeClass !== undefined && r.shapeClass >= (model.classes?.length ?? 1)) problem('shapeClass', `must be below the number of ${r.model}'s classes (${model.classes?.length ?? 1})`);
        if (r.tS >= last) {
          last = r.tS;
          lastAt = j;
        }
      });
    }
    v.background.forEach((b, i) => {
      if (b.toS !== null && b.toS <= b.fromS) {
        ctx.addIssue({ code: 'custom', path: ['serving', 'background', i, 'toS'], message: 'must be after fromS (or null)' });
        ctx.addIssue({ code: 'custom', path: ['serving', 'background', i, 'fromS'], message: `must be before toS (${b.toS})` });
      }
    });
  });

export type ServingScenario = z.infer<typeof servingScenarioSchema>;

type ServingModelSpec = z.infer<typeof servingModelSchema>;

/**
 * The rate schedule a model is drawn with: its own `rate`, or under `serving.bursts` its
 * weight's share of `rateRps` as on/off bursts (a constant rate at burstiness 1); undefined
 * when it takes its share of the one Poisson stream.
 */
export function modelRateSpec(
  v: RateBlock & { readonly models: readonly ServingModelSpec[]; readonly bursts?: { readonly burstiness: number; readonly meanOnS: number } | undefined },
  m: ServingModelSpec,
): RateScheduleSpec | undefined {
  if (m.rate !== undefined || v.bursts === undefined) return m.rate;
  const totalWeight = v.models.reduce((sum, x) => sum + x.weight, 0);
  const shareRps = (totalRateRps(v) * m.weight) / Math.max(totalWeight, 1e-9);
  const { burstiness, meanOnS } = v.bursts;
  if (burstiness === 1) return { kind: 'constant', rateRps: shareRps };
  return { kind: 'mmpp', onRps: burstiness * shareRps, offRps: 0, meanOnS, meanOffS: meanOnS * (burstiness - 1), startOn: false };
}


/**
 * The fields that set a serving scenario's peak request rate: `rateRps` when some model takes
 * a share of it (and `bursts.burstiness` when bursts multiply that share), and each model's own
 * schedule's highest rate. The request bound names them with `durationS`.
 */
function peakRateFields(v: { readonly models: readonly ServingModelSpec[]; readonly bursts?: unknown }): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (v.models.some((m) => m.rate === undefined)) out.push(['serving', 'rateRps'], ...(v.bursts === undefined ? [] : [['serving', 'bursts', 'burstiness']]));
  v.models.forEach((m, i) => {
    const r = m.rate;
    if (r === undefined) return;
    const at = ['serving', 'models', i, 'rate'];
    const highest = (rates: readonly number[]) => rates.indexOf(Math.max(...rates));
    if (r.kind === 'constant') out.push([...at, 'rateRps']);
    else if (r.kind === 'steps') out.push([...at, 'steps', highest(r.steps.map((x) => x.rateRps)), 'rateRps']);
    else if (r.kind === 'linear') out.push([...at, 'points', highest(r.points.map((x) => x.rateRps)), 'rateRps']);
    else if (r.kind === 'sine') out.push([...at, 'meanRps'], [...at, 'amplitudeRps']);
    else out.push([...at, r.onRps >= r.offRps ? 'onRps' : 'offRps']);
  });
  return out;
}

/** The largest rate a schedule reaches, rps. */
export function schedulePeakRps(r: RateScheduleSpec): number {
  switch (r.kind) {
    case 'constant':
      return r.rateRps;
    case 'steps':
      return Math.max(...r.steps.map((x) => x.rateRps));
    case 'linear':
      return Math.max(...r.points.map((x) => x.rateRps));
    case 'sine':
      return r.meanRps + r.amplitudeRps;
    case 'mmpp':
      return Math.max(r.onRps, r.offRps);
  }
}

/** The pipeline world's own block of a scenario (`scenario.pipeline`): model, EPs, lanes, interference, assumptions. */
export type PipelineSpec = PipelineScenario['pipeline'];
export type PipelineLane = PipelineSpec['lanes'][number];
export type InterferenceEventSpec = PipelineSpec['interference']['events'][number];

/** One problem with one field of a scenario. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

export type PipelineScenarioResult = { readonly ok: true; readonly scenario: PipelineScenario } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** A JSON-ish path: `pipeline.lanes[0].params.alpha`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(scenario)' : out;
}

/** A short rendering of a bad value: `1000`, `"abc"`, `null`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Whether the object holding the last key of `path` exists and has that key (undefined: no parent). */
function parentHas(root: unknown, path: readonly PropertyKey[]): boolean | undefined {
  if (path.length === 0) return undefined;
  const parent = valueAt(root, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(parent, path.at(-1)!);
}

/** Runs a schema at a door: never throws, and turns zod's issues into field errors. */
/** Validates `input` against `schema`; field errors as `path: message, got value` (every world's door uses it). */
export function checkWith<T>(schema: z.ZodType<T>, input: unknown): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  let parsed;
  try {
    parsed = schema.safeParse(input);
  } catch (error) {
    // A hostile object (a throwing getter, a proxy) must not escape the door.
    return { ok: false, errors: [{ path: '(scenario)', message: `could not be read: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: FieldError[] = parsed.error.issues.slice(0, 50).map((issue) => {
    if (issue.code === 'custom' && (issue as { params?: { preformatted?: boolean } }).params?.preformatted) {
      const [path, ...rest] = issue.message.split(': ');
      return { path: path ?? '(scenario)', message: rest.join(': ') };
    }
    if (issue.code === 'unrecognized_keys') {
      return { path: formatPath(issue.path), message: `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` };
    }
    const got = valueAt(input, issue.path);
    const missing = got === undefined && parentHas(input, issue.path) === false;
    const message = missing ? (issue.code === 'invalid_type' ? 'is required' : `is required (${issue.message})`) : `${issue.message}, got ${describeValue(got)}`;
    return { path: formatPath(issue.path), message };
  });
  return { ok: false, errors };
}

/**
 * Validates a current-version pipeline scenario (the live lab's). Never throws: every
 * problem comes back as `path: message, got value`, e.g. `pipeline.executionPlaces: must be
 * an integer from 1 to 64, got 1000`.
 */
export function validatePipelineScenario(input: unknown): PipelineScenarioResult {
  return validatePipeline(input);
}
const validatePipeline = validatorOf(pipelineScenarioSchema);

/** Validates a serving-world scenario (BCEdge). Never throws. */
export function validateServingScenario(input: unknown): ValidatedScenario<ServingScenario> {
  return validateServing(input);
}
// The worlds' validators are functions (hoisted): the list of worlds takes them while this module may still be loading.
const validateServing = validatorOf(servingScenarioSchema);

/** What a world's validator gives: the scenario, or every field error. */
export type ValidatedScenario<S> = { ok: true; scenario: S } | { ok: false; errors: readonly FieldError[] };

/**
 * A world's validator from its schema, the one every world uses: the schema, then its sweep's
 * rules (each axis value through the same schema, `checkSweep`). Never throws.
 */
export function validatorOf<S extends { readonly world: string; readonly seed: number }>(schema: z.ZodType<S>): (input: unknown) => ValidatedScenario<S> {
  const errorsOf = (document: unknown): readonly FieldError[] => {
    const base = checkWith(schema, document);
    return base.ok ? [] : base.errors;
  };
  return (input) => {
    const checked = checkWith(schema, input);
    if (!checked.ok) return checked;
    // checkSweep finds the world in the list by the scenario's id: a world's scenario is one of
    // the list's once the world is registered (the queue world of the test tree is added at run time).
    const sweepErrors = checkSweep(checked.value as unknown as AnyScenario, errorsOf);
    return sweepErrors.length > 0 ? { ok: false, errors: sweepErrors } : { ok: true, scenario: checked.value };
  };
}

/** A scenario of any world of the list (`src/worlds/index.ts`). */
export type { AnyScenario } from '../worlds';
export type AnyScenarioResult = { readonly ok: true; readonly scenario: AnyScenario } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Validates a scenario of any world, by its `world` (a document naming no world of the list goes to the first, whose schema names the field). Never throws. */
export function validateAnyScenario(input: unknown): AnyScenarioResult {
  return worldOfDocument(input).validate(input);
}

/** The database a pipeline scenario runs on: its embedded one, or its model's. */
export function scenarioDatabase(pipeline: PipelineSpec, builtIn: (model: PipelineSpec['model']) => LayerTimeDatabase): LayerTimeDatabase {
  if (pipeline.database !== undefined) {
    const checked = validateDatabase(pipeline.database, 'pipeline.database');
    if (checked.ok) return checked.database;
    throw new TypeError('scenario database was not validated');
  }
  if (pipeline.assumptions.database === 'measured') {
    const measured = getMeasuredDatabase(pipeline.model);
    if (measured === undefined) throw new RangeError(`pipeline.assumptions.database: no measured database of ${pipeline.model} is shipped (${MEASURED_MODELS.join(', ')})`);
    return measured;
  }
  return builtIn(pipeline.model);
}

/** Lines `path: message` for people. */
export function formatErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

/** The percentile method a scenario runs with: its `metrics`, or streaming within 0.1 %. */
export function percentileOptionsOf(scenario: { readonly metrics?: { readonly percentiles: PercentileMethod; readonly relativeError?: number | undefined } | undefined }): PercentileOptions {
  return { method: scenario.metrics?.percentiles ?? 'streaming', relativeError: scenario.metrics?.relativeError ?? DEFAULT_PERCENTILE_RELATIVE_ERROR };
}
