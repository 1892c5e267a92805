import type { AgentFile } from '../agents/learner';
import type { SacUpdateExplained } from '../agents/sac';

import type { PlatformId } from '../engine/platforms';

import type { BackgroundView, LearningLive, ServingApi, ServingFrame, ServingMarker, ServingModelInfo, ServingLaneSearch, Figure1Cells, RpsSweepLines, ServingSweepRequest, ServingSweepResult } from '../worker/servingProtocol';
import type { WorkerClient } from '../../../store/restartingWorker';
import { findServingLesson } from '../presets';
import { DEFAULT_SPEED, SERVING_SPEEDS } from '../../../store/constants';
import { createLiveStore, editActions, markersOfLane, type EditActions, type LiveStore, type LiveWorld, type SharedLabState } from '../../../store/liveStore';
import type { ServingTypes } from '../types';
import type { AskToStart } from '../../../store/longRun';
import { isWorkerRestarted } from '../../../store/restartingWorker';
import { ServingSeriesBuffer } from './servingSeriesBuffer';

/** The serving worker's API as the page sees it (every call is asynchronous), derived from `ServingApi`. */
export type ServingClient = WorkerClient<ServingApi, ServingFrame>;

export { ServingSeriesBuffer, type ServingModelColumn, type ServingModelIntColumn, type ServingPointColumn } from './servingSeriesBuffer';
export { SERVING_SPEEDS } from '../../../store/constants';

export type ServingView = ServingTypes['view'];

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
export interface ServingSweeps {
  readonly figure1: ServingSweepState<Figure1Cells> | null;
  readonly rps: ServingSweepState<RpsSweepLines> | null;
}

/** The serving worker's live edits, as store actions (`EditActions`). */
export type ServingEdits = EditActions<ServingApi, 'setArrivalRate' | 'setModelConfig' | 'addBackground' | 'removeBackground'>;

/** The serving world's slice: the device and its models, simulated time, learning lanes, sweeps. */
export interface ServingSlice extends ServingEdits {
  models: readonly ServingModelInfo[];
  platform: PlatformId | null;
  /** Copies of the device, one per model on §V-D's Nano and TX2 (platformSetting perModel), else 1. */
  deviceCopies: number;
  memoryMb: number;
  slotMs: number;
  backgrounds: readonly BackgroundView[];
  /** Simulated time every lane has reached, ms (the shared `position`). */
  timeMs: number;
  durationMs: number;
  /** Requests per second of the scenario (the arrival rate). */
  rateRps: number;
  /** How far the run has been, simulated ms (the shared `furthest`). */
  furthestMs: number;
  /** Models per point of the per-model columns. */
  modelCount: number;
  /** Per lane: its learning state (null for lanes that do not learn). */
  learning: readonly (LearningLive | null)[];
  /** Per lane: the last policy and masks the worker sent (they come at most 4 times a second). */
  policies: readonly ({ readonly policy: Float32Array; readonly masks: Uint8Array } | null)[];
  /** Per lane: mean wall-clock decision time, µs (Fig. 16). */
  decisionUs: readonly (number | null)[];
  /** Per lane: how far a reference lane waiting for its plan is (null for a lane that runs). */
  searches: readonly (ServingLaneSearch | null)[];
  sweeps: ServingSweeps;
  selectedModel: number;
  /**
   * Simulated time of the last live edit that changes the lanes from then on (a Triton setting,
   * a tenant added or removed), ms; null since the load. Numbers that end before it do not show
   * it yet (the live scoreboard says so).
   */
  editedAtMs: number | null;

  selectModel(model: number): void;
  /** A learning lane's agent as a file (null when the lane does not learn). */
  exportAgent(lane: number): Promise<AgentFile | null>;
  /** Loads an agent into a learning lane; a bad file is reported (source 'file') and changes nothing. */
  importAgent(lane: number, file: unknown): Promise<boolean>;
  /** Runs and explains the next SAC update of a lane (the walkthrough panel); null when it has none. */
  explainUpdate(lane: number): Promise<SacUpdateExplained | null>;
  /** Restarts the run with the lane learning from scratch (no shipped agent, exploring, training). */
  trainFromScratch(lane: number): Promise<boolean>;
  /** Asks the worker for a sweep (nothing happens when the same `key` is already there); a newer one of its kind replaces it. */
  sweep(request: ServingSweepRequest, key: string): Promise<void>;
}

export type ServingState = SharedLabState<ServingTypes> & ServingSlice;
export type ServingStore = LiveStore<ServingState>;

/** Markers of the serving time line a person can jump to for the selected lane. */
export const servingLaneMarkers: (markers: readonly ServingMarker[], lane: number) => ServingMarker[] = markersOfLane;

