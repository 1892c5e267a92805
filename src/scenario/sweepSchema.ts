import { z } from 'zod';
import { above, boundedByField, int } from './fieldBounds';
import { PIPELINE_LIMITS, SERVING_LIMITS, SWEEP_LIMITS } from './limits';

/**
 * The zod schema of a scenario's `sweep` (sweep.ts holds the rest: bounds, cells, checks).
 * An axis's values and its range's first value are bounded by the field it sweeps (checkSweep
 * validates each value as that field), which is what fieldBounds.ts records for them.
 */
const finite = boundedByField(
  z.number({ error: 'must be a number' }).refine((v) => Number.isFinite(v), { message: 'must be a finite number' }),
  { pathField: 'path', up: 2 },
);
/** A range's end: any finite number (its values, from `from` by `step`, are what the swept field checks). */
const end = z.number({ error: 'must be a number' }).refine((v) => Number.isFinite(v), { message: 'must be a finite number' });
/** A lane index: below the number of lanes, which checkSweep checks against the scenario's. */
const laneIndex = int(0, Math.max(PIPELINE_LIMITS.lanes, SERVING_LIMITS.lanes) - 1);

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
    range: z.strictObject({ from: finite, to: end, step: above(0, Number.MAX_VALUE) }).optional(),
  })
  .superRefine((axis, ctx) => {
    if ((axis.values === undefined) === (axis.range === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'needs either values (a list) or a range (from, to, step)' });
  });

export const sweepSchema = z.strictObject({
  axes: z.array(axisSchema).min(1, { message: 'must have at least one axis' }).max(SWEEP_LIMITS.axes, { message: `must have at most ${SWEEP_LIMITS.axes} axes` }),
  /** Seeds per axis combination, from the scenario's seed on (the CLI's --seeds overrides it). */
  seeds: int(SWEEP_LIMITS.seeds.min, SWEEP_LIMITS.seeds.max).optional(),
  /** The summary number the charts show (default: DEFAULT_METRIC of the world). */
  metric: z.string({ error: 'must be a string' }).max(60).optional(),
  /** Lane `a` against lane `b` (indices into the lanes): the difference in % of b, per seed. */
  compare: z.strictObject({ a: laneIndex, b: laneIndex }).optional(),
});

export type Sweep = z.infer<typeof sweepSchema>;
export type SweepAxis = Sweep['axes'][number];
