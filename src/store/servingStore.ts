import { createStore, type StoreApi } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import type { AgentFile } from '../agents/learner';
import type { SacUpdateExplained } from '../agents/sac';
import type { ServingSummary } from '../engine/serving/metrics';
import type { PlatformId } from '../engine/serving/platforms';
import type { FieldError, ServingScenario } from '../scenario/schema';
import type { PlaybackStatus } from '../worker/protocol';
import type {
  BackgroundView,
  LearningLive,
  ServingApi,
  ServingFrame,
  ServingLaneInfo,
  ServingLaneLive,
  ServingLoadResult,
  ServingMarker,
  ServingModelInfo,
  ServingSearchProgress,
  ServingSeriesChunk,
  ServingSpeed,
  Figure1Cells,
  RpsSweepLines,
  ServingSweepRequest,
  ServingSweepResult,
} from '../worker/servingProtocol';
import type { WorkerClient } from './restartingWorker';
import { findServingLesson } from '../scenario/presets';
import { historyActions, lessonScenario, type LoadErrors, type ScenarioSource } from './history';
import { browserAsk, longRunGuard, type AskToStart } from './longRun';
import { isWorkerRestarted } from './restartingWorker';
import type { AnyScenario } from '../scenario/schema';

/** The serving worker's API as the page sees it (every call is asynchronous), derived from `ServingApi`. */
export type ServingClient = WorkerClient<ServingApi, ServingFrame>;

/** Scalar columns: one value per point. */
const POINT_COLUMNS = ['endMs', 'slots'] as const;
export type ServingPointColumn = (typeof POINT_COLUMNS)[number];
/** Per-model columns: `models` values per point, row-major (point i, model m at i * models + m). */
const MODEL_COLUMNS = ['throughputRps', 'latencyMeanMs', 'utility', 'arrivals', 'violations'] as const;
export type ServingModelColumn = (typeof MODEL_COLUMNS)[number];
/** Per-model integer columns, row-major as MODEL_COLUMNS. */
const MODEL_INT_COLUMNS = ['batchSize', 'instances'] as const;
export type ServingModelIntColumn = (typeof MODEL_INT_COLUMNS)[number];

/**
 * A lane's downsampled per-slot series on the page: columns with a length, appended to by
 * frames and replaced when the worker compacts or replays. Bounded by the worker's point
 * budget (SERIES_MAX_POINTS); charts read it directly (it never enters React state).
 */
export class ServingSeriesBuffer {
  length = 0;
  /** Models per point of the per-model columns. */
  models = 0;
  readonly columns: Record<ServingPointColumn, Float64Array>;
  readonly modelColumns: Record<ServingModelColumn, Float64Array>;
  readonly intColumns: Record<ServingModelIntColumn, Int32Array>;

  constructor(private capacity = 1024) {
    this.columns = Object.fromEntries(POINT_COLUMNS.map((c) => [c, new Float64Array(capacity)])) as Record<ServingPointColumn, Float64Array>;
    this.modelColumns = Object.fromEntries(MODEL_COLUMNS.map((c) => [c, new Float64Array(0)])) as Record<ServingModelColumn, Float64Array>;
    this.intColumns = Object.fromEntries(MODEL_INT_COLUMNS.map((c) => [c, new Int32Array(0)])) as Record<ServingModelIntColumn, Int32Array>;
  }

  clear(models: number): void {
    this.length = 0;
    this.models = models;
    for (const c of MODEL_COLUMNS) this.modelColumns[c] = new Float64Array(this.capacity * models);
    for (const c of MODEL_INT_COLUMNS) this.intColumns[c] = new Int32Array(this.capacity * models);
  }

  /** Appends a chunk (or replaces everything with it). */
  add(chunk: ServingSeriesChunk, replace: boolean, models: number): void {
    if (replace || models !== this.models) this.clear(models);
    const n = chunk.endMs.length;
    if (this.length + n > this.capacity) this.ensure(this.length + n);
    for (const c of POINT_COLUMNS) this.columns[c].set(chunk[c], this.length);
    for (const c of MODEL_COLUMNS) this.modelColumns[c].set(chunk[c], this.length * models);
    for (const c of MODEL_INT_COLUMNS) this.intColumns[c].set(chunk[c], this.length * models);
    this.length += n;
  }

