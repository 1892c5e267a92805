import type { PipelineSummary } from '../engine/pipeline/metrics';
import type { PipelineRun, PipelineRunSnapshot, QueryRecord } from '../engine/pipeline/simulation';
import { INTERFERENCE_MODE_IDS, MODE_IDS, type InterferenceModeId } from '../engine/profiles/types';
import { parseScenario } from '../scenario/parse';
import { createLaneRuns, laneParameters } from '../scenario/pipelineRunner';
import type { PipelineScenario } from '../scenario/schema';
import { laneLabel } from '../schedulers/pipeline/registry';
import type { AlgorithmStep, AlgorithmTrace } from '../schedulers/pipeline/trace';
import type { EventView, Frame, LaneInfo, LoadResult, Marker, SeekResult, Speed, TeachingFrame, TimelineFrame } from './protocol';
import { SPEED_LIMITS, TIMELINE_MARKERS } from './protocol';
import { CheckpointLog, EditLog, LiveLoop, type SessionHost } from './liveLoop';
import { LaneSeriesBuilder, type SeriesSnapshot } from './seriesBuilder';
/**
 * Markers sent per frame at most (the newest). At full speed thousands of detections and
 * interference changes happen between two frames, far more than a chart has pixels.
 */
const MARKERS_PER_FRAME = 256;
/** Latency samples kept per lane for the percentiles of a long live run. */
const LATENCY_SAMPLE_CAP = 1 << 16;
/**
 * Time travel (issue 7): the session keeps checkpoints of every lane and replays from the
 * nearest one, instead of storing frames. One every CHECKPOINT_EVERY queries at first; past
 * MAX_CHECKPOINTS the spacing doubles (every other one is dropped), so a run of any length
 * keeps at most MAX_CHECKPOINTS and a seek replays at most one spacing per lane.
 */
const CHECKPOINT_EVERY = 50;
const MAX_CHECKPOINTS = 64;
/** Markers the time line keeps (the newest) and sends to the charts after a seek. */
const MARKERS_AFTER_SEEK = 2_000;
/** The time line's resolution: at most one marker per kind and lane in each 1/TIMELINE_BUCKETS of the run. */
const TIMELINE_BUCKETS = 4_000;
/** Minimum wall-clock time between two time-line updates while playing, ms. */
const TIMELINE_INTERVAL_MS = 500;

interface Lane {
  info: LaneInfo;
  run: PipelineRun;
  series: LaneSeriesBuilder;
  lastBottleneckMs: number;
  lastOptimalBottleneckMs: number;
  lastConfiguration: Int32Array;
  lastStageTimes: Float64Array;
}

/** Copy of what the live view needs from a record (the engine reuses its buffers). */
function keep(lane: Lane, r: QueryRecord): void {
  lane.lastBottleneckMs = r.bottleneckMs;
  lane.lastOptimalBottleneckMs = r.optimalBottleneckMs;
  lane.lastConfiguration.set(r.configuration);
  lane.lastStageTimes.set(r.stageTimesMs);
}

/** Every lane and the session's own state after `served` queries. */
interface Checkpoint {
  readonly served: number;
  readonly previousModes: Uint8Array;
  readonly lanes: readonly {
    readonly run: PipelineRunSnapshot;
    readonly series: SeriesSnapshot;
    readonly lastBottleneckMs: number;
    readonly lastOptimalBottleneckMs: number;
    readonly lastConfiguration: Int32Array;
    readonly lastStageTimes: Float64Array;
  }[];
}

/** A change made live (placed workload, α, threshold), replayed at its query after a seek: it applies before the next query is served. */
type LiveEdit = () => void;

/**
 * The live pipeline lab behind the page: every lane of a scenario advancing in lock step,
 * query by query, on one interference trace, paced to a speed and reported in frames. It
 * owns no timers itself (the host schedules), so it runs the same in a worker and a test.
 */
