import { describe, expect, it, vi } from 'vitest';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import type { FieldError } from '../scenario/schema';
import type { PipelineScenario } from '../worlds/pipeline/schema';
import type { PlaybackStatus, Speed } from '../worlds/pipeline/worker/pipelineProtocol';
import type { RestartReason } from './restartingWorker';
import { HISTORY_LIMIT } from './constants';
import { createLiveStore, type AnyLabStore, type LaneFrame, type LiveClient, type LiveFrame, type LiveWorld } from './liveStore';
import type { StoreTypes } from '../kit/worldTypes';
import { ColumnBuffer } from './series';
import { createPipelineStore } from '../worlds/pipeline/store/pipelineStore';
import { createServingStore } from '../worlds/serving/store/servingStore';

/**
 * The shared slices, tested once against a tiny world (ARCHITECTURE §1, step 3): its scenario is a pipeline
 * scenario nobody simulates, its two lanes count, its frames are whatever the test sends.
 */
type Chunk = { readonly at: Float64Array; readonly items: Int32Array };
interface TinyFrame extends LiveFrame<LaneFrame<Chunk, number>, string> {
  readonly position: number;
  readonly items: number;
  readonly furthest: number;
  readonly markers?: readonly TinyMarker[];
  /** A frame of progress only (no lanes). */
  readonly busy?: number;
}
interface TinyMarker {
  readonly lane: number;
  readonly at: number;
}
interface TinyTypes extends StoreTypes {
  readonly scenario: PipelineScenario;
  readonly view: NonNullable<PipelineScenario['view']>;
  readonly lane: { readonly index: number };
  readonly live: number;
  readonly summary: string;
  readonly chunk: Chunk;
  readonly series: ColumnBuffer<'at', 'items'>;
  readonly marker: TinyMarker;
  readonly frame: TinyFrame;
  readonly loaded: { readonly scenario: PipelineScenario; readonly lanes: readonly { readonly index: number }[]; readonly label: string };
  readonly lessonStep: { readonly lane?: number; readonly at: number; readonly line?: number };
}
interface TinySlice {
  label: string;
  busy: number | null;
  restarts: number;
  rename(label: string): Promise<void>;
}

const SPEEDS: readonly Speed[] = [1, 2, 5, 'max'];

/** A worker client in memory: it records the calls, answers at once, and sends the frames the test asks for. */
class TinyClient implements LiveClient<TinyTypes> {
  readonly calls: string[] = [];
  current: PipelineScenario | null = null;
  private onFrame: ((frame: TinyFrame) => void) | null = null;
  private onRestart: ((reason: RestartReason) => void) | null = null;
  generation = 0;

  async subscribe(onFrame: (frame: TinyFrame) => void): Promise<void> {
    this.onFrame = onFrame;
  }
  onCrash(listener: (reason: RestartReason) => void): void {
    this.onRestart = listener;
  }
  async load(scenario: unknown) {
    this.calls.push('load');
    const s = scenario as PipelineScenario;
    if (s.seed < 0) return { ok: false as const, errors: [{ path: 'seed', message: 'must be ≥ 0' }] satisfies FieldError[] };
    this.current = structuredClone(s);
    this.generation++;
    return { ok: true as const, scenario: structuredClone(s), lanes: [{ index: 0 }, { index: 1 }], label: s.title };
  }
  async play() {
    this.calls.push('play');
  }
  /** While set, a pause is answered only when it resolves (the worker busy with a tick). */
  pauseAnswered: Promise<void> | null = null;
  async pause() {
    this.calls.push('pause');
    await this.pauseAnswered;
  }
  async step(amount: number) {
    this.calls.push(`step ${amount}`);
    return { ok: true as const };
  }
  async reset() {
    this.calls.push('reset');
  }
  async setSpeed(speed: Speed) {
    this.calls.push(`speed ${speed}`);
    return { ok: true as const };
  }
  async currentScenario() {
    return this.current;
  }
  async seek(position: number, step?: number) {
    this.calls.push(step === undefined ? `seek ${position}` : `seek ${position}.${step}`);
    if (position > 100) return { ok: false as const, errors: [{ path: 'position', message: 'must be at most 100' }] };
    this.send({ position });
    return { ok: true as const };
  }
  async setTraceLane(lane: number) {
    this.calls.push(`trace ${lane}`);
  }

