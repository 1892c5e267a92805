import type { WorldPreset } from '../kit/world';
import { worlds } from '../kit/worlds';
import type { AnyScenario } from './schema';

/** A named scenario that reproduces a figure of a paper, or the lab's first impression (each world declares its own: `World.presets`). */
export type Preset = WorldPreset<AnyScenario>;

/** Every preset, in the list's order of worlds: the CLI's `presets` and the gallery list these. */
export function allPresets(): readonly Preset[] {
  return worlds().flatMap((w) => w.presets());
}

/** The preset with this id, or undefined. */
export function findPreset(id: string): Preset | undefined {
  return allPresets().find((p) => p.id === id);
}