export class PipelineSession {
  private scenario: PipelineScenario | null = null;
  private lanes: Lane[] = [];
  private generation = 0;
  private served = 0;
  private total = 0;
  private stages = 0;
  private events: EventView[] = [];
  private nextEventId = 1;
  private markers: Marker[] = [];
  private previousModes = new Uint8Array(0);
  private summariesDue = false;
  private readonly checkpoints = new CheckpointLog<Checkpoint>(CHECKPOINT_EVERY, MAX_CHECKPOINTS);
  private readonly edits = new EditLog<LiveEdit>();
  /** Markers up to `furthest`, in query order, for the time line. */
  private markerLog: Marker[] = [];
  private markerLogSent = 0;
  private timelineReset = true;
  private furthest = 0;
  private traceLane = 0;
  /** On only while the last query of a batch is served: the trace costs nothing elsewhere. */
  private tracing = false;
  private steps: AlgorithmStep[] = [];
  private collected: AlgorithmStep[] = [];
  private cursor = -1;
  private teachingDirty = true;
  private lastTeachingMs = Number.NEGATIVE_INFINITY;
  /** The time-line bucket of the last logged marker, per kind and lane. */
  private readonly markerBuckets = new Map<string, number>();
  private markerCap = MARKERS_PER_FRAME;
  private lastTimelineMs = Number.NEGATIVE_INFINITY;

  private readonly loop: LiveLoop;

  constructor(private readonly host: SessionHost<Frame>) {
    this.loop = new LiveLoop(
      host,
      {
        position: () => this.served,
        end: () => this.total,
        unitsPerSpeedSecond: 1,
        integral: true,
        advanceToward: (target) => this.advance(Math.min(256, target - this.served)),
      },
      (done) => {
        if (done) this.summariesDue = true;
        this.report(done);
      },
      60,
    );
  }

  private get status() {
    return this.loop.status;
  }

  private set status(status: Frame['status']) {
    this.loop.status = status;
  }

  /** Loads a scenario from any value (validated here: the worker is a door too). */
  load(input: unknown): LoadResult {
    const parsed = parseScenario(input);
    if (!parsed.ok) return parsed;
    this.scenario = parsed.scenario;
    this.status = 'paused';
    this.rebuild();
    const first = this.lanes[0]!.run;
    return {
      ok: true,
      scenario: this.scenario,
      lanes: this.lanes.map((l) => l.info),
      layers: this.layers(),
      peakQps: first.metrics.summary().peakThroughputQps,
      initialConfiguration: first.configuration.slice(),
      events: this.events,
    };
  }

  play(): void {
    if (this.scenario === null) return;
    this.loop.play();
  }

  pause(): void {
    if (!this.loop.pause()) return;
    this.summariesDue = true;
    this.report(true);
  }

  /** Serves `n` more queries on every lane, then reports. */
  step(n: number): void {
    if (this.scenario === null || !Number.isInteger(n) || n < 1) return;
    if (this.status === 'playing') this.status = 'paused';
    this.advance(Math.min(n, this.total - this.served));
    this.cursor = this.steps.length - 1;
    if (this.served >= this.total) this.status = 'done';
    this.summariesDue = true;
    this.report(true);
  }

  /**
   * Goes to `query` queries served — back by restoring the nearest checkpoint at or before it
   * and replaying (the board and charts then show exactly what they showed the first time),
   * forward by serving — and shows algorithm step `step` of that query's rebalancing. The
   * worker is a door: a bad position is refused with a message naming the field.
   */
  seek(query: unknown, step?: unknown): SeekResult {
    if (this.scenario === null) return { ok: false, errors: [{ path: 'query', message: 'no scenario is loaded' }] };
    if (typeof query !== 'number' || !Number.isInteger(query) || query < 0 || query > this.total) {
      return { ok: false, errors: [{ path: 'query', message: `must be an integer from 0 to ${this.total}, got ${describe(query)}` }] };
    }
    if (step !== undefined && (typeof step !== 'number' || !Number.isInteger(step) || step < 0)) {
      return { ok: false, errors: [{ path: 'step', message: `must be an integer ≥ 0 (an algorithm step of the query), got ${describe(step)}` }] };
    }
    if (this.status === 'playing') this.status = 'paused';
    this.goTo(query);
    this.cursor = step === undefined ? this.steps.length - 1 : Math.min(step, this.steps.length - 1);
    this.teachingDirty = true;
    this.status = this.served >= this.total ? 'done' : 'paused';
    this.summariesDue = true;
    this.report(true);
    return { ok: true };
  }

  /**
   * One step of the algorithm the teaching view follows: the next (or previous) line it
   * executed; where no algorithm runs, one query forward (or back).
   */
  stepAlgorithm(direction: 1 | -1): void {
    if (this.scenario === null) return;
    if (this.status === 'playing') this.status = 'paused';
    if (direction === 1) {
      if (this.cursor < this.steps.length - 1) this.cursor++;
      else if (this.served < this.total) {
        this.advance(1);
        this.cursor = this.steps.length > 0 ? 0 : -1;
      }
    } else if (direction === -1) {
      if (this.cursor > 0) this.cursor--;
      else if (this.served > 0) {
        this.goTo(this.served - 1);
        this.cursor = this.steps.length - 1;
      }
    } else {
      return;
    }
    this.teachingDirty = true;
    this.status = this.served >= this.total ? 'done' : 'paused';
    this.summariesDue = true;
    this.report(true);
  }