  /** Value of a per-model column at point `i` for model `m`. */
  at(column: ServingModelColumn | ServingModelIntColumn, i: number, m: number): number {
    const values = column === 'batchSize' || column === 'instances' ? this.intColumns[column] : this.modelColumns[column];
    return values[i * this.models + m]!;
  }

  private ensure(size: number): void {
    let capacity = this.capacity;
    while (capacity < size) capacity *= 2;
    for (const c of POINT_COLUMNS) {
      const bigger = new Float64Array(capacity);
      bigger.set(this.columns[c].subarray(0, this.length));
      this.columns[c] = bigger;
    }
    const used = this.length * this.models;
    for (const c of MODEL_COLUMNS) {
      const bigger = new Float64Array(capacity * this.models);
      bigger.set(this.modelColumns[c].subarray(0, used));
      this.modelColumns[c] = bigger;
    }
    for (const c of MODEL_INT_COLUMNS) {
      const bigger = new Int32Array(capacity * this.models);
      bigger.set(this.intColumns[c].subarray(0, used));
      this.intColumns[c] = bigger;
    }
    this.capacity = capacity;
  }
}

export interface ServingScenarioSlice {
  /** The scenario running now (null before the first load). */
  scenario: ServingScenario | null;
  lanes: readonly ServingLaneInfo[];
  models: readonly ServingModelInfo[];
  platform: PlatformId | null;
  memoryMb: number;
  slotMs: number;
  backgrounds: readonly BackgroundView[];
  /** Why the last load was rejected (and from where); the last good scenario keeps running. */
  errors: LoadErrors | null;
  /** Scenarios before the current one (most recent last), for undo. */
  past: readonly ServingScenario[];
  /** Scenarios undone, for redo (most recent last). */
  future: readonly ServingScenario[];
  /** How the page presents the scenario (carried by the link: presentation, classroom's hidden parts). */
  view: ServingView;
}

export type ServingView = NonNullable<ServingScenario['view']>;

/** The time line: how far the run has been, and its markers. */
export interface ServingTimelineSlice {
  furthestMs: number;
  timelineMarkers: readonly ServingMarker[];
}

export interface ServingPlaybackSlice {
  status: PlaybackStatus;
  /** Simulated time every lane has reached, ms. */
  timeMs: number;
  durationMs: number;
  speed: ServingSpeed;
  /** Requests per second of the scenario (the arrival rate). */
  rateRps: number;
  /** Simulation speed measured by the worker: simulated seconds per wall second (not an arrival rate). */
  measuredSpeed: number;
  /** Frames received per wall-clock second. */
  framesPerSecond: number;
}

export interface ServingResultsSlice {
  /** Increases with every frame: charts subscribe to it and read the buffers below. */
  version: number;
  generation: number;
  /** Slots per point of the series now. */
  stride: number;
  /** Models per point of the per-model columns. */
  modelCount: number;
  series: ServingSeriesBuffer[];
  live: readonly ServingLaneLive[];
  /** Per lane: its learning state (null for lanes that do not learn). */
  learning: readonly (LearningLive | null)[];
  /** Per lane: the last policy and masks the worker sent (they come at most 4 times a second). */
  policies: readonly ({ readonly policy: Float32Array; readonly masks: Uint8Array } | null)[];
  /** Per lane: mean wall-clock decision time, µs (Fig. 16). */
  decisionUs: readonly (number | null)[];
  summaries: readonly ServingSummary[] | null;
  /** A reference lane searching before the run (null when none is). */
  search: ServingSearchProgress | null;
}

/** One of the worker's sweeps as the page shows it: the request, its progress and its result. */
export interface ServingSweepState<R> {
  /** Stands for the request: a sweep asked again with the same key is not restarted. */
  readonly key: string;
  readonly request: ServingSweepRequest;
  readonly done: number;
  readonly total: number;
  readonly result: R | null;
  /** Why the sweep has no result (it failed in the worker). */
  readonly error: string | null;
}


