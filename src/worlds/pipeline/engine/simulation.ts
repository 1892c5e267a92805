import { createRng, type Rng } from '../../../engine/rng';
import type { PipelineAssumptions } from './assumptions';
import { UNBOUNDED_BUFFER } from './assumptions';
import { configurationKey, isValidConfiguration, type Configuration } from './configuration';
import { InterferenceTimeline, type InterferenceEvent, type InterferenceSnapshot, type RandomInterference } from './interference';
import { PipelineMetrics, type PipelineMetricsSnapshot, type PipelineSummary } from './metrics';
import { OptimumCache } from './partition';
import type { PipelineScheduler, RebalanceContext, Rebalancing } from './scheduler';
import { createRngFromState } from '../../../engine/rng';
import { computeStageTimes, type CompiledDatabase } from './stageTimes';
import { MachineModel, type PipelineMachine } from './machine';
import { StageMonitor, type MonitorWindowState } from './monitor';
import type { PercentileOptions } from '../../../engine/quantiles';

/** Everything one lane needs; lanes of a scenario differ only in their scheduler. */
export interface PipelineRunSpec {
  readonly database: CompiledDatabase;
  readonly executionPlaces: number;
  /** Queries to serve, trial queries included (ODIN §4.2: a window of 4000). */
  readonly queries: number;
  readonly seed: number;
  readonly events: readonly InterferenceEvent[];
  readonly random: RandomInterference | null;
  readonly assumptions: PipelineAssumptions;
  /** Starting configuration; default: the interference-free optimum (ODIN §3.1). */
  readonly initialConfiguration?: Configuration;
  /** Optima shared by lanes on the same trace (one is made when absent). */
  readonly optimumCache?: OptimumCache;
  /** Latency samples kept for percentiles before sampling starts (default: all). */
  readonly latencySampleCap?: number;
  /** How percentiles are computed (default: exact samples; scenarios default to streaming). */
  readonly percentiles?: PercentileOptions;
  /** The machine beyond the database (machine.ts; absent: the paper's ideal machine). */
  readonly machine?: PipelineMachine;
}

/** RNG stream of the Poisson arrival process. */
export const ARRIVAL_STREAM = 2;

/** What happened to the query just served, for the live views and the tests. */
export interface QueryRecord {
  readonly query: number;
  /** `normal`, a query already admitted when a rebalancing began (`inflight`), or a `trial`. */
  readonly kind: 'normal' | 'inflight' | 'trial';
  readonly arrivalMs: number;
  readonly completionMs: number;
  readonly configuration: Configuration;
  readonly stageTimesMs: Float64Array;
  readonly bottleneckMs: number;
  readonly optimalBottleneckMs: number;
  readonly modes: Uint8Array;
  /** The monitor fired on this query. */
  readonly detected: boolean;
  /** A configuration was installed after this query. */
  readonly installed: boolean;
}

const enum Phase {
  Normal,
  Draining,
  Trial,
}

/**
 * A checkpoint of one lane: everything `PipelineRun` needs to go on exactly as it would
 * have from that query. A rebalancing in progress is a generator, which cannot be copied,
 * so it is kept as what it was given (the context and every observation fed to it) and
 * rebuilt on restore by replaying them: schedulers are deterministic.
 */
export interface PipelineRunSnapshot {
  readonly q: number;
  readonly assumptions: PipelineAssumptions;
  readonly arrivals: Uint32Array | null;
  readonly scalars: Float64Array;
  readonly free: Float64Array;
  readonly departures: Float64Array;
  readonly ringHead: Int32Array;
  readonly referenceTimes: Float64Array;
  /** The monitor's window (absent in checkpoints taken before it existed: an empty window). */
  readonly monitorWindow?: MonitorWindowState;
  /** The machine's noise stream and last query (absent without a machine). */
  readonly machine?: { readonly rng: Uint32Array; readonly spare: number; readonly lastServedConfig: Int32Array | null; readonly lastModes: Uint8Array };
  readonly installed: Configuration;
  readonly trialConfiguration: Configuration | null;
  readonly pendingInstall: Configuration | null;
  readonly phaseObservations: ReadonlyMap<string, Float64Array>;
  readonly rebalancing: { readonly context: RebalanceContext; readonly fed: readonly Float64Array[]; readonly parameters: Readonly<Record<string, number>> } | null;
  readonly parameters: Readonly<Record<string, number>>;
  readonly metrics: PipelineMetricsSnapshot;
  readonly timeline: InterferenceSnapshot;
}

