import { createStore, type StoreApi } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import type { FieldError } from '../scenario/schema';
import type { Answer, PlaybackStatus, Speed } from '../worker/liveProtocol';
import { FPS_WINDOW_MS } from './constants';
import { historyActions, lessonScenario, type HistoryActions, type LoadErrors, type ScenarioSource } from './history';
import { browserAsk, longRunGuard, type AskToStart } from './longRun';
import { PendingStart } from './pendingStart';
import { momentIn, momentOf, withoutMoment, type Moment } from './moment';
import type { RestartReason } from './restartingWorker';
import type { LabView, StoreTypes } from '../kit/worldTypes';
export type { LabView, LaneFrame, LaneSeries } from '../kit/worldTypes';

/** The view of a scenario without `view`: normal, nothing hidden, Explore and Claims closed. */
export const DEFAULT_VIEW = { mode: 'normal', hide: [] } as const satisfies LabView;

/** True for the view a scenario without `view` has (the scenario then carries none). */
export function isDefaultView(view: LabView): boolean {
  const open = view as { readonly explore?: unknown; readonly claims?: unknown };
  return view.mode === 'normal' && view.hide.length === 0 && open.explore !== true && open.claims !== true;
}

export type { LiveFrame } from '../worker/liveProtocol';

/** What a good `load` answers: `ok` and the world's `loaded`. */
export type LoadedAnswer<T extends StoreTypes> = { readonly ok: true } & T['loaded'];

type Failed = { readonly ok: false; readonly errors: readonly FieldError[] };

/** What the shared slices ask of a world's worker client (both clients are derived from their API: `WorkerClient`). */
export interface LiveClient<T extends StoreTypes> {
  subscribe(onFrame: (frame: T['frame']) => void): Promise<void>;
  /** Calls `listener` when the simulation had to be restarted (its state is gone). */
  onCrash?(listener: (reason: RestartReason) => void): void;
  load(scenario: unknown): Promise<LoadedAnswer<T> | Failed>;
  play(): Promise<void>;
  pause(): Promise<void>;
  step(amount: number): Promise<Answer>;
  reset(): Promise<void>;
  setSpeed(speed: Speed): Promise<Answer>;
  currentScenario(): Promise<T['scenario'] | null>;
  seek(position: number, step?: number): Promise<{ readonly ok: true } | Failed>;
}

/** The scenario, its lanes, the errors of the last load, undo history and view. */
export interface SharedScenarioSlice<T extends StoreTypes = StoreTypes> {
  /** The scenario running now (null before the first load). */
  scenario: T['scenario'] | null;
  lanes: readonly T['lane'][];
  /** Why the last load was rejected (and from where); the last good scenario keeps running. */
  errors: LoadErrors | null;
  /** Scenarios before the current one (most recent last), for undo. */
  past: readonly T['scenario'][];
  /** Scenarios undone, for redo (most recent last). */
  future: readonly T['scenario'][];
  /** How the page presents the scenario (carried by the link: presentation, classroom's hidden parts). */
  view: T['view'];
}

export interface SharedPlaybackSlice {
  status: PlaybackStatus;
  /** A Play asked for and not yet under way (the cost guard deciding, the worker not yet playing): Pause cancels it (`pendingStart.ts`). */
  starting: boolean;
  speed: Speed;
  /** The speeds the playback offers, slowest first (`constants.ts`). */
  speeds: readonly Speed[];
  /** Simulation speed measured by the worker (not an arrival rate). */
  measuredSpeed: number;
  /** Frames received per wall-clock second. */
  framesPerSecond: number;
  /** Where the run is: queries served (pipeline, also `served`) or simulated ms (serving, also `timeMs`). */
  position: number;
}

export interface SharedResultsSlice<T extends StoreTypes = StoreTypes> {
  /** Increases with every frame: charts subscribe to it and read the buffers below. */
  version: number;
  generation: number;
  /** Queries or slots per point of the series now. */
  stride: number;
  series: T['series'][];
  live: readonly T['live'][];
  summaries: readonly T['summary'][] | null;
}

