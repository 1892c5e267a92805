import { createRng, type Rng } from '../../engine/rng';
import { MODEL_IDS, type ModelId } from '../../engine/serving/models';
import type { ServingScheduler } from '../../engine/serving/scheduler';
import { SERVING_SCHEDULER_STREAM } from '../../engine/serving/simulation';
import type { NumericParameter } from '../pipeline/registry';
import { createDeepRt } from './deeprt';
import { createFixed } from './fixed';
import { createGa } from './ga';

/** What a serving scheduler may be built with besides its parameters. */
export interface ServingSchedulerContext {
  /** The engine stream for schedulers (`SERVING_SCHEDULER_STREAM` of the scenario's seed). */
  readonly rng: Rng;
  /** The run's models, in order (per-model parameters are given by model id). */
  readonly models: readonly ModelId[];
}

/**
 * A per-model parameter name: `batchSize.yolo` sets b for YOLO only (the page's per-model
 * sliders), overriding `batchSize` for that model. Null when `name` is not one.
 */
export function perModelParameter(name: string): { readonly base: string; readonly model: ModelId } | null {
  const dot = name.indexOf('.');
  if (dot <= 0) return null;
  const model = name.slice(dot + 1);
  return (MODEL_IDS as readonly string[]).includes(model) ? { base: name.slice(0, dot), model: model as ModelId } : null;
}

/** One entry of the serving-world registry. */
export interface ServingSchedulerEntry {
  readonly id: ServingSchedulerId;
  readonly label: string;
  /** One sentence for menus and the presets gallery. */
  readonly description: string;
  readonly parameters: readonly NumericParameter[];
  /** Builds the scheduler with validated parameters. */
  create(params: Readonly<Record<string, number>>, context: ServingSchedulerContext): ServingScheduler;
}

export const SERVING_SCHEDULER_IDS = ['fixed', 'deeprt', 'ga'] as const;
export type ServingSchedulerId = (typeof SERVING_SCHEDULER_IDS)[number];

const BATCH: NumericParameter = { name: 'batchSize', label: 'batch size b', min: 1, max: 128, integer: true, default: 8 };
const INSTANCES: NumericParameter = { name: 'instances', label: 'instances m_c', min: 1, max: 8, integer: true, default: 2 };
const MAX_BATCH: NumericParameter = { name: 'maxBatch', label: 'max batch', min: 1, max: 128, integer: true, default: 8 };
const ADMISSION: NumericParameter = { name: 'admission', label: 'admission control (0/1)', min: 0, max: 1, integer: true, default: 1 };
const POPULATION: NumericParameter = { name: 'population', label: 'population', min: 2, max: 64, integer: true, default: 8 };
const EVALUATION: NumericParameter = { name: 'evaluationSlots', label: 'slots per fitness', min: 1, max: 60, integer: true, default: 3 };
const WARMUP: NumericParameter = { name: 'warmupSlots', label: 'warm-up slots', min: 0, max: 10, integer: true, default: 1 };
const MUTATION: NumericParameter = { name: 'mutationRate', label: 'mutation rate', min: 0, max: 1, integer: false, default: 0.2 };
const ELITE: NumericParameter = { name: 'elite', label: 'elite', min: 0, max: 8, integer: true, default: 1 };

const value = (params: Readonly<Record<string, number>>, p: NumericParameter): number => params[p.name] ?? p.default;

/** Every serving scheduler, in menu order. */
export const SERVING_SCHEDULERS: Readonly<Record<ServingSchedulerId, ServingSchedulerEntry>> = {
  fixed: {
    id: 'fixed',
    label: 'Triton (fixed)',
    description: 'Triton’s manual configuration: the same batch size and number of instances for every model, for ever.',
    parameters: [BATCH, INSTANCES],
    create: (params, context) =>
      createFixed({
        batchSize: value(params, BATCH),
        instances: value(params, INSTANCES),
        perModel: context.models.map((model) => ({
          batchSize: params[`${BATCH.name}.${model}`] ?? value(params, BATCH),
          instances: params[`${INSTANCES.name}.${model}`] ?? value(params, INSTANCES),
        })),
      }),
  },
  deeprt: {
    id: 'deeprt',
    label: 'DeepRT',
    description: 'Earliest deadline first over all requests, one batch at a time on the GPU, with admission control.',
    parameters: [MAX_BATCH, ADMISSION],
    create: (params) => createDeepRt({ maxBatch: value(params, MAX_BATCH), admission: value(params, ADMISSION) === 1 }),
  },
  ga: {
    id: 'ga',
    label: 'GA',
    description: 'An online genetic algorithm over each model’s batch size and instances, with the utility as fitness.',
    parameters: [POPULATION, EVALUATION, WARMUP, MUTATION, ELITE],
    create: (params, context) =>
      createGa(
        {
          population: value(params, POPULATION),
          evaluationSlots: value(params, EVALUATION),
          warmupSlots: value(params, WARMUP),
          mutationRate: value(params, MUTATION),
          elite: Math.min(value(params, ELITE), value(params, POPULATION) - 1),
        },
        context.rng,
      ),
  },
};

/** The context a lane's scheduler gets from the scenario's seed. */
export function servingSchedulerContext(seed: number, models: readonly ModelId[] = MODEL_IDS): ServingSchedulerContext {
  return { rng: createRng(seed, SERVING_SCHEDULER_STREAM), models };
}

/** A lane's display name, e.g. "Triton (fixed) b=8 m_c=2". */
export function servingLaneLabel(id: ServingSchedulerId, params: Readonly<Record<string, number>>): string {
  const entry = SERVING_SCHEDULERS[id];
  const shown = entry.parameters.map((p) => `${p.name === 'batchSize' ? 'b' : p.name === 'instances' ? 'm_c' : p.name}=${value(params, p)}`);
  return [entry.label, ...shown].join(' ');
}
