import { createStore, type StoreApi } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import type { PipelineSummary } from '../engine/pipeline/metrics';
import type { InterferenceModeId } from '../engine/profiles/types';
import type { FieldError, Scenario } from '../scenario/schema';
import type { EventView, Frame, LaneInfo, LaneLive, LoadResult, PlaybackStatus, Speed } from '../worker/protocol';
import { MarkerBuffer, SeriesBuffer } from './series';

/** The worker's API as the page sees it: every call is asynchronous. */
export interface SimClient {
  subscribe(onFrame: (frame: Frame) => void): Promise<void>;
  load(scenario: unknown): Promise<LoadResult>;
  play(): Promise<void>;
  pause(): Promise<void>;
  step(n: number): Promise<void>;
  reset(): Promise<void>;
  setSpeed(speed: Speed): Promise<void>;
  addEvent(executionPlace: number, mode: InterferenceModeId): Promise<readonly EventView[]>;
  removeEvent(id: number): Promise<readonly EventView[]>;
  setLaneParameter(lane: number, name: string, value: number): Promise<LaneInfo | null>;
  setDetectionThreshold(threshold: number): Promise<boolean>;
  currentScenario(): Promise<Scenario | null>;
}

export interface ScenarioSlice {
  /** The scenario running now (null before the first load). */
  scenario: Scenario | null;
  lanes: readonly LaneInfo[];
  layers: readonly string[];
  peakQps: number;
  initialConfiguration: Int32Array;
  events: readonly EventView[];
  /** Errors of the last rejected load; the last good scenario keeps running. */
  errors: readonly FieldError[] | null;
}

export interface PlaybackSlice {
  status: PlaybackStatus;
  served: number;
  totalQueries: number;
  speed: Speed;
  /** Simulated queries per wall-clock second, measured by the worker. */
  rateQps: number;
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
}

export interface Actions {
  load(scenario: unknown): Promise<boolean>;
  /** Applies an edit to the current scenario and reloads it (a fresh run). */
  edit(change: (scenario: Scenario) => Scenario): Promise<boolean>;
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
}

export type LabState = ScenarioSlice & PlaybackSlice & ResultsSlice & UiSlice & Actions;
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
});

const playbackSlice = (): PlaybackSlice => ({ status: 'paused', served: 0, totalQueries: 0, speed: 60, rateQps: 0, framesPerSecond: 0 });

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

const uiSlice = (): UiSlice => ({ selectedLane: 0, throughputView: 'config' });

function actions(set: Set, get: Get, client: SimClient): Actions {
  const applyLoad = (result: LoadResult): boolean => {
    if (!result.ok) {
      set({ errors: result.errors });
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
      selectedLane: Math.min(get().selectedLane, result.lanes.length - 1),
    });
    return true;
  };
  const refreshScenario = async (): Promise<void> => {
    const scenario = await client.currentScenario();
    if (scenario !== null) set({ scenario });
  };
  return {
    load: async (scenario) => applyLoad(await client.load(scenario)),
    edit: async (change) => {
      const current = get().scenario;
      if (current === null) return false;
      const ok = applyLoad(await client.load(change(structuredClone(current))));
      if (ok && get().status !== 'paused') await client.play();
      return ok;
    },
    play: () => client.play(),
    pause: () => client.pause(),
    step: (n) => client.step(n),
    reset: () => client.reset(),
    setSpeed: async (speed) => {
      set({ speed });
      await client.setSpeed(speed);
    },
    addEvent: async (executionPlace, mode) => {
      set({ events: await client.addEvent(executionPlace, mode) });
      await refreshScenario();
    },
    removeEvent: async (id) => {
      set({ events: await client.removeEvent(id) });
      await refreshScenario();
    },
    setLaneParameter: async (lane, name, value) => {
      const info = await client.setLaneParameter(lane, name, value);
      if (info !== null) set({ lanes: get().lanes.map((l) => (l.index === lane ? info : l)) });
      await refreshScenario();
    },
    setDetectionThreshold: async (threshold) => {
      await client.setDetectionThreshold(threshold);
      await refreshScenario();
    },
    selectLane: (lane) => set({ selectedLane: lane }),
    setThroughputView: (view) => set({ throughputView: view }),
    dismissErrors: () => set({ errors: null }),
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
    rateQps: frame.rateQps,
    framesPerSecond: frameTimes.length,
    ...(frame.summaries ? { summaries: frame.summaries } : fresh ? { summaries: null } : {}),
  });
}

/**
 * The lab's one store (zustand, slices: scenario, playback, results, ui), wired to a
 * simulation client. Charts subscribe to `version` and read the series buffers; React
 * components select single values.
 */
export function createLabStore(client: SimClient, now: () => number = () => performance.now()): LabStore {
  const frameTimes: number[] = [];
  const store = createStore<LabState>()(
    subscribeWithSelector((set, get) => ({
      ...scenarioSlice(),
      ...playbackSlice(),
      ...resultsSlice(),
      ...uiSlice(),
      ...actions(set, get, client),
    })),
  );
  void client.subscribe((frame) => applyFrame(store.setState, store.getState, frame, now(), frameTimes));
  return store as LabStore;
}