/** The time line: how far the run has been (in `position`'s unit), and its markers up to there. */
export interface SharedTimelineSlice<T extends StoreTypes = StoreTypes> {
  furthest: number;
  timelineMarkers: readonly T['marker'][];
  /** Why the last jump to a marker went nowhere (none ahead, none before); null once one went. */
  timelineNote: string | null;
}

export interface SharedUiSlice {
  selectedLane: number;
  /** The keyboard-shortcut overlay is open. */
  helpOpen: boolean;
  /** The lesson being followed and its step. */
  lesson: { readonly id: string; readonly step: number } | null;
  /** The moment the last load reopened at (a link's `view.at`), null when it opened at the start. */
  openedAt: Moment | null;
}

/** Where a seek goes: a position (queries served or simulated ms) and, in the pipeline world, an algorithm step. */
export interface SeekTarget {
  readonly position: number;
  readonly step?: number;
}

export interface SharedActions<T extends StoreTypes = StoreTypes> extends HistoryActions<T['scenario']> {
  /** Presentation mode and hidden parts (a classroom link); kept in the scenario unless it is the default. */
  setView(view: T['view']): void;
  /**
   * Changes what the scenario carries for the views over the lab (its sweep, from Explore) without a
   * new run: the live run does not read it, so the lab keeps its position (issue 37: a sweep reset
   * the lab). Remembered for undo; the link follows.
   */
  amend(change: (scenario: T['scenario']) => T['scenario']): void;
  play(): Promise<void>;
  pause(): Promise<void>;
  /** Advances every lane by `amount`: queries (pipeline) or simulated ms (serving). */
  step(amount: number): Promise<void>;
  reset(): Promise<void>;
  setSpeed(speed: Speed): Promise<void>;
  /** One notch faster or slower on `speeds`. */
  changeSpeed(direction: 1 | -1): Promise<void>;
  dismissErrors(): void;
  selectLane(lane: number): void;
  setHelpOpen(open: boolean): void;
  /** Time travel: goes to `position` (and an algorithm step, pipeline); false when refused. */
  seek(position: number, step?: number): Promise<boolean>;
  /** Jumps to the next or previous marker of the time line (every lane's, and the selected lane's). */
  stepMarker(direction: 1 | -1): Promise<void>;
  /** Opens a lesson (its scenario, paused) at its first step. */
  startLesson(id: string): Promise<boolean>;
  /** Moves to another step of the lesson under way: selects its lane and goes where it says. */
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
  /** Where the run is now, as a link carries it (`view.at`): Copy link and the classroom link. */
  moment(): Moment;
}

/** What every lab's store holds and does, whatever its world (ARCHITECTURE §1, step 3). */
export type SharedLabState<T extends StoreTypes = StoreTypes> = SharedScenarioSlice<T> &
  SharedPlaybackSlice &
  SharedResultsSlice<T> &
  SharedTimelineSlice<T> &
  SharedUiSlice &
  SharedActions<T>;

/** A lab's store: zustand's, with `subscribeWithSelector`'s `subscribe`. */
export type LiveStore<S> = StoreApi<S> & {
  subscribe: {
    (listener: (state: S, previous: S) => void): () => void;
    <U>(selector: (state: S) => U, listener: (selected: U, previous: U) => void, options?: { equalityFn?: (a: U, b: U) => boolean; fireImmediately?: boolean }): () => void;
  };
};

/** Any lab's store as the page shell reads it (either world's store is one). */
export type AnyLabStore = Pick<LiveStore<SharedLabState>, 'getState' | 'getInitialState' | 'subscribe'>;

/** Markers of the time line a person can jump to for `lane` (those of every lane, and its own). */
export function markersOfLane<M extends { readonly lane: number }>(markers: readonly M[], lane: number): M[] {
  return markers.filter((m) => m.lane === -1 || m.lane === lane);
}

type State<T extends StoreTypes, W> = SharedLabState<T> & W;
type Set<T extends StoreTypes, W> = StoreApi<State<T, W>>['setState'];
type Get<T extends StoreTypes, W> = StoreApi<State<T, W>>['getState'];