  /** Follows another lane's algorithm (the selected lane); its steps of the last query are replayed. */
  setTraceLane(lane: number): void {
    if (this.scenario === null || !Number.isInteger(lane) || lane < 0 || lane >= this.lanes.length || lane === this.traceLane) return;
    this.traceLane = lane;
    const wasPlaying = this.status === 'playing';
    if (!wasPlaying) {
      const cursor = this.cursor;
      this.goTo(this.served);
      this.cursor = Math.min(cursor < 0 ? this.steps.length - 1 : cursor, this.steps.length - 1);
      this.summariesDue = true;
    } else {
      this.steps = [];
      this.cursor = -1;
    }
    this.teachingDirty = true;
    this.report(true);
  }

  /** Back to query 0 of the scenario as it stands now (placed events included). */
  reset(): void {
    if (this.scenario === null) return;
    this.status = 'paused';
    this.rebuild();
  }

  setSpeed(speed: Speed): void {
    if (speed !== 'max' && !(Number.isFinite(speed) && speed >= SPEED_LIMITS.min && speed <= SPEED_LIMITS.max)) return;
    this.loop.setSpeed(speed);
  }

  /** Co-locates a workload in `mode` on an EP from the next query on. */
  addEvent(executionPlace: number, mode: InterferenceModeId): readonly EventView[] {
    if (this.scenario === null || !Number.isInteger(executionPlace) || executionPlace < 0 || executionPlace >= this.stages) return this.events;
    if (!INTERFERENCE_MODE_IDS.includes(mode) || this.served >= this.total) return this.events;
    const event: EventView = { id: this.nextEventId++, executionPlace, mode, fromQuery: this.served, toQuery: null };
    const modeIndex = MODE_IDS.indexOf(mode);
    const apply = () => {
      for (const lane of this.lanes) lane.run.timeline.addEvent({ executionPlace, mode: modeIndex, fromQuery: event.fromQuery, toQuery: null, id: event.id });
    };
    apply();
    this.logEdit(apply);
    this.events = [...this.events, event];
    this.syncScenarioEvents();
    this.report(true);
    return this.events;
  }

  /** Ends a placed or scripted event from the next query on (or drops it if not started). */
  removeEvent(id: number): readonly EventView[] {
    const event = this.events.find((e) => e.id === id);
    if (event === undefined || this.scenario === null) return this.events;
    if (event.fromQuery >= this.served || this.served >= this.total) {
      // Not started yet (or the run is over): it never happened.
      if (this.served < this.total) {
        const at = Math.max(this.served, event.fromQuery);
        const apply = () => {
          for (const lane of this.lanes) lane.run.endEvent(id, at);
        };
        apply();
        this.logEdit(apply);
      }
      this.events = this.events.filter((e) => e.id !== id);
    } else if (event.toQuery === null || event.toQuery > this.served) {
      const at = this.served;
      const apply = () => {
        for (const lane of this.lanes) lane.run.endEvent(id, at);
      };
      apply();
      this.logEdit(apply);
      this.events = this.events.map((e) => (e.id === id ? { ...e, toQuery: this.served } : e));
    }
    this.syncScenarioEvents();
    this.report(true);
    return this.events;
  }

  /** Changes a lane's scheduler parameter (ODIN's α) from its next rebalancing on. */
  setLaneParameter(laneIndex: number, name: string, value: number): LaneInfo | null {
    const lane = this.lanes[laneIndex];
    if (lane === undefined || this.scenario === null) return null;
    try {
      if (!lane.run.setSchedulerParameter(name, value)) return null;
    } catch {
      return null;
    }
    this.logEdit(() => lane.run.setSchedulerParameter(name, value));
    const lanes = this.scenario.pipeline.lanes.map((l, i) => (i === laneIndex ? { ...l, params: { ...l.params, [name]: value } } : l));
    this.scenario = { ...this.scenario, pipeline: { ...this.scenario.pipeline, lanes } };
    const params = laneParameters(lanes[laneIndex]!);
    lane.info = { ...lane.info, params, label: laneLabel(lane.info.scheduler as never, params) };
    return lane.info;
  }