/**
 * One lane of the pipeline world (ARCHITECTURE §2): queries flow through N stages bound to N EPs
 * as discrete events with blocking buffers between stages. Because the pipeline is FIFO,
 * each query's start and departure times at every stage follow from the previous queries'
 * by the max-plus recurrence of a tandem queue with blocking after service:
 *   start_i(q) = max(departure_{i−1}(q), departure_i(q−1))
 *   departure_i(q) = max(start_i(q) + t_i(q), departure_{i+1}(q − b − 1))
 * (b = buffer capacity: stage i+1 and its buffer hold at most b+1 queries)
 * so a query costs O(N) with no event heap (`eventSimulation.ts` is the event-queue
 * version; tests check the two agree to the bit). Empty stages are bypassed.
 */
export class PipelineRun {
  readonly metrics: PipelineMetrics;
  readonly timeline: InterferenceTimeline;
  private readonly n: number;
  private readonly db: CompiledDatabase;
  private a: PipelineAssumptions;
  private readonly buffer: number;
  private arrivals: Rng | null;
  private readonly meanGapMs: number;
  /** Departure time of the previous query from each stage. */
  private readonly free: Float64Array;
  /** Per stage, ring of the last b+1 departure times (for the blocking rule). */
  private readonly departures: Float64Array;
  private readonly ringHead: Int32Array;
  private readonly ring: number;
  private readonly blocking: boolean;
  private readonly times: Float64Array;
  /**
   * The installed configuration whose stage times `times` holds (with `timesBottleneckMs` and
   * `timesConfigLatencyMs`, their max and sum), under the modes in force; null once anything
   * they depend on changed (the modes, the assumptions, a restore). A configuration is never
   * changed in place (a new one is a new array), so the same array under the same modes has
   * the same stage times: a static run computes them once instead of once per query.
   */
  private timesConfig: Configuration | null = null;
  private timesBottleneckMs = 0;
  private timesConfigLatencyMs = 0;
  private readonly optima: OptimumCache;
  private readonly optimum = (modes: Uint8Array) => this.optima.get(modes);
  private installed: Configuration;
  private trialConfiguration: Configuration | null = null;
  private pendingInstall: Configuration | null = null;
  private rebalancing: Rebalancing | null = null;
  /** What the rebalancing in progress was given, to rebuild it on restore. */
  private phaseContext: RebalanceContext | null = null;
  private phaseFed: Float64Array[] = [];
  private phaseParameters: Readonly<Record<string, number>> = {};
  private phase = Phase.Normal;
  private detectTimeMs = 0;
  private detectQuery = 0;
  /** Stage times observed for each configuration tried in the current phase. */
  private phaseObservations = new Map<string, Float64Array>();
  /** The monitor (ODIN §3.1): the stage times at the last reconfiguration. */
  private readonly monitor: StageMonitor;
  private optimalBottleneckMs: number;
  private lastArrivalMs = 0;
  private lastCompletionMs = 0;
  private q = 0;
  /** The machine (null: the ideal one) and what it needs from query to query. */
  private readonly machine: MachineModel | null;
  private readonly machineTimes: Float64Array;
  /** The configuration and modes of the last query served (a move, a hog start). */
  private lastServedConfig: Int32Array | null = null;
  private readonly lastModes: Uint8Array;