/** The sweeps the serving worker computes beside the live run (Fig. 1 and Fig. 15). */
export interface ServingSweepsSlice {
  sweeps: { readonly figure1: ServingSweepState<Figure1Cells> | null; readonly rps: ServingSweepState<RpsSweepLines> | null };
}

export interface ServingUiSlice {
  selectedLane: number;
  selectedModel: number;
  /** The serving lesson being followed and its step (lessons.ts). */
  lesson: { readonly id: string; readonly step: number } | null;
}

export interface ServingActions {
  /** Loads a scenario from `source` (validated in the worker); a rejection keeps the current one. */
  load(scenario: unknown, source?: ScenarioSource): Promise<boolean>;
  /** Reports errors found before a scenario could even be read (a broken link or file). */
  reject(source: ScenarioSource, errors: readonly FieldError[]): void;
  /** Applies an edit to the current scenario and reloads it (a fresh run). */
  edit(change: (scenario: ServingScenario) => ServingScenario): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  play(): Promise<void>;
  pause(): Promise<void>;
  /** Advances every lane by `simulatedMs`. */
  step(simulatedMs: number): Promise<void>;
  reset(): Promise<void>;
  setSpeed(speed: ServingSpeed): Promise<void>;
  /** Sets the request rate (the run restarts from time 0); false when out of bounds. */
  setArrivalRate(rateRps: number): Promise<boolean>;
  /** Sets (b, m_c) of one model on a fixed lane from the next slot on; false when refused. */
  setModelConfig(lane: number, model: number, batchSize: number, instances: number): Promise<boolean>;
  addBackground(intensity: number, memoryMb: number): Promise<void>;
  removeBackground(id: number): Promise<void>;
  selectLane(lane: number): void;
  selectModel(model: number): void;
  dismissErrors(): void;
  /** A learning lane's agent as a file (null when the lane does not learn). */
  exportAgent(lane: number): Promise<AgentFile | null>;
  /** Loads an agent into a learning lane; a bad file is reported (source 'file') and changes nothing. */
  importAgent(lane: number, file: unknown): Promise<boolean>;
  /** Runs and explains the next SAC update of a lane (the walkthrough panel); null when it has none. */
  explainUpdate(lane: number): Promise<SacUpdateExplained | null>;
  /** Restarts the run with the lane learning from scratch (no shipped agent, exploring, training). */
  trainFromScratch(lane: number): Promise<boolean>;
  /** Time travel: goes to `timeMs` of the run (back by an exact replay); false when refused. */
  seek(timeMs: number): Promise<boolean>;
  /** Jumps to the next or previous marker of the time line (tenants, and the selected lane's changes). */
  stepMarker(direction: 1 | -1): Promise<void>;
  /** Presentation mode and hidden parts (a classroom link). */
  setView(view: ServingView): void;
  /** Opens a serving lesson (its scenario, paused) at its first step. */
  startLesson(id: string): Promise<boolean>;
  /** Moves to another step of the lesson under way: selects its lane and goes to its time. */
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
  /** Asks the worker for a sweep (nothing happens when the same `key` is already there); a newer one of its kind replaces it. */
  sweep(request: ServingSweepRequest, key: string): Promise<void>;
}

/** Markers of the serving time line a person can jump to for the selected lane. */
export function servingLaneMarkers(markers: readonly ServingMarker[], lane: number): ServingMarker[] {
  return markers.filter((m) => m.lane === -1 || m.lane === lane);
}

export type ServingState = ServingScenarioSlice & ServingPlaybackSlice & ServingResultsSlice & ServingUiSlice & ServingTimelineSlice & ServingSweepsSlice & ServingActions;
export type ServingStore = StoreApi<ServingState> & {
  subscribe: {
    (listener: (state: ServingState, previous: ServingState) => void): () => void;
    <U>(
      selector: (state: ServingState) => U,
      listener: (selected: U, previous: U) => void,
      options?: { equalityFn?: (a: U, b: U) => boolean; fireImmediately?: boolean },
    ): () => void;
  };
};

