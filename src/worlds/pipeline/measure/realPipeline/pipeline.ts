/**
 * The real pipeline (ARCHITECTURE §2, the real backend): a pipeline scenario's lane run on
 * this machine's cores. One stage worker per execution place holds its configuration's
 * units as tfjs layers; queries flow stage to stage as transferable buffers through bounded
 * queues (blocking after service, the scenario's buffer capacity b: a stage and its buffer
 * hold at most b + 1 queries, as the simulation's recurrence has it); the monitor reads
 * the **measured** stage times and the lane's scheduler decides from them with the same code
 * as in the simulation (worlds/pipeline/engine/monitor.ts, the scheduler's generator); a
 * reconfiguration hands units over: with units resident (`residentBudgetMiB`) every stage
 * holds from the start the units it may receive and a move builds nothing; without, the
 * receiving stage builds them, seeded, so they are the same units. Its wall time is the
 * reconfiguration's cost. Interference events start
 * the hogs of their mode for their span of queries.
 *
 * Choices where the paper is silent or a real system differs from the simulation:
 * - Trials are serial (ODIN §4.2, the `serial` trial cost): at a detection admission stops,
 *   the queries inside finish on the old configuration, then each trial configuration is
 *   installed (units moved) and one query runs through it alone. The simulation's other
 *   trial-cost readings are compared against this run, not run for real.
 * - Interference is indexed by query as in the simulation: when query q is admitted and the
 *   timeline's modes change, the hogs of the changed execution places are stopped or started.
 *   The hogs of the scenario's explicit events are spawned and made ready before the run and
 *   started by a message; others (random, placed by hand) start then, and admission waits
 *   until they report running. Queries already inside (at most the
 *   pipeline's depth) feel the change too: hogs run in wall time.
 * - Hogs are threads the operating system places: nothing is pinned (a browser cannot pin),
 *   so a hog "on" one execution place slows every stage that shares its core.
 * Tfjs, the clock, the stage workers and the hogs are passed in (`RealEnvironment`).
 */
import type { PipelineAssumptions } from '../../engine/assumptions';
import { configurationKey, isValidConfiguration, type Configuration } from '../../engine/configuration';
import { InterferenceTimeline, type InterferenceEvent, type RandomInterference } from '../../engine/interference';
import { maxOf, StageMonitor } from '../../engine/monitor';
import { OptimumCache } from '../../engine/partition';
import type { PipelineScheduler, RebalanceContext, Rebalancing } from '../../engine/scheduler';
import type { CompiledDatabase, ModeIndex } from '../../engine/stageTimes';
import { MODE_IDS } from '../../engine/profiles/types';
import { hogPlan, startHogs, type RunningHogs, type SpawnHog } from '../hogs';
import { nonNegativeValues, tfUnitPlans, type UnitSource } from '../units';
import { activationBuffers, type Activation, type StageReply, type StageRequest } from './protocol';

/** One stage worker, however it runs (Web Worker, worker thread, or in-process in tests). */
export interface StagePort {
  post(request: StageRequest, transfer: ArrayBuffer[]): void;
  /** Sets the one listener of the stage's replies. */
  listen(onReply: (reply: StageReply) => void, onError: (error: Error) => void): void;
  terminate(): void | Promise<unknown>;
}

export interface RealEnvironment {
  /** Wall clock, ms. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Starts the worker of execution place `index`. */
  readonly spawnStage: (index: number) => StagePort;
  readonly spawnHog: SpawnHog;
  /**
   * The interference placed or removed by hand while the run goes (the page's drag and drop):
   * returns the edits since the last call. Each applies from the next query admitted.
   */
  readonly liveEdits?: () => readonly LiveInterferenceEdit[];
}

/** A co-located workload placed on (`add`) or taken off (`end`) an execution place by hand during a real run. */
export type LiveInterferenceEdit = { readonly kind: 'add'; readonly id: number; readonly executionPlace: number; readonly mode: ModeIndex } | { readonly kind: 'end'; readonly id: number };