/** What the shared slices lend a world's own actions. */
/** A lesson as the store walks it: the scenario it opens and where each step takes the run. */
export interface WorldLesson<T extends StoreTypes> {
  readonly scenario: T['scenario'];
  readonly steps: readonly T['lessonStep'][];
}

export interface WorldTools<T extends StoreTypes> {
  /** Records the scenario before a change, for undo (a new change clears redo). */
  remember(before: T['scenario'] | null): void;
  /** Applies an edit to the current scenario and reloads it (a fresh run), with history. */
  edit(change: (scenario: T['scenario']) => T['scenario']): Promise<boolean>;
  /**
   * A live edit: `call` changes the scenario in the worker (a placed workload, a slider), which
   * checks it against the schema's bounds as a scenario file's. Applied, the store takes the
   * scenario back, with the one before it in the history and the view kept; refused, the
   * banner names the field and the scenario (and its link) stay as they were. Gives `call`'s
   * answer.
   */
  liveEdit<R extends Answer>(call: () => Promise<R>): Promise<R>;
}

/** The answer of an API call when it went through (an `Answer`'s ok branch). */
type Applied<F> = F extends (...args: never[]) => infer R ? Extract<Awaited<R>, { readonly ok: true }> : never;
type ArgsOf<F> = F extends (...args: infer P) => unknown ? P : never;

/**
 * A world's live edits as store actions, typed from its worker's API (ARCHITECTURE §1): each
 * takes the edit's own arguments and gives true when applied; refused, the banner names the
 * field and the scenario stays (`WorldTools.liveEdit`). The edit is written once, in the API.
 */
export type EditActions<Api, K extends keyof Api> = { [k in K]: (...args: ArgsOf<Api[k]>) => Promise<boolean> };

/**
 * Builds `EditActions`: each action calls the worker's edit through `liveEdit`, then, applied,
 * hands its answer and arguments to its `after` (the slice's own state it changes; null for none).
 */
export function editActions<Api, K extends keyof Api>(
  client: { readonly [k in K]: (...args: ArgsOf<Api[k]>) => Promise<Awaited<ReturnType<Extract<Api[k], (...args: never[]) => unknown>>>> },
  liveEdit: <R extends Answer>(call: () => Promise<R>) => Promise<R>,
  after: { readonly [k in K]: ((applied: Applied<Api[k]>, ...args: ArgsOf<Api[k]>) => void) | null },
): EditActions<Api, K> {
  const actions: Partial<Record<K, (...args: unknown[]) => Promise<boolean>>> = {};
  for (const name of Object.keys(after) as K[]) {
    const call = client[name] as unknown as (...args: unknown[]) => Promise<Answer>;
    const then = after[name] as ((applied: Answer, ...args: unknown[]) => void) | null;
    actions[name] = async (...args: unknown[]) => {
      const answer = await liveEdit(() => call(...args));
      if (answer.ok) then?.(answer, ...args);
      return answer.ok;
    };
  }
  // The one cast: the loop above builds, name by name, what the mapped type says.
  return actions as unknown as EditActions<Api, K>;
}

/**
 * A world's part of its store: its own state and actions (`slice`), and how the shared
 * slices read its loads, frames, markers and lessons.
 */
