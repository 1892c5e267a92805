import { parseWorldScenario } from '../../scenario/parse';
import type { AnyScenario } from '../../scenario/schema';
import { createLiveStore, type LabView, type LiveClient, type LiveStore, type LiveWorld, type Loaded, type SharedLabState } from '../../store/liveStore';
import { ColumnBuffer } from '../../store/series';
import { BoundedSeries } from '../../worker/boundedSeries';
import type { SessionHost } from '../../worker/liveLoop';
import type { LiveFrame } from '../../worker/liveProtocol';
import { LiveSession } from '../../worker/liveSession';
import { liveApi } from '../../worker/liveWorker';
import type { FrameContext, TimeTravel, WorldPlugin } from '../../worker/worldPlugin';
import { QueueLaneRun, queueWorld, type QueueScenario, type QueueSummary } from './queueWorld';

/**
 * The queue world's live lab (ARCHITECTURE §7b, step 3): its plugin behind the kit's
 * `LiveSession`, its frame, and its part of a store made by `createLiveStore` — what a third
 * world writes to play, step and travel in time. Position: simulated ms; one point per
 * simulated second (the requests waiting then); back in time by replay from 0.
 */

/** Simulated ms per point of a lane's series (before the bounded series doubles it). */
const POINT_MS = 1000;

interface QueuePoint {
  readonly timeMs: number;
  readonly waiting: number;
}
/** New points of a lane's series, as columns. */
export interface QueueChunk {
  readonly timeMs: Float64Array;
  readonly waiting: Float64Array;
}
export interface QueueLaneLive {
  readonly waiting: number;
  readonly busy: number;
}
export interface QueueFrame extends LiveFrame<{ readonly points: QueueChunk; readonly live: QueueLaneLive }, QueueSummary> {
  readonly timeMs: number;
  readonly furthest: number;
}
export interface QueueLaneInfo {
  readonly index: number;
  readonly scheduler: string;
}
interface QueueLoaded {
  readonly scenario: QueueScenario;
  readonly lanes: readonly QueueLaneInfo[];
}

/** The queue world as the session sees it: no live edits, no checkpoints (it replays). */
interface QueuePluginTypes {
  readonly scenario: QueueScenario;
  readonly loaded: QueueLoaded;
  readonly frame: QueueFrame;
  readonly edit: never;
  readonly checkpoint: never;
}

/** The queue world's plugin: its lanes (`QueueLaneRun`), run a point at a time. */
export class QueuePlugin implements WorldPlugin<QueuePluginTypes> {
  readonly unitsPerSpeedSecond = 1000;
  readonly integral = false;
  readonly initialSpeed = 10;
  readonly speedLimits = { min: 0.1, max: 100_000 };
  readonly positionField = 'timeMs';
  readonly positionRule = 'a number of simulated ms';
  readonly buildErrorPath = 'queue.lanes';
  readonly timeTravel: TimeTravel<never> = { by: 'replay', rebuild: () => this.build() };
  private scenario: QueueScenario | null = null;
  private runs: QueueLaneRun[] = [];
  private series: BoundedSeries<QueuePoint>[] = [];
  private nextPointMs = POINT_MS;

  attach(): void {}
  parse(input: unknown) {
    return parseWorldScenario(queueWorld, input);
  }
  start(scenario: QueueScenario): void {
    this.scenario = scenario;
    this.build();
  }
  private build(): void {
    const lanes = this.current().queue.lanes;
    this.runs = lanes.map((_, k) => new QueueLaneRun(this.current(), k));
    this.series = lanes.map(() => new BoundedSeries<QueuePoint>((a, b) => ({ timeMs: b.timeMs, waiting: (a.waiting + b.waiting) / 2 })));
    this.nextPointMs = POINT_MS;
  }
  private current(): QueueScenario {
    if (this.scenario === null) throw new TypeError('no queue scenario is loaded');
    return this.scenario;
  }
  position(): number {
    return this.runs[0]?.timeMs ?? 0;
  }
  end(): number {
    return this.current().queue.durationS * 1000;
  }
  advanceToward(target: number): void {
    const next = Math.min(target, this.nextPointMs, this.end());
    for (const run of this.runs) run.advanceTo(next);
    if (next < this.nextPointMs) return;
    this.runs.forEach((run, k) => this.series[k]!.push({ timeMs: next, waiting: run.queue.waiting }));
    this.nextPointMs += POINT_MS * (this.series[0]?.stride ?? 1);
  }
  applyEdit(): void {}
  forgetAfter(): void {}
  jumped(): void {
    for (const s of this.series) s.resend();
  }
  stepped(): void {}
  loaded(): QueueLoaded {
    return { scenario: this.current(), lanes: this.current().queue.lanes.map((lane, index) => ({ index, scheduler: lane.scheduler })) };
  }
  currentScenario(): QueueScenario {
    return this.current();
  }
  frameLanes(context: FrameContext) {
    const taken = this.series.map((s) => s.take());
    const lanes = taken.map(({ points }, k) => {
      const chunk = { timeMs: Float64Array.from(points, (p) => p.timeMs), waiting: Float64Array.from(points, (p) => p.waiting) };
      context.transfer.push(chunk.timeMs.buffer as ArrayBuffer, chunk.waiting.buffer as ArrayBuffer);
      return { points: chunk, live: this.runs[k]!.queue };
    });
    return { lanes, replace: taken.some((t) => t.replace), stride: POINT_MS * (this.series[0]?.stride ?? 1) };
  }
  summaries(): QueueSummary[] {
    return this.runs.map((run) => run.summary());
  }
  frameExtra(context: FrameContext) {
    return { timeMs: this.position(), furthest: context.furthest };
  }
}

/**
 * The queue world as its store sees it. The store's scenarios are the list's (`AnyScenario`);
 * this world joins the list at run time only (`registerWorld`), so its scenario is typed as one.
 */
interface QueueStoreTypes {
  readonly scenario: AnyScenario;
  readonly view: LabView;
  readonly lane: QueueLaneInfo;
  readonly live: QueueLaneLive;
  readonly summary: QueueSummary;
  readonly chunk: QueueChunk;
  readonly series: ColumnBuffer<keyof QueueChunk, never>;
  readonly marker: { readonly lane: number; readonly timeMs: number };
  readonly frame: QueueFrame;
  readonly loaded: Loaded<AnyScenario, QueueLaneInfo>;
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
export function queueLab(host: Pick<SessionHost<QueueFrame>, 'now' | 'schedule'>): { readonly store: LiveStore<SharedLabState<QueueStoreTypes>>; readonly session: LiveSession<QueuePluginTypes> } {
  let listener: ((frame: QueueFrame) => void) | null = null;
  const session = new LiveSession<QueuePluginTypes>({ ...host, emit: (frame) => listener?.(frame) }, new QueuePlugin());
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