  constructor(
    private readonly spec: PipelineRunSpec,
    private readonly scheduler: PipelineScheduler,
  ) {
    const n = spec.executionPlaces;
    this.n = n;
    this.db = spec.database;
    this.a = spec.assumptions;
    this.buffer = Math.min(spec.assumptions.bufferCapacity, UNBOUNDED_BUFFER);
    this.timeline = new InterferenceTimeline(n, spec.events, spec.random, spec.seed);
    this.free = new Float64Array(n);
    this.blocking = this.buffer < UNBOUNDED_BUFFER;
    this.ring = this.blocking ? this.buffer + 1 : 1;
    this.departures = new Float64Array(n * this.ring).fill(Number.NEGATIVE_INFINITY);
    this.ringHead = new Int32Array(n);
    this.times = new Float64Array(n);
    this.machine = spec.machine === undefined ? null : new MachineModel(spec.machine, spec.seed, n);
    this.machineTimes = new Float64Array(n);
    this.lastModes = new Uint8Array(n);
    this.monitor = new StageMonitor(n);
    this.optima = spec.optimumCache ?? new OptimumCache(this.db, this.a.hopMs);
    const peak = this.optima.get(new Uint8Array(n));
    const admission = spec.assumptions.admission;
    this.arrivals = admission.kind === 'saturated' ? null : createRng(spec.seed, ARRIVAL_STREAM);
    // `poissonShare`: the rate is a share of the interference-free optimum's throughput, 1000 / its bottleneck (ms).
    this.meanGapMs = admission.kind === 'poisson' ? 1000 / admission.rateQps : admission.kind === 'poissonShare' ? peak.bottleneckMs / admission.shareOfPeak : 0;
    this.installed = spec.initialConfiguration?.slice() ?? peak.counts.slice();
    if (!isValidConfiguration(this.installed, this.db.unitCount) || this.installed.length !== n) {
      throw new RangeError(`initial configuration ${configurationKey(this.installed)} is not valid for ${n} EPs`);
    }
    this.optimalBottleneckMs = peak.bottleneckMs;
    this.metrics = new PipelineMetrics(peak.bottleneckMs, spec.queries, spec.latencySampleCap, spec.percentiles, spec.assumptions.latencyQueries ?? 'all');
  }

  /** Queries served so far. */
  get served(): number {
    return this.q;
  }

  get done(): boolean {
    return this.q >= this.spec.queries;
  }

  /** Names of the units, in forward order. */
  get layerNames(): readonly string[] {
    return this.db.source.layers;
  }

  /** True from a detection until the new configuration is installed. */
  get isRebalancing(): boolean {
    return this.phase !== Phase.Normal;
  }

  /** The configuration in force. */
  get configuration(): Configuration {
    return this.installed;
  }

  /** Serves up to `count` queries; `onQuery` sees each one (omit it on hot paths). */
  advance(count: number, onQuery?: (record: QueryRecord) => void): void {
    const end = Math.min(this.spec.queries, this.q + count);
    while (this.q < end) this.serveOne(onQuery);
  }

  /** Runs to the end and returns the summary. */
  runToEnd(): PipelineSummary {
    this.advance(this.spec.queries - this.q);
    return this.summary();
  }

  summary(): PipelineSummary {
    return this.metrics.summary();
  }

  /** Changes the monitor's threshold on the fly (the lab's slider), from the next query on. */
  setDetectionThreshold(threshold: number): void {
    if (!(threshold > 0) || !Number.isFinite(threshold)) throw new RangeError(`detection threshold must be positive, got ${threshold}`);
    this.a = { ...this.a, detectionThreshold: threshold };
  }

  /** Changes a scheduler parameter on the fly (e.g. ODIN's α); false when it has none. */
  setSchedulerParameter(name: string, value: number): boolean {
    if (this.scheduler.setParameter === undefined) return false;
    this.scheduler.setParameter(name, value);
    return true;
  }

  /** Ends a placed interference event before `atQuery` (see InterferenceTimeline.endEvent). */
  endEvent(id: number, atQuery: number): void {
    this.timeline.endEvent(id, atQuery);
  }

