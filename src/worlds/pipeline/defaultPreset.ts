/**
 * The scenario the pipeline lab opens on, apart from the other presets (`presets.ts`), so that
 * the page's first load carries one scenario and not the gallery, the lessons and the serving
 * world's presets (ARCHITECTURE §7a′). `presets.ts` lists it first.
 */
import { DEFAULT_PIPELINE_ASSUMPTIONS } from './engine/assumptions';
import { SCENARIO_VERSION } from '../../scenario/limits';
import type { WorldPreset } from '../../kit/world';
import type { PipelineScenario, PipelineSpec } from './schema';
import type { Sweep } from '../../scenario/sweep';

/** A pipeline preset's scenario: the paper's defaults (VGG16 on 4 EPs, ODIN α=10, LLS, optimal, static) with `overrides`. */
export function pipeline(title: string, overrides: Partial<PipelineSpec>, seed = 1, sweep?: Sweep): PipelineScenario {
  return {
    version: SCENARIO_VERSION,
    world: 'pipeline',
    title,
    seed,
    ...(sweep === undefined ? {} : { sweep }),
    pipeline: {
      model: 'vgg16',
      executionPlaces: 4,
      queries: 4000,
      interference: { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: [] },
      assumptions: DEFAULT_PIPELINE_ASSUMPTIONS,
      lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }, { scheduler: 'optimal' }, { scheduler: 'static' }],
      ...overrides,
    },
  };
}

/** The lab's first impression (not a paper figure). */
export const DEFAULT_PIPELINE_PRESET: WorldPreset<PipelineScenario> = {
  id: 'default',
  figure: '',
  description:
    'VGG16 on 4 EPs; a memBW hog lands on EP 2 at query 150 and leaves at 450. ODIN α=10, LLS, optimal, static. The monitor watches every stage, so the pipeline also recovers when the hog leaves.',
  scenario: pipeline('A memory-bandwidth hog visits EP 2', {
    queries: 2000,
    // Not a paper preset: with the paper's bottleneck-only monitor (§3.1) the departure of
    // a hog from a stage that is no longer the bottleneck goes unseen, and a newcomer would
    // see no recovery; `anyStage` shows both halves of the story. The assumptions panel says so.
    assumptions: { ...DEFAULT_PIPELINE_ASSUMPTIONS, detectionSignal: 'anyStage' },
    interference: {
      random: { enabled: false, periodQueries: 10, durationQueries: 10 },
      events: [{ executionPlace: 1, mode: 'E', fromQuery: 150, toQuery: 450 }],
    },
  }),
};

/** The scenario the lab opens on. */
export function defaultPipelineScenario(): PipelineScenario {
  return structuredClone(DEFAULT_PIPELINE_PRESET.scenario) as PipelineScenario;
}
