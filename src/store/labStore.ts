import { createStore, type StoreApi } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import type { PipelineSummary } from '../engine/pipeline/metrics';
import type { InterferenceModeId } from '../engine/profiles/types';
import type { FieldError, PipelineScenario } from '../scenario/schema';
import type { EventView, Frame, SimApi, LaneInfo, LaneLive, LoadResult, Marker, PlaybackStatus, Speed, TeachingFrame } from '../worker/protocol';
import { TIMELINE_MARKERS } from '../worker/protocol';
import { findLesson } from '../scenario/lessons';
import type { WorkerClient } from './restartingWorker';
import { historyActions, lessonScenario, type LoadErrors, type ScenarioSource } from './history';
import { MarkerBuffer, SeriesBuffer } from './series';
import { browserAsk, longRunGuard, type AskToStart } from './longRun';
import type { AnyScenario } from '../scenario/schema';

/** The worker's API as the page sees it (every call is asynchronous), derived from `SimApi`. */
export type SimClient = WorkerClient<SimApi, Frame>;

export interface ScenarioSlice {
  /** The scenario running now (null before the first load). */
  scenario: PipelineScenario | null;
  lanes: readonly LaneInfo[];
  layers: readonly string[];
  peakQps: number;
  initialConfiguration: Int32Array;
  events: readonly EventView[];
  /** Why the last load was rejected (and from where); the last good scenario keeps running. */
  errors: LoadErrors | null;
  /** Scenarios before the current one (most recent last), for undo. */
  past: readonly PipelineScenario[];
  /** Scenarios undone, for redo (most recent last). */
  future: readonly PipelineScenario[];
  /** How the page presents the scenario (carried by the link). */
  view: ScenarioView;
}

export { HISTORY_LIMIT, type LoadErrors, type ScenarioSource } from './history';

export type ScenarioView = NonNullable<PipelineScenario['view']>;

/** The view a scenario without `view` has: normal, nothing hidden, Explore and Claims closed. */
function isDefaultView(view: ScenarioView): boolean {
  return view.mode === 'normal' && view.hide.length === 0 && view.explore !== true && view.claims !== true;
}
export const DEFAULT_VIEW: ScenarioView = { mode: 'normal', hide: [] };


export interface PlaybackSlice {
  status: PlaybackStatus;
  served: number;
  totalQueries: number;
  speed: Speed;
  /** Simulation speed measured by the worker: queries served per wall-clock second (not an arrival rate). */
  measuredSpeed: number;
  /** Frames received per wall-clock second. */
  framesPerSecond: number;
}

export interface ResultsSlice {
  /** Increases with every frame: charts subscribe to it and read the buffers below. */
  version: number;
  generation: number;
  stride: number;
  stages: number;
  series: SeriesBuffer[];
  markers: MarkerBuffer;
  live: readonly LaneLive[];
  modes: Uint8Array;
  summaries: readonly PipelineSummary[] | null;
}

export interface UiSlice {
  selectedLane: number;
  throughputView: 'measured' | 'config';
  /** The keyboard-shortcut overlay is open. */
  helpOpen: boolean;
}

/** Teaching mode: the algorithm trace, the time line and the lesson under way. */
export interface TeachingSlice {
  /** The followed lane's algorithm steps of the last query, and the one shown. */
  teaching: TeachingFrame | null;
  /** Queries served when the last teaching frame was made (the algorithm panel narrates that one while playing). */
  teachingServed: number;
  /** How far the run has been (the time line's extent). */
  furthest: number;
  /** Markers up to `furthest` (interference, and per lane detections, trials, installations). */
  timelineMarkers: readonly Marker[];
  /** The lesson being followed and its step. */
  lesson: { readonly id: string; readonly step: number } | null;
}

/** Speeds the playback offers, slowest first (queries per second; 1× = 1 query per second). */
export const SPEEDS: readonly Speed[] = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 1000, 10_000, 100_000, 'max'];

/** Markers of the time line a person can jump to for the selected lane. */
export function laneMarkers(markers: readonly Marker[], lane: number): Marker[] {
  return markers.filter((m) => m.lane === -1 || m.lane === lane);
}

/** The queries served right after a marker's query, and the algorithm step to show there. */
export function markerTarget(marker: Marker): { query: number; step?: number } {
  if (marker.kind === 'detect' || marker.kind === 'trial') return { query: marker.query + 1, step: 0 };
  return { query: marker.query + 1 };
}