export interface RealRunOptions {
  readonly source: UnitSource;
  /** Seed of the weights and of the query's input. */
  readonly seed: number;
  readonly executionPlaces: number;
  /** Queries to serve, trial queries included (as in the simulation). */
  readonly queries: number;
  readonly assumptions: Pick<PipelineAssumptions, 'bufferCapacity' | 'detectionThreshold' | 'detectionSignal' | 'monitorReference' | 'detectionWindow'>;
  readonly initialConfiguration: Configuration;
  readonly scheduler: PipelineScheduler;
  readonly events: readonly InterferenceEvent[];
  readonly random: RandomInterference | null;
  /** Seed of the random interference trace (the scenario's seed, as the simulation uses). */
  readonly traceSeed: number;
  /** Logical cores one execution place stands for: the hogs a mode starts (hogPlan). */
  readonly coresPerEp: number;
  readonly hogBufferMiB: number;
  /** What an oracle (optimal, evict) decides on: a database of this machine. */
  readonly oracleDatabase?: CompiledDatabase;
  readonly hopMs?: number;
  /**
   * Units resident (the paper's system: one shared-memory machine, a move hands layers over,
   * ODIN §2, §3.1): the memory all stages together may give to units held for the whole run,
   * MiB, shared equally. Each stage builds and warms up, at start, the units it may receive
   * (its first configuration's first, then outward) within its share; a move of a resident
   * unit builds nothing. Each stage is its own tfjs instance, so a resident unit is one copy
   * per stage (VGG16 at 112 px ≈ 220 MB a copy: 2 EPs ≈ 0.45 GB, 4 EPs ≈ 0.9 GB). What does
   * not fit is built on the move, as without residency. Absent or 0: no unit resident, every
   * move builds and warms what it receives and frees what it gives.
   */
  readonly residentBudgetMiB?: number;
  /**
   * Moves made on schedule, whatever the scheduler says (a calibration lane): before query
   * `beforeQuery` is admitted the pipeline drains and `configuration` is installed.
   */
  readonly scriptedMoves?: readonly { readonly beforeQuery: number; readonly configuration: Configuration }[];
}

/** One query of a real run. */
export interface RealQuery {
  readonly query: number;
  readonly kind: 'normal' | 'trial';
  /** Wall time it entered the first stage, ms from the run's start. */
  readonly admittedMs: number;
  readonly completionMs: number;
  /** Measured t_i per execution place (0 for an empty stage), ms. */
  readonly stageTimesMs: Float64Array;
  readonly configuration: string;
  /** Per-EP mode indices when it was admitted. */
  readonly modes: Uint8Array;
}

/** One reconfiguration: units moved between stage workers. */
export interface RealReconfiguration {
  /** The first query served by the new configuration. */
  readonly beforeQuery: number;
  readonly from: string;
  readonly to: string;
  /** A trial configuration of a rebalancing phase, or the one installed. */
  readonly trial: boolean;
  /** Wall time of the move (every stage's build and free), ms. */
  readonly wallMs: number;
  readonly unitsBuilt: number;
  readonly unitsFreed: number;
}

export interface RealRunResult {
  readonly queries: readonly RealQuery[];
  readonly reconfigurations: readonly RealReconfiguration[];
  readonly rebalancings: number;
  /** The queries at whose completion the monitor fired a rebalancing (the shared reading, worlds/pipeline/engine/monitor.ts). */
  readonly detections: readonly number[];
  /** Admission stalls while hogs started (those not armed before the run, or still arming), ms each. */
  readonly hogStallsMs: readonly number[];
  /** Where the wall time went besides normal queries, ms: waiting for the pipeline to drain, moves, hog starts. */
  readonly overheadMs: { readonly drains: number; readonly moves: number; readonly hogStalls: number };
  /** Wall time from the first admission to the last completion, ms. */
  readonly durationMs: number;
  /** The first query's output (the network's last activation), to check a move keeps outputs. */
  readonly firstOutput: Float32Array | null;
  readonly lastOutput: Float32Array | null;
  /** Each stage worker's tfjs tensor count after its last `hold`. */
  readonly stageTensors: readonly number[];
  /** Units each stage held resident for the whole run, and the tfjs bytes they took (0s without residency). */
  readonly resident: { readonly units: readonly number[]; readonly bytes: readonly number[]; readonly budgetMiB: number };
  /** The live edits applied, each with the first query it affected. */
  readonly liveEdits: readonly { readonly edit: LiveInterferenceEdit; readonly atQuery: number }[];
}

