import { z } from 'zod';
import { validateDatabase } from './engine/profiles/validate';
import { getMeasuredDatabase, MEASURED_MODELS } from './engine/profiles/measured';
import { MODE_IDS, MODEL_IDS, type LayerTimeDatabase, type ModeId } from './engine/profiles/types';
import { PIPELINE_SCHEDULER_IDS, PIPELINE_SCHEDULERS } from './schedulers/registry';
import { boundsOf, int, num, withParameters } from '../../scenario/fieldBounds';
import { PIPELINE_LIMITS } from '../../scenario/limits';
import { validatorOf, type FieldError } from '../../scenario/schema';
import { checkMomentLane, oneOf, scenarioEnvelope } from '../../scenario/envelope';

/**
 * The pipeline world's block of a scenario (ODIN): the model, its execution places, the
 * interference, the lanes and the modelling assumptions, inside the envelope every world's
 * scenario has (`scenarioEnvelope`, src/scenario/schema.ts), and its validator.
 */

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
      stageSpikeShare: num(0, 0.5).optional(),
      stageSpikeFactor: num(1, 20).optional(),
      pipelinedFactor: num(0.1, 100),
      stageFactors: z.array(num(0.1, 100)).max(PIPELINE_LIMITS.executionPlaces.max).optional(),
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
    const factors = p.machine?.stageFactors;
    if (factors !== undefined && factors.length !== minEps) {
      ctx.addIssue({ code: 'custom', path: ['pipeline', 'machine', 'stageFactors'], message: `must hold one factor per execution place (${minEps})` });
      ctx.addIssue({ code: 'custom', path: ['pipeline', 'executionPlaces'], message: `must match the machine's stage factors (${factors.length})` });
    }
    if ((p.machine?.stageSpikeShare ?? 0) > 0 && p.machine?.stageSpikeFactor === undefined) {
      ctx.addIssue({ code: 'custom', path: ['pipeline', 'machine', 'stageSpikeFactor'], message: 'a spike’s stage time over a typical one, needed with stageSpikeShare' });
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


/** The pipeline world's own block of a scenario (`scenario.pipeline`): model, EPs, lanes, interference, assumptions. */
export type PipelineSpec = PipelineScenario['pipeline'];
export type PipelineLane = PipelineSpec['lanes'][number];
export type InterferenceEventSpec = PipelineSpec['interference']['events'][number];


export type PipelineScenarioResult = { readonly ok: true; readonly scenario: PipelineScenario } | { readonly ok: false; readonly errors: readonly FieldError[] };


/**
 * Validates a current-version pipeline scenario (the live lab's). Never throws: every
 * problem comes back as `path: message, got value`, e.g. `pipeline.executionPlaces: must be
 * an integer from 1 to 64, got 1000`.
 */
export function validatePipelineScenario(input: unknown): PipelineScenarioResult {
  return validatePipeline(input);
}
const validatePipeline = validatorOf(pipelineScenarioSchema);


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