export interface LiveWorld<T extends StoreTypes, W extends object> {
  /** The speeds its playback offers, and the one it starts at. */
  readonly speeds: readonly Speed[];
  readonly speed: Speed;
  /** Where a restarted worker's run starts again, as the crash banner says it ("query 0", "time 0"). */
  readonly origin: string;
  /** The world's own state and actions. */
  slice(set: Set<T, W>, get: Get<T, W>, tools: WorldTools<T>): W;
  /** What a good load sets besides the scenario, its lanes, view and selected lane. */
  loaded(result: LoadedAnswer<T>, state: State<T, W>): Partial<State<T, W>>;
  /** Set with every answer of a load, good or bad. */
  readonly settled?: Partial<State<T, W>>;
  /** What a scenario the worker changed in place also sets. */
  refreshed?(scenario: T['scenario']): Partial<State<T, W>>;
  newSeries(): T['series'];
  /** Values per point of the frame's wide columns (stages, models). */
  width(frame: T['frame']): number;
  /** The frame's position: queries served, simulated ms. */
  position(frame: T['frame']): number;
  /** A frame that carries progress only (no lanes): what it sets; null for a frame of the run. */
  progress?(frame: T['frame']): Partial<State<T, W>> | null;
  /** The world's part of a frame of the run (`fresh`: of a new generation). */
  frame(frame: T['frame'], state: State<T, W>, fresh: boolean): Partial<State<T, W>>;
  /** Where a marker takes the run. */
  markerTarget(marker: T['marker']): SeekTarget;
  /** The markers a jump steps through, from the selected lane's (the pipeline folds trials and adds scheduled events); as given when absent. */
  jumpMarkers?(markers: readonly T['marker'][], state: State<T, W>): readonly T['marker'][];
  /** A lesson of the world by id; a promise where the lessons' texts load when first needed (the pipeline's, ARCHITECTURE §7a′). */
  findLesson(id: string): WorldLesson<T> | undefined | Promise<WorldLesson<T> | undefined>;
  lessonTarget(step: T['lessonStep']): SeekTarget;
  /** Tells the worker which lane is selected (the pipeline's algorithm trace follows it). */
  selectLane?(lane: number): Promise<void>;
  /** The algorithm step shown now (the pipeline's teaching view), for a link's moment; undefined where there is none. */
  momentStep?(state: State<T, W>): number | undefined;
  /** Called when the worker was restarted, before the scenario is given back. */
  restarted?(store: LiveStore<State<T, W>>): void;
}

export interface LiveStoreOptions {
  /** The page's clock (frames per second), ms. */
  readonly now?: () => number;
  /** Asks before a run estimated as long starts (`longRun.ts`). */
  readonly ask?: AskToStart;
}

/**
 * One lab's store, for any world (zustand, slices: scenario and history, playback, results,
 * time line, ui and lessons, crash recovery, frames per second; `subscribeWithSelector`
 * applied once), wired to the world's worker client, with the world's own slice on top.
 * Charts subscribe to `version` and read the series buffers; React components select single values.
 */