export interface Actions {
  /** Loads a scenario from `source` (validated in the worker); a rejection keeps the current one. */
  load(scenario: unknown, source?: ScenarioSource): Promise<boolean>;
  /** Reports errors found before a scenario could even be read (a broken link or file). */
  reject(source: ScenarioSource, errors: readonly FieldError[]): void;
  undo(): Promise<void>;
  redo(): Promise<void>;
  setView(view: ScenarioView): void;
  /** Applies an edit to the current scenario and reloads it (a fresh run). */
  edit(change: (scenario: PipelineScenario) => PipelineScenario): Promise<boolean>;
  play(): Promise<void>;
  pause(): Promise<void>;
  step(n: number): Promise<void>;
  reset(): Promise<void>;
  setSpeed(speed: Speed): Promise<void>;
  addEvent(executionPlace: number, mode: InterferenceModeId): Promise<void>;
  removeEvent(id: number): Promise<void>;
  setLaneParameter(lane: number, name: string, value: number): Promise<void>;
  setDetectionThreshold(threshold: number): Promise<void>;
  selectLane(lane: number): void;
  setThroughputView(view: UiSlice['throughputView']): void;
  dismissErrors(): void;
  /** Time travel: goes to `query` served (and an algorithm step); false when refused. */
  seek(query: number, step?: number): Promise<boolean>;
  /** One algorithm step (or query) forward or back. */
  stepAlgorithm(direction: 1 | -1): Promise<void>;
  /** Jumps to the next or previous marker of the selected lane on the time line. */
  stepMarker(direction: 1 | -1): Promise<void>;
  /** One notch faster or slower on `SPEEDS`. */
  changeSpeed(direction: 1 | -1): Promise<void>;
  setHelpOpen(open: boolean): void;
  /** Opens a lesson (its preset) at its first step. */
  startLesson(id: string): Promise<boolean>;
  /** Moves to another step of the lesson under way (and goes where it says). */
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
}

export type LabState = ScenarioSlice & PlaybackSlice & ResultsSlice & UiSlice & TeachingSlice & Actions;
export type LabStore = StoreApi<LabState> & {
  subscribe: {
    (listener: (state: LabState, previous: LabState) => void): () => void;
    <U>(selector: (state: LabState) => U, listener: (selected: U, previous: U) => void, options?: { equalityFn?: (a: U, b: U) => boolean; fireImmediately?: boolean }): () => void;
  };
};

type Set = StoreApi<LabState>['setState'];
type Get = StoreApi<LabState>['getState'];

const scenarioSlice = (): ScenarioSlice => ({
  scenario: null,
  lanes: [],
  layers: [],
  peakQps: 0,
  initialConfiguration: new Int32Array(0),
  events: [],
  errors: null,
  past: [],
  future: [],
  view: DEFAULT_VIEW,
});

const playbackSlice = (): PlaybackSlice => ({ status: 'paused', served: 0, totalQueries: 0, speed: 60, measuredSpeed: 0, framesPerSecond: 0 });

const resultsSlice = (): ResultsSlice => ({
  version: 0,
  generation: 0,
  stride: 1,
  stages: 0,
  series: [],
  markers: new MarkerBuffer(),
  live: [],
  modes: new Uint8Array(0),
  summaries: null,
});

const uiSlice = (): UiSlice => ({ selectedLane: 0, throughputView: 'config', helpOpen: false });

const teachingSlice = (): TeachingSlice => ({ teaching: null, teachingServed: 0, furthest: 0, timelineMarkers: [], lesson: null });

