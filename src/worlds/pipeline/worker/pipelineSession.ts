import type { PipelineRun, PipelineRunSnapshot, QueryRecord } from '../engine/simulation';
import { MODE_IDS, type InterferenceModeId } from '../engine/profiles/types';
import { parsePipelineScenario } from '../door';
import { createPipelineLaneRuns, pipelineLaneParameters } from '../scenario/pipelineRunner';
import type { PipelineScenario } from '../schema';
import { laneLabel } from '../schedulers/registry';
import type { AlgorithmStep, AlgorithmTrace } from '../schedulers/algorithmTrace';
import type { PipelineEventView, PipelineFrame, PipelineLaneInfo, PipelineMarker, PipelineLoaded, SeekResult, PipelineTeachingFrame, PipelineTimelineFrame } from './pipelineProtocol';
import type { Answer } from '../../../worker/liveProtocol';
import { PIPELINE_SPEED_LIMITS, PIPELINE_TIMELINE_MARKERS } from './pipelineProtocol';
import type { SessionHost } from '../../../worker/liveLoop';
import { describeValue, indexProblem, LiveSession, refuse } from '../../../worker/liveSession';
import { PipelineSeriesBuilder, type PipelineSeriesSnapshot } from './pipelineSeries';
import type { FrameContext, FrameExtra, SessionContext, TimeTravel, WorldPlugin } from '../../../worker/worldPlugin';
import type { PipelineTypes } from '../types';

/**
 * Markers sent per frame at most (the newest). At full speed thousands of detections and
 * interference changes happen between two frames, far more than a chart has pixels.
 */
const MARKERS_PER_FRAME = 256;
/** Latency samples kept per lane for the percentiles of a long live run. */
const LATENCY_SAMPLE_CAP = 1 << 16;
/**
 * Time travel (ARCHITECTURE §7a): the session keeps checkpoints of every lane and replays from the
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
/** Queries one stretch of the loop serves at most before it looks at the clock again. */
const QUERIES_PER_STRETCH = 256;

interface Lane {
  info: PipelineLaneInfo;
  run: PipelineRun;
  series: PipelineSeriesBuilder;
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

/** Every lane and the world's own state after `served` queries. */
export interface PipelineCheckpoint {
  readonly served: number;
  readonly previousModes: Uint8Array;
  readonly lanes: readonly {
    readonly run: PipelineRunSnapshot;
    readonly series: PipelineSeriesSnapshot;
    readonly lastBottleneckMs: number;
    readonly lastOptimalBottleneckMs: number;
    readonly lastConfiguration: Int32Array;
    readonly lastStageTimes: Float64Array;
  }[];
}

/** A change made live (placed workload, α, threshold), replayed at its query after a seek: it applies before the next query is served. */
export type PipelineEdit = () => void;

/**
 * The pipeline world (ODIN) as a plugin of the live session: every lane of a scenario
 * advancing in lock step, query by query, on one interference trace; its position is the
 * number of queries served. Goes back in time by checkpoints of its `PipelineRun`s. Its own
 * state beyond the lanes is the teaching trace of one lane (the algorithm steps of the last
 * query) and the markers of the charts and the time line.
 */
export class PipelinePlugin implements WorldPlugin<PipelineTypes> {
  readonly unitsPerSpeedSecond = 1;
  readonly integral = true;
  readonly timeTravel: TimeTravel<PipelineCheckpoint> = {
    by: 'checkpoints',
    every: CHECKPOINT_EVERY,
    max: MAX_CHECKPOINTS,
    snapshot: () => this.snapshot(),
    restore: (c) => this.restore(c),
  };
  readonly initialSpeed = 60;
  readonly speedLimits = PIPELINE_SPEED_LIMITS;
  readonly positionField = 'query';
  readonly positionRule = 'an integer';
  readonly buildErrorPath = 'pipeline';