export function createLiveStore<T extends StoreTypes, W extends object>(client: LiveClient<T>, world: LiveWorld<T, W>, options: LiveStoreOptions = {}): LiveStore<State<T, W>> {
  const now = options.now ?? (() => performance.now());
  const startAllowed = longRunGuard(options.ask ?? browserAsk);
  const frameTimes: number[] = [];
  type S = State<T, W>;
  // Set once the store exists (it shows `starting`); used only by actions, which run after.
  let pending: PendingStart = null as unknown as PendingStart;
  /** Pauses asked of the worker and not yet answered (see \`pause\`). */
  let pausesUnanswered = 0;

  /** What a good load sets (also when a restarted worker is given the scenario back). */
  const loadedState = (result: LoadedAnswer<T>, state: S): Partial<S> => {
    // The lab holds the scenario without the moment it was opened at (`moment.ts`).
    const scenario = withoutMoment(result.scenario);
    const shared: Partial<SharedLabState<T>> = {
      scenario,
      lanes: result.lanes,
      summaries: null,
      view: (scenario.view ?? DEFAULT_VIEW) as T['view'],
      selectedLane: Math.max(0, Math.min(state.selectedLane, result.lanes.length - 1)),
    };
    return { ...shared, ...world.loaded(result, state) } as Partial<S>;
  };

  const slices = (set: Set<T, W>, get: Get<T, W>): S => {
    const setShared = (partial: Partial<SharedLabState<T>>): void => set(partial as Partial<S>);
    /** Starts `id` through the long-run guard, unless a Pause cancelled it first. */
    const start = async (id: number, scenario: T['scenario'] | null): Promise<void> => {
      try {
        await startAllowed(scenario, async () => {
          if (!pending.live(id)) return;
          await client.play();
          pending.toldWorker(id, get().status === 'done');
        });
      } finally {
        pending.settled(id);
      }
    };

    const applyLoad = (result: LoadedAnswer<T> | Failed, source: ScenarioSource): boolean => {
      if (!result.ok) {
        set({ errors: { source, errors: result.errors }, ...world.settled } as Partial<S>);
        return false;
      }
      set({ ...loadedState(result, get()), errors: null, ...world.settled });
      return true;
    };
    /**
     * Loads, and plays if asked (`play`) or if the run was playing. The worker is told to play
     * before the page takes the new scenario in (a render of the whole lab), so that the run's
     * first frame is computed meanwhile.
     */
    const replace = async (scenario: unknown, source: ScenarioSource, play = false): Promise<boolean> => {
      const wasPlaying = get().status === 'playing' || get().starting;
      // Asked for now, so that a Pause while the scenario loads cancels it.
      let id = wasPlaying || play ? pending.begin() : null;
      const first = get().scenario === null;
      const viewBefore = get().view;
      const result = await client.load(scenario);
      // A link made at a moment (`view.at`) reopens there, and plays only if it was playing.
      const at = result.ok ? momentIn(result.scenario) : undefined;
      if (at !== undefined) {
        if (id !== null) pending.cancel();
        id = null;
      }
      // A view the person chose before the first scenario or while this one was loading (presentation, hidden parts) stays, unless the scenario brings its own.
      const chosen = get().view !== viewBefore || (first && !isDefaultView(viewBefore)) ? get().view : null;
      const playing = id === null ? null : result.ok ? start(id, result.scenario) : (pending.settled(id), null);
      const ok = applyLoad(result, source);
      if (ok && chosen !== null && result.ok && result.scenario.view === undefined) get().setView(chosen);
      setShared({ openedAt: ok && at !== undefined ? at : null });
      if (ok && at !== undefined) await reopenAt(at);
      await playing;
      return ok;
    };
    /** Goes to a link's moment: its lane (the trace follows it), its lesson, its position and step, then plays if it was playing. */
    const reopenAt = async (at: Moment): Promise<void> => {
      const lane = Math.max(0, Math.min(get().lanes.length - 1, at.lane ?? 0));
      if (lane !== get().selectedLane) setShared({ selectedLane: lane });
      await world.selectLane?.(lane);
      if (at.lesson !== undefined) {
        const lesson = await world.findLesson(at.lesson.id);
        if (lesson !== undefined) setShared({ lesson: { id: at.lesson.id, step: Math.max(0, Math.min(lesson.steps.length - 1, at.lesson.step)) } });
      }
      if (at.position > 0 || at.step !== undefined) await seekTo(at.step === undefined ? { position: at.position } : { position: at.position, step: at.step });
      if (at.playing) await start(pending.begin(), get().scenario);
    };
    const history = historyActions<T['scenario']>(get, setShared, replace);
    /** A refusal of the worker's door in the banner (an edit, a step): the scenario was kept. */
    const refused = (answer: Answer): boolean => {
      if (!answer.ok) setShared({ errors: { source: 'edit', errors: answer.errors } });
      return answer.ok;
    };
    const liveEdit = async <R extends Answer>(call: () => Promise<R>): Promise<R> => {
      const before = get().scenario;
      const result = await call();
      if (!refused(result)) return result;
      // A change that went through answers the banner of the one refused before it.
      if (get().errors?.source === 'edit') setShared({ errors: null });
      // The edit's answer carries the scenario it made and whether it changed it (`liveEdits`):
      // one worker call per edit; an answer without them (a world that does not say) asks.
      const done = result as Partial<{ scenario: T['scenario'] | null; changed: boolean }>;
      const answered = 'scenario' in done ? (done.scenario ?? null) : await client.currentScenario();
      // The worker's scenario may still hold the moment a link opened it at: the lab's does not.
      const scenario = answered === null ? null : withoutMoment(answered);
      if (scenario === null) return result;
      const view = get().view;
      const merged = (isDefaultView(view) ? scenario : { ...scenario, view }) as T['scenario'];
      const changed = done.changed ?? (before !== null && JSON.stringify(before) !== JSON.stringify(merged));
      if (before !== null && changed) history.remember(before);
      set({ scenario: merged, ...world.refreshed?.(merged) } as Partial<S>);
      return result;
    };
    const seekTo = (target: SeekTarget): Promise<boolean> => (target.step === undefined ? get().seek(target.position) : get().seek(target.position, target.step));

    const shared: SharedLabState<T> = {
      scenario: null,
      lanes: [],
      errors: null,
      past: [],
      future: [],
      view: DEFAULT_VIEW as T['view'],
      status: 'paused',
      starting: false,
      speed: world.speed,
      speeds: world.speeds,
      measuredSpeed: 0,
      framesPerSecond: 0,
      position: 0,
      version: 0,
      generation: 0,
      stride: 1,
      series: [],
      live: [],
      summaries: null,
      furthest: 0,
      timelineMarkers: [],
      timelineNote: null,
      selectedLane: 0,
      helpOpen: false,
      lesson: null,
      openedAt: null,

      load: history.load,
      reject: history.reject,
      edit: history.edit,
      undo: history.undo,
      redo: history.redo,
      setView: (view) => {
        const scenario = get().scenario;
        // Before the first scenario: kept, and applied to it when it loads (`replace`).
        if (scenario === null) return void setShared({ view });
        const { view: _old, ...rest } = scenario;
        void _old;
        setShared({ view, scenario: (isDefaultView(view) ? rest : { ...rest, view }) as T['scenario'] });
      },
      amend: (change) => {
        const before = get().scenario;
        if (before === null) return;
        const after = change(structuredClone(before));
        history.remember(before);
        setShared({ scenario: after });
      },
      play: () => start(pending.begin(), get().scenario),
      pause: async () => {
        pending.cancel();
        // The Pause holds from the click: until the worker has taken it, a frame it sent before
        // (still playing) must not make the lab read the run as playing — a file or a link
        // loaded in that moment would play the run again (\`replace\` plays what was playing).
        pausesUnanswered++;
        if (get().status === 'playing') setShared({ status: 'paused' });
        try {
          await client.pause();
        } finally {
          pausesUnanswered--;
        }
      },
      step: async (amount) => void refused(await client.step(amount)),
      reset: () => client.reset(),
      setSpeed: async (speed) => {
        setShared({ speed });
        refused(await client.setSpeed(speed));
      },
      changeSpeed: async (direction) => {
        const { speed, speeds } = get();
        const at = speeds.indexOf(speed);
        const index = at === -1 ? speeds.findIndex((s) => s === 'max' || (speed !== 'max' && s >= speed)) : at;
        const next = speeds[Math.max(0, Math.min(speeds.length - 1, index + direction))]!;
        if (next !== speed) await get().setSpeed(next);
      },
      dismissErrors: () => setShared({ errors: null }),
      selectLane: (lane) => {
        setShared({ selectedLane: lane });
        void world.selectLane?.(lane);
      },
      setHelpOpen: (open) => setShared({ helpOpen: open }),
      seek: async (position, step) => {
        const result = await (step === undefined ? client.seek(position) : client.seek(position, step));
        if (!result.ok) setShared({ errors: { source: 'worker', errors: result.errors } });
        return result.ok;
      },
      stepMarker: async (direction) => {
        const { timelineMarkers, selectedLane, position } = get();
        const own = markersOfLane(timelineMarkers, selectedLane);
        const targets = (world.jumpMarkers?.(own, get()) ?? own).map((m) => world.markerTarget(m));
        const target = direction === 1 ? targets.find((t) => t.position > position) : targets.findLast((t) => t.position < position);
        if (target === undefined) {
          // Said, not silent (issue 37): the markers come as the run reaches them.
          setShared({ timelineNote: direction === 1 ? 'No marker ahead: markers appear as the run reaches them (play or step on).' : 'No marker before this point.' });
          return;
        }
        setShared({ timelineNote: null });
        await seekTo(target);
      },
      startLesson: async (id) => {
        const lesson = await world.findLesson(id);
        if (lesson === undefined) return false;
        await get().pause();
        setShared({ status: 'paused' });
        const ok = await history.load(lessonScenario(lesson.scenario, get().view), 'preset');
        if (!ok) return false;
        setShared({ lesson: { id, step: 0 } });
        await get().lessonStep(0);
        return true;
      },
      lessonStep: async (step) => {
        const current = get().lesson;
        const lesson = current === null ? undefined : await world.findLesson(current.id);
        if (current === null || lesson === undefined) return;
        const index = Math.max(0, Math.min(lesson.steps.length - 1, step));
        const target = lesson.steps[index]!;
        setShared({ lesson: { id: current.id, step: index } });
        if (target.lane !== undefined && target.lane !== get().selectedLane) {
          setShared({ selectedLane: target.lane });
          await world.selectLane?.(target.lane);
        }
        await get().pause();
        await seekTo(world.lessonTarget(target));
      },
      endLesson: () => setShared({ lesson: null }),
      moment: () => momentOf(get(), world.momentStep?.(get())),
    };
    const own = world.slice(set, get, { remember: history.remember, edit: history.edit, liveEdit });
    return { ...shared, ...own } as S;
  };

  const store = createStore<S>()(subscribeWithSelector(slices)) as LiveStore<S>;
  pending = new PendingStart((starting) => store.setState({ starting } as Partial<S>));

  /** Applies one frame from the worker: series in place, the rest as state, in one update. */
  const applyFrame = (frame: T['frame']): void => {
    const progress = world.progress?.(frame) ?? null;
    if (progress !== null) return store.setState(progress);
    pending.framed();
    const state = store.getState();
    const fresh = frame.generation !== state.generation;
    const series = fresh || state.series.length !== frame.lanes.length ? frame.lanes.map(() => world.newSeries()) : state.series;
    const width = world.width(frame);
    frame.lanes.forEach((lane, i) => series[i]!.add(lane.points, frame.replace || fresh, width));
    const nowMs = now();
    frameTimes.push(nowMs);
    while (frameTimes.length > 0 && nowMs - frameTimes[0]! > FPS_WINDOW_MS) frameTimes.shift();
    const shared: Partial<SharedLabState<T>> = {
      version: state.version + 1,
      generation: frame.generation,
      stride: frame.stride,
      series,
      live: frame.lanes.map((l) => l.live),
      status: pausesUnanswered > 0 && frame.status === 'playing' ? 'paused' : frame.status,
      position: world.position(frame),
      measuredSpeed: frame.measuredSpeed,
      framesPerSecond: frameTimes.length,
      ...(frame.summaries ? { summaries: frame.summaries } : fresh ? { summaries: null } : {}),
    };
    store.setState({ ...shared, ...world.frame(frame, state, fresh) } as Partial<S>);
  };
  void client.subscribe(applyFrame);

  client.onCrash?.((reason) => {
    // A fresh worker knows nothing: give it the scenario (and the speed) back and say what happened.
    const { scenario, speed } = store.getState();
    // A Play the old worker was told of died with it: the run starts again paused.
    pending.cancel();
    world.restarted?.(store);
    // The new worker counts generations from scratch: make its first frame count as fresh.
    store.setState({ generation: -1 } as Partial<S>);
    const crashed: LoadErrors = {
      source: 'worker',
      errors: [{ path: '(simulation)', message: `${reason === 'crashed' ? 'stopped unexpectedly' : 'stopped answering'} and was restarted; the run starts again from ${world.origin}` }],
    };
    if (scenario === null) return void store.setState({ errors: crashed } as Partial<S>);
    void client
      .setSpeed(speed)
      .then(() => client.load(scenario))
      .then((result) => {
        if (result.ok) store.setState(loadedState(result, store.getState()));
        store.setState({ errors: crashed } as Partial<S>);
      });
  });
  return store;
}
