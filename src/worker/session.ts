import type { PipelineSummary } from '../engine/pipeline/metrics';
import type { PipelineRun, QueryRecord } from '../engine/pipeline/simulation';
import { INTERFERENCE_MODE_IDS, MODE_IDS, type InterferenceModeId } from '../engine/profiles/types';
import { parseScenario } from '../scenario/parse';
import { createLaneRuns, laneParameters } from '../scenario/pipelineRunner';
import type { Scenario } from '../scenario/schema';
import { laneLabel } from '../schedulers/pipeline/registry';
import type { EventView, Frame, LaneInfo, LoadResult, Marker, PlaybackStatus, Speed } from './protocol';
import { SPEED_LIMITS } from './protocol';
import { LaneSeriesBuilder } from './seriesBuilder';

/** What the session needs from where it runs (the worker, or a test). */
export interface SessionHost {
  /** Wall-clock milliseconds. */
  now(): number;
  /** Runs `fn` after about `delayMs`. */
  schedule(fn: () => void, delayMs: number): void;
  /** Hands a frame to the page; `transfer` lists the buffers it may move. */
  emit(frame: Frame, transfer: ArrayBuffer[]): void;
}

/** Wall-clock time one tick may compute before it yields and reports, ms. */
const TICK_BUDGET_MS = 12;
/** Minimum wall-clock time between two frames, ms (≈ 60 frames per second). */
const FRAME_INTERVAL_MS = 16;
/** At full speed frames come at most this often (≈ 30 per second): the page has less to do. */
const MAX_SPEED_FRAME_INTERVAL_MS = 33;
/**
 * Markers sent per frame at most (the newest). At full speed thousands of detections and
 * interference changes happen between two frames, far more than a chart has pixels.
 */
const MARKERS_PER_FRAME = 256;
/** Latency samples kept per lane for the percentiles of a long live run. */
const LATENCY_SAMPLE_CAP = 1 << 16;

interface Lane {
  info: LaneInfo;
  run: PipelineRun;
  series: LaneSeriesBuilder;
  last: QueryRecord | null;
  lastConfiguration: Int32Array;
  lastStageTimes: Float64Array;
}

/** Copy of what the live view needs from a record (the engine reuses its buffers). */
function keep(lane: Lane, r: QueryRecord): void {
  lane.last = r;
  lane.lastConfiguration.set(r.configuration);
  lane.lastStageTimes.set(r.stageTimesMs);
}

/**
 * The live pipeline lab behind the page: every lane of a scenario advancing in lock step,
 * query by query, on one interference trace, paced to a speed and reported in frames. It
 * owns no timers itself (the host schedules), so it runs the same in a worker and a test.
 */
export class PipelineSession {
  private scenario: Scenario | null = null;
  private lanes: Lane[] = [];
  private status: PlaybackStatus = 'paused';
  private speed: Speed = 60;
  private generation = 0;
  private served = 0;
  private total = 0;
  private stages = 0;
  private events: EventView[] = [];
  private nextEventId = 1;
  private markers: Marker[] = [];
  private previousModes = new Uint8Array(0);
  private playStartMs = 0;
  private playStartServed = 0;
  private lastFrameMs = Number.NEGATIVE_INFINITY;
  private ticking = false;
  private rateWindow: { timeMs: number; served: number }[] = [];
  private summariesDue = false;

