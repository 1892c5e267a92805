import type { Speed } from '../worker/protocol';

/**
 * The stores' constants, each defined once for both worlds (issue 12). The worker's own
 * (the point budget `SERIES_MAX_POINTS`, the frame cadence, the time line's marker cap) live
 * beside its loop in `src/worker/`.
 */

/** At most this many scenarios are kept for undo (each lab's history). */
export const HISTORY_LIMIT = 100;

/** How often a computation's progress reaches the view while it runs (Explore's sweep, a Claims row), ms. */
export const PUBLISH_EVERY_MS = 100;

/** The window over which frames are counted for `framesPerSecond`, ms. */
export const FPS_WINDOW_MS = 1000;

/** Speeds the pipeline lab offers, slowest first: queries served per wall-clock second (1× = 1 query per second). */
export const PIPELINE_SPEEDS: readonly Speed[] = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 1000, 10_000, 100_000, 'max'];

/** Speeds the serving lab offers, slowest first: simulated seconds per wall-clock second. */
export const SERVING_SPEEDS: readonly Speed[] = [1, 2, 5, 10, 30, 100, 300, 1000, 'max'];

/** The speed each lab starts at. */
export const DEFAULT_SPEED = { pipeline: 60, serving: 10 } as const satisfies Record<string, Speed>;