function actions(set: Set, get: Get, client: SimClient, startAllowed: (scenario: AnyScenario | null) => boolean): Actions {
  /** Remembers the scenario before a change, for undo (a new change clears redo). */
  const applyLoad = (result: LoadResult, source: ScenarioSource): boolean => {
    if (!result.ok) {
      set({ errors: { source, errors: result.errors } });
      return false;
    }
    set({
      scenario: result.scenario,
      lanes: result.lanes,
      layers: result.layers,
      peakQps: result.peakQps,
      initialConfiguration: result.initialConfiguration,
      events: result.events,
      errors: null,
      summaries: null,
      view: result.scenario.view ?? DEFAULT_VIEW,
      selectedLane: Math.min(get().selectedLane, result.lanes.length - 1),
    });
    return true;
  };
  /** Loads and keeps playing if the run was playing. */
  const replace = async (scenario: unknown, source: ScenarioSource): Promise<boolean> => {
    const wasPlaying = get().status === 'playing';
    const viewBefore = get().view;
    const result = await client.load(scenario);
    // A view the person chose while the scenario was loading (presentation, hidden parts) stays, unless the scenario brings its own.
    const chosen = get().view !== viewBefore ? get().view : null;
    const ok = applyLoad(result, source);
    if (ok && chosen !== null && result.ok && result.scenario.view === undefined) get().setView(chosen);
    if (ok && wasPlaying && startAllowed(get().scenario)) await client.play();
    return ok;
  };
  const history = historyActions<PipelineScenario>(get, set, replace);
  const remember = history.remember;
  /** The worker changed the scenario in place (placed events, α, threshold): keep it, with history. */
  const refreshScenario = async (before: PipelineScenario | null): Promise<void> => {
    const scenario = await client.currentScenario();
    if (scenario === null) return;
    const view = get().view;
    const merged = isDefaultView(view) ? scenario : { ...scenario, view };
    if (before !== null && JSON.stringify(before) !== JSON.stringify(merged)) remember(before);
    set({ scenario: merged });
  };
  return {
    load: history.load,
    reject: history.reject,
    edit: history.edit,
    undo: history.undo,
    redo: history.redo,
    setView: (view) => {
      const scenario = get().scenario;
      const isDefault = isDefaultView(view);
      // Before the first scenario: kept, and applied to it when it loads (`replace`).
      if (scenario === null) return void set({ view });
      const { view: _old, ...rest } = scenario;
      void _old;
      set({ view, scenario: isDefault ? rest : { ...rest, view } });
    },
    play: () => (startAllowed(get().scenario) ? client.play() : Promise.resolve()),
    pause: () => client.pause(),
    step: (n) => client.step(n),
    reset: () => client.reset(),
    setSpeed: async (speed) => {
      set({ speed });
      await client.setSpeed(speed);
    },
    addEvent: async (executionPlace, mode) => {
      const before = get().scenario;
      set({ events: await client.addEvent(executionPlace, mode) });
      await refreshScenario(before);
    },
    removeEvent: async (id) => {
      const before = get().scenario;
      set({ events: await client.removeEvent(id) });
      await refreshScenario(before);
    },
    setLaneParameter: async (lane, name, value) => {
      const before = get().scenario;
      const info = await client.setLaneParameter(lane, name, value);
      if (info !== null) set({ lanes: get().lanes.map((l) => (l.index === lane ? info : l)) });
      await refreshScenario(before);
    },
    setDetectionThreshold: async (threshold) => {
      const before = get().scenario;
      await client.setDetectionThreshold(threshold);
      await refreshScenario(before);
    },
    selectLane: (lane) => {
      set({ selectedLane: lane });
      void client.setTraceLane(lane);
    },
    setThroughputView: (view) => set({ throughputView: view }),
    dismissErrors: () => set({ errors: null }),
    seek: async (query, step) => {
      const result = await client.seek(query, step);
      if (!result.ok) set({ errors: { source: 'worker', errors: result.errors } });
      return result.ok;
    },
    stepAlgorithm: (direction) => client.stepAlgorithm(direction),
    stepMarker: async (direction) => {
      const { timelineMarkers, selectedLane, served } = get();
      const candidates = laneMarkers(timelineMarkers, selectedLane);
      const target =
        direction === 1 ? candidates.find((m) => markerTarget(m).query > served) : candidates.findLast((m) => markerTarget(m).query < served);
      if (target === undefined) return;
      const { query, step } = markerTarget(target);
      await get().seek(query, step);
    },
    changeSpeed: async (direction) => {
      const speed = get().speed;
      const at = SPEEDS.indexOf(speed);
      const index = at === -1 ? SPEEDS.findIndex((s) => s === 'max' || (speed !== 'max' && s >= speed)) : at;
      const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, index + direction))]!;
      if (next !== speed) await get().setSpeed(next);
    },
    setHelpOpen: (open) => set({ helpOpen: open }),
    startLesson: async (id) => {
      const lesson = findLesson(id);
      if (lesson === undefined) return false;
      await client.pause();
      set({ status: 'paused' });
      const ok = await history.load(lessonScenario(lesson.scenario, get().view), 'preset');
      if (!ok) return false;
      set({ lesson: { id, step: 0 } });
      await get().lessonStep(0);
      return true;
    },
    lessonStep: async (step) => {
      const current = get().lesson;
      const lesson = current === null ? undefined : findLesson(current.id);
      if (current === null || lesson === undefined) return;
      const index = Math.max(0, Math.min(lesson.steps.length - 1, step));
      const target = lesson.steps[index]!;
      set({ lesson: { id: current.id, step: index } });
      if (target.lane !== undefined && target.lane !== get().selectedLane) {
        set({ selectedLane: target.lane });
        await client.setTraceLane(target.lane);
      }
      await get().seek(target.query, target.algorithmStep);
    },
    endLesson: () => set({ lesson: null }),
  };
}

