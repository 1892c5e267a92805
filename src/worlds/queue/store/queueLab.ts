import type { AnyScenario } from '../../../scenario/schema';
import { createLiveStore, type LabView, type LiveClient, type LiveStore, type LiveWorld, type SharedLabState } from '../../../store/liveStore';
import { ColumnBuffer } from '../../../store/series';
import type { LoadedLanes, StoreTypes } from '../../../kit/worldTypes';
import type { SessionHost } from '../../../worker/liveLoop';
import { LiveSession } from '../../../worker/liveSession';
import { liveApi } from '../../../worker/liveWorker';
import type { QueueSummary } from '../engine/queueRun';
import { QueuePlugin, type QueueChunk, type QueueFrame, type QueueLaneInfo, type QueueLaneLive, type QueueSessionTypes } from '../worker/queuePlugin';

/**
 * The queue world's part of a store made by `createLiveStore` (ARCHITECTURE §7b, step 3), and
 * its lab in one thread: the plugin's session on a host, the kit's worker API over it as the
 * page's client, and the store.
 */

/**
 * The queue world's types as its store reads them (`StoreTypes`). A world of the list writes
 * one `WorldTypes` for both sides (`src/worlds/<id>/types.ts`); the store's scenarios are the
 * list's (`AnyScenario`) and this world joins the list at run time only (`registerWorld`), so its
 * store types its scenario as one and its session (`QueueSessionTypes`) as its own.
 */
interface QueueStoreTypes extends StoreTypes {
  readonly scenario: AnyScenario;
  readonly view: LabView;
  readonly lane: QueueLaneInfo;
  readonly live: QueueLaneLive;
  readonly summary: QueueSummary;
  readonly chunk: QueueChunk;
  readonly series: ColumnBuffer<keyof QueueChunk, never>;
  readonly marker: { readonly lane: number; readonly timeMs: number };
  readonly frame: QueueFrame;
  readonly loaded: LoadedLanes<AnyScenario, QueueLaneInfo>;
  readonly lessonStep: { readonly timeMs: number; readonly lane?: number };
}

/** Its part of the store: nothing of its own beyond the shared slices. */
const queueStoreWorld: LiveWorld<QueueStoreTypes, object> = {
  speeds: [1, 10, 100, 'max'],
  speed: 10,
  origin: 'time 0',
  slice: () => ({}),
  loaded: () => ({}),
  newSeries: () => new ColumnBuffer<keyof QueueChunk, never>(['timeMs', 'waiting'], {}),
  width: () => 0,
  position: (frame) => frame.timeMs,
  frame: (frame) => ({ furthest: frame.furthest }),
  markerTarget: (marker) => ({ position: marker.timeMs }),
  findLesson: () => undefined,
  lessonTarget: (step) => ({ position: step.timeMs }),
};

/**
 * The queue lab in one thread: a `LiveSession` over its plugin on `host` (its clock and
 * timers), the kit's worker API over it (`liveApi`) as the page's client, and the store.
 */
export function queueLab(host: Pick<SessionHost<QueueFrame>, 'now' | 'schedule'>): { readonly store: LiveStore<SharedLabState<QueueStoreTypes>>; readonly session: LiveSession<QueueSessionTypes> } {
  let listener: ((frame: QueueFrame) => void) | null = null;
  const session = new LiveSession<QueueSessionTypes>({ ...host, emit: (frame) => listener?.(frame) }, new QueuePlugin());
  const api = liveApi(session, { subscribe: (callback) => (listener = callback) });
  const client: LiveClient<QueueStoreTypes> = {
    subscribe: async (onFrame) => void api.subscribe(onFrame),
    load: async (scenario) => api.load(scenario) as unknown as Awaited<ReturnType<LiveClient<QueueStoreTypes>['load']>>,
    play: async () => api.play(),
    pause: async () => api.pause(),
    step: async (amount) => api.step(amount),
    reset: async () => api.reset(),
    setSpeed: async (speed) => api.setSpeed(speed),
    currentScenario: async () => api.currentScenario() as AnyScenario | null,
    seek: async (position) => api.seek(position),
  };
  return { store: createLiveStore(client, queueStoreWorld, { now: () => 0, ask: () => true }), session };
}