/** What the run reports as it goes (the page's live charts). */
export type RealProgress = { readonly kind: 'query'; readonly query: RealQuery } | { readonly kind: 'reconfiguration'; readonly reconfiguration: RealReconfiguration } | { readonly kind: 'hogs'; readonly executionPlace: number; readonly mode: string };

interface InFlight {
  readonly query: number;
  readonly payload: Activation;
}

interface StageState {
  readonly port: StagePort;
  /** The query in service. */
  busy: number | null;
  /** A finished query waiting for room downstream (blocking after service). */
  heldOutput: InFlight | null;
  /** Queries waiting to enter (at most b). */
  readonly queue: InFlight[];
}

class Waiter<T> {
  private waiting: ((value: T) => void) | null = null;
  private failing: ((error: Error) => void) | null = null;
  wait(): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting = resolve;
      this.failing = reject;
    });
  }
  resolve(value: T): void {
    const w = this.waiting;
    this.waiting = null;
    this.failing = null;
    w?.(value);
  }
  reject(error: Error): void {
    const f = this.failing;
    this.waiting = null;
    this.failing = null;
    f?.(error);
  }
}

/** Runs one lane on real stage workers; resolves when `queries` queries have completed. */
export async function runRealPipeline(options: RealRunOptions, env: RealEnvironment, onProgress: (progress: RealProgress) => void = () => undefined, isCancelled: () => boolean = () => false): Promise<RealRunResult> {
  const n = options.executionPlaces;
  const plans = tfUnitPlans(options.source);
  const unitCount = plans.length;
  if (!isValidConfiguration(options.initialConfiguration, unitCount) || options.initialConfiguration.length !== n) {
    throw new RangeError(`initial configuration ${configurationKey(options.initialConfiguration)} is not valid for ${unitCount} units on ${n} EPs`);
  }
  const capacity = Math.max(0, options.assumptions.bufferCapacity) + 1;
  const inputShape = plans[0]!.inputShapes[0]!;
  const inputValues = nonNegativeValues(inputShape.reduce((a, b) => a * b, 1), options.seed, 0x5eed);
  const timeline = new InterferenceTimeline(n, options.events, options.random, options.traceSeed);
  const monitor = new StageMonitor(n);

  let failure: Error | null = null;
  const replies = new Map<number, Waiter<StageReply>>();
  const stages: StageState[] = [];
  const stageTensors = new Array<number>(n).fill(0);
  let onRan: (stage: number, reply: Extract<StageReply, { type: 'ran' }>) => void = () => undefined;
  const wake = new Waiter<void>();
  const fail = (error: Error) => {
    failure ??= error;
    for (const w of replies.values()) w.reject(error);
    wake.reject(error);
  };
  for (let i = 0; i < n; i += 1) {
    const port = env.spawnStage(i);
    const waiter = new Waiter<StageReply>();
    replies.set(i, waiter);
    port.listen(
      (reply) => {
        if (reply.type === 'error') fail(new Error(`stage ${i}: ${reply.message}`));
        else if (reply.type === 'ran') onRan(i, reply);
        else waiter.resolve(reply);
      },
      (error) => fail(new Error(`stage ${i}: ${error.message}`)),
    );
    stages.push({ port, busy: null, heldOutput: null, queue: [] });
  }
  const request = async (i: number, message: StageRequest): Promise<StageReply> => {
    if (failure !== null) throw failure;
    const answer = replies.get(i)!.wait();
    stages[i]!.port.post(message, []);
    return answer;
  };

  const hogs: (RunningHogs | null)[] = new Array<RunningHogs | null>(n).fill(null);
  const hogModes = new Uint8Array(n);
  /**
   * Hogs armed before the run (ready, waiting for a message), by execution place and mode: one
   * set for each (EP, mode) of the scenario's explicit events, armed again in the background
   * after it ran if that pair comes again. Random and hand-placed interference is not known
   * ahead: its hogs start when it comes (admission waits for their first report).
   */
  const armed = new Map<string, Promise<RunningHogs>>();
  const hogStallsMs: number[] = [];
  const armKey = (e: number, mode: number) => `${e}:${mode}`;
  const arm = (e: number, mode: number) => {
    const plan = hogPlan(MODE_IDS[mode]!, options.coresPerEp);
    if (plan.cpu + plan.memBW === 0 || armed.has(armKey(e, mode))) return;
    const pending = startHogs(plan, env.spawnHog, { bufferMiB: options.hogBufferMiB, schedule: (fn, ms) => void env.sleep(ms).then(fn), armed: true });
    // A failure is said when the set is taken (or dropped at the end).
    pending.catch(() => undefined);
    armed.set(armKey(e, mode), pending);
  };
  const comesAgain = (e: number, mode: number, afterQuery: number) => options.events.some((ev) => ev.executionPlace === e && ev.mode === mode && ev.fromQuery > afterQuery);
  const stopHogs = async () => {
    await Promise.all(hogs.map((h) => h?.stop()));
    hogs.fill(null);
    const left = [...armed.values()];
    armed.clear();
    await Promise.all(left.map((p) => p.then((h) => h.stop()).catch(() => undefined)));
  };

  const queries: RealQuery[] = [];
  const reconfigurations: RealReconfiguration[] = [];
  let installed = options.initialConfiguration.slice();
  let active: number[] = [];
  const setActive = (config: Configuration) => {
    active = [];
    for (let i = 0; i < n; i += 1) if (config[i]! > 0) active.push(i);
  };

  /** Moves units so that `config` is held; resolves once every stage has answered. */
  const reconfigure = async (config: Configuration, beforeQuery: number, trial: boolean, record = true): Promise<void> => {
    const t0 = env.now();
    let start = 0;
    const answers = await Promise.all(
      Array.from(config, (count, i) => {
        const from = start;
        start += count;
        return request(i, { type: 'hold', from, to: start });
      }),
    );
    let built = 0;
    let freed = 0;
    answers.forEach((a, i) => {
      if (a.type === 'held') {
        built += a.built;
        freed += a.freed;
        stageTensors[i] = a.tensors;
      }
    });
    const move: RealReconfiguration = { beforeQuery, from: configurationKey(installed), to: configurationKey(config), trial, wallMs: env.now() - t0, unitsBuilt: built, unitsFreed: freed };
    if (record) {
      reconfigurations.push(move);
      onProgress({ kind: 'reconfiguration', reconfiguration: move });
    }
    installed = config.slice();
    setActive(installed);
  };

  // Per query in the pipeline: its admission, configuration, modes and stage times so far.
  const open = new Map<number, { admittedMs: number; times: Float64Array; configuration: string; modes: Uint8Array; kind: RealQuery['kind'] }>();
  let firstOutput: Float32Array | null = null;
  let lastOutput: Float32Array | null = null;
  let startedAt = 0;
  let completed = 0;
  let admitted = 0;
  let completions: RealQuery[] = [];

  const occupied = (s: StageState) => s.busy !== null || s.heldOutput !== null;
  const startOn = (i: number, item: InFlight) => {
    const s = stages[i]!;
    s.busy = item.query;
    s.port.post({ type: 'run', query: item.query, input: item.payload }, activationBuffers(item.payload));
  };
  /** Moves queries forward wherever there is room, last stage first. */
  const flow = () => {
    let moved = true;
    while (moved) {
      moved = false;
      for (let k = active.length - 1; k >= 0; k -= 1) {
        const i = active[k]!;
        const s = stages[i]!;
        if (s.heldOutput !== null) {
          const next = stages[active[k + 1]!]!;
          const holding = (occupied(next) ? 1 : 0) + next.queue.length;
          if (holding < capacity) {
            if (!occupied(next) && next.queue.length === 0) startOn(active[k + 1]!, s.heldOutput);
            else next.queue.push(s.heldOutput);
            s.heldOutput = null;
            moved = true;
          }
        }
        if (!occupied(s) && s.queue.length > 0) {
          startOn(i, s.queue.shift()!);
          moved = true;
        }
      }
    }
  };
  const empty = () => stages.every((s) => !occupied(s) && s.queue.length === 0);

  onRan = (i, reply) => {
    const s = stages[i]!;
    s.busy = null;
    const record = open.get(reply.query);
    if (record !== undefined) record.times[i] = reply.computeMs;
    const k = active.indexOf(i);
    if (k === active.length - 1) {
      if (record !== undefined) {
        open.delete(reply.query);
        const done: RealQuery = { query: reply.query, kind: record.kind, admittedMs: record.admittedMs, completionMs: env.now() - startedAt, stageTimesMs: record.times, configuration: record.configuration, modes: record.modes };
        completions.push(done);
        completed += 1;
      }
      if (firstOutput === null) firstOutput = reply.output.x;
      lastOutput = reply.output.x;
    } else {
      s.heldOutput = { query: reply.query, payload: reply.output };
    }
    flow();
    wake.resolve();
  };

  const admit = (kind: RealQuery['kind']) => {
    const q = admitted;
    admitted += 1;
    const payload: Activation = { x: inputValues.slice(), shape: inputShape, block: null, blockShape: null };
    open.set(q, { admittedMs: env.now() - startedAt, times: new Float64Array(n), configuration: configurationKey(installed), modes: timeline.modes.slice(), kind });
    const first = active[0]!;
    const s = stages[first]!;
    if (!occupied(s) && s.queue.length === 0) startOn(first, { query: q, payload });
    else s.queue.push({ query: q, payload });
  };
  /** Room for one more query at the first stage (saturated admission: the query is always there). */
  const canAdmit = () => {
    const s = stages[active[0]!]!;
    return !occupied(s) && s.queue.length === 0;
  };

  const appliedEdits: { edit: LiveInterferenceEdit; atQuery: number }[] = [];
  /** Puts the live edits since the last admission into the timeline, from the query about to be admitted. */
  const applyLiveEdits = () => {
    for (const edit of env.liveEdits?.() ?? []) {
      if (edit.kind === 'add') {
        if (edit.executionPlace < 0 || edit.executionPlace >= n) continue;
        timeline.addEvent({ executionPlace: edit.executionPlace, mode: edit.mode, fromQuery: admitted, toQuery: null, id: edit.id });
      } else timeline.endEvent(edit.id, admitted);
      appliedEdits.push({ edit, atQuery: admitted });
    }
  };

  /** Brings the hogs in line with the modes of the query about to be admitted. */
  const followInterference = async () => {
    applyLiveEdits();
    const changed = timeline.advance(admitted);
    if (!changed) return false;
    for (let e = 0; e < n; e += 1) {
      const mode = timeline.modes[e]!;
      if (mode === hogModes[e]) continue;
      await hogs[e]?.stop();
      hogs[e] = null;
      hogModes[e] = mode;
      const plan = hogPlan(MODE_IDS[mode]!, options.coresPerEp);
      const stallFrom = env.now();
      const ready = armed.get(armKey(e, mode));
      if (ready !== undefined) {
        armed.delete(armKey(e, mode));
        const set = await ready;
        set.go();
        hogs[e] = set;
        if (comesAgain(e, mode, admitted)) arm(e, mode);
      } else if (plan.cpu + plan.memBW > 0) {
        hogs[e] = await startHogs(plan, env.spawnHog, { bufferMiB: options.hogBufferMiB, schedule: (fn, ms) => void env.sleep(ms).then(fn) });
      }
      if (plan.cpu + plan.memBW > 0) hogStallsMs.push(env.now() - stallFrom);
      onProgress({ kind: 'hogs', executionPlace: e, mode: MODE_IDS[mode]! });
    }
    return true;
  };

  const waitForProgress = async () => {
    if (failure !== null) throw failure;
    await wake.wait();
    if (failure !== null) throw failure;
  };
  let drainMs = 0;
  /** Waits until the pipeline is empty; `counted`: the wait is a drain's (a serial trial's own service is not). */
  const drain = async (counted = true) => {
    const t0 = env.now();
    while (!empty()) await waitForProgress();
    if (counted) drainMs += env.now() - t0;
  };

  /** Handles the queries completed since the last call; returns a rebalancing to start, if the monitor fired. */
  const takeCompletions = (monitoring = true): { context: RebalanceContext; query: number } | null => {
    const done = completions;
    completions = [];
    let trigger: { context: RebalanceContext; query: number } | null = null;
    for (const record of done) {
      queries.push(record);
      onProgress({ kind: 'query', query: record });
      // Queries still inside when the monitor fired finish on the old configuration unread (the simulation's in-flight queries).
      if (!monitoring || record.kind !== 'normal' || trigger !== null || record.configuration !== configurationKey(installed)) continue;
      // The simulation's own reading (worlds/pipeline/engine/monitor.ts), fed the measured times.
      if (monitor.observe(options.assumptions, record.stageTimesMs, maxOf(record.stageTimesMs)) !== 'changed') continue;
      const signal = monitor.signalTimes.slice();
      if (options.scheduler.rebalance === undefined) monitor.setReference(signal, monitor.signalBottleneckMs);
      else {
        trigger = { query: record.query, context: { configuration: installed.slice(), stageTimesMs: signal, unitCount, trigger: monitor.signalBottleneckMs > monitor.referenceMs ? 'increase' : 'decrease' } };
      }
    }
    return trigger;
  };
  /** The queries at whose completion the monitor fired a rebalancing. */
  const detections: number[] = [];

  /** A rebalancing phase with serial trials: drain, then one query alone per trial configuration. */
  const rebalance = async (context: RebalanceContext, detectedAt: number): Promise<void> => {
    const generator: Rebalancing | null = options.scheduler.rebalance!({ ...context, configuration: context.configuration.slice(), stageTimesMs: context.stageTimesMs.slice() });
    if (generator === null) {
      monitor.setReference(context.stageTimesMs, maxOf(context.stageTimesMs));
      return;
    }
    detections.push(detectedAt);
    rebalancings += 1;
    const observed = new Map<string, Float64Array>([[configurationKey(context.configuration), context.stageTimesMs.slice()]]);
    await drain();
    takeCompletions(false);
    let step = generator.next(new Float64Array(0));
    while (!step.done) {
      if (completed >= options.queries || isCancelled()) return;
      if (configurationKey(step.value) !== configurationKey(installed)) await reconfigure(step.value, admitted, true);
      await followInterference();
      admit('trial');
      await drain(false);
      const trial = completions[completions.length - 1]!;
      takeCompletions(false);
      observed.set(configurationKey(step.value), trial.stageTimesMs.slice());
      step = generator.next(trial.stageTimesMs.slice());
    }
    if (configurationKey(step.value) !== configurationKey(installed)) await reconfigure(step.value, admitted, false);
    monitor.installed(options.assumptions, observed.get(configurationKey(step.value)));
  };

  let rebalancings = 0;
  let optima: OptimumCache | null = null;
  try {
    const budgetMiB = Math.max(0, options.residentBudgetMiB ?? 0);
    const firstRanges: { from: number; to: number }[] = [];
    for (let i = 0, start = 0; i < n; i += 1) {
      firstRanges.push({ from: start, to: start + installed[i]! });
      start += installed[i]!;
    }
    const ready = await Promise.all(
      stages.map((_, i) =>
        request(i, { type: 'init', source: options.source, seed: options.seed, ...(budgetMiB > 0 ? { resident: { ...firstRanges[i]!, budgetBytes: Math.floor((budgetMiB * 2 ** 20) / n) } } : {}) }),
      ),
    );
    for (const ev of options.events) if (ev.executionPlace >= 0 && ev.executionPlace < n) arm(ev.executionPlace, ev.mode);
    await Promise.all(armed.values());
    const resident = {
      units: ready.map((r) => (r.type === 'ready' ? r.residentUnits : 0)),
      bytes: ready.map((r) => (r.type === 'ready' ? r.residentBytes : 0)),
      budgetMiB,
    };
    await reconfigure(installed, 0, false, false);
    startedAt = env.now();
    let firstAdmission = Number.NaN;
    while (completed < options.queries && !isCancelled()) {
      // Admit while there is room, following the interference trace query by query.
      while (admitted < options.queries && canAdmit()) {
        if (await followInterference()) {
          const oracle = options.scheduler.onModesChange?.({
            modes: timeline.modes,
            // Read only by an oracle that decides on the database (optimal, evict).
            get database() {
              return options.oracleDatabase ?? missingDatabase(options.scheduler.id);
            },
            hopMs: options.hopMs ?? 0,
            configuration: installed,
            optimum: (modes) => {
              optima ??= new OptimumCache(options.oracleDatabase ?? missingDatabase(options.scheduler.id), options.hopMs ?? 0);
              return optima.get(modes);
            },
          });
          if (oracle && configurationKey(oracle) !== configurationKey(installed)) {
            await drain();
            takeCompletions();
            await reconfigure(oracle, admitted, false);
            monitor.clear();
          }
        }
        const scripted = options.scriptedMoves?.find((m) => m.beforeQuery === admitted);
        if (scripted !== undefined && configurationKey(scripted.configuration) !== configurationKey(installed)) {
          await drain();
          takeCompletions();
          await reconfigure(scripted.configuration, admitted, false);
          monitor.clear();
        }
        if (Number.isNaN(firstAdmission)) firstAdmission = env.now() - startedAt;
        admit('normal');
      }
      if (completed < options.queries) await waitForProgress();
      const trigger = takeCompletions();
      if (trigger !== null && completed < options.queries) await rebalance(trigger.context, trigger.query);
    }
    await drain().catch(() => undefined);
    takeCompletions();
    const last = queries.length > 0 ? Math.max(...queries.map((q) => q.completionMs)) : 0;
    return {
      queries,
      reconfigurations,
      rebalancings,
      detections,
      hogStallsMs,
      overheadMs: { drains: drainMs, moves: reconfigurations.reduce((a, r) => a + r.wallMs, 0), hogStalls: hogStallsMs.reduce((a, b) => a + b, 0) },
      durationMs: Number.isNaN(firstAdmission) ? 0 : last - firstAdmission,
      firstOutput,
      lastOutput,
      stageTensors,
      resident,
      liveEdits: appliedEdits,
    };
  } finally {
    await stopHogs();
    for (const s of stages) {
      try {
        s.port.post({ type: 'close' }, []);
      } catch {
        // A stage that failed may be gone already.
      }
      await s.port.terminate();
    }
  }
}

function missingDatabase(id: string): never {
  throw new Error(`${id} decides on a layer-time database: give the real run one (oracleDatabase)`);
}