  /** Changes the monitor's threshold on every lane from the next query on. */
  setDetectionThreshold(threshold: number): boolean {
    if (this.scenario === null || !(threshold >= 0.0001 && threshold <= 10)) return false;
    const apply = () => {
      for (const lane of this.lanes) lane.run.setDetectionThreshold(threshold);
    };
    apply();
    this.logEdit(apply);
    const p = this.scenario.pipeline;
    this.scenario = { ...this.scenario, pipeline: { ...p, assumptions: { ...p.assumptions, detectionThreshold: threshold } } };
    return true;
  }

  /** The scenario as it stands (placed events and live changes included). */
  currentScenario(): PipelineScenario | null {
    return this.scenario;
  }

  private layers(): string[] {
    return [...this.lanes[0]!.run.layerNames];
  }

  private rebuild(): void {
    const scenario = this.scenario!;
    this.generation++;
    this.served = 0;
    this.total = scenario.pipeline.queries;
    this.stages = scenario.pipeline.executionPlaces;
    const built = createLaneRuns(scenario, {}, scenario.seed, LATENCY_SAMPLE_CAP, (index) => this.traceSink(index));
    this.lanes = built.map(({ lane, label, run }, index) => ({
      info: { index, scheduler: lane.scheduler, label, params: laneParameters(lane) },
      run,
      series: new LaneSeriesBuilder(),
      lastBottleneckMs: 0,
      lastOptimalBottleneckMs: 0,
      lastConfiguration: run.configuration.slice(),
      lastStageTimes: new Float64Array(this.stages),
    }));
    if (this.traceLane >= this.lanes.length) this.traceLane = 0;
    this.events = scenario.pipeline.interference.events.map((e, i) => ({ id: i + 1, ...e }));
    this.nextEventId = this.events.length + 1;
    this.markers = [];
    this.previousModes = new Uint8Array(this.stages);
    this.loop.resetMeasure();
    this.summariesDue = false;
    this.edits.clear();
    this.markerLog = [];
    this.markerBuckets.clear();
    this.markerLogSent = 0;
    this.timelineReset = true;
    this.furthest = 0;
    this.steps = [];
    this.cursor = -1;
    this.teachingDirty = true;
    this.checkpoints.reset(0, this.checkpoint());
    this.report(true);
  }

  /** The trace sink of lane `index`: on for the followed lane while a traced query is served. */
  private traceSink(index: number): AlgorithmTrace {
    const isOn = (): boolean => this.tracing && this.traceLane === index;
    return {
      get enabled() {
        return isOn();
      },
      push: (step) => void this.collected.push(step),
    };
  }

  private checkpoint(): Checkpoint {
    return {
      served: this.served,
      previousModes: this.previousModes.slice(),
      lanes: this.lanes.map((l) => ({
        run: l.run.snapshot(),
        series: l.series.snapshot(),
        lastBottleneckMs: l.lastBottleneckMs,
        lastOptimalBottleneckMs: l.lastOptimalBottleneckMs,
        lastConfiguration: l.lastConfiguration.slice(),
        lastStageTimes: l.lastStageTimes.slice(),
      })),
    };
  }

  /** Keeps a checkpoint every so many queries, at most MAX_CHECKPOINTS of them. */
  private maybeCheckpoint(): void {
    if (this.checkpoints.due(this.served)) this.checkpoints.add(this.served, this.checkpoint());
  }

  /**
   * Puts every lane at `target` queries served: forward by serving on; back (or here again)
   * by restoring the latest checkpoint before `target` and replaying from it, so that the
   * last query is served again and its algorithm steps are collected.
   */
  private goTo(target: number): void {
    if (target <= this.served) this.restore(this.checkpoints.before(target).checkpoint);
    if (target > this.served) this.advance(target - this.served);
    // A new generation: the page drops its series and markers and takes them afresh.
    this.generation++;
    this.teachingDirty = true;
    for (const lane of this.lanes) lane.series.resend();
    this.markers = this.markersBefore(this.served);
    this.markerCap = MARKERS_AFTER_SEEK;
  }

  private restore(c: Checkpoint): void {
    this.served = c.served;
    this.previousModes = c.previousModes.slice();
    c.lanes.forEach((s, i) => {
      const lane = this.lanes[i]!;
      lane.run.restore(s.run);
      lane.series.restore(s.series);
      lane.lastBottleneckMs = s.lastBottleneckMs;
      lane.lastOptimalBottleneckMs = s.lastOptimalBottleneckMs;
      lane.lastConfiguration.set(s.lastConfiguration);
      lane.lastStageTimes.set(s.lastStageTimes);
    });
    this.steps = [];
    this.cursor = -1;
    this.applyEditsAt(this.served);
  }

