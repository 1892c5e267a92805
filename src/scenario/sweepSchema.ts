import { z } from 'zod';
import { SWEEP_LIMITS } from './sweep';

/** The zod schema of a scenario's `sweep` (sweep.ts holds the rest: bounds, cells, checks). */
const finite = z.number({ error: 'must be a number' }).refine((v) => Number.isFinite(v), { message: 'must be a finite number' });

const axisSchema = z
  .strictObject({
    /** A scenario field, as the schema's messages write it: `pipeline.lanes[0].params.alpha`. */
    path: z.string({ error: 'must be a string' }).min(1, { message: 'must name a scenario field' }).max(SWEEP_LIMITS.pathLength),
    /** The key of this axis in each cell (default: the path's last field). */
    name: z.string({ error: 'must be a string' }).min(1).max(SWEEP_LIMITS.nameLength).optional(),
    values: z
      .array(z.union([finite, z.string().max(100), z.boolean()], { error: 'must be a number, a string or true/false' }))
      .min(1, { message: 'must list at least one value' })
      .max(SWEEP_LIMITS.values, { message: `must list at most ${SWEEP_LIMITS.values} values` })
      .optional(),
    /** A numeric range: from, from + step, … up to and including `to`. */
    range: z.strictObject({ from: finite, to: finite, step: finite.refine((v) => v > 0, { message: 'must be above 0' }) }).optional(),
  })
  .superRefine((axis, ctx) => {
    if ((axis.values === undefined) === (axis.range === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'needs either values (a list) or a range (from, to, step)' });
  });

export const sweepSchema = z.strictObject({
  axes: z.array(axisSchema).min(1, { message: 'must have at least one axis' }).max(SWEEP_LIMITS.axes, { message: `must have at most ${SWEEP_LIMITS.axes} axes` }),
  /** Seeds per axis combination, from the scenario's seed on (the CLI's --seeds overrides it). */
  seeds: z
    .number({ error: 'must be a number' })
    .refine((v) => Number.isInteger(v) && v >= SWEEP_LIMITS.seeds.min && v <= SWEEP_LIMITS.seeds.max, { message: `must be an integer from ${SWEEP_LIMITS.seeds.min} to ${SWEEP_LIMITS.seeds.max}` })
    .optional(),
  /** The summary number the charts show (default: DEFAULT_METRIC of the world). */
  metric: z.string({ error: 'must be a string' }).max(60).optional(),
  /** Lane `a` against lane `b` (indices into the lanes): the difference in % of b, per seed. */
  compare: z.strictObject({ a: z.number().int().min(0), b: z.number().int().min(0) }).optional(),
});

export type Sweep = z.infer<typeof sweepSchema>;
export type SweepAxis = Sweep['axes'][number];
