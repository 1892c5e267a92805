import type { Speed } from '../worker/liveProtocol';

/**
 * The stores' constants (ARCHITECTURE §1, step 3): for every lab, the history limit, the
 * publish cadence and the frames-per-second window; per world, the lab's speeds and the speed
 * it starts at. Not every speed of the page is here: the serving lab's speed menu
 * (`worlds/serving/ui/ServingLab.tsx`) keeps its own copy of `SERVING_SPEEDS`, and each world's worker
 * has its own starting speed (`initialSpeed` in `pipelineSession.ts`, `servingSession.ts`: the
 * values of `DEFAULT_SPEED`) and the speeds it accepts (`PIPELINE_SPEED_LIMITS` in `pipelineProtocol.ts`,
 * `SERVING_SPEED_LIMITS` in `servingProtocol.ts`). The worker's other constants (the point
 * budget `SERIES_MAX_POINTS` and the frame cadence in `liveLoop.ts`, the time line's marker cap
 * `PIPELINE_TIMELINE_MARKERS` in `pipelineProtocol.ts`) are in `src/worker/` too.
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

/** How long the Explore view keeps an idle pool's workers warm for the next sweep, ms. */
export const POOL_IDLE_MS = 60_000;