  /** Re-applies the live edits made when `served` queries had been served (after a restore). */
  private applyEditsAt(served: number): void {
    for (const apply of this.edits.at(served)) apply();
  }

  /**
   * Records a live edit made now. When the run had been further than here (the person went
   * back in time), the future it saw is gone: checkpoints and time-line markers past this
   * point are dropped, and the run will be served afresh.
   */
  private logEdit(apply: () => void): void {
    this.edits.add(this.served, apply);
    if (this.furthest > this.served) {
      this.furthest = this.served;
      this.checkpoints.dropAfter(this.served);
      this.markerLog = this.markerLog.filter((m) => m.query < this.served);
      this.markerBuckets.clear();
      this.markerLogSent = 0;
      this.timelineReset = true;
    }
  }

  /** The charts' markers (no trials) of queries before `served`, the newest MARKERS_AFTER_SEEK of them. */
  private markersBefore(served: number): Marker[] {
    let end = this.markerLog.length;
    while (end > 0 && this.markerLog[end - 1]!.query >= served) end--;
    const out: Marker[] = [];
    for (let i = end - 1; i >= 0 && out.length < MARKERS_AFTER_SEEK; i--) if (this.markerLog[i]!.kind !== 'trial') out.push(this.markerLog[i]!);
    return out.reverse();
  }

  private syncScenarioEvents(): void {
    const p = this.scenario!.pipeline;
    const events = this.events.map(({ executionPlace, mode, fromQuery, toQuery }) => ({ executionPlace, mode, fromQuery, toQuery }));
    this.scenario = { ...this.scenario!, pipeline: { ...p, interference: { ...p.interference, events } } };
  }

  /**
   * Serves `n` queries on every lane, lane by lane query by query (same trace). The followed
   * lane's algorithm steps are collected for the last of them only; live edits made at a
   * query are applied again when a replay reaches it; checkpoints are taken on the way.
   */
  private advance(n: number): void {
    for (let k = 0; k < n; k++) {
      const q = this.served;
      const last = k === n - 1;
      if (last) {
        this.tracing = true;
        this.collected = [];
      }
      this.lanes.forEach((lane, index) => {
        lane.run.advance(1, (r) => {
          lane.series.add(r);
          keep(lane, r);
          if (r.detected) this.mark({ query: q, kind: 'detect', lane: index });
          if (r.kind === 'trial') this.mark({ query: q, kind: 'trial', lane: index });
          if (r.installed) this.mark({ query: q, kind: 'install', lane: index });
          if (index === 0) this.noteModes(q, r.modes);
        });
      });
      if (last) {
        this.tracing = false;
        this.steps = this.collected;
        this.collected = [];
        this.teachingDirty = true;
      }
      this.served++;
      if (this.served > this.furthest) this.furthest = this.served;
      // The checkpoint comes before the edits made at this query, which a restore applies again.
      this.maybeCheckpoint();
      this.applyEditsAt(this.served);
    }
  }

  /**
   * A marker for the charts (trials go to the time line only: there can be one per query, and
   * they would crowd detections out of the charts' bounded buffer), and for the time line
   * when the run has not been this far before.
   */
  private mark(marker: Marker): void {
    if (marker.kind !== 'trial') this.markers.push(marker);
    if (marker.query >= this.furthest) {
      // A dense run (interference every few queries at full speed) makes thousands of
      // markers a second: the time line keeps one per kind and lane per 1/TIMELINE_BUCKETS
      // of the run (the track cannot show more), so a sparse run keeps every marker.
      const bucket = Math.floor((marker.query * TIMELINE_BUCKETS) / Math.max(1, this.total));
      const key = `${marker.kind}:${marker.lane}:${marker.executionPlace ?? ""}`;
      if (this.markerBuckets.get(key) === bucket) return;
      this.markerBuckets.set(key, bucket);
      this.markerLog.push(marker);
      if (this.markerLog.length > TIMELINE_MARKERS + TIMELINE_MARKERS / 4) {
        // Trim the oldest; the page trims its copy by the same rule (TIMELINE_MARKERS), so
        // nothing is sent again (resending thousands of markers cost the page long tasks).
        const dropped = this.markerLog.length - TIMELINE_MARKERS;
        this.markerLog = this.markerLog.slice(dropped);
        this.markerLogSent = Math.max(0, this.markerLogSent - dropped);
      }
    }
  }

