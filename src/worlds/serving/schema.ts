import { z } from 'zod';
import { MODEL_IDS as SERVING_MODEL_IDS } from './engine/models';
import { PLATFORM_IDS } from './engine/platforms';
import { LATENCY_PROFILE_IDS, type LatencyProfileId } from './engine/models';
import { totalRateRps, type RateBlock } from './scenario/servingReadings';
import { perModelParameter, SERVING_SCHEDULER_IDS, SERVING_SCHEDULERS } from './schedulers/registry';
import { above, boundsOf, int, num, withParameters } from '../../scenario/fieldBounds';
import { SERVING_LIMITS } from '../../scenario/limits';
import { validatorOf, type ValidatedScenario } from '../../scenario/schema';
import { checkMomentLane, oneOf, scenarioEnvelope } from '../../scenario/envelope';

export { totalRateRps } from './scenario/servingReadings';

/**
 * The serving world's block of a scenario (BCEdge): the device, the models and their rates, the
 * tenants, the lanes and the readings, inside the envelope every world's scenario has
 * (`scenarioEnvelope`, src/scenario/schema.ts), and its validator.
 */

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


/** Validates a serving-world scenario (BCEdge). Never throws. */
export function validateServingScenario(input: unknown): ValidatedScenario<ServingScenario> {
  return validateServing(input);
}
const validateServing = validatorOf(servingScenarioSchema);