/** The serving world (BCEdge) on top of the shared slices. */
function servingWorld(client: ServingClient): LiveWorld<ServingTypes, ServingSlice> {
  return {
    speeds: SERVING_SPEEDS,
    speed: DEFAULT_SPEED.serving,
    origin: 'time 0',
    slice: (set, get, { edit, liveEdit }) => ({
      models: [],
      platform: null,
      deviceCopies: 1,
      memoryMb: 0,
      slotMs: 0,
      backgrounds: [],
      timeMs: 0,
      durationMs: 0,
      rateRps: 0,
      furthestMs: 0,
      modelCount: 0,
      learning: [],
      policies: [],
      decisionUs: [],
      searches: [],
      sweeps: { figure1: null, rps: null },
      selectedModel: 0,
      editedAtMs: null,
      ...editActions<ServingApi, keyof ServingEdits>(client, liveEdit, {
        setArrivalRate: null,
        setModelConfig: (applied, lane) => set({ lanes: get().lanes.map((l) => (l.index === lane ? applied.lane : l)), editedAtMs: get().timeMs }),
        addBackground: (applied) => set({ backgrounds: applied.backgrounds, editedAtMs: get().timeMs }),
        removeBackground: (applied) => set({ backgrounds: applied.backgrounds, editedAtMs: get().timeMs }),
      }),
      selectModel: (model) => set({ selectedModel: model }),
      exportAgent: async (lane) => {
        const answer = await client.exportAgent(lane);
        return answer.ok ? answer.agent : null;
      },
      explainUpdate: async (lane) => {
        const answer = await client.explainUpdate(lane);
        return answer.ok ? answer.update : null;
      },
      importAgent: async (lane, file) => {
        const result = await client.importAgent(lane, file);
        if (!result.ok) set({ errors: { source: 'file', errors: result.errors } });
        return result.ok;
      },
      trainFromScratch: (lane) =>
        edit((scenario) => ({
          ...scenario,
          serving: {
            ...scenario.serving,
            lanes: scenario.serving.lanes.map((l, i) => (i === lane ? { ...l, params: { ...l.params, pretrained: 0, train: 1, explore: 1 } } : l)),
          },
        })),
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
    }),
    loaded: (result, state) => ({
      models: result.models,
      platform: result.platform,
      deviceCopies: result.deviceCopies,
      memoryMb: result.memoryMb,
      slotMs: result.slotMs,
      durationMs: result.durationMs,
      rateRps: result.scenario.serving.rateRps,
      backgrounds: result.backgrounds,
      editedAtMs: null,
      selectedModel: Math.max(0, Math.min(state.selectedModel, result.models.length - 1)),
    }),
    refreshed: (scenario) => ({ rateRps: scenario.serving.rateRps }),
    newSeries: () => new ServingSeriesBuffer(),
    width: (frame) => frame.models,
    position: (frame) => frame.timeMs,
    frame: (frame, state, fresh) => ({
      modelCount: frame.models,
      learning: frame.lanes.map((l) => l.learning ?? null),
      policies: frame.lanes.map((l, i) =>
        l.learning?.policy != null && l.learning.masks != null ? { policy: l.learning.policy, masks: l.learning.masks } : fresh ? null : (state.policies[i] ?? null),
      ),
      decisionUs: frame.lanes.map((l) => l.decisionUs),
      searches: frame.lanes.map((l) => l.search ?? null),
      backgrounds: frame.backgrounds,
      timeMs: frame.timeMs,
      durationMs: frame.durationMs,
      furthestMs: frame.furthestMs,
      furthest: frame.furthestMs,
      // A run started afresh (a reset folds the live edits into the scenario from time 0): no edit is newer than its numbers.
      ...(fresh && frame.timeMs === 0 ? { editedAtMs: null } : {}),
      ...(frame.timeline ? { timelineMarkers: frame.timeline.markers } : {}),
    }),
    markerTarget: (marker) => ({ position: marker.timeMs }),
    findLesson: findServingLesson,
    lessonTarget: (step) => ({ position: step.timeMs }),
    restarted: (store) => {
      // Sweeps the old worker had not finished are asked of the new one.
      const { sweeps } = store.getState();
      store.setState({ sweeps: { figure1: sweeps.figure1?.result == null ? null : sweeps.figure1, rps: sweeps.rps?.result == null ? null : sweeps.rps }, searches: [] });
      for (const s of [sweeps.figure1, sweeps.rps]) if (s !== null && s.result === null) void store.getState().sweep(s.request, s.key);
    },
  };
}

/**
 * The serving lab's store: the shared slices (`createLiveStore`) with the serving world's on
 * top, wired to a serving client, as `createPipelineStore` is for the pipeline world.
 */
export function createServingStore(client: ServingClient, now?: () => number, ask?: AskToStart): ServingStore {
  return createLiveStore<ServingTypes, ServingSlice>(client, servingWorld(client), { ...(now ? { now } : {}), ...(ask ? { ask } : {}) });
}