  private noteModes(q: number, modes: Uint8Array): void {
    for (let i = 0; i < modes.length; i++) {
      if (modes[i] === this.previousModes[i]) continue;
      if (this.previousModes[i] !== 0) this.mark({ query: q, kind: 'interference-off', lane: -1, executionPlace: i, mode: MODE_IDS[this.previousModes[i]!]! });
      if (modes[i] !== 0) this.mark({ query: q, kind: 'interference-on', lane: -1, executionPlace: i, mode: MODE_IDS[modes[i]!]! });
      this.previousModes[i] = modes[i]!;
    }
  }

  /** Sends a frame when one is due (or `force`). */
  private report(force: boolean): void {
    const due = this.loop.frameDue(force);
    if (due === null) return;
    const now = this.host.now();
    const transfer: ArrayBuffer[] = [];
    let replace = false;
    const lanes = this.lanes.map((lane) => {
      const { chunk, replace: r } = lane.series.takeChunk(this.stages);
      replace ||= r;
      const live = {
        configuration: lane.lastConfiguration.slice(),
        stageTimesMs: lane.lastStageTimes.slice(),
        bottleneckMs: lane.lastBottleneckMs,
        optimalBottleneckMs: lane.lastOptimalBottleneckMs,
        rebalancing: lane.run.isRebalancing,
        rebalancings: lane.run.metrics.rebalancingsSoFar,
        trialQueries: lane.run.metrics.trialQueriesSoFar,
        latencyHistogram: lane.series.latencyHistogram.slice(),
      };
      for (const a of Object.values(chunk)) transfer.push((a as Float64Array).buffer as ArrayBuffer);
      transfer.push(live.configuration.buffer, live.stageTimesMs.buffer, live.latencyHistogram.buffer);
      return { points: chunk, live };
    });
    let summaries: PipelineSummary[] | undefined;
    if (this.summariesDue) {
      summaries = this.lanes.map((l) => l.run.summary());
      this.summariesDue = false;
    }
    const modes = this.previousModes.slice();
    transfer.push(modes.buffer);
    let teaching: TeachingFrame | undefined;
    // While playing, the algorithm panel is a glimpse (it is read in step mode): at most
    // twice a second, like the time line, so a fast run does not redraw it every frame.
    if (this.teachingDirty && (force || this.status !== 'playing' || now - this.lastTeachingMs >= TIMELINE_INTERVAL_MS)) {
      this.lastTeachingMs = now;
      const scheduler = this.lanes[this.traceLane]?.info.scheduler;
      teaching = {
        lane: this.traceLane,
        algorithm: scheduler === 'odin' || scheduler === 'lls' ? scheduler : null,
        steps: this.steps,
        cursor: this.cursor,
        rebalancing: this.lanes[this.traceLane]?.run.isRebalancing ?? false,
      };
      this.teachingDirty = false;
    }
    let timeline: TimelineFrame | undefined;
    // While playing, the time line is sent twice a second at most: a fast run makes many markers.
    if (this.timelineReset || force || (this.markerLogSent < this.markerLog.length && now - this.lastTimelineMs >= TIMELINE_INTERVAL_MS)) {
      this.lastTimelineMs = now;
      const from = this.timelineReset ? 0 : this.markerLogSent;
      timeline = { furthest: this.furthest, markers: this.markerLog.slice(from), reset: this.timelineReset };
      this.markerLogSent = this.markerLog.length;
      this.timelineReset = false;
    }
    const frame: Frame = {
      generation: this.generation,
      served: this.served,
      totalQueries: this.total,
      status: this.status,
      stride: this.lanes[0]?.series.stride ?? 1,
      replace,
      stages: this.stages,
      modes,
      lanes,
      markers: this.markers.length > this.markerCap ? this.markers.slice(-this.markerCap) : this.markers,
      ...(summaries ? { summaries } : {}),
      measuredSpeed: due.measuredSpeed,
      ...(teaching ? { teaching } : {}),
      ...(timeline ? { timeline } : {}),
    };
    this.markers = [];
    this.markerCap = MARKERS_PER_FRAME;
    this.host.emit(frame, transfer);
  }
}

/** A short rendering of a bad value for a message. */
function describe(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  return Array.isArray(value) ? 'an array' : typeof value;
}
