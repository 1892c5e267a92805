import type { ServingSummary } from '../engine/serving/metrics';
import type { AdmissionView, ModelAction, ServingScheduler } from '../engine/serving/scheduler';
import { MAX_BATCH_SIZE, MAX_INSTANCES, wrapDecide } from '../engine/serving/scheduler';
import { ServingRun } from '../engine/serving/simulation';
import { parseAnyScenario } from '../scenario/parse';
import { SERVING_LIMITS, type ServingScenario } from '../scenario/schema';
import { buildServingSpec, servingLaneParameters } from '../scenario/servingRunner';
import { LearningScheduler } from '../agents/learningScheduler';
import type { AgentFile } from '../agents/learner';
import { DiscreteSac, type SacUpdateExplained } from '../agents/sac';
import { isLearningScheduler, SERVING_SCHEDULERS, servingLaneLabel, servingSchedulerContext, type LearningFactory } from '../schedulers/serving/registry';
import { LearningLane } from './learningLane';
import { LiveLoop, SERIES_MAX_POINTS, type SessionHost } from './liveLoop';
import type {
  BackgroundView,
  ServingFrame,
  ServingLaneInfo,
  ServingLaneLive,
  ServingLoadResult,
  ServingMarker,
  ServingModelLive,
  ServingSearchProgress,
  ServingSeriesChunk,
  ServingSpeed,
} from './servingProtocol';
import { SERVING_SPEED_LIMITS } from './servingProtocol';

/** One point of a lane's series (sums, so that merging neighbours is exact). */
interface Point {
  startMs: number;
  endMs: number;
  slots: number;
  completed: Float64Array;
  latencySum: Float64Array;
  utilitySum: Float64Array;
  utilityCount: Float64Array;
  arrivals: Float64Array;
  violations: Float64Array;
  batchSize: Int32Array;
  instances: Int32Array;
}

function emptyPoint(models: number, startMs: number): Point {
  return {
    startMs,
    endMs: startMs,
    slots: 0,
    completed: new Float64Array(models),
    latencySum: new Float64Array(models),
    utilitySum: new Float64Array(models),
    utilityCount: new Float64Array(models),
    arrivals: new Float64Array(models),
    violations: new Float64Array(models),
    batchSize: new Int32Array(models),
    instances: new Int32Array(models),
  };
}

/** Adds `b` (later) into `a`. */
function mergeInto(a: Point, b: Point): void {
  a.endMs = b.endMs;
  a.slots += b.slots;
  for (let m = 0; m < a.completed.length; m++) {
    a.completed[m]! += b.completed[m]!;
    a.latencySum[m]! += b.latencySum[m]!;
    a.utilitySum[m]! += b.utilitySum[m]!;
    a.utilityCount[m]! += b.utilityCount[m]!;
    a.arrivals[m]! += b.arrivals[m]!;
    a.violations[m]! += b.violations[m]!;
  }
  a.batchSize.set(b.batchSize);
  a.instances.set(b.instances);
}

/** One slot of one model, as the lane collects it. */
interface SlotSample {
  readonly arrivals: number;
  readonly completed: number;
  readonly latencyMeanMs: number;
  readonly utility: number | null;
  readonly violations: number;
  readonly batchSize: number;
  readonly instances: number;
}

/**
 * A lane's per-slot series, bounded: each point sums `stride` slots; when
 * SERIES_MAX_POINTS is reached, neighbours merge and the stride doubles (as seriesBuilder).
 */
class ServingSeries {
  stride = 1;
  private points: Point[] = [];
  private pending: Point | null = null;
  private sent = 0;
  private compacted = false;

  constructor(private readonly models: number) {}

  /** Adds one slot [startMs, endMs]. */
  add(startMs: number, endMs: number, samples: readonly SlotSample[]): void {
    const p = (this.pending ??= emptyPoint(this.models, startMs));
    p.endMs = endMs;
    p.slots++;
    samples.forEach((s, m) => {
      p.completed[m]! += s.completed;
      p.latencySum[m]! += s.latencyMeanMs * s.completed;
      if (s.utility !== null) {
        p.utilitySum[m]! += s.utility;
        p.utilityCount[m]!++;
      }
      p.arrivals[m]! += s.arrivals;
      p.violations[m]! += s.violations;
      p.batchSize[m] = s.batchSize;
      p.instances[m] = s.instances;
    });
    if (p.slots < this.stride) return;
    this.points.push(p);
    this.pending = null;
    if (this.points.length >= SERIES_MAX_POINTS) this.compact();
  }

