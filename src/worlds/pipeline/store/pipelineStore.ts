import type { PipelineEventView, PipelineFrame, PipelineApi, PipelineMarker, PipelineTeachingFrame } from '../worker/pipelineProtocol';
import { PIPELINE_TIMELINE_MARKERS } from '../worker/pipelineProtocol';
import type { WorkerClient } from '../../../store/restartingWorker';
import { DEFAULT_SPEED, PIPELINE_SPEEDS } from '../../../store/constants';
import { createLiveStore, editActions, markersOfLane, type EditActions, type LiveStore, type LiveWorld, type SeekTarget, type SharedLabState } from '../../../store/liveStore';
import type { PipelineTypes } from '../types';
import { PipelineSeriesBuffer } from './pipelineSeriesBuffer';
import { MarkerBuffer } from '../../../store/series';
import { foldTrials, scheduledMarkers } from './pipelineMarkers';
import type { AskToStart } from '../../../store/longRun';

/** The worker's API as the page sees it (every call is asynchronous), derived from `PipelineApi`. */
export type PipelineClient = WorkerClient<PipelineApi, PipelineFrame>;

export { HISTORY_LIMIT } from '../../../store/constants';
/** Speeds the playback offers, slowest first (queries per second; 1× = 1 query per second). */
export { PIPELINE_SPEEDS } from '../../../store/constants';
export { DEFAULT_VIEW } from '../../../store/liveStore';
export type { LoadErrors, ScenarioSource } from '../../../store/history';

export type PipelineScenarioView = PipelineTypes['view'];

/** The pipeline worker's live edits, as store actions (`EditActions`). */
export type PipelineEdits = EditActions<PipelineApi, 'addEvent' | 'removeEvent' | 'setLaneParameter' | 'setDetectionThreshold'>;

/** The pipeline world's slice: its scenario's layers and events, queries served, stages and modes, the algorithm trace. */
export interface PipelineSlice extends PipelineEdits {
  layers: readonly string[];
  peakQps: number;
  initialConfiguration: Int32Array;
  events: readonly PipelineEventView[];
  /** Queries served by every lane (the shared `position`). */
  served: number;
  totalQueries: number;
  stages: number;
  /** Markers of the charts (interference, detections, trials, installations). */
  markers: MarkerBuffer<PipelineMarker>;
  /** Per-EP modes of the last query (0 = A). */
  modes: Uint8Array;
  throughputView: 'measured' | 'config';
  /** The followed lane's algorithm steps of the last query, and the one shown. */
  teaching: PipelineTeachingFrame | null;
  /** Queries served when the last teaching frame was made (the algorithm panel narrates that one while playing). */
  teachingServed: number;
  /** The time line shows every trial of a rebalancing (unfolded) instead of one marker per rebalancing. */
  trialsShown: boolean;
  setTrialsShown(shown: boolean): void;

  setThroughputView(view: PipelineSlice['throughputView']): void;
  /** One algorithm step (or query) forward or back. */
  stepAlgorithm(direction: 1 | -1): Promise<void>;
}

export type PipelineLabState = SharedLabState<PipelineTypes> & PipelineSlice;
export type PipelineLabStore = LiveStore<PipelineLabState>;

/** The ui slice as the page reads it. */
export type PipelineUiSlice = Pick<PipelineLabState, 'selectedLane' | 'throughputView' | 'helpOpen'>;

/** Markers of the time line a person can jump to for the selected lane. */
export const pipelineLaneMarkers: (markers: readonly PipelineMarker[], lane: number) => PipelineMarker[] = markersOfLane;

/** The queries served right after a marker's query, and the algorithm step to show there. */
export function pipelineMarkerTarget(marker: PipelineMarker): { query: number; step?: number } {
  if (marker.kind === 'detect' || marker.kind === 'trial') return { query: marker.query + 1, step: 0 };
  return { query: marker.query + 1 };
}

const seekTarget = (query: number, step: number | undefined): SeekTarget => (step === undefined ? { position: query } : { position: query, step });

/** The pipeline world (ODIN) on top of the shared slices. */
function pipelineWorld(client: PipelineClient): LiveWorld<PipelineTypes, PipelineSlice> {
  return {
    speeds: PIPELINE_SPEEDS,
    speed: DEFAULT_SPEED.pipeline,
    origin: 'query 0',
    slice: (set, get, { liveEdit }) => ({
      layers: [],
      peakQps: 0,
      initialConfiguration: new Int32Array(0),
      events: [],
      served: 0,
      totalQueries: 0,
      stages: 0,
      markers: new MarkerBuffer<PipelineMarker>(),
      modes: new Uint8Array(0),
      throughputView: 'config',
      teaching: null,
      teachingServed: 0,
      trialsShown: false,
      setTrialsShown: (shown) => set({ trialsShown: shown }),
      ...editActions<PipelineApi, keyof PipelineEdits>(client, liveEdit, {
        addEvent: (applied) => set({ events: applied.events }),
        removeEvent: (applied) => set({ events: applied.events }),
        setLaneParameter: (applied, lane) => set({ lanes: get().lanes.map((l) => (l.index === lane ? applied.lane : l)) }),
        setDetectionThreshold: null,
      }),
      setThroughputView: (view) => set({ throughputView: view }),
      stepAlgorithm: async (direction) => void (await client.stepAlgorithm(direction)),
    }),
    loaded: (result) => ({ layers: result.layers, peakQps: result.peakQps, initialConfiguration: result.initialConfiguration, events: result.events }),
    newSeries: () => new PipelineSeriesBuffer(),
    width: (frame) => frame.stages,
    position: (frame) => frame.served,
    frame: (frame, state, fresh) => {
      if (fresh) state.markers.clear();
      state.markers.add(frame.markers);
      return {
        stages: frame.stages,
        modes: frame.modes,
        served: frame.served,
        totalQueries: frame.totalQueries,
        ...(frame.teaching ? { teaching: frame.teaching, teachingServed: frame.served } : {}),
        ...(frame.timeline
          ? {
              furthest: frame.timeline.furthest,
              timelineMarkers: frame.timeline.reset
                ? frame.timeline.markers
                : frame.timeline.markers.length > 0
                  ? state.timelineMarkers.concat(frame.timeline.markers).slice(-PIPELINE_TIMELINE_MARKERS)
                  : state.timelineMarkers,
            }
          : {}),
      };
    },
    jumpMarkers: (markers, state) => [...foldTrials(markers, state.trialsShown).markers, ...scheduledMarkers(state.events, state.furthest)].sort((a, b) => a.query - b.query),
    markerTarget: (marker) => {
      const { query, step } = pipelineMarkerTarget(marker);
      return seekTarget(query, step);
    },
    // The lessons' texts are not on the page's first load (ARCHITECTURE §7a′).
    findLesson: (id) => import('../lessons').then((m) => m.findPipelineLesson(id)),
    lessonTarget: (step) => seekTarget(step.query, step.algorithmStep),
    selectLane: async (lane) => void (await client.setTraceLane(lane)),
    // The line the algorithm panel shows: the teaching view's cursor in the query it narrates.
    momentStep: (state) => (state.teaching !== null && state.teaching.cursor >= 0 ? state.teaching.cursor : undefined),
  };
}

/**
 * The pipeline lab's store: the shared slices (`createLiveStore`) with the pipeline world's
 * on top, wired to a simulation client.
 */
export function createPipelineStore(client: PipelineClient, now?: () => number, ask?: AskToStart): PipelineLabStore {
  return createLiveStore<PipelineTypes, PipelineSlice>(client, pipelineWorld(client), { ...(now ? { now } : {}), ...(ask ? { ask } : {}) });
}