  private serveOne(onQuery?: (record: QueryRecord) => void): void {
    const q = this.q;
    const n = this.n;
    const modes = this.timeline.modes;
    if (this.timeline.advance(q)) {
      this.timesConfig = null;
      this.optimalBottleneckMs = this.optima.get(modes).bottleneckMs;
      const oracle = this.scheduler.onModesChange?.({
        modes,
        database: this.db,
        hopMs: this.a.hopMs,
        configuration: this.installed,
        optimum: this.optimum,
      });
      if (oracle) this.installed = oracle;
    }
    const arrival = this.arrivals === null ? Number.NEGATIVE_INFINITY : (this.lastArrivalMs += this.arrivals.exponential(this.meanGapMs));

    // Which configuration serves this query, and may it enter while others are inside?
    let kind: QueryRecord['kind'] = 'normal';
    if (this.phase === Phase.Draining) {
      // A query that the old configuration admitted before the detection instant is already
      // inside the pipeline: it finishes on the old configuration.
      const first = firstNonEmpty(this.installed);
      const admission = Math.max(arrival, this.free[first]!);
      if (admission < this.detectTimeMs) kind = 'inflight';
      else if (this.pendingInstall !== null) this.finishPhase(this.pendingInstall, this.detectTimeMs, q);
      else this.phase = Phase.Trial;
    }
    const config = this.phase === Phase.Trial ? this.trialConfiguration! : this.installed;
    if (this.phase === Phase.Trial) kind = 'trial';
    const serial = kind === 'trial' && this.a.trialCost === 'serial';

    let times = this.times;
    // A trial configuration is the scheduler's array (it may reuse one): its times are computed every time.
    if (config !== this.timesConfig || kind === 'trial') {
      this.timesBottleneckMs = computeStageTimes(this.db, config, modes, this.a.hopMs, times);
      let sum = 0;
      for (let i = 0; i < n; i++) sum += times[i]!;
      this.timesConfigLatencyMs = sum;
      this.timesConfig = kind === 'trial' ? null : config;
    }
    let bottleneck = this.timesBottleneckMs;
    const configBottleneck = bottleneck;

    // The tandem-queue recurrence over the non-empty stages.
    const ready = serial ? Math.max(arrival, this.lastCompletionMs) : arrival;
    // The machine (machine.ts): its stage times are what the stages take and the monitor reads.
    let hopMs = 0;
    let gate = Number.NEGATIVE_INFINITY;
    let hogStallMs = 0;
    if (this.machine !== null) {
      const m = this.machine.machine;
      bottleneck = this.machine.apply(this.times, config, modes, serial, this.machineTimes);
      times = this.machineTimes;
      hopMs = m.hopMs;
      const last = this.lastServedConfig;
      let moved = last !== null && last.length === config.length;
      if (moved) {
        moved = false;
        for (let i = 0; i < n; i++) if (last![i] !== config[i]) moved = true;
      }
      // A move: the pipeline drains, the units change hands, then admission resumes.
      if (moved) gate = this.lastCompletionMs + m.moveMs;
      let hogStarts = false;
      for (let i = 0; i < n; i++) if (modes[i] !== this.lastModes[i] && modes[i] !== 0) hogStarts = true;
      if (hogStarts && this.q > 0) hogStallMs = m.hogStartMs;
      if (last === null || last.length !== n) this.lastServedConfig = new Int32Array(n);
      this.lastServedConfig!.set(config);
      this.lastModes.set(modes);
    }
    let admitted = Number.NaN;
    let prev = -1;
    let prevFinish = 0;
    for (let i = 0; i < n; i++) {
      if (config[i] === 0) continue;
      let start: number;
      if (prev < 0) {
        start = Math.max(ready, this.free[i]!) + hogStallMs;
        if (gate > start) start = gate;
        admitted = start;
      } else {
        // Blocking after service: the query leaves stage `prev` once stage i and its buffer
        // hold fewer than b+1 queries, i.e. once the query b+1 places ahead has left stage i.
        const leave = this.blocking ? Math.max(prevFinish, this.departures[i * this.ring + this.ringHead[i]!]!) : prevFinish;
        this.depart(prev, leave);
        start = Math.max(leave, this.free[i]!);
      }
      prevFinish = start + times[i]! + hopMs;
      prev = i;
    }
    this.depart(prev, prevFinish);
    const completion = prevFinish;
    this.lastCompletionMs = completion;
    const arrivalMs = this.arrivals === null ? admitted : arrival;

    this.metrics.recordQuery(arrivalMs, admitted, completion, this.timesConfigLatencyMs, configBottleneck, this.optimalBottleneckMs, kind === 'trial');

    let detected = false;
    let installed = false;
    if (kind === 'trial') {
      this.metrics.recordTrialQuery();
      this.phaseObservations.set(configurationKey(config), times.slice());
      const observed = times.slice();
      this.phaseFed.push(observed.slice());
      const step = this.rebalancing!.next(observed);
      if (step.done) {
        this.finishPhase(step.value, completion, q + 1);
        installed = true;
      } else {
        this.trialConfiguration = step.value;
      }
    } else if (kind === 'normal') {
      // The monitor reads the query (worlds/pipeline/engine/monitor.ts, as the real pipeline's coordinator does).
      if (this.monitor.observe(this.a, times, bottleneck) === 'changed') {
        const signal = this.monitor.signalTimes;
        detected = this.scheduler.rebalance !== undefined;
        if (detected) installed = this.beginPhase(config, this.monitor.signalBottleneckMs, completion, q);
        else this.setReference(signal, this.monitor.signalBottleneckMs);
      }
    }
    this.q = q + 1;
    onQuery?.({
      query: q,
      kind,
      arrivalMs,
      completionMs: completion,
      configuration: config,
      stageTimesMs: times,
      bottleneckMs: bottleneck,
      optimalBottleneckMs: this.optimalBottleneckMs,
      modes,
      detected,
      installed,
    });
  }