  /** Closes a partial last point (at the end of the run: it holds fewer than `stride` slots). */
  flush(): void {
    if (this.pending === null) return;
    this.points.push(this.pending);
    this.pending = null;
  }

  /** Points not yet sent (or all of them after a compaction), and whether they replace. */
  takeChunk(): { chunk: ServingSeriesChunk; replace: boolean } {
    const replace = this.compacted;
    const pts = this.points.slice(replace ? 0 : this.sent);
    this.sent = this.points.length;
    this.compacted = false;
    const M = this.models;
    const n = pts.length;
    const perModel = (f: (p: Point, m: number) => number) => {
      const out = new Float64Array(n * M);
      pts.forEach((p, i) => {
        for (let m = 0; m < M; m++) out[i * M + m] = f(p, m);
      });
      return out;
    };
    const ints = (a: (p: Point) => Int32Array) => {
      const out = new Int32Array(n * M);
      pts.forEach((p, i) => out.set(a(p), i * M));
      return out;
    };
    return {
      replace,
      chunk: {
        endMs: Float64Array.from(pts, (p) => p.endMs),
        slots: Float64Array.from(pts, (p) => p.slots),
        throughputRps: perModel((p, m) => (p.endMs > p.startMs ? (1000 * p.completed[m]!) / (p.endMs - p.startMs) : 0)),
        latencyMeanMs: perModel((p, m) => (p.completed[m]! > 0 ? p.latencySum[m]! / p.completed[m]! : 0)),
        utility: perModel((p, m) => (p.utilityCount[m]! > 0 ? p.utilitySum[m]! / p.utilityCount[m]! : Number.NaN)),
        arrivals: perModel((p, m) => p.arrivals[m]!),
        violations: perModel((p, m) => p.violations[m]!),
        batchSize: ints((p) => p.batchSize),
        instances: ints((p) => p.instances),
      },
    };
  }

  private compact(): void {
    const merged: Point[] = [];
    for (let i = 0; i + 1 < this.points.length; i += 2) {
      const a = this.points[i]!;
      mergeInto(a, this.points[i + 1]!);
      merged.push(a);
    }
    if (this.points.length % 2 === 1) merged.push(this.points.at(-1)!);
    this.points = merged;
    this.stride *= 2;
    this.compacted = true;
  }
}

/** What a lane's scheduler wrapper shares with the session. */
interface LaneHooks {
  /** Per-model actions set by the page (fixed lanes only); null = the scheduler's own. */
  readonly overrides: (ModelAction | null)[] | null;
  /** The engine's admission view, captured at the first request (its getters read live state). */
  view: AdmissionView | null;
}

interface Lane {
  info: ServingLaneInfo;
  /** The scheduler as built (before the session's wrapper), disposed with the lane. */
  readonly inner: ServingScheduler;
  /** Present for learning lanes. */
  readonly learning: LearningLane | null;
  /** Wall-clock time of the lane's decisions, ms, and their number (Fig. 16). */
  decisionMs: number;
  decisions: number;
  readonly run: ServingRun;
  readonly series: ServingSeries;
  readonly hooks: LaneHooks;
  /** The action in force during the slot under way. */
  action: readonly ModelAction[];
}

/** A live change, kept so that a replay reproduces it at the same simulated time. */
type LiveChange =
  | { readonly kind: 'config'; readonly atMs: number; readonly lane: number; readonly model: number; readonly action: ModelAction }
  | { kind: 'background'; readonly atMs: number; readonly id: number; readonly intensity: number; readonly memoryMb: number; toMs: number | null }
  /** An agent loaded into a learning lane (from a file or the browser's storage). */
  | { readonly kind: 'agent'; readonly atMs: number; readonly lane: number; readonly file: unknown }
  /** One SAC update applied by the walkthrough (it changes the learner, so a replay applies it too). */
  | { readonly kind: 'explain'; readonly atMs: number; readonly lane: number };

/** Progress frames a reference lane's search sends at most (plus its first evaluation). */
const SEARCH_PROGRESS_FRAMES = 100;

/** Configuration changes the time line shows at most (the newest; slider drags make many). */
const TIMELINE_CONFIG_MARKERS = 500;

/**
 * Wraps a lane's scheduler: per-model overrides on top of its decisions (the page's sliders
 * for a fixed lane, applied at the next slot boundary, where the engine asks for a
 * decision), and an `admit` that captures the engine's admission view for the live slack
 * buckets. Without an own `admit`, the wrapper admits everything, as the engine does.
 */
