import { z } from 'zod';
import type { PercentileMethod } from '../engine/quantiles';
import { int, num } from './fieldBounds';
import { HIDEABLE_CONTROLS, MOMENT_LIMITS, PIPELINE_LIMITS, SCENARIO_VERSION, VIEW_MODES } from './limits';
import { sweepSchema } from './sweepSchema';

/**
 * What every world's scenario has around its body (ARCHITECTURE §4, §7b): the envelope and the
 * small pieces each world's schema is built with. It asks no world and not the list, so a
 * world's schema can be built while the list is still loading.
 */

export const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
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
 * queue world, src/worlds/queue/, too): `head` (version, world, title, seed) comes before the
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
export function checkMomentLane(view: { readonly at?: { readonly lane?: number | undefined } | undefined } | undefined, lanes: number, ctx: z.RefinementCtx): void {
  const lane = view?.at?.lane;
  if (lane !== undefined && lane >= lanes) ctx.addIssue({ code: 'custom', path: ['view', 'at', 'lane'], message: `must be below the number of lanes (${lanes})` });
}