  private setReference(times: Float64Array, bottleneck: number): void {
    this.monitor.setReference(times, bottleneck);
  }

  /** Records that the current query left stage `i` at `timeMs`. */
  private depart(i: number, timeMs: number): void {
    const head = this.ringHead[i]!;
    this.departures[i * this.ring + head] = timeMs;
    this.ringHead[i] = head + 1 === this.ring ? 0 : head + 1;
    this.free[i] = timeMs;
  }

  /** Starts a rebalancing phase; returns true when a configuration was installed at once. */
  private beginPhase(config: Configuration, bottleneck: number, completion: number, q: number): boolean {
    const trigger = bottleneck > this.monitor.referenceMs ? 'increase' : 'decrease';
    // What the monitor decided on: the detecting query's times (window 1) or the window's mean.
    const signal = this.monitor.signalTimes;
    const context: RebalanceContext = {
      configuration: config.slice(),
      stageTimesMs: signal.slice(),
      unitCount: this.db.unitCount,
      trigger,
    };
    const parameters = this.scheduler.parameters?.() ?? {};
    const rebalancing = this.scheduler.rebalance!(copyContext(context));
    if (rebalancing === null) {
      this.setReference(signal, bottleneck);
      return false;
    }
    this.metrics.recordDetection();
    this.detectTimeMs = completion;
    this.detectQuery = q;
    this.phaseObservations = new Map([[configurationKey(config), signal.slice()]]);
    this.rebalancing = rebalancing;
    this.phaseContext = context;
    this.phaseFed = [];
    this.phaseParameters = parameters;
    if (this.a.trialCost === 'free') {
      // The oracle's view: every trial is evaluated on the database, with the detecting
      // query's modes, at no cost.
      const scratch = new Float64Array(this.n);
      let step = rebalancing.next(new Float64Array(0));
      while (!step.done) {
        computeStageTimes(this.db, step.value, this.timeline.modes, this.a.hopMs, scratch);
        this.phaseObservations.set(configurationKey(step.value), scratch.slice());
        this.metrics.recordFreeTrial();
        this.phaseFed.push(scratch.slice());
        step = rebalancing.next(scratch.slice());
      }
      this.pendingInstall = step.value;
      this.phase = Phase.Draining;
      return false;
    }
    const first = rebalancing.next(new Float64Array(0));
    if (first.done) {
      this.finishPhase(first.value, completion, q + 1);
      return true;
    }
    this.trialConfiguration = first.value;
    this.phase = Phase.Draining;
    return false;
  }

  private finishPhase(config: Configuration, decisionMs: number, firstQueryAfter: number): void {
    this.metrics.recordPhaseEnd(decisionMs - this.detectTimeMs, firstQueryAfter - this.detectQuery);
    this.install(config);
  }

  private install(config: Configuration): void {
    if (!isValidConfiguration(config, this.db.unitCount) || config.length !== this.n) {
      throw new RangeError(`scheduler ${this.scheduler.id} returned invalid configuration ${configurationKey(config)}`);
    }
    this.installed = config.slice();
    this.monitor.installed(this.a, this.phaseObservations.get(configurationKey(config)));
    this.pendingInstall = null;
    this.trialConfiguration = null;
    this.rebalancing = null;
    this.phaseContext = null;
    this.phaseFed = [];
    this.phase = Phase.Normal;
  }