  constructor(private readonly host: SessionHost) {}

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
    if (this.scenario === null || this.status === 'done') return;
    this.status = 'playing';
    this.playStartMs = this.host.now();
    this.playStartServed = this.served;
    this.kick();
  }

  pause(): void {
    if (this.status !== 'playing') return;
    this.status = 'paused';
    this.summariesDue = true;
    this.report(true);
  }

  /** Serves `n` more queries on every lane, then reports. */
  step(n: number): void {
    if (this.scenario === null || !Number.isInteger(n) || n < 1) return;
    if (this.status === 'playing') this.status = 'paused';
    this.advance(Math.min(n, this.total - this.served));
    if (this.served >= this.total) this.status = 'done';
    this.summariesDue = true;
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
    this.speed = speed;
    this.playStartMs = this.host.now();
    this.playStartServed = this.served;
  }

  /** Co-locates a workload in `mode` on an EP from the next query on. */
  addEvent(executionPlace: number, mode: InterferenceModeId): readonly EventView[] {
    if (this.scenario === null || !Number.isInteger(executionPlace) || executionPlace < 0 || executionPlace >= this.stages) return this.events;
    if (!INTERFERENCE_MODE_IDS.includes(mode) || this.served >= this.total) return this.events;
    const event: EventView = { id: this.nextEventId++, executionPlace, mode, fromQuery: this.served, toQuery: null };
    const modeIndex = MODE_IDS.indexOf(mode);
    for (const lane of this.lanes) lane.run.timeline.addEvent({ executionPlace, mode: modeIndex, fromQuery: this.served, toQuery: null, id: event.id });
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
      if (this.served < this.total) for (const lane of this.lanes) lane.run.endEvent(id, Math.max(this.served, event.fromQuery));
      this.events = this.events.filter((e) => e.id !== id);
    } else if (event.toQuery === null || event.toQuery > this.served) {
      for (const lane of this.lanes) lane.run.endEvent(id, this.served);
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
    const lanes = this.scenario.pipeline.lanes.map((l, i) => (i === laneIndex ? { ...l, params: { ...l.params, [name]: value } } : l));
    this.scenario = { ...this.scenario, pipeline: { ...this.scenario.pipeline, lanes } };
    const params = laneParameters(lanes[laneIndex]!);
    lane.info = { ...lane.info, params, label: laneLabel(lane.info.scheduler as never, params) };
    return lane.info;
  }

  /** Changes the monitor's threshold on every lane from the next query on. */
  setDetectionThreshold(threshold: number): boolean {
    if (this.scenario === null || !(threshold >= 0.0001 && threshold <= 10)) return false;
    for (const lane of this.lanes) lane.run.setDetectionThreshold(threshold);
    const p = this.scenario.pipeline;
    this.scenario = { ...this.scenario, pipeline: { ...p, assumptions: { ...p.assumptions, detectionThreshold: threshold } } };
    return true;
  }

  /** The scenario as it stands (placed events and live changes included). */
  currentScenario(): Scenario | null {
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
    const built = createLaneRuns(scenario, {}, scenario.seed, LATENCY_SAMPLE_CAP);
    this.lanes = built.map(({ lane, label, run }, index) => ({
      info: { index, scheduler: lane.scheduler, label, params: laneParameters(lane) },
      run,
      series: new LaneSeriesBuilder(),
      last: null,
      lastConfiguration: run.configuration.slice(),
      lastStageTimes: new Float64Array(this.stages),
    }));
    this.events = scenario.pipeline.interference.events.map((e, i) => ({ id: i + 1, ...e }));
    this.nextEventId = this.events.length + 1;
    this.markers = [];
    this.previousModes = new Uint8Array(this.stages);
    this.rateWindow = [];
    this.summariesDue = false;
    this.report(true);
  }

  private syncScenarioEvents(): void {
    const p = this.scenario!.pipeline;
    const events = this.events.map(({ executionPlace, mode, fromQuery, toQuery }) => ({ executionPlace, mode, fromQuery, toQuery }));
    this.scenario = { ...this.scenario!, pipeline: { ...p, interference: { ...p.interference, events } } };
  }

  private kick(): void {
    if (this.ticking) return;
    this.ticking = true;
    this.host.schedule(() => this.tick(), 0);
  }

  private tick(): void {
    this.ticking = false;
    if (this.status !== 'playing') return;
    const start = this.host.now();
    if (this.speed === 'max') {
      while (this.served < this.total && this.host.now() - start < TICK_BUDGET_MS) this.advance(Math.min(256, this.total - this.served));
    } else {
      const target = this.playStartServed + Math.floor(((start - this.playStartMs) * this.speed) / 1000);
      while (this.served < Math.min(target, this.total) && this.host.now() - start < TICK_BUDGET_MS) {
        this.advance(Math.min(256, Math.min(target, this.total) - this.served));
      }
    }
    if (this.served >= this.total) {
      this.status = 'done';
      this.summariesDue = true;
    }
    this.report(this.status === 'done');
    if (this.status === 'playing') {
      this.ticking = true;
      this.host.schedule(() => this.tick(), this.speed === 'max' ? 0 : FRAME_INTERVAL_MS);
    }
  }

  /** Serves `n` queries on every lane, lane by lane query by query (same trace). */
  private advance(n: number): void {
    for (let k = 0; k < n; k++) {
      const q = this.served;
      this.lanes.forEach((lane, index) => {
        lane.run.advance(1, (r) => {
          lane.series.add(r);
          keep(lane, r);
          if (r.detected) this.markers.push({ query: q, kind: 'detect', lane: index });
          if (r.installed) this.markers.push({ query: q, kind: 'install', lane: index });
          if (index === 0) this.noteModes(q, r.modes);
        });
      });
      this.served++;
    }
  }

  private noteModes(q: number, modes: Uint8Array): void {
    for (let i = 0; i < modes.length; i++) {
      if (modes[i] === this.previousModes[i]) continue;
      if (this.previousModes[i] !== 0) this.markers.push({ query: q, kind: 'interference-off', lane: -1, executionPlace: i, mode: MODE_IDS[this.previousModes[i]!]! });
      if (modes[i] !== 0) this.markers.push({ query: q, kind: 'interference-on', lane: -1, executionPlace: i, mode: MODE_IDS[modes[i]!]! });
      this.previousModes[i] = modes[i]!;
    }
  }

  /** Sends a frame when one is due (or `force`). */
  private report(force: boolean): void {
    const now = this.host.now();
    const interval = this.speed === 'max' ? MAX_SPEED_FRAME_INTERVAL_MS : FRAME_INTERVAL_MS;
    if (!force && now - this.lastFrameMs < interval) return;
    this.lastFrameMs = now;
    this.rateWindow.push({ timeMs: now, served: this.served });
    while (this.rateWindow.length > 2 && now - this.rateWindow[0]!.timeMs > 1000) this.rateWindow.shift();
    const oldest = this.rateWindow[0]!;
    const rateQps = now > oldest.timeMs ? ((this.served - oldest.served) * 1000) / (now - oldest.timeMs) : 0;
    const transfer: ArrayBuffer[] = [];
    let replace = false;
    const lanes = this.lanes.map((lane) => {
      const { chunk, replace: r } = lane.series.takeChunk(this.stages);
      replace ||= r;
      const live = {
        configuration: lane.lastConfiguration.slice(),
        stageTimesMs: lane.lastStageTimes.slice(),
        bottleneckMs: lane.last?.bottleneckMs ?? 0,
        optimalBottleneckMs: lane.last?.optimalBottleneckMs ?? 0,
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
      markers: this.markers.length > MARKERS_PER_FRAME ? this.markers.slice(-MARKERS_PER_FRAME) : this.markers,
      ...(summaries ? { summaries } : {}),
      rateQps,
    };
    this.markers = [];
    this.host.emit(frame, transfer);
  }
}
