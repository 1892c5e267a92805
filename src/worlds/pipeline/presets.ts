import type { WorldPreset } from '../../kit/world';
import type { Sweep } from '../../scenario/sweep';
import { DEFAULT_PIPELINE_PRESET, pipeline } from './defaultPreset';
import { PIPELINE_LESSONS } from './lessons';
import type { PipelineScenario, PipelineSpec } from './schema';

/** The pipeline world's presets (ODIN's figures) and its lessons' scenarios; the gallery lists them first. */

/** A preset of the pipeline world. */
export type PipelinePreset = WorldPreset<PipelineScenario>;

const ODIN_GRID = [2, 10, 100];

/** ODIN §4.2's grid: period × duration ∈ {2, 10, 100}² of the random interference. */
const ODIN_PERIOD_DURATION: Sweep = {
  axes: [
    { path: 'pipeline.interference.random.periodQueries', name: 'periodQueries', values: ODIN_GRID },
    { path: 'pipeline.interference.random.durationQueries', name: 'durationQueries', values: ODIN_GRID },
  ],
};

const GRID_LANES: PipelineSpec['lanes'] = [
  { scheduler: 'odin', params: { alpha: 2 } },
  { scheduler: 'odin', params: { alpha: 10 } },
  { scheduler: 'lls' },
  { scheduler: 'optimal' },
  { scheduler: 'static' },
];

function fig5(model: 'vgg16' | 'resnet50'): PipelineScenario {
  return pipeline(
    `ODIN Fig. 5–8: ${model === 'vgg16' ? 'VGG16' : 'ResNet-50'}, period × duration grid`,
    {
      model,
      interference: { random: { enabled: true, periodQueries: 10, durationQueries: 10 }, events: [] },
      lanes: GRID_LANES,
    },
    1,
    ODIN_PERIOD_DURATION,
  );
}

/**
 * Every preset. The paper presets use the default assumptions of ARCHITECTURE §2 (serial trials,
 * literal LLS, buffers of 1, saturated admission, 5 % detection threshold, no hop cost).
 */
const PIPELINE_PRESETS: readonly PipelinePreset[] = [
  DEFAULT_PIPELINE_PRESET,
  {
    id: 'odin-fig1-vgg16',
    figure: 'ODIN Fig. 1',
    description:
      'VGG16, 4 stages; from query 100 EP 4 runs the CNN on 4 cores next to a memBW hog (mode J): static vs evict (3 EPs) vs the exhaustive optimum vs ODIN and LLS.',
    scenario: pipeline('ODIN Fig. 1: interference on stage 4', {
      queries: 1000,
      interference: {
        random: { enabled: false, periodQueries: 10, durationQueries: 10 },
        // The paper does not name the workload of its Figure 1; J is the Table 1 mode that
        // hurts the last stage (conv5 and the memory-bound FC layers) the most.
        events: [{ executionPlace: 3, mode: 'J', fromQuery: 100, toQuery: null }],
      },
      lanes: [{ scheduler: 'static' }, { scheduler: 'evict' }, { scheduler: 'optimal' }, { scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }],
    }),
  },
  {
    id: 'odin-fig3-timeline',
    figure: 'ODIN Fig. 3',
    description: 'VGG16 on 4 EPs; workloads arrive at steps 5, 10, 15 and one leaves at step 20 (one step = 50 queries); ODIN rebalances each time.',
    scenario: pipeline('ODIN Fig. 3: a timeline of arrivals and a departure', {
      queries: 1250,
      interference: {
        random: { enabled: false, periodQueries: 10, durationQueries: 10 },
        events: [
          { executionPlace: 0, mode: 'E', fromQuery: 250, toQuery: 1000 },
          { executionPlace: 2, mode: 'I', fromQuery: 500, toQuery: null },
          { executionPlace: 3, mode: 'J', fromQuery: 750, toQuery: null },
        ],
      },
      lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'optimal' }, { scheduler: 'lls' }, { scheduler: 'static' }],
    }),
  },
  {
    id: 'odin-fig5-vgg16',
    figure: 'ODIN Figs. 5(b), 6(b), 7(b), 8(b)',
    description: 'VGG16, 4 EPs, 4000 queries, random interference over period × duration ∈ {2, 10, 100}²: ODIN α=2, α=10, LLS, optimal, static.',
    scenario: fig5('vgg16'),
  },
  {
    id: 'odin-fig5-resnet50',
    figure: 'ODIN Figs. 5(a), 6(a), 7(a), 8(a)',
    description: 'ResNet-50, 4 EPs, 4000 queries, random interference over period × duration ∈ {2, 10, 100}²: ODIN α=2, α=10, LLS, optimal, static.',
    scenario: fig5('resnet50'),
  },
  {
    id: 'odin-fig9-slo',
    figure: 'ODIN Fig. 9(b)',
    description: 'SLO violations at 5–100 % of peak and of the resource-constrained optimum, VGG16 over the period × duration grid (set model to resnet50 for 9(a)).',
    scenario: pipeline(
      'ODIN Fig. 9: SLO violations',
      {
        interference: { random: { enabled: true, periodQueries: 10, durationQueries: 10 }, events: [] },
        lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }, { scheduler: 'optimal' }],
      },
      1,
      ODIN_PERIOD_DURATION,
    ),
  },
  {
    id: 'odin-fig10-resnet152',
    figure: 'ODIN Fig. 10',
    description: 'ResNet-152 (52 units) on 4 to 52 EPs, period = duration = 10: latency and throughput of ODIN α=10 against the optimum and the peak.',
    scenario: pipeline(
      'ODIN Fig. 10: scalability with ResNet-152',
      {
        model: 'resnet152',
        interference: { random: { enabled: true, periodQueries: 10, durationQueries: 10 }, events: [] },
        lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'optimal' }],
      },
      1,
      { axes: [{ path: 'pipeline.executionPlaces', values: [4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52] }] },
    ),
  },
];

/** The guided lessons' scenarios (teaching mode), runnable from the command line too. */
const LESSON_PRESETS: readonly PipelinePreset[] = PIPELINE_LESSONS.map((l) => ({ id: l.id, figure: 'lesson', description: `${l.title}: ${l.summary}`, scenario: l.scenario }));

/** The pipeline world's presets: the paper's figures, then the lessons' scenarios. */
export const PIPELINE_WORLD_PRESETS: readonly PipelinePreset[] = [...PIPELINE_PRESETS, ...LESSON_PRESETS];

/** The presets the live (pipeline) lab can open. */
export function pipelinePresets(): readonly PipelinePreset[] {
  return PIPELINE_WORLD_PRESETS;
}