type Set = StoreApi<ServingState>['setState'];
type Get = StoreApi<ServingState>['getState'];

const scenarioSlice = (): ServingScenarioSlice => ({
  scenario: null,
  lanes: [],
  models: [],
  platform: null,
  memoryMb: 0,
  slotMs: 0,
  backgrounds: [],
  errors: null,
  past: [],
  future: [],
  view: { mode: 'normal', hide: [] },
});

const playbackSlice = (): ServingPlaybackSlice => ({ status: 'paused', timeMs: 0, durationMs: 0, speed: 10, rateRps: 0, measuredSpeed: 0, framesPerSecond: 0 });

const resultsSlice = (): ServingResultsSlice => ({
  version: 0,
  generation: 0,
  stride: 1,
  modelCount: 0,
  series: [],
  live: [],
  learning: [],
  policies: [],
  decisionUs: [],
  summaries: null,
  search: null,
});

const uiSlice = (): ServingUiSlice => ({ selectedLane: 0, selectedModel: 0, lesson: null });

/** What a successful load sets. */
function loadedState(result: Extract<ServingLoadResult, { ok: true }>, get: Get): Partial<ServingState> {
  return {
    scenario: result.scenario,
    lanes: result.lanes,
    models: result.models,
    platform: result.platform,
    memoryMb: result.memoryMb,
    slotMs: result.slotMs,
    durationMs: result.durationMs,
    rateRps: result.scenario.serving.rateRps,
    backgrounds: result.backgrounds,
    summaries: null,
    view: result.scenario.view ?? { mode: 'normal', hide: [] },
    selectedLane: Math.max(0, Math.min(get().selectedLane, result.lanes.length - 1)),
    selectedModel: Math.max(0, Math.min(get().selectedModel, result.models.length - 1)),
  };
}

