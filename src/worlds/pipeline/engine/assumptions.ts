/**
 * The modelling choices the ODIN paper leaves open (ARCHITECTURE §2). Each is a named scenario
 * parameter with a documented default, reported with every result, because whether ODIN
 * beats LLS turns on them.
 */
/** How queries enter the pipeline (see `PipelineAssumptions.admission`). */
export type PipelineAdmission =
  | { readonly kind: 'saturated' }
  | { readonly kind: 'poisson'; readonly rateQps: number }
  | { readonly kind: 'poissonShare'; readonly shareOfPeak: number };

export interface PipelineAssumptions {
  /**
   * What a trial configuration costs during rebalancing:
   * - `serial` (default, ODIN §4.2): the pipeline drains, then each trial is one query
   *   processed alone through all stages;
   * - `pipelined`: each trial configuration serves one query in the normal pipelined flow;
   * - `free`: an oracle's view, trials are evaluated on the database at no cost.
   */
  readonly trialCost: 'serial' | 'pipelined' | 'free';
  /** How LLS's utilization formula is read (ODIN §3.3): see `LlsReading`. */
  readonly llsReading: 'literal' | 'repaired';
  /** Queries that may wait between two consecutive stages (blocking after service). */
  readonly bufferCapacity: number;
  /**
   * Closed loop (`saturated`: a query is always waiting, ODIN §4.2's setting), Poisson
   * arrivals at a rate (`poisson`), or Poisson arrivals at a share of the pipeline's
   * interference-free peak throughput (`poissonShare`: one reading that loads every model
   * alike, so a sweep over models keeps the same load; the claims' admission reading).
   */
  readonly admission: PipelineAdmission;
  /** Relative change that triggers rebalancing (ODIN §3.1), as a fraction of the slowest stage's time. */
  readonly detectionThreshold: number;
  /**
   * What the monitor watches:
   * - `bottleneck` (default, ODIN §3.1: "scan for changes in the performance of the slowest
   *   pipeline stage"): the slowest stage's time against its value at the last
   *   reconfiguration. Interference that leaves a stage which is no longer the bottleneck
   *   goes unnoticed, so the pipeline keeps a configuration made for interference that is gone;
   * - `anyStage`: any stage's time against its own value at the last reconfiguration.
   */
  readonly detectionSignal: 'bottleneck' | 'anyStage';
  /** Time to hand activations to the next stage, added to each non-empty stage but the last EP, ms. */
  readonly hopMs: number;
  /**
   * How random interference events overlap (see `InterferenceOverlap`); absent: `stack`, the
   * behaviour before this was a named choice, so every existing scenario keeps its numbers.
   */
  readonly interferenceOverlap?: InterferenceOverlap | undefined;
  /**
   * Which queries the headline latency figures (latencyMeanMs, P50, P99 and the configuration
   * view's latency) count; absent: `all`.
   * The summaries always report trial and normal queries' mean latency apart as well.
   */
  readonly latencyQueries?: LatencyQueries | undefined;
  /**
   * Which layer-time database a scenario without an embedded one runs on: `roofline` (absent:
   * the derived databases of profiles/databases.ts) or `measured` (the one shipped in
   * profiles/measured/ for the model, measured on one machine by the measure command; the claims'
   * database reading, ARCHITECTURE §4a). An embedded `pipeline.database` is used as it is.
   */
  readonly database?: 'roofline' | 'measured' | undefined;
  /**
   * Where the monitor's reference comes from after a rebalancing (ODIN §3.1 says only "at the
   * last reconfiguration"): `first` (absent) takes what the installed configuration was last
   * seen doing — a serial trial's stage times, or the first query after an unobserved
   * install; `steady` takes the configuration's own pipelined queries (the mean of the first
   * `detectionWindow`), like for like: a stage that ran alone in a serial trial is faster
   * than beside the others, so a reference from it fires on the next pipelined queries.
   */
  readonly monitorReference?: 'first' | 'steady' | undefined;
  /**
   * Queries the monitor decides on (absent: 1, the single-sample rule): it compares the mean
   * stage times of the last `detectionWindow` normal queries with the reference, so one
   * query's noise does not fire it. The paper is silent (§3.1: "scan for changes").
   */
  readonly detectionWindow?: number | undefined;
  /**
   * ε of ODIN's "better" (Algorithm 1, lines 23–32; absent: 0): a trial improves only when its
   * bottleneck is below (1 − ε) of the best so far; one within that band counts as not
   * improving (γ grows), so measurement noise does not keep the exploration going.
   */
  readonly betterTolerance?: number | undefined;
}

/**
 * How a random interference event that lands on an EP which already hosts a workload is
 * treated. ODIN §4.1 only says "we randomly select an interference scenario for an execution
 * place", and §4.2 that interference comes every period (2, 10, 100 queries) and lasts a
 * duration (2, 10, 100 queries); when the period is shorter than the duration, events overlap
 * and the paper does not say how:
 * - `stack`: events pile up; an EP shows the most recently started one still active, and
 *   the older one shows again when it ends (at period 2 × duration 100 about fifty are active);
 * - `onePerEp`: at most one workload per EP: an event drawn for a busy EP is not started;
 * - `replace`: the new workload replaces the one on that EP (which then ends for good).
 *   With random events only, all of one duration, the newest event on an EP always ends last,
 *   so `replace` gives the same modes as `stack`; it differs where explicit events overlap them.
 * Every reading draws the same EP and mode from the trace's random stream, so the readings
 * differ only in what they do with a draw.
 */
export type InterferenceOverlap = 'stack' | 'onePerEp' | 'replace';

/**
 * Which queries the headline latency counts. In the closed loop a serial trial query skips
 * the queue (the pipeline has drained), so a scheduler that spends many queries on trials
 * looks faster than the optimum by this measure:
 * - `all`: every query, trials included (the behaviour before this was a named choice);
 * - `normal`: only queries served by an installed configuration (trials reported apart).
 */
export type LatencyQueries = 'all' | 'normal';

/** The defaults, used by the paper presets (ARCHITECTURE §2). */
export const DEFAULT_PIPELINE_ASSUMPTIONS: PipelineAssumptions = {
  trialCost: 'serial',
  llsReading: 'literal',
  bufferCapacity: 1,
  admission: { kind: 'saturated' },
  detectionThreshold: 0.05,
  detectionSignal: 'bottleneck',
  hopMs: 0,
};

/** A buffer at least this large never blocks. */
export const UNBOUNDED_BUFFER = 1_000_000;