  scenario: PipelineScenario | null = null;
  lanes: Lane[] = [];
  served = 0;
  total = 0;
  stages = 0;
  events: PipelineEventView[] = [];
  nextEventId = 1;
  private markers: PipelineMarker[] = [];
  private previousModes = new Uint8Array(0);
  /** Markers up to how far the run has been, in query order, for the time line. */
  private markerLog: PipelineMarker[] = [];
  private markerLogSent = 0;
  private timelineReset = true;
  traceLane = 0;
  /** On only while the last query of a stretch is served: the trace costs nothing elsewhere. */
  private tracing = false;
  steps: AlgorithmStep[] = [];
  private collected: AlgorithmStep[] = [];
  cursor = -1;
  teachingDirty = true;
  private lastTeachingMs = Number.NEGATIVE_INFINITY;
  /** The time-line bucket of the last logged marker, per kind and lane. */
  private readonly markerBuckets = new Map<string, number>();
  private markerCap = MARKERS_PER_FRAME;
  private lastTimelineMs = Number.NEGATIVE_INFINITY;
  private session!: SessionContext<PipelineTypes>;

  attach(session: SessionContext<PipelineTypes>): void {
    this.session = session;
  }

  parse(input: unknown) {
    return parsePipelineScenario(input);
  }

  position(): number {
    return this.served;
  }

  end(): number {
    return this.total;
  }

  advanceToward(target: number): void {
    this.advance(Math.min(QUERIES_PER_STRETCH, target - this.served));
  }

