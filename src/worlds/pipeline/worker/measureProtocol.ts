/**
 * What the page and the measure worker say to each other (ARCHITECTURE §2). Expected failures
 * come back as results, not exceptions (ARCHITECTURE §8: only `message` and `stack` survive comlink).
 */
import type { LayerTimeDatabase } from '../engine/profiles/types';
import type { MeasureOptions, MeasureProgress } from '../measure/runner';

export type { MeasureOptions, MeasureProgress };

/** The end of a measurement in the page. */
export type MeasureOutcome =
  | { readonly kind: 'done'; readonly database: LayerTimeDatabase }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly message: string };

/** The measure worker's API. */
export interface MeasureApi {
  /** Measures; `onProgress` (a comlink proxy) is called after every unit. */
  measure(options: MeasureOptions, onProgress: (progress: MeasureProgress) => void): Promise<MeasureOutcome>;
  /** Stops the running measurement after its current unit (and its hogs at once). */
  cancel(): void;
  /** Logical cores the worker sees (the mode → hogs mapping scales with them). */
  cores(): number;
}