  /** A checkpoint of the lane after `served` queries (see `PipelineRunSnapshot`). */
  snapshot(): PipelineRunSnapshot {
    return {
      q: this.q,
      assumptions: this.a,
      arrivals: this.arrivals?.state() ?? null,
      scalars: Float64Array.of(this.phase, this.detectTimeMs, this.detectQuery, this.monitor.referenceMs, this.optimalBottleneckMs, this.lastArrivalMs, this.lastCompletionMs),
      free: this.free.slice(),
      departures: this.departures.slice(),
      ringHead: this.ringHead.slice(),
      referenceTimes: this.monitor.referenceTimes.slice(),
      monitorWindow: this.monitor.windowState(),
      ...(this.machine === null ? {} : { machine: { ...this.machine.state(), lastServedConfig: this.lastServedConfig?.slice() ?? null, lastModes: this.lastModes.slice() } }),
      installed: this.installed.slice(),
      trialConfiguration: this.trialConfiguration?.slice() ?? null,
      pendingInstall: this.pendingInstall?.slice() ?? null,
      phaseObservations: new Map(this.phaseObservations),
      rebalancing:
        this.rebalancing === null || this.phaseContext === null
          ? null
          : { context: this.phaseContext, fed: this.phaseFed.slice(), parameters: this.phaseParameters },
      parameters: this.scheduler.parameters?.() ?? {},
      metrics: this.metrics.snapshot(),
      timeline: this.timeline.snapshot(),
    };
  }

  /**
   * Puts the lane back to a checkpoint taken by `snapshot` on a run of the same spec and
   * scheduler: serving on from there gives, bit for bit, what the run gave the first time.
   */
  restore(s: PipelineRunSnapshot): void {
    if (s.free.length !== this.n) throw new RangeError(`snapshot has ${s.free.length} stages, the run ${this.n}`);
    this.q = s.q;
    this.a = s.assumptions;
    this.timesConfig = null;
    this.arrivals = s.arrivals === null ? null : createRngFromState(s.arrivals);
    const [phase, detectTimeMs, detectQuery, referenceMs, optimalBottleneckMs, lastArrivalMs, lastCompletionMs] = Array.from(s.scalars) as [number, number, number, number, number, number, number];
    this.phase = phase as Phase;
    this.detectTimeMs = detectTimeMs;
    this.detectQuery = detectQuery;
    this.monitor.referenceMs = referenceMs;
    this.optimalBottleneckMs = optimalBottleneckMs;
    this.lastArrivalMs = lastArrivalMs;
    this.lastCompletionMs = lastCompletionMs;
    this.free.set(s.free);
    this.departures.set(s.departures);
    this.ringHead.set(s.ringHead);
    this.monitor.referenceTimes.set(s.referenceTimes);
    if (s.monitorWindow !== undefined) this.monitor.restoreWindow(s.monitorWindow);
    if (this.machine !== null && s.machine !== undefined) {
      this.machine.restore(s.machine);
      this.lastServedConfig = s.machine.lastServedConfig?.slice() ?? null;
      this.lastModes.set(s.machine.lastModes);
    }
    this.installed = s.installed.slice();
    this.trialConfiguration = s.trialConfiguration?.slice() ?? null;
    this.pendingInstall = s.pendingInstall?.slice() ?? null;
    this.phaseObservations = new Map(s.phaseObservations);
    this.metrics.restore(s.metrics);
    this.timeline.restore(s.timeline);
    this.rebalancing = null;
    this.phaseContext = null;
    this.phaseFed = [];
    if (s.rebalancing !== null) {
      // Rebuild the generator: same parameters as when the phase began, same inputs.
      this.setParameters(s.rebalancing.parameters);
      const rebalancing = this.scheduler.rebalance!(copyContext(s.rebalancing.context));
      if (rebalancing === null) throw new RangeError(`scheduler ${this.scheduler.id} did not rebuild its rebalancing`);
      rebalancing.next(new Float64Array(0));
      for (const observed of s.rebalancing.fed) rebalancing.next(observed.slice());
      this.rebalancing = rebalancing;
      this.phaseContext = s.rebalancing.context;
      this.phaseFed = s.rebalancing.fed.slice();
      this.phaseParameters = s.rebalancing.parameters;
    }
    this.setParameters(s.parameters);
  }

  private setParameters(parameters: Readonly<Record<string, number>>): void {
    for (const [name, value] of Object.entries(parameters)) this.scheduler.setParameter?.(name, value);
  }
}

function copyContext(c: RebalanceContext): RebalanceContext {
  return { ...c, configuration: c.configuration.slice(), stageTimesMs: c.stageTimesMs.slice() };
}

function firstNonEmpty(config: Configuration): number {
  for (let i = 0; i < config.length; i++) if (config[i]! > 0) return i;
  return 0;
}