  start(scenario: PipelineScenario): void {
    this.scenario = scenario;
    this.served = 0;
    this.total = scenario.pipeline.queries;
    this.stages = scenario.pipeline.executionPlaces;
    const built = createPipelineLaneRuns(scenario, {}, scenario.seed, LATENCY_SAMPLE_CAP, (index) => this.traceSink(index));
    this.lanes = built.map(({ lane, label, run }, index) => ({
      info: { index, scheduler: lane.scheduler, label, params: pipelineLaneParameters(lane) },
      run,
      series: new PipelineSeriesBuilder(),
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
    this.markerLog = [];
    this.markerBuckets.clear();
    this.markerLogSent = 0;
    this.timelineReset = true;
    this.steps = [];
    this.cursor = -1;
    this.teachingDirty = true;
  }

  loaded(): PipelineLoaded {
    const first = this.lanes[0]!.run;
    return {
      scenario: this.scenario!,
      lanes: this.lanes.map((l) => l.info),
      layers: [...first.layerNames],
      peakQps: first.metrics.summary().peakThroughputQps,
      initialConfiguration: first.configuration.slice(),
      events: this.events,
    };
  }

  /** The scenario as it stands (placed events and live changes are folded in as they are made). */
  currentScenario(): PipelineScenario {
    return this.scenario!;
  }

  private snapshot(): PipelineCheckpoint {
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

  private restore(c: PipelineCheckpoint): void {
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
  }

  applyEdit(edit: PipelineEdit): void {
    edit();
  }

  forgetAfter(position: number): void {
    this.markerLog = this.markerLog.filter((m) => m.query < position);
    this.markerBuckets.clear();
    this.markerLogSent = 0;
    this.timelineReset = true;
  }

  jumped(): void {
    this.teachingDirty = true;
    for (const lane of this.lanes) lane.series.resend();
    this.markers = this.markersBefore(this.served);
    this.markerCap = MARKERS_AFTER_SEEK;
  }

  stepped(): void {
    this.cursor = this.steps.length - 1;
  }

  /** Folds the placed events into the scenario (a reset keeps them). */
  syncScenarioEvents(): void {
    const p = this.scenario!.pipeline;
    const events = this.events.map(({ executionPlace, mode, fromQuery, toQuery }) => ({ executionPlace, mode, fromQuery, toQuery }));
    this.scenario = { ...this.scenario!, pipeline: { ...p, interference: { ...p.interference, events } } };
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

  /** The charts' markers (no trials) of queries before `served`, the newest MARKERS_AFTER_SEEK of them. */
  private markersBefore(served: number): PipelineMarker[] {
    let end = this.markerLog.length;
    while (end > 0 && this.markerLog[end - 1]!.query >= served) end--;
    const out: PipelineMarker[] = [];
    for (let i = end - 1; i >= 0 && out.length < MARKERS_AFTER_SEEK; i--) if (this.markerLog[i]!.kind !== 'trial') out.push(this.markerLog[i]!);
    return out.reverse();
  }

  /**
   * Serves `n` queries on every lane, lane by lane query by query (same trace). The followed
   * lane's algorithm steps are collected for the last of them only (the session stops a
   * stretch at live edits and checkpoints).
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
    }
  }

  /**
   * A marker for the charts (trials go to the time line only: there can be one per query, and
   * they would crowd detections out of the charts' bounded buffer), and for the time line
   * when the run has not been this far before.
   */
  private mark(marker: PipelineMarker): void {
    if (marker.kind !== 'trial') this.markers.push(marker);
    if (marker.query >= this.session.furthest()) {
      // A dense run (interference every few queries at full speed) makes thousands of
      // markers a second: the time line keeps one per kind and lane per 1/TIMELINE_BUCKETS
      // of the run (the track cannot show more), so a sparse run keeps every marker.
      const bucket = Math.floor((marker.query * TIMELINE_BUCKETS) / Math.max(1, this.total));
      const key = `${marker.kind}:${marker.lane}:${marker.executionPlace ?? ""}`;
      if (this.markerBuckets.get(key) === bucket) return;
      this.markerBuckets.set(key, bucket);
      this.markerLog.push(marker);
      if (this.markerLog.length > PIPELINE_TIMELINE_MARKERS + PIPELINE_TIMELINE_MARKERS / 4) {
        // Trim the oldest; the page trims its copy by the same rule (PIPELINE_TIMELINE_MARKERS), so
        // nothing is sent again (resending thousands of markers cost the page long tasks).
        const dropped = this.markerLog.length - PIPELINE_TIMELINE_MARKERS;
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

  frameLanes(context: FrameContext) {
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
      for (const a of Object.values(chunk)) context.transfer.push((a as Float64Array).buffer as ArrayBuffer);
      context.transfer.push(live.configuration.buffer, live.stageTimesMs.buffer, live.latencyHistogram.buffer);
      return { points: chunk, live };
    });
    return { lanes, replace, stride: this.lanes[0]?.series.stride ?? 1 };
  }

  summaries() {
    return this.lanes.map((l) => l.run.summary());
  }

  frameExtra(context: FrameContext): FrameExtra<PipelineFrame> {
    const { force, nowMs: now } = context;
    const modes = this.previousModes.slice();
    context.transfer.push(modes.buffer);
    let teaching: PipelineTeachingFrame | undefined;
    // While playing, the algorithm panel is a glimpse (it is read in step mode): at most
    // twice a second, like the time line, so a fast run does not redraw it every frame.
    if (this.teachingDirty && (force || context.status !== 'playing' || now - this.lastTeachingMs >= TIMELINE_INTERVAL_MS)) {
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
    let timeline: PipelineTimelineFrame | undefined;
    // While playing, the time line is sent twice a second at most: a fast run makes many markers.
    if (this.timelineReset || force || (this.markerLogSent < this.markerLog.length && now - this.lastTimelineMs >= TIMELINE_INTERVAL_MS)) {
      this.lastTimelineMs = now;
      const from = this.timelineReset ? 0 : this.markerLogSent;
      timeline = { furthest: context.furthest, markers: this.markerLog.slice(from), reset: this.timelineReset };
      this.markerLogSent = this.markerLog.length;
      this.timelineReset = false;
    }
    const markers = this.markers.length > this.markerCap ? this.markers.slice(-this.markerCap) : this.markers;
    this.markers = [];
    this.markerCap = MARKERS_PER_FRAME;
    return {
      served: this.served,
      totalQueries: this.total,
      stages: this.stages,
      modes,
      markers,
      ...(teaching ? { teaching } : {}),
      ...(timeline ? { timeline } : {}),
    };
  }
}

/**
 * The live pipeline lab behind the page: the generic live session over the pipeline world,
 * with the pipeline's live edits (placed workloads, α, the monitor's threshold) and its
 * teaching view (an algorithm step forward or back, the followed lane).
 */
export class PipelineSession extends LiveSession<PipelineTypes> {
  constructor(host: SessionHost<PipelineFrame>) {
    super(host, new PipelinePlugin());
  }

  /**
   * Goes to `query` queries served (see `LiveSession.seek`) and shows algorithm step `step`
   * of that query's rebalancing.
   */
  override seek(query: unknown, step?: unknown): SeekResult {
    const refused = this.checkPosition(query);
    if (refused !== null) return refused;
    if (step !== undefined && (typeof step !== 'number' || !Number.isInteger(step) || step < 0)) {
      return { ok: false, errors: [{ path: 'step', message: `must be an integer ≥ 0 (an algorithm step of the query), got ${describeValue(step)}` }] };
    }
    const w = this.pipeline;
    this.seekChecked(query as number, () => {
      w.cursor = step === undefined ? w.steps.length - 1 : Math.min(step, w.steps.length - 1);
      w.teachingDirty = true;
    });
    return { ok: true };
  }

  /**
   * One step of the algorithm the teaching view follows: the next (or previous) line it
   * executed; where no algorithm runs, one query forward (or back).
   */
  stepAlgorithm(direction: unknown): Answer {
    const w = this.pipeline;
    if (direction !== 1 && direction !== -1) return refuse('direction', `must be 1 (forward) or -1 (back), got ${describeValue(direction)}`);
    if (w.scenario === null) return refuse('direction', 'no scenario is loaded');
    if (this.loop.status === 'playing') this.loop.status = 'paused';
    if (direction === 1) {
      if (w.cursor < w.steps.length - 1) w.cursor++;
      else if (w.served < w.total) {
        this.advanceTo(w.served + 1);
        w.cursor = w.steps.length > 0 ? 0 : -1;
      }
    } else {
      if (w.cursor > 0) w.cursor--;
      else if (w.served > 0) {
        this.goTo(w.served - 1);
        w.cursor = w.steps.length - 1;
      }
    }
    w.teachingDirty = true;
    this.loop.settle();
    this.wantSummaries();
    this.report(true);
    return { ok: true };
  }

  /** Follows another lane's algorithm (the selected lane); its steps of the last query are replayed. */
  setTraceLane(lane: unknown): Answer {
    const w = this.pipeline;
    if (w.scenario === null) return refuse('lane', 'no scenario is loaded');
    const bad = indexProblem('lane', lane, w.lanes.length, 'a lane');
    if (bad !== null) return bad;
    if (lane === w.traceLane) return { ok: true };
    w.traceLane = lane as number;
    if (this.loop.status !== 'playing') {
      const cursor = w.cursor;
      this.goTo(w.served);
      w.cursor = Math.min(cursor < 0 ? w.steps.length - 1 : cursor, w.steps.length - 1);
      this.wantSummaries();
    } else {
      w.steps = [];
      w.cursor = -1;
    }
    w.teachingDirty = true;
    this.report(true);
    return { ok: true };
  }

  /**
   * Co-locates a workload in `mode` on an EP from the next query on: an event of the scenario
   * from the query served now, never ending, checked as a scenario file's events are.
   */
  addEvent(executionPlace: unknown, mode: unknown): Answer<{ readonly events: readonly PipelineEventView[] }> {
    const w = this.pipeline;
    const scenario = w.scenario;
    if (scenario === null) return refuse('pipeline.interference.events', 'no scenario is loaded');
    const at = scenario.pipeline.interference.events.length;
    if (w.served >= w.total) return refuse(`pipeline.interference.events[${at}].fromQuery`, `the run is over (${w.total} queries served): a workload placed now would never run`);
    const p = scenario.pipeline;
    const refused = this.refusedEdit({
      ...scenario,
      pipeline: { ...p, interference: { ...p.interference, events: [...p.interference.events, { executionPlace, mode, fromQuery: w.served, toQuery: null }] } },
    }, [`pipeline.interference.events[${at}]`]);
    if (refused !== null) return refused;
    const event: PipelineEventView = { id: w.nextEventId++, executionPlace: executionPlace as number, mode: mode as InterferenceModeId, fromQuery: w.served, toQuery: null };
    const modeIndex = MODE_IDS.indexOf(event.mode);
    this.edit(() => {
      for (const lane of w.lanes) lane.run.timeline.addEvent({ executionPlace: event.executionPlace, mode: modeIndex, fromQuery: event.fromQuery, toQuery: null, id: event.id });
    });
    w.events = [...w.events, event];
    w.syncScenarioEvents();
    this.report(true);
    return { ok: true, events: w.events };
  }

  /** Ends a placed or scripted event from the next query on (or drops it if not started). */
  removeEvent(id: unknown): Answer<{ readonly events: readonly PipelineEventView[] }> {
    const w = this.pipeline;
    if (w.scenario === null) return refuse('id', 'no scenario is loaded');
    const event = w.events.find((e) => e.id === id);
    if (event === undefined) {
      return refuse('id', `must be the id of a workload on the board (${w.events.length === 0 ? 'there is none' : w.events.map((e) => e.id).join(', ')}), got ${describeValue(id)}`);
    }
    const endAt = (at: number) =>
      this.edit(() => {
        for (const lane of w.lanes) lane.run.endEvent(event.id, at);
      });
    if (event.fromQuery >= w.served || w.served >= w.total) {
      // Not started yet (or the run is over): it never happened.
      if (w.served < w.total) endAt(Math.max(w.served, event.fromQuery));
      w.events = w.events.filter((e) => e.id !== event.id);
    } else if (event.toQuery === null || event.toQuery > w.served) {
      endAt(w.served);
      w.events = w.events.map((e) => (e.id === event.id ? { ...e, toQuery: w.served } : e));
    }
    w.syncScenarioEvents();
    this.report(true);
    return { ok: true, events: w.events };
  }

  /**
   * Changes a lane's scheduler parameter (ODIN's α) from its next rebalancing on, within the
   * range the scenario schema gives it (the registry's, as the slider's): a value a scenario
   * file could not hold is refused by name, so the scenario, and its link, stay valid.
   */
  setLaneParameter(laneIndex: unknown, name: unknown, value: unknown): Answer<{ readonly lane: PipelineLaneInfo }> {
    const w = this.pipeline;
    const scenario = w.scenario;
    if (scenario === null) return refuse('lane', 'no scenario is loaded');
    const bad = indexProblem('lane', laneIndex, w.lanes.length, 'a lane');
    if (bad !== null) return bad;
    const index = laneIndex as number;
    if (typeof name !== 'string') return refuse(`pipeline.lanes[${index}].params`, `a parameter's name must be a string, got ${describeValue(name)}`);
    const lanes = scenario.pipeline.lanes.map((l, i) => (i === index ? { ...l, params: { ...l.params, [name]: value } } : l));
    const refused = this.refusedEdit({ ...scenario, pipeline: { ...scenario.pipeline, lanes } }, [`pipeline.lanes[${index}].params`]);
    if (refused !== null) return refused;
    const lane = w.lanes[index]!;
    const v = value as number;
    try {
      if (!lane.run.setSchedulerParameter(name, v)) return refuse(`pipeline.lanes[${index}].params.${name}`, `is not a parameter ${lane.info.label} can change while it runs`);
    } catch (error) {
      // The schema took it and the scheduler did not: a disagreement to fix at its source, reported by name meanwhile.
      return refuse(`pipeline.lanes[${index}].params.${name}`, error instanceof Error ? error.message : String(error));
    }
    this.edit(() => lane.run.setSchedulerParameter(name, v), true);
    w.scenario = { ...scenario, pipeline: { ...scenario.pipeline, lanes: lanes as PipelineScenario['pipeline']['lanes'] } };
    const params = pipelineLaneParameters(w.scenario.pipeline.lanes[index]!);
    lane.info = { ...lane.info, params, label: laneLabel(lane.info.scheduler as never, params) };
    return { ok: true, lane: lane.info };
  }

  /** Changes the monitor's threshold on every lane from the next query on, within the schema's bounds. */
  setDetectionThreshold(threshold: unknown): Answer {
    const w = this.pipeline;
    const scenario = w.scenario;
    if (scenario === null) return refuse('pipeline.assumptions.detectionThreshold', 'no scenario is loaded');
    const p = scenario.pipeline;
    const next = { ...scenario, pipeline: { ...p, assumptions: { ...p.assumptions, detectionThreshold: threshold } } };
    const refused = this.refusedEdit(next, ['pipeline.assumptions.detectionThreshold']);
    if (refused !== null) return refused;
    const t = threshold as number;
    this.edit(() => {
      for (const lane of w.lanes) lane.run.setDetectionThreshold(t);
    });
    w.scenario = next as PipelineScenario;
    return { ok: true };
  }

  private get pipeline(): PipelinePlugin {
    return this.world as PipelinePlugin;
  }
}