  /** Sends a frame of the current generation with one point per lane (or what `frame` says). */
  send(frame: Partial<TinyFrame> & { readonly position: number }, status: PlaybackStatus = 'paused'): void {
    const items = frame.items ?? 2;
    this.onFrame?.({
      generation: this.generation,
      status,
      stride: 1,
      replace: false,
      measuredSpeed: 3,
      furthest: frame.position,
      items,
      lanes: [0, 1].map((lane) => ({ points: { at: Float64Array.of(frame.position), items: Int32Array.from({ length: items }, (_, k) => lane * 10 + k) }, live: lane + frame.position })),
      ...frame,
    });
  }
  crash(reason: RestartReason): void {
    this.generation = 0;
    this.onRestart?.(reason);
  }
}

const LESSON = {
  title: 'tiny lesson',
  steps: [{ at: 10 }, { at: 20, lane: 1, line: 3 }, { at: 30 }],
};

function tinyWorld(client: TinyClient): LiveWorld<TinyTypes, TinySlice> {
  return {
    speeds: SPEEDS,
    speed: 2,
    origin: 'position 0',
    slice: (set, get, tools) => ({
      label: '',
      busy: null,
      restarts: 0,
      rename: async (label) => {
        await tools.liveEdit(async () => {
          if (client.current !== null) client.current = { ...client.current, title: label };
          set({ label });
          return { ok: true as const };
        });
      },
    }),
    loaded: (result) => ({ label: result.label }),
    settled: { busy: null },
    refreshed: (scenario) => ({ label: scenario.title }),
    newSeries: () => new ColumnBuffer(['at'], { items: (n) => new Int32Array(n) }),
    width: (frame) => frame.items,
    position: (frame) => frame.position,
    progress: (frame) => (frame.busy !== undefined ? { busy: frame.busy } : null),
    frame: (frame, state) => ({ furthest: frame.furthest, ...(frame.markers ? { timelineMarkers: state.timelineMarkers.concat(frame.markers) } : {}) }),
    markerTarget: (marker) => ({ position: marker.at }),
    findLesson: (id) => (id === 'tiny' ? { scenario: { ...defaultPipelineScenario(), title: LESSON.title }, steps: LESSON.steps } : undefined),
    lessonTarget: (step) => (step.line === undefined ? { position: step.at } : { position: step.at, step: step.line }),
    selectLane: (lane) => client.setTraceLane(lane),
    restarted: (store) => store.setState({ restarts: store.getState().restarts + 1 }),
  };
}

function tiny(options: { now?: () => number; ask?: (message: string) => boolean } = {}) {
  const client = new TinyClient();
  const store = createLiveStore(client, tinyWorld(client), options);
  return { client, store };
}