function wrapScheduler(inner: ServingScheduler, hooks: LaneHooks, timing: { now(): number; add(ms: number): void }): ServingScheduler {
  return wrapDecide(
    inner,
    (observation, decide) => {
      const t0 = timing.now();
      const action = decide(observation);
      timing.add(timing.now() - t0);
      const overrides = hooks.overrides;
      return overrides === null ? action : action.map((a, m) => overrides[m] ?? a);
    },
    (request, view, admit) => {
      hooks.view = view;
      return admit === undefined ? true : admit(request, view);
    },
  );
}

/**
 * The live serving lab (BCEdge) behind the serving page: every lane of a serving scenario
 * on one arrival trace (same seed), advanced in lock step slot by slot, paced to a speed in
 * simulated seconds per wall second and reported in frames. Host-agnostic like
 * `PipelineSession`.
 *
 * Live changes and how they are made:
 * - `setModelConfig`: the fixed lane's scheduler is wrapped with per-model overrides; the
 *   engine asks for a decision at every slot boundary, so the change applies from the next
 *   slot on, without a rebuild.
 * - `addBackground`: `ServingRun.addBackground` at the current simulated time on every lane.
 * - `removeBackground`: the engine cannot end a background it was given (no end hook, and
 *   negative intensities are refused), so the lanes are rebuilt and replayed to the current
 *   time with every live change at its time and the removed background ending now (exact,
 *   deterministic; it costs the simulated time so far, synchronously).
 * - `setArrivalRate`: the Poisson trace is drawn from the rate, so a new rate restarts the run
 *   from time 0 (with the live changes folded into the scenario, as `reset`).
 *
 * Time travel (`seek`) replays from time 0 with every live change at its time — learning
 * lanes included, whose networks, optimizer state, replay buffer and random generator are
 * rebuilt from the scenario (and the shipped agent) and trained again on the same trace,
 * bit for bit. It keeps no checkpoints, so memory stays that of one run whatever its length;
 * a seek back costs the simulated time up to the target (the bench measures 600 s back with
 * a BCEdge lane). The engine's `ServingRun` has no snapshot, and a learner's state is
 * megabytes of tensors: replaying is the bounded choice (issue 12).
 */
export class ServingSession {
  /** The scenario the lanes were built from (at load, reset, rate change). */
  private base: ServingScenario | null = null;
  /** Live changes in time order; those applied to the lanes as built now are in `applied`. */
  private changes: LiveChange[] = [];
  private applied = new Set<LiveChange>();
  /** How far the run has been since it was built from `base` (the time line's extent), ms. */
  private furthestMs = 0;
  private timelineDue = true;
  /** Backgrounds scripted by `base`, with ids. */
  private scripted: BackgroundView[] = [];
  private lanes: Lane[] = [];
  private generation = 0;
  private timeMs = 0;
  private durationMs = 0;
  private slotMs = 1000;
  private slot = 0;
  private nextBackgroundId = 1;
  private summariesDue = false;
  private replaceDue = false;
  /** A reference lane searched while the lanes were built: the next frame says it is over. */
  private searchEndDue = false;

  /** Builds the learning lanes; set by the worker once TensorFlow.js is loaded. */
  private learningFactory: LearningFactory | null = null;

  private readonly loop: LiveLoop;

  constructor(private readonly host: SessionHost<ServingFrame>) {
    this.loop = new LiveLoop(
      host,
      {
        position: () => this.timeMs,
        end: () => this.durationMs,
        unitsPerSpeedSecond: 1000,
        integral: false,
        advanceToward: (target) => this.advanceOnce(target),
      },
      (done) => {
        if (done) this.summariesDue = true;
        this.report(done);
      },
      10,
    );
  }

  private get status(): ServingFrame['status'] {
    return this.loop.status;
  }

  private set status(status: ServingFrame['status']) {
    this.loop.status = status;
  }

  setLearning(factory: LearningFactory | null): void {
    this.learningFactory = factory;
  }

  /** Frees the lanes' learners (tensors are not garbage-collected). */
  private disposeLanes(): void {
    for (const lane of this.lanes) lane.inner.dispose?.();
    this.lanes = [];
  }

  /** A learning lane's agent as a file; null for other lanes. */
  exportAgent(lane: number): AgentFile | null {
    const l = this.lanes[lane];
    if (l === undefined || l.learning === null) return null;
    const title = this.base?.title ?? 'scenario';
    return l.learning.exportAgent(`${title}, seed ${this.base?.seed ?? 0}, ${Math.round(this.timeMs / 1000)} s simulated in the page`);
  }