function actions(set: Set, get: Get, client: ServingClient, startAllowed: (scenario: AnyScenario | null) => boolean): ServingActions {
  /** Remembers the scenario before a change, for undo (a new change clears redo). */
  const applyLoad = (result: ServingLoadResult, source: ScenarioSource): boolean => {
    if (!result.ok) {
      set({ errors: { source, errors: result.errors }, search: null });
      return false;
    }
    set({ ...loadedState(result, get), errors: null, search: null });
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
  const history = historyActions<ServingScenario>(get, set, replace);
  const remember = history.remember;
  /** The worker changed the scenario in place (rate, per-model settings, backgrounds): keep it, with history. */
  const refreshScenario = async (before: ServingScenario | null): Promise<void> => {
    const scenario = await client.currentScenario();
    if (scenario === null) return;
    const view = get().view;
    const merged = view.mode === 'normal' && view.hide.length === 0 ? scenario : { ...scenario, view };
    if (before !== null && JSON.stringify(before) !== JSON.stringify(merged)) remember(before);
    set({ scenario: merged, rateRps: merged.serving.rateRps });
  };
  return {
    load: history.load,
    reject: history.reject,
    edit: history.edit,
    undo: history.undo,
    redo: history.redo,
    play: () => (startAllowed(get().scenario) ? client.play() : Promise.resolve()),
    pause: () => client.pause(),
    step: (simulatedMs) => client.step(simulatedMs),
    reset: () => client.reset(),
    setSpeed: async (speed) => {
      set({ speed });
      await client.setSpeed(speed);
    },
    setArrivalRate: async (rateRps) => {
      const before = get().scenario;
      const ok = await client.setArrivalRate(rateRps);
      if (ok) await refreshScenario(before);
      return ok;
    },
    setModelConfig: async (lane, model, batchSize, instances) => {
      const before = get().scenario;
      const info = await client.setModelConfig(lane, model, batchSize, instances);
      if (info === null) return false;
      set({ lanes: get().lanes.map((l) => (l.index === lane ? info : l)) });
      await refreshScenario(before);
      return true;
    },
    addBackground: async (intensity, memoryMb) => {
      const before = get().scenario;
      set({ backgrounds: await client.addBackground(intensity, memoryMb) });
      await refreshScenario(before);
    },
    removeBackground: async (id) => {
      const before = get().scenario;
      set({ backgrounds: await client.removeBackground(id) });
      await refreshScenario(before);
    },
    selectLane: (lane) => set({ selectedLane: lane }),
    selectModel: (model) => set({ selectedModel: model }),
    dismissErrors: () => set({ errors: null }),
    exportAgent: (lane) => client.exportAgent(lane),
    explainUpdate: (lane) => client.explainUpdate(lane),
    importAgent: async (lane, file) => {
      const result = await client.importAgent(lane, file);
      if (!result.ok) {
        set({ errors: { source: 'file', errors: [{ path: 'agent', message: result.error.replace(/^agent\.?/, '') || result.error }] } });
        return false;
      }
      return true;
    },
    seek: async (timeMs) => {
      const result = await client.seek(timeMs);
      if (!result.ok) set({ errors: { source: 'worker', errors: result.errors } });
      return result.ok;
    },
    stepMarker: async (direction) => {
      const { timelineMarkers, selectedLane, timeMs } = get();
      const candidates = servingLaneMarkers(timelineMarkers, selectedLane);
      const target = direction === 1 ? candidates.find((m) => m.timeMs > timeMs) : candidates.findLast((m) => m.timeMs < timeMs);
      if (target !== undefined) await get().seek(target.timeMs);
    },
    setView: (view) => {
      const scenario = get().scenario;
      // Before the first scenario: kept, and applied to it when it loads (`replace`).
      if (scenario === null) return void set({ view });
      const { view: _old, ...rest } = scenario;
      void _old;
      const isDefault = view.mode === 'normal' && view.hide.length === 0;
      set({ view, scenario: isDefault ? rest : { ...rest, view } });
    },
    startLesson: async (id) => {
      const lesson = findServingLesson(id);
      if (lesson === undefined) return false;
      await client.pause();
      const ok = await history.load(lessonScenario(lesson.scenario, get().view), 'preset');
      if (!ok) return false;
      set({ lesson: { id, step: 0 } });
      await get().lessonStep(0);
      return true;
    },
    lessonStep: async (step) => {
      const current = get().lesson;
      const lesson = current === null ? undefined : findServingLesson(current.id);
      if (current === null || lesson === undefined) return;
      const index = Math.max(0, Math.min(lesson.steps.length - 1, step));
      const target = lesson.steps[index]!;
      set({ lesson: { id: current.id, step: index } });
      if (target.lane !== undefined) set({ selectedLane: target.lane });
      await client.pause();
      await get().seek(target.timeMs);
    },
    endLesson: () => set({ lesson: null }),
    sweep: async (request, key) => {
      const kind = request.kind;
      if (get().sweeps[kind]?.key === key) return;
      set({ sweeps: { ...get().sweeps, [kind]: { key, request, done: 0, total: 0, result: null, error: null } } });
      const current = () => {
        const now = get().sweeps[kind];
        return now !== null && now.key === key ? now : null;
      };
      let result: ServingSweepResult;
      try {
        result = await client.sweep(request, (progress) => {
          const now = current();
          if (now !== null) set({ sweeps: { ...get().sweeps, [kind]: { ...now, done: progress.done, total: progress.total } } });
        });
      } catch (error) {
        // The worker was restarted under the sweep: the crash handler asks the new one.
        if (isWorkerRestarted(error)) return;
        throw error;
      }
      const now = current();
      if (now === null || (!result.ok && result.cancelled)) return;
      if (!result.ok) {
        set({ sweeps: { ...get().sweeps, [kind]: { ...now, error: result.errors.map((e) => `${e.path}: ${e.message}`).join('; ') } } });
        return;
      }
      const value = result.kind === 'figure1' ? result.figure1 : result.rps;
      set({ sweeps: { ...get().sweeps, [kind]: { ...now, done: Math.max(now.done, now.total), result: value } } });
    },
    trainFromScratch: (lane) =>
      history.edit((scenario) => ({
        ...scenario,
        serving: {
          ...scenario.serving,
          lanes: scenario.serving.lanes.map((l, i) => (i === lane ? { ...l, params: { ...l.params, pretrained: 0, train: 1, explore: 1 } } : l)),
        },
      })),
  };
}

/** Applies one frame from the worker: series in place, the rest as state. */
export function applyServingFrame(set: Set, get: Get, frame: ServingFrame, nowMs: number, frameTimes: number[]): void {
  // A search frame has no lanes (they are being built): it changes the progress only.
  if (frame.search != null) {
    set({ search: frame.search });
    return;
  }
  const state = get();
  const fresh = frame.generation !== state.generation;
  const series = fresh || state.series.length !== frame.lanes.length ? frame.lanes.map(() => new ServingSeriesBuffer()) : state.series;
  frame.lanes.forEach((lane, i) => series[i]!.add(lane.points, frame.replace || fresh, frame.models));
  frameTimes.push(nowMs);
  while (frameTimes.length > 0 && nowMs - frameTimes[0]! > 1000) frameTimes.shift();
  set({
    version: state.version + 1,
    generation: frame.generation,
    stride: frame.stride,
    modelCount: frame.models,
    series,
    live: frame.lanes.map((l) => l.live),
    learning: frame.lanes.map((l) => l.learning ?? null),
    policies: frame.lanes.map((l, i) =>
      l.learning?.policy != null && l.learning.masks != null ? { policy: l.learning.policy, masks: l.learning.masks } : fresh ? null : (state.policies[i] ?? null),
    ),
    decisionUs: frame.lanes.map((l) => l.decisionUs),
    backgrounds: frame.backgrounds,
    status: frame.status,
    timeMs: frame.timeMs,
    durationMs: frame.durationMs,
    measuredSpeed: frame.measuredSpeed,
    framesPerSecond: frameTimes.length,
    furthestMs: frame.furthestMs,
    ...(frame.timeline ? { timelineMarkers: frame.timeline.markers } : {}),
    ...(frame.summaries ? { summaries: frame.summaries } : fresh ? { summaries: null } : {}),
    ...(frame.search === null ? { search: null } : {}),
  });
}

/**
 * The serving page's one store (zustand, slices: scenario, playback, results, ui), wired
 * to a serving client, as `createLabStore` is for the pipeline world. Charts subscribe to
 * `version` and read the series buffers; React components select single values.
 */
export function createServingStore(client: ServingClient, now: () => number = () => performance.now(), ask: AskToStart = browserAsk): ServingStore {
  const frameTimes: number[] = [];
  const store = createStore<ServingState>()(
    subscribeWithSelector((set, get) => ({
      ...scenarioSlice(),
      ...playbackSlice(),
      ...resultsSlice(),
      ...uiSlice(),
      furthestMs: 0,
      timelineMarkers: [],
      sweeps: { figure1: null, rps: null },
      ...actions(set, get, client, longRunGuard(ask)),
    })),
  );
  void client.subscribe((frame) => applyServingFrame(store.setState, store.getState, frame, now(), frameTimes));
  client.onCrash?.((reason) => {
    // A fresh worker knows nothing: give it the scenario back and say what happened.
    const { scenario, speed, sweeps } = store.getState();
    // Sweeps the old worker had not finished are asked of the new one.
    store.setState({ sweeps: { figure1: sweeps.figure1?.result == null ? null : sweeps.figure1, rps: sweeps.rps?.result == null ? null : sweeps.rps } });
    for (const s of [sweeps.figure1, sweeps.rps]) if (s !== null && s.result === null) void store.getState().sweep(s.request, s.key);
    // The new worker counts generations from scratch: make its first frame count as fresh.
    store.setState({ generation: -1, search: null });
    const crashed = { source: 'worker' as const, errors: [{ path: '(simulation)', message: `${reason === 'crashed' ? 'stopped unexpectedly' : 'stopped answering'} and was restarted; the run starts again from time 0` }] };
    if (scenario === null) {
      store.setState({ errors: crashed });
      return;
    }
    void client
      .setSpeed(speed)
      .then(() => client.load(scenario))
      .then((result) => {
        if (result.ok) store.setState(loadedState(result, store.getState));
        store.setState({ errors: crashed });
      });
  });
  return store as ServingStore;
}