const scenario = (title = 'one'): PipelineScenario => ({ ...defaultPipelineScenario(), title });
/** Lets the promise chains started without `await` (crash recovery) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the shared slices of every lab store', () => {
  it('starts paused, at the world’s speed, with the world’s slice on top', () => {
    const { store } = tiny();
    const s = store.getState();
    expect(s).toMatchObject({ scenario: null, status: 'paused', speed: 2, speeds: SPEEDS, position: 0, version: 0, view: { mode: 'normal', hide: [] }, label: '', busy: null });
  });

  it('loads, keeps the last good scenario on a rejection (naming its source), and dismisses the message', async () => {
    const { store } = tiny();
    expect(await store.getState().load(scenario('one'), 'preset')).toBe(true);
    expect(store.getState()).toMatchObject({ lanes: [{ index: 0 }, { index: 1 }], label: 'one', errors: null });
    store.setState({ busy: 4 });
    expect(await store.getState().load({ ...scenario('bad'), seed: -1 }, 'link')).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'link', errors: [{ path: 'seed', message: 'must be ≥ 0' }] });
    expect(store.getState().scenario!.title).toBe('one');
    // `settled` applies with every answer, good or bad.
    expect(store.getState().busy).toBeNull();
    store.getState().dismissErrors();
    expect(store.getState().errors).toBeNull();
    store.getState().reject('file', [{ path: 'file', message: 'is not JSON' }]);
    expect(store.getState().errors?.source).toBe('file');
  });

  it('undoes and redoes, forgets the redo on a new change, and keeps at most HISTORY_LIMIT', async () => {
    const { store } = tiny();
    await store.getState().load(scenario('a'), 'preset');
    await store.getState().edit((s) => ({ ...s, title: 'b' }));
    await store.getState().load(scenario('c'), 'file');
    await store.getState().undo();
    expect(store.getState().scenario!.title).toBe('b');
    await store.getState().undo();
    expect(store.getState().scenario!.title).toBe('a');
    expect(store.getState().future.map((s) => s.title)).toEqual(['c', 'b']);
    await store.getState().redo();
    expect(store.getState().scenario!.title).toBe('b');
    await store.getState().edit((s) => ({ ...s, title: 'd' }));
    expect(store.getState().future).toHaveLength(0);
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) await store.getState().edit((s) => ({ ...s, title: `t${i}` }));
    expect(store.getState().past).toHaveLength(HISTORY_LIMIT);
  });

  it('takes back a scenario the worker changed in place, with history and the view kept (and none when nothing changed)', async () => {
    const { store } = tiny();
    await store.getState().load(scenario('a'), 'preset');
    store.getState().setView({ mode: 'presentation', hide: ['lanes'] });
    await store.getState().rename('renamed');
    expect(store.getState().scenario).toMatchObject({ title: 'renamed', view: { mode: 'presentation', hide: ['lanes'] } });
    expect(store.getState().past.map((s) => s.title)).toEqual(['a']);
    await store.getState().rename('renamed');
    expect(store.getState().past).toHaveLength(1);
  });

  it('keeps a view in the scenario unless it is the default, and a view chosen before the first load', async () => {
    const { store, client } = tiny();
    store.getState().setView({ mode: 'presentation', hide: [] });
    await store.getState().load(scenario(), 'link');
    expect(store.getState().view).toEqual({ mode: 'presentation', hide: [] });
    expect(store.getState().scenario!.view).toEqual({ mode: 'presentation', hide: [] });
    // Explore open is not the default view either.
    store.getState().setView({ mode: 'normal', hide: [], explore: true });
    expect(store.getState().scenario!.view).toEqual({ mode: 'normal', hide: [], explore: true });
    store.getState().setView({ mode: 'normal', hide: [] });
    expect(store.getState().scenario).not.toHaveProperty('view');
    // A scenario that brings its own view wins over the one on screen.
    store.getState().setView({ mode: 'presentation', hide: ['lanes'] });
    await store.getState().load({ ...scenario(), view: { mode: 'normal', hide: ['events'] } }, 'link');
    expect(store.getState().view).toEqual({ mode: 'normal', hide: ['events'] });
    expect(client.calls.filter((c) => c === 'load')).toHaveLength(2);
  });

  it('plays, pauses, steps, resets and changes speed one notch at a time on the world’s list', async () => {
    const { store, client } = tiny();
    await store.getState().load(scenario(), 'preset');
    await store.getState().play();
    await store.getState().pause();
    await store.getState().step(7);
    await store.getState().reset();
    await store.getState().changeSpeed(1);
    expect(store.getState().speed).toBe(5);
    await store.getState().changeSpeed(1);
    await store.getState().changeSpeed(1);
    expect(store.getState().speed).toBe('max');
    await store.getState().setSpeed(3); // not on the list: the next notch down is the one below it
    await store.getState().changeSpeed(-1);
    expect(store.getState().speed).toBe(2);
    await store.getState().changeSpeed(-1);
    await store.getState().changeSpeed(-1);
    expect(store.getState().speed).toBe(1);
    expect(client.calls.slice(1)).toEqual(['play', 'pause', 'step 7', 'reset', 'speed 5', 'speed max', 'speed 3', 'speed 2', 'speed 1']);
  });

  it('keeps playing across a load when it was playing, unless the person declines a long run', async () => {
    const asked: string[] = [];
    const { store, client } = tiny({ ask: (message) => (asked.push(message), false) });
    await store.getState().load(scenario(), 'preset');
    client.send({ position: 1 }, 'playing');
    await store.getState().load(scenario('two'), 'preset');
    expect(client.calls).toEqual(['load', 'load', 'play']);
    client.send({ position: 1 }, 'playing');
    const huge = { ...scenario('huge'), pipeline: { ...scenario().pipeline, queries: 1_000_000_000 } };
    await store.getState().load(huge, 'preset');
    await store.getState().play();
    expect(asked).toHaveLength(2);
    expect(client.calls.filter((c) => c === 'play')).toHaveLength(1);
  });

  it('a Pause while a Play waits on the cost guard or on a load cancels it: the run never starts after the person paused', async () => {
    // A store whose guard has not loaded the run's cost yet (as on a page's first Play).
    vi.resetModules();
    // A fresh program: its composition root first (ARCHITECTURE §7b).
    await import('../worlds');
    const fresh = (await import('./liveStore')) as typeof import('./liveStore');
    const client = new TinyClient();
    const store = fresh.createLiveStore(client, tinyWorld(client));
    await store.getState().load(scenario(), 'preset');
    // The guard loads the run's cost on the first Play: the Play is pending meanwhile.
    const play = store.getState().play();
    expect(store.getState().starting).toBe(true);
    await store.getState().pause();
    expect(store.getState().starting).toBe(false);
    await play;
    expect(client.calls).toEqual(['load', 'pause']);
    // A Play the worker was told of shows as starting until the worker's next frame.
    await store.getState().play();
    expect(client.calls.at(-1)).toBe('play');
    expect(store.getState().starting).toBe(true);
    client.send({ position: 1 }, 'playing');
    expect(store.getState()).toMatchObject({ starting: false, status: 'playing' });
    // A load that keeps the run playing, paused while the worker loads: it stays paused.
    const load = store.getState().load(scenario('two'), 'preset');
    await store.getState().pause();
    await load;
    expect(client.calls.slice(-2)).toEqual(['load', 'pause']);
    expect(store.getState().starting).toBe(false);
  });

  it('a Pause holds from the click: a frame sent before the worker took it does not make a load that follows play the run again', async () => {
    const { store, client } = tiny();
    await store.getState().load(scenario(), 'preset');
    await store.getState().play();
    client.send({ position: 1 }, 'playing');
    let answer = (): void => undefined;
    client.pauseAnswered = new Promise<void>((resolve) => (answer = resolve));
    const pause = store.getState().pause();
    expect(store.getState().status).toBe('paused');
    // The worker's frame of before the pause arrives after the click…
    client.send({ position: 2 }, 'playing');
    expect(store.getState()).toMatchObject({ status: 'paused', position: 2 });
    // …and a trace file is loaded at once: it loads paused.
    await store.getState().load(scenario('trace'), 'file');
    expect(client.calls.slice(-2)).toEqual(['pause', 'load']);
    answer();
    await pause;
    // Once the pause is answered, frames say what the worker does again.
    client.send({ position: 2 }, 'playing');
    expect(store.getState().status).toBe('playing');
  });

  it('applies frames: series in place, a new generation starts new buffers, summaries and frames per second', async () => {
    let clock = 0;
    const { store, client } = tiny({ now: () => clock });
    await store.getState().load(scenario(), 'preset');
    client.send({ position: 1 });
    const first = store.getState().series;
    client.send({ position: 2, summaries: ['a', 'b'] });
    let s = store.getState();
    expect(s.series).toBe(first);
    expect(s.series[1]!.length).toBe(2);
    expect(Array.from(s.series[1]!.wideColumns.items.subarray(0, 4))).toEqual([10, 11, 10, 11]);
    expect(s).toMatchObject({ version: 2, position: 2, furthest: 2, live: [2, 3], summaries: ['a', 'b'], measuredSpeed: 3, framesPerSecond: 2 });
    // A frame with progress only changes the progress.
    client.send({ position: 0, busy: 5 });
    expect(store.getState()).toMatchObject({ busy: 5, version: 2, position: 2 });
    // Frames older than the window no longer count.
    clock = 1500;
    client.send({ position: 3 });
    expect(store.getState().framesPerSecond).toBe(1);
    // A replacing frame empties the buffers first; a wider one too.
    client.send({ position: 4, replace: true, items: 3 });
    expect(store.getState().series[0]!.length).toBe(1);
    expect(store.getState().series[0]!.width).toBe(3);
    // A new generation: new buffers, old summaries gone.
    await store.getState().load(scenario('two'), 'preset');
    client.send({ position: 1 });
    s = store.getState();
    expect(s.series).not.toBe(first);
    expect(s.series[0]!.length).toBe(1);
    expect(s.summaries).toBeNull();
  });

  it('seeks (a refusal is shown as the worker’s error) and jumps to the markers of every lane and of the selected one', async () => {
    const { store, client } = tiny();
    await store.getState().load(scenario(), 'preset');
    expect(await store.getState().seek(101)).toBe(false);
    expect(store.getState().errors).toEqual({ source: 'worker', errors: [{ path: 'position', message: 'must be at most 100' }] });
    client.send({ position: 0, markers: [{ lane: -1, at: 10 }, { lane: 1, at: 20 }, { lane: 0, at: 30 }, { lane: -1, at: 40 }] });
    await store.getState().stepMarker(1);
    expect(store.getState().position).toBe(10);
    await store.getState().stepMarker(1);
    expect(store.getState().position).toBe(30); // lane 1's marker is not lane 0's
    store.getState().selectLane(1);
    await store.getState().stepMarker(-1);
    expect(store.getState().position).toBe(20);
    await store.getState().stepMarker(-1);
    await store.getState().stepMarker(-1);
    expect(store.getState().position).toBe(10);
    expect(client.calls.filter((c) => c.startsWith('seek') || c.startsWith('trace'))).toEqual(['seek 101', 'seek 10', 'seek 30', 'trace 1', 'seek 20', 'seek 10']);
  });

  it('walks a lesson: its scenario with the classroom view kept, paused, each step’s lane and position', async () => {
    const { store, client } = tiny();
    expect(await store.getState().startLesson('nope')).toBe(false);
    store.getState().setView({ mode: 'presentation', hide: ['lanes'] });
    expect(await store.getState().startLesson('tiny')).toBe(true);
    expect(store.getState().scenario).toMatchObject({ title: 'tiny lesson', view: { mode: 'presentation', hide: ['lanes'] } });
    expect(store.getState()).toMatchObject({ lesson: { id: 'tiny', step: 0 }, position: 10, status: 'paused' });
    await store.getState().lessonStep(1);
    expect(store.getState()).toMatchObject({ lesson: { id: 'tiny', step: 1 }, selectedLane: 1, position: 20 });
    await store.getState().lessonStep(9);
    expect(store.getState()).toMatchObject({ lesson: { id: 'tiny', step: 2 }, position: 30 });
    expect(client.calls).toEqual(['pause', 'load', 'pause', 'seek 10', 'trace 1', 'pause', 'seek 20.3', 'pause', 'seek 30']);
    store.getState().endLesson();
    expect(store.getState().lesson).toBeNull();
  });

  it('says so when no marker lies ahead or before, and forgets it once a jump goes', async () => {
    const { store, client } = tiny();
    await store.getState().load(scenario('markers'), 'preset');
    await store.getState().stepMarker(1);
    expect(store.getState().timelineNote).toMatch(/^No marker ahead/);
    await store.getState().stepMarker(-1);
    expect(store.getState().timelineNote).toBe('No marker before this point.');
    client.send({ position: 5, markers: [{ lane: -1, at: 8 }] });
    await store.getState().stepMarker(1);
    expect(store.getState()).toMatchObject({ position: 8, timelineNote: null });
  });

  it('reopens a link at its moment (lane, lesson step, position and step, paused) and holds the scenario without it', async () => {
    const { store, client } = tiny();
    const at = { position: 20, step: 3, playing: false, lane: 1, lesson: { id: 'tiny', step: 1 } };
    const presented = { ...scenario('at a moment'), view: { mode: 'presentation' as const, hide: [], at } };
    expect(await store.getState().load(presented, 'link', { play: true })).toBe(true);
    // Paused as it was made: the worker is never told to play, though the link asked for it.
    expect(client.calls).toEqual(['load', 'trace 1', 'seek 20.3']);
    expect(store.getState()).toMatchObject({ selectedLane: 1, lesson: { id: 'tiny', step: 1 }, position: 20, status: 'paused', starting: false, openedAt: at });
    expect(store.getState().scenario!.view).toEqual({ mode: 'presentation', hide: [] });
    expect(store.getState().view).toEqual({ mode: 'presentation', hide: [] });
    // The moment it is at now, as Copy link writes it (the tiny world has no algorithm step).
    expect(store.getState().moment()).toEqual({ position: 20, playing: false, lane: 1, lesson: { id: 'tiny', step: 1 } });
    // A link made playing plays once it is there; a load without a moment forgets the last one.
    client.calls.length = 0;
    expect(await store.getState().load({ ...scenario('playing'), view: { mode: 'normal', hide: [], at: { position: 30, playing: true } } }, 'link')).toBe(true);
    expect(client.calls).toEqual(['load', 'trace 0', 'seek 30', 'play']);
    expect('view' in store.getState().scenario!).toBe(false);
    await store.getState().load(scenario('plain'), 'preset');
    expect(store.getState().openedAt).toBeNull();
  });

  it('gives a restarted worker the scenario and the speed back and says so; before any scenario it only says so', async () => {
    const { store, client } = tiny();
    client.crash('crashed');
    expect(store.getState().errors?.errors[0]!.message).toBe('stopped unexpectedly and was restarted; the run starts again from position 0');
    expect(client.calls).toEqual([]);
    await store.getState().load(scenario('kept'), 'preset');
    await store.getState().setSpeed(5);
    client.send({ position: 7 });
    client.crash('stopped answering');
    expect(store.getState()).toMatchObject({ generation: -1, restarts: 2 });
    await settle();
    expect(client.calls.slice(-2)).toEqual(['speed 5', 'load']);
    expect(client.current!.title).toBe('kept');
    expect(store.getState().errors).toEqual({
      source: 'worker',
      errors: [{ path: '(simulation)', message: 'stopped answering and was restarted; the run starts again from position 0' }],
    });
    // The new worker's first frame (its generation 1) counts as fresh: new buffers from there.
    client.send({ position: 1 });
    expect(store.getState().series[0]!.length).toBe(1);
    expect(store.getState().position).toBe(1);
  });

  it('types either world’s store as any lab’s store for the page shell', () => {
    const stores: AnyLabStore[] = [createPipelineStore(new TinyClient() as never), createServingStore(new TinyClient() as never)];
    expect(stores.map((s) => s.getState().speeds.length)).toEqual([14, 9]);
    expect(stores.map((s) => s.getState().speed)).toEqual([60, 10]);
  });
});