  /** Runs the next SAC update of a BCEdge/TAC lane step by step and returns its numbers (issue 7's walkthrough). */
  explainUpdate(lane: number): SacUpdateExplained | null {
    const learner = this.lanes[lane]?.learning?.scheduler.learner;
    if (!(learner instanceof DiscreteSac)) return null;
    const explained = learner.explainUpdate();
    // The update changed the learner: a replay must apply it again at this time.
    const change: LiveChange = { kind: 'explain', atMs: this.timeMs, lane };
    this.record0(change);
    return explained;
  }

  /** Loads an agent into a learning lane now (it acts with it from the next slot). */
  importAgent(lane: number, file: unknown): { readonly ok: true } | { readonly ok: false; readonly error: string } {
    if (!Number.isInteger(lane) || lane < 0 || lane >= this.lanes.length) return { ok: false, error: `lane: expected an index from 0 to ${this.lanes.length - 1}, got ${String(lane)}` };
    const l = this.lanes[lane]!;
    if (l.learning === null) return { ok: false, error: `lane: ${l.info.label} does not learn (no agent to load)` };
    const result = l.learning.importAgent(file);
    if (result.ok) this.record0({ kind: 'agent', atMs: this.timeMs, lane, file: structuredClone(file) });
    return result;
  }

  /** Loads a serving scenario from any value (validated here: the worker is a door too). */
  load(input: unknown): ServingLoadResult {
    const parsed = parseAnyScenario(input);
    if (!parsed.ok) return parsed;
    if (parsed.scenario.world !== 'serving') {
      return { ok: false, errors: [{ path: 'world', message: 'must be "serving": the serving page runs serving scenarios' }] };
    }
    const learningLane = parsed.scenario.serving.lanes.findIndex((l) => isLearningScheduler(l.scheduler));
    if (learningLane >= 0 && this.learningFactory === null) {
      return { ok: false, errors: [{ path: `serving.lanes[${learningLane}].scheduler`, message: 'is a learning scheduler and TensorFlow.js could not be loaded' }] };
    }
    const previous = this.base;
    this.base = parsed.scenario;
    this.status = 'paused';
    try {
      this.restart();
    } catch (error) {
      // A learning lane that cannot be built (e.g. no shipped agent): keep the last good scenario.
      this.base = previous;
      if (previous !== null) this.restart();
      return { ok: false, errors: [{ path: 'serving.lanes', message: error instanceof Error ? error.message : String(error) }] };
    }
    const scenario = this.base;
    const first = this.lanes[0]!.run.observe();
    return {
      ok: true,
      scenario,
      lanes: this.lanes.map((l) => l.info),
      models: scenario.serving.models.map((m, i) => ({ model: m.model, weight: m.weight, sloMs: first.models[i]!.sloMs })),
      platform: scenario.serving.platform,
      memoryMb: first.memoryMb,
      slotMs: this.slotMs,
      durationMs: this.durationMs,
      backgrounds: this.backgrounds(),
    };
  }

  play(): void {
    if (this.base === null) return;
    this.loop.play();
  }

  pause(): void {
    if (!this.loop.pause()) return;
    this.summariesDue = true;
    this.report(true);
  }

  /** Advances every lane by `simulatedMs`, then reports. */
  step(simulatedMs: number): void {
    if (this.base === null || !(simulatedMs > 0) || !Number.isFinite(simulatedMs)) return;
    if (this.status === 'playing') this.status = 'paused';
    this.advanceTo(Math.min(this.durationMs, this.timeMs + simulatedMs));
    if (this.timeMs >= this.durationMs) this.status = 'done';
    this.summariesDue = true;
    this.report(true);
  }

  /** Back to time 0 of the scenario as it stands now (live changes folded in). */
  reset(): void {
    if (this.base === null) return;
    this.base = this.currentScenario();
    this.status = 'paused';
    this.restart();
  }

  setSpeed(speed: ServingSpeed): void {
    if (speed !== 'max' && !(Number.isFinite(speed) && speed >= SERVING_SPEED_LIMITS.min && speed <= SERVING_SPEED_LIMITS.max)) return;
    this.loop.setSpeed(speed);
  }

  /**
   * Sets the request rate. The arrival trace is drawn from the rate, so the run restarts
   * from time 0 with it (live changes folded into the scenario); playing goes on playing.
   */
  setArrivalRate(rateRps: number): boolean {
    if (this.base === null || !(rateRps >= SERVING_LIMITS.rateRps.min && rateRps <= SERVING_LIMITS.rateRps.max)) return false;
    const current = this.currentScenario()!;
    if (rateRps * current.serving.durationS > SERVING_LIMITS.requests) return false;
    this.base = { ...current, serving: { ...current.serving, rateRps } };
    const playing = this.status === 'playing';
    this.status = 'paused';
    this.restart();
    if (playing) this.play();
    return true;
  }