/** Applies one frame from the worker: series and markers in place, the rest as state. */
export function applyFrame(set: Set, get: Get, frame: Frame, nowMs: number, frameTimes: number[]): void {
  const state = get();
  const fresh = frame.generation !== state.generation;
  const series = fresh || state.series.length !== frame.lanes.length ? frame.lanes.map(() => new SeriesBuffer()) : state.series;
  if (fresh) state.markers.clear();
  frame.lanes.forEach((lane, i) => series[i]!.add(lane.points, frame.replace || fresh, frame.stages));
  state.markers.add(frame.markers);
  frameTimes.push(nowMs);
  while (frameTimes.length > 0 && nowMs - frameTimes[0]! > 1000) frameTimes.shift();
  set({
    version: state.version + 1,
    generation: frame.generation,
    stride: frame.stride,
    stages: frame.stages,
    series,
    live: frame.lanes.map((l) => l.live),
    modes: frame.modes,
    status: frame.status,
    served: frame.served,
    totalQueries: frame.totalQueries,
    measuredSpeed: frame.measuredSpeed,
    framesPerSecond: frameTimes.length,
    ...(frame.summaries ? { summaries: frame.summaries } : fresh ? { summaries: null } : {}),
    ...(frame.teaching ? { teaching: frame.teaching, teachingServed: frame.served } : {}),
    ...(frame.timeline
      ? {
          furthest: frame.timeline.furthest,
          timelineMarkers: frame.timeline.reset
            ? frame.timeline.markers
            : frame.timeline.markers.length > 0
              ? state.timelineMarkers.concat(frame.timeline.markers).slice(-TIMELINE_MARKERS)
              : state.timelineMarkers,
        }
      : {}),
  });
}

/**
 * The lab's one store (zustand, slices: scenario, playback, results, ui), wired to a
 * simulation client. Charts subscribe to `version` and read the series buffers; React
 * components select single values.
 */
export function createLabStore(client: SimClient, now: () => number = () => performance.now(), ask: AskToStart = browserAsk): LabStore {
  const frameTimes: number[] = [];
  const store = createStore<LabState>()(
    subscribeWithSelector((set, get) => ({
      ...scenarioSlice(),
      ...playbackSlice(),
      ...resultsSlice(),
      ...uiSlice(),
      ...teachingSlice(),
      ...actions(set, get, client, longRunGuard(ask)),
    })),
  );
  void client.subscribe((frame) => applyFrame(store.setState, store.getState, frame, now(), frameTimes));
  client.onCrash?.((reason) => {
    // A fresh worker knows nothing: give it the scenario back and say what happened.
    const { scenario } = store.getState();
    // The new worker counts generations from scratch: make its first frame count as fresh.
    store.setState({ generation: -1 });
    const crashed = { source: 'worker' as const, errors: [{ path: '(simulation)', message: `${reason === 'crashed' ? 'stopped unexpectedly' : 'stopped answering'} and was restarted; the run starts again from query 0` }] };
    if (scenario === null) {
      store.setState({ errors: crashed });
      return;
    }
    void client.load(scenario).then((result) => {
      if (result.ok) store.setState({ lanes: result.lanes, events: result.events, initialConfiguration: result.initialConfiguration, summaries: null });
      store.setState({ errors: crashed });
    });
  });
  return store as LabStore;
}
