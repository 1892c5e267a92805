/**
 * The scenario's version and bounds, and the page's view options: plain constants that the
 * schema (schema.ts, with zod) enforces and the page's fields and menus read. They sit apart
 * from the schema so that the page's first load does not carry the validator (ARCHITECTURE §7a′).
 */

/**
 * The scenario schema version this build writes. Older versions are migrated on load
 * (parse.ts): version 2 renamed `name` to `title` and added the optional `view`; version 3
 * replaced the fixed grids (`pipeline.grid`, `serving.grid`) by the `sweep` over any field;
 * version 4 named the serving world's readings of BCEdge (absent = the paper's; a version-3
 * serving scenario is given the earlier ones); version 5 named Figs. 11–12's platform setting
 * (`serving.assumptions.platformSetting`; a version-4 serving scenario is given `mixed`);
 * version 6 named the scheduling slot (`slot`: Eq. 1's per model, the paper's, or the fixed
 * one a version-5 serving scenario is given); version 7 named the decision's credit, late
 * requests and the learners' choices (a version-6 scenario is given the earlier ones); version 8
 * gave PPO and DDQN the reward terms SAC had and SAC the paper's minibatch (a version-7 scenario
 * is given its learners' earlier values); version 9 gave the learners' state the last slot's
 * arrivals per second of the slot (a version-8 scenario keeps them per slot); version 10 has a
 * BCEdge lane started from a saved agent wait for `fineTuneAfter` transitions before it learns
 * (a version-9 scenario learns after its warm-up); version 11 raised BCEdge's target entropy
 * from 0.05 to 0.15 of ln|A| (a version-10 scenario keeps 0.05); version 12 has a BCEdge lane
 * started from a saved agent act greedily until it first learns online and, under the fixed
 * slot, start from the agent trained under it (a version-11 scenario samples from the first
 * decision and starts from the Eq. 1 agent).
 */
export const SCENARIO_VERSION = 12;

/** Bounds that keep a shared scenario from hanging or exhausting the page (ARCHITECTURE §7). */
export const PIPELINE_LIMITS = {
  executionPlaces: { min: 1, max: 64 },
  queries: { min: 1, max: 10_000_000 },
  events: 10_000,
  lanes: 8,
  gridValues: 64,
  periodQueries: { min: 1, max: 1_000_000 },
  durationQueries: { min: 1, max: 1_000_000 },
  bufferCapacity: { min: 0, max: 1_000_000 },
  detectionThreshold: { min: 0.0001, max: 10 },
  hopMs: { min: 0, max: 10_000 },
  /** The monitor's window, queries (assumptions.detectionWindow). */
  detectionWindow: { min: 1, max: 1000 },
  /** ε of ODIN's "better" (assumptions.betterTolerance). */
  betterTolerance: { min: 0, max: 0.5 },
  rateQps: { min: 0.001, max: 1_000_000 },
  /** Poisson admission at a share of the interference-free peak throughput. */
  shareOfPeak: { min: 0.01, max: 10 },
  seed: { min: 0, max: 0xffffffff },
  nameLength: 200,
  hiddenControls: 32,
  /** Streaming percentiles' relative error bound: 0.001 % to 10 %. */
  percentileRelativeError: { min: 0.00001, max: 0.1 },
} as const;

/** Parts of the page a classroom link can hide (ARCHITECTURE §7c). */
export const HIDEABLE_CONTROLS = ['playback', 'palette', 'lanes', 'scenario', 'assumptions', 'events', 'charts', 'links', 'algorithm', 'timeline', 'lessons'] as const;
export type HideableControl = (typeof HIDEABLE_CONTROLS)[number];

/**
 * Bounds of the moment a link reopens at (`view.at`, ARCHITECTURE §4): a position in queries
 * served (pipeline) or simulated ms (serving), an algorithm step, a lesson's step.
 */
export const MOMENT_LIMITS = {
  position: { min: 0, max: 1_000_000_000 },
  algorithmStep: { min: 0, max: 1_000_000 },
  lessonStep: { min: 0, max: 1_000 },
  lessonIdLength: 100,
} as const;

/** How the page presents a scenario: normal, large-type high-contrast, or chrome-less for an iframe. */
export const VIEW_MODES = ['normal', 'presentation', 'embed'] as const;

/** Bounds of the serving world's fields. */
export const SERVING_LIMITS = {
  rateRps: { min: 0.1, max: 10_000 },
  /**
   * The lab's rate slider, rps (a model): the papers' rates, 10–90 rps a model in BCEdge
   * Figs. 8–9 and 15 and the microphone's 120 rps bursts; a scenario's own rate outside it
   * widens it (ServingLab.tsx).
   */
  rateSlider: { min: 5, max: 120, step: 5 },
  durationS: { min: 1, max: 100_000 },
  /** rate × duration: requests a run may send. */
  requests: 10_000_000,
  background: 1_000,
  sloMs: { min: 1, max: 100_000 },
  /** Steps or points of one rate schedule. */
  schedulePoints: 1_000,
  /** Input-shape classes per model. */
  classes: 8,
  classScale: { min: 0.01, max: 64 },
  /** Requests of a replayed trace in a scenario (a file; a link holds far fewer, see servingTrace.ts). */
  traceRequests: 200_000,
  interferenceNoise: { min: 0, max: 2 },
  /** Requests in flight per model under a closed loop. */
  closedLoopOutstanding: 100_000,
  /** A closed loop's run, s (it sends as fast as the device serves). */
  closedLoopDurationS: 3600,
  /** Every scheduler and the three reference lanes side by side. */
  lanes: 10,
} as const;

/** Bounds that keep a shared sweep from hanging the page or a machine (ARCHITECTURE §4, sweeps; §7, bad input). */
export const SWEEP_LIMITS = {
  axes: 4,
  /** Values of one axis (a list, or a range's expansion). */
  values: 64,
  /** Axis combinations × seeds. */
  cells: 20_000,
  seeds: { min: 1, max: 1000 },
  pathLength: 200,
  nameLength: 60,
} as const;