  /** Sets (b, m_c) of one model on a fixed lane from the next slot on. */
  setModelConfig(laneIndex: number, model: number, batchSize: number, instances: number): ServingLaneInfo | null {
    const lane = this.lanes[laneIndex];
    if (lane === undefined || lane.hooks.overrides === null || this.status === 'done' || this.timeMs >= this.durationMs) return null;
    if (!Number.isInteger(model) || model < 0 || model >= lane.hooks.overrides.length) return null;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) return null;
    if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES) return null;
    this.record({ kind: 'config', atMs: this.timeMs, lane: laneIndex, model, action: { batchSize, instances } });
    this.report(true);
    return lane.info;
  }

  /** Drops background interference onto the device of every lane from now on. */
  addBackground(intensity: number, memoryMb: number): readonly BackgroundView[] {
    if (this.base === null || this.timeMs >= this.durationMs) return this.backgrounds();
    if (!(intensity >= 0 && intensity <= 1) || !(memoryMb >= 0 && memoryMb <= 100_000)) return this.backgrounds();
    if (this.scripted.length + this.changes.filter((c) => c.kind === 'background').length >= SERVING_LIMITS.background) return this.backgrounds();
    this.record({ kind: 'background', atMs: this.timeMs, id: this.nextBackgroundId++, intensity, memoryMb, toMs: null });
    this.report(true);
    return this.backgrounds();
  }

  /**
   * Ends a background now (or drops it if it has not started). The engine has no hook to
   * end one, so the lanes are replayed to the current time (see the class comment).
   */
  removeBackground(id: number): readonly BackgroundView[] {
    if (this.base === null) return this.backgrounds();
    const now = this.timeMs;
    const live = this.changes.find((c): c is Extract<LiveChange, { kind: 'background' }> => c.kind === 'background' && c.id === id);
    if (live !== undefined) {
      if (live.toMs !== null && live.toMs <= now) return this.backgrounds();
      if (live.atMs >= now) this.changes = this.changes.filter((c) => c !== live);
      else live.toMs = now;
      this.timelineDue = true;
    } else {
      const i = this.scripted.findIndex((b) => b.id === id);
      const b = this.scripted[i];
      if (b === undefined || (b.toMs !== null && b.toMs <= now)) return this.backgrounds();
      const list = [...this.base.serving.background];
      if (b.fromMs >= now) list.splice(i, 1);
      else list[i] = { ...list[i]!, toS: now / 1000 };
      this.base = { ...this.base, serving: { ...this.base.serving, background: list } };
      this.scripted = b.fromMs >= now ? this.scripted.filter((x) => x.id !== id) : this.scripted.map((x) => (x.id === id ? { ...x, toMs: now } : x));
      this.timelineDue = true;
    }
    this.replay(now);
    return this.backgrounds();
  }

  /** The scenario as it stands (live backgrounds and per-model settings included). */
  currentScenario(): ServingScenario | null {
    const base = this.base;
    if (base === null) return null;
    const background = [...base.serving.background];
    const lanes = base.serving.lanes.map((l) => ({ ...l, params: { ...l.params } }));
    const models = base.serving.models;
    for (const c of this.changes) {
      if (c.kind === 'agent' || c.kind === 'explain') continue;
      if (c.kind === 'background') {
        background.push({ fromS: c.atMs / 1000, toS: c.toMs === null ? null : c.toMs / 1000, intensity: c.intensity, memoryMb: c.memoryMb });
      } else {
        const params = lanes[c.lane]!.params;
        const id = models[c.model]!.model;
        params[`batchSize.${id}`] = c.action.batchSize;
        params[`instances.${id}`] = c.action.instances;
      }
    }
    return { ...base, serving: { ...base.serving, background, lanes } };
  }

  // ---- Building and replaying --------------------------------------------------------------

  /** Rebuilds the lanes from `base` at time 0 with no live changes, and reports. */
  private restart(): void {
    this.changes = [];
    this.furthestMs = 0;
    this.timelineDue = true;
    this.build();
    this.scripted = this.base!.serving.background.map((b, i) => ({
      id: i + 1,
      intensity: b.intensity,
      memoryMb: b.memoryMb ?? 0,
      fromMs: b.fromS * 1000,
      toMs: b.toS === null ? null : b.toS * 1000,
    }));
    this.nextBackgroundId = this.scripted.length + 1;
    this.report(true);
  }

  /** Fresh lanes at time 0 from `base` (no report). */
  private build(): void {
    const scenario = this.base!;
    this.disposeLanes();
    this.generation++;
    const spec = { ...buildServingSpec(scenario), seriesCap: 2 };
    const models = spec.models.map((m) => m.model);
    this.timeMs = 0;
    this.slot = 0;
    this.durationMs = spec.durationMs;
    this.slotMs = spec.assumptions.slotMs;
    const references = scenario.serving.lanes.flatMap((l, index) => (SERVING_SCHEDULERS[l.scheduler].reference === true ? [index] : []));
    this.lanes = scenario.serving.lanes.map((l, index) => {
      const params = servingLaneParameters(l);
      const context = servingSchedulerContext(scenario.seed, models, this.learningFactory ?? undefined, spec);
      const ordinal = references.indexOf(index) + 1;
      const searchProgress = ordinal === 0 ? undefined : this.searchReporter({ lane: index, label: servingLaneLabel(l.scheduler, params), ordinal, of: references.length });
      const inner = SERVING_SCHEDULERS[l.scheduler].create(params, searchProgress === undefined ? context : { ...context, searchProgress });
      const hooks: LaneHooks = { overrides: l.scheduler === 'fixed' ? models.map(() => null) : null, view: null };
      const lane: Pick<Lane, 'decisionMs' | 'decisions'> = { decisionMs: 0, decisions: 0 };
      const timing = {
        now: () => this.host.now(),
        add: (ms: number) => {
          lane.decisionMs += ms;
          lane.decisions++;
        },
      };
      const run = new ServingRun(spec, wrapScheduler(inner, hooks, timing));
      return Object.assign(lane, {
        info: {
          index,
          scheduler: l.scheduler,
          label: servingLaneLabel(l.scheduler, params),
          params,
          configurable: l.scheduler === 'fixed',
          learning: isLearningScheduler(l.scheduler),
        },
        inner,
        learning: inner instanceof LearningScheduler ? new LearningLane(inner) : null,
        run,
        series: new ServingSeries(models.length),
        hooks,
        action: run.currentAction,
      });
    });
    if (references.length > 0) this.searchEndDue = true;
    this.loop.resetMeasure();
    this.applied = new Set();
    this.summariesDue = false;
    this.replaceDue = true;
  }

  /**
   * What a reference lane's search calls after each evaluation: a frame with the progress and
   * no lanes (they are being built), sent on the first evaluation and then at most
   * SEARCH_PROGRESS_FRAMES times. The worker is busy in this synchronous search, but frames
   * still reach the page (and tell its liveness check the worker is alive).
   */
  private searchReporter(lane: Omit<ServingSearchProgress, 'done' | 'total'>): (done: number, total: number) => void {
    return (done, total) => {
      const every = Math.max(1, Math.floor(total / SEARCH_PROGRESS_FRAMES));
      if (done !== 1 && done % every !== 0) return;
      const frame: ServingFrame = {
        generation: this.generation,
        timeMs: 0,
        durationMs: this.durationMs,
        status: this.status,
        stride: 1,
        replace: true,
        models: 0,
        lanes: [],
        backgrounds: [],
        measuredSpeed: 0,
        furthestMs: 0,
        search: { ...lane, done, total },
      };
      this.host.emit(frame, []);
    };
  }

  /** Rebuilds the lanes and replays every live change at its time up to `untilMs`. */
  private replay(untilMs: number): void {
    this.build();
    this.advanceTo(untilMs);
    this.summariesDue = this.status !== 'playing';
    this.report(true);
  }

  /** A live change already applied by its caller: kept in time order, for replays. */
  private record0(change: LiveChange): void {
    let at = this.changes.length;
    while (at > 0 && this.changes[at - 1]!.atMs > change.atMs) at--;
    this.changes.splice(at, 0, change);
    this.applied.add(change);
    this.timelineDue = true;
  }

  /** A live change made now: kept in time order (after a seek back, before the later ones) and applied. */
  private record(change: LiveChange): void {
    this.record0(change);
    this.apply(change);
  }

  /** Applies the changes due by now that the lanes have not had yet (a replay reaching them). */
  private applyDue(): void {
    for (const c of this.changes) {
      if (c.atMs > this.timeMs) break;
      if (!this.applied.has(c)) this.apply(c);
    }
  }

  /** When the next change not yet applied is due (Infinity when none). */
  private nextChangeMs(): number {
    for (const c of this.changes) if (c.atMs > this.timeMs && !this.applied.has(c)) return c.atMs;
    return Number.POSITIVE_INFINITY;
  }

  private apply(c: LiveChange): void {
    this.applied.add(c);
    if (c.kind === 'agent') {
      this.lanes[c.lane]?.learning?.importAgent(c.file);
    } else if (c.kind === 'explain') {
      const learner = this.lanes[c.lane]?.learning?.scheduler.learner;
      if (learner instanceof DiscreteSac) learner.explainUpdate();
    } else if (c.kind === 'config') {
      const lane = this.lanes[c.lane]!;
      lane.hooks.overrides![c.model] = { ...c.action };
      const id = this.base!.serving.models[c.model]!.model;
      const params = { ...lane.info.params, [`batchSize.${id}`]: c.action.batchSize, [`instances.${id}`]: c.action.instances };
      lane.info = { ...lane.info, params };
    } else {
      for (const lane of this.lanes) lane.run.addBackground({ fromMs: c.atMs, toMs: c.toMs, intensity: c.intensity, memoryMb: c.memoryMb });
    }
  }

  /**
   * Goes to `timeMs` of the run: back by replaying from time 0 (see the class comment), so
   * the board and charts show exactly what they showed the first time; forward by running
   * on. The worker is a door: a bad position is refused with a message naming the field.
   */
  seek(timeMs: unknown): { readonly ok: true } | { readonly ok: false; readonly errors: readonly { readonly path: string; readonly message: string }[] } {
    if (this.base === null) return { ok: false, errors: [{ path: 'timeMs', message: 'no scenario is loaded' }] };
    if (typeof timeMs !== 'number' || !Number.isFinite(timeMs) || timeMs < 0 || timeMs > this.durationMs) {
      return { ok: false, errors: [{ path: 'timeMs', message: `must be a number of simulated ms from 0 to ${this.durationMs}, got ${typeof timeMs === 'number' ? String(timeMs) : typeof timeMs}` }] };
    }
    this.loop.pause();
    if (timeMs < this.timeMs) {
      this.build();
      this.advanceTo(timeMs);
    } else {
      this.advanceTo(timeMs);
    }
    this.loop.settle();
    this.summariesDue = true;
    this.report(true);
    return { ok: true };
  }

  /** The time line's markers: tenants arriving and leaving, configuration changes (fixed lanes), agents loaded. */
  private timelineMarkers(): ServingMarker[] {
    const markers: ServingMarker[] = [];
    for (const b of this.backgrounds()) {
      markers.push({ timeMs: b.fromMs, kind: 'tenant-on', lane: -1, background: b.id });
      if (b.toMs !== null) markers.push({ timeMs: b.toMs, kind: 'tenant-off', lane: -1, background: b.id });
    }
    const configs = this.changes.filter((c) => c.kind === 'config');
    for (const c of configs.slice(-TIMELINE_CONFIG_MARKERS)) {
      markers.push({ timeMs: c.atMs, kind: 'config', lane: c.lane, model: this.base!.serving.models[c.model]!.model, batchSize: c.action.batchSize, instances: c.action.instances });
    }
    for (const c of this.changes) if (c.kind === 'agent') markers.push({ timeMs: c.atMs, kind: 'agent', lane: c.lane });
    return markers.sort((a, b) => a.timeMs - b.timeMs);
  }

  private backgrounds(): BackgroundView[] {
    const live = this.changes.flatMap((c) =>
      c.kind === 'background' ? [{ id: c.id, intensity: c.intensity, memoryMb: c.memoryMb, fromMs: c.atMs, toMs: c.toMs }] : [],
    );
    return [...this.scripted, ...live];
  }

  // ---- Advancing --------------------------------------------------------------------------

  private slotEnd(slot: number): number {
    return Math.min((slot + 1) * this.slotMs, this.durationMs);
  }

  /** Advances every lane to `targetMs` in lock step, slot boundary by slot boundary. */
  private advanceTo(targetMs: number): void {
    const target = Math.min(targetMs, this.durationMs);
    while (this.timeMs < target) this.advanceOnce(target);
    this.applyDue();
  }

  /** One stretch: to the next slot boundary or `target`, whichever comes first. */
  private advanceOnce(target: number): void {
    // A replay stops where a live change was made, and applies it there, as it was the first time.
    this.applyDue();
    const end = this.slotEnd(this.slot);
    const next = Math.min(end, target, this.nextChangeMs());
    for (const lane of this.lanes) lane.run.advanceTo(next);
    this.timeMs = next;
    if (next > this.furthestMs) this.furthestMs = next;
    if (next < end) return;
    const slotStart = this.slot * this.slotMs;
    for (const lane of this.lanes) {
      const observation = lane.run.observe();
      const samples = observation.models.map((m, i) => {
        const s = m.lastSlot;
        const a = lane.action[i]!;
        return {
          arrivals: s?.arrivals ?? 0,
          completed: s?.completed ?? 0,
          latencyMeanMs: s?.latencyMeanMs ?? 0,
          utility: s?.utility ?? null,
          violations: s?.violations ?? 0,
          batchSize: a.batchSize,
          instances: a.instances,
        };
      });
      lane.series.add(slotStart, end, samples);
      if (end >= this.durationMs) lane.series.flush();
      lane.learning?.recordSlot(this.slot);
      lane.action = lane.run.currentAction;
    }
    this.slot++;
  }

  // ---- Playing and reporting --------------------------------------------------------------

  private live(lane: Lane): ServingLaneLive {
    const o = lane.run.observe();
    const view = lane.hooks.view;
    const now = o.nowMs;
    const models: ServingModelLive[] = o.models.map((m, i) => {
      const atMost = (fraction: number) => (view === null ? 0 : view.queuedWithDeadlineAtMost(i, now + fraction * m.sloMs));
      const late = atMost(0);
      const under25 = atMost(0.25);
      const under50 = atMost(0.5);
      return {
        instances: m.instances,
        busyInstances: m.busyInstances,
        batchSize: m.batchSize,
        queueLength: m.queueLength,
        oldestSlackMs: m.oldestSlackMs,
        slack: { late, under25: under25 - late, under50: under50 - under25, rest: m.queueLength - under50 },
      };
    });
    return {
      memoryUsedMb: o.memoryMb - o.availableMemoryMb,
      memoryTotalMb: o.memoryMb,
      availableCompute: o.availableCompute,
      runningBatches: o.runningBatches,
      models,
    };
  }

  /** Sends a frame when one is due (or `force`). */
  private report(force: boolean): void {
    const due = this.loop.frameDue(force);
    if (due === null) return;
    const now = this.host.now();
    const transfer: ArrayBuffer[] = [];
    let replace = this.replaceDue;
    this.replaceDue = false;
    const lanes = this.lanes.map((lane) => {
      const { chunk, replace: r } = lane.series.takeChunk();
      replace ||= r;
      for (const a of Object.values(chunk)) transfer.push((a as Float64Array).buffer as ArrayBuffer);
      // null before the first decision; 0 when every decision took less than the clock's resolution.
      const decisionUs = lane.decisions > 0 ? (1000 * lane.decisionMs) / lane.decisions : null;
      if (lane.learning === null) return { points: chunk, live: this.live(lane), decisionUs };
      const learning = lane.learning.live(now, decisionUs ?? 0, force);
      transfer.push(...learning.transfer);
      return { points: chunk, live: this.live(lane), decisionUs, learning: learning.live };
    });
    // Every lane's series holds the same slots, so all lanes compact together: a replace
    // frame carries every point of every lane (after a rebuild every series is new).
    let summaries: ServingSummary[] | undefined;
    if (this.summariesDue) {
      summaries = this.lanes.map((l) => {
        const report = l.inner.report?.();
        const decisionMeanUs = l.decisions > 0 ? (1000 * l.decisionMs) / l.decisions : 0;
        return { ...l.run.summary(), decisionMeanUs, ...(report === undefined ? {} : { learning: report }) };
      });
      this.summariesDue = false;
    }
    let timeline: ServingFrame['timeline'];
    if (this.timelineDue || force) {
      timeline = { markers: this.timelineMarkers() };
      this.timelineDue = false;
    }
    const frame: ServingFrame = {
      generation: this.generation,
      timeMs: this.timeMs,
      durationMs: this.durationMs,
      status: this.status,
      stride: this.lanes[0]?.series.stride ?? 1,
      replace,
      models: this.base?.serving.models.length ?? 0,
      lanes,
      backgrounds: this.backgrounds(),
      ...(summaries ? { summaries } : {}),
      measuredSpeed: due.measuredSpeed,
      furthestMs: this.furthestMs,
      ...(timeline ? { timeline } : {}),
      ...(this.searchEndDue ? { search: null } : {}),
    };
    this.searchEndDue = false;
    this.host.emit(frame, transfer);
  }
}
