import { PIPELINE_WORLD_PRESETS } from '../worlds/pipeline/presets';
import { SERVING_PRESETS } from '../worlds/serving/presets';
import type { AnyScenario } from './schema';

/** A named scenario that reproduces a figure of a paper, or the lab's first impression. */
export interface Preset {
  readonly id: string;
  /** The paper figure it reproduces, e.g. "ODIN Fig. 5(b)"; empty for the lab's own. */
  readonly figure: string;
  /** One line for the gallery and `npm run sim -- presets`. */
  readonly description: string;
  readonly scenario: AnyScenario;
}

/** Every preset, pipeline world first: the CLI's `presets` and the gallery list these. */
export const PRESETS: readonly Preset[] = [...PIPELINE_WORLD_PRESETS, ...SERVING_PRESETS];

/** The preset with this id, or undefined. */
export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
