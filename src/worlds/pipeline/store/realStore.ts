/**
 * The real-run panel's own small store (ARCHITECTURE §2, the real backend): what to run (input
 * size, queries, lanes), the run as it goes (points per lane, moves, hogs) and the report
 * that sets it beside its simulation. It talks to the real worker through a
 * {@link RealClient}; the scenario is the lab's, read when the run starts and never changed.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import { modesNeeded, realRunRefusal, REAL_INPUT_SIZES, type RealInputSize } from '../scenario/realPipeline';
import type { LiveEdit, RealReport } from '../scenario/realRun';
import type { PipelineScenario } from '../schema';
import type { RealOutcome, RealPoint, RealRequest, RealUpdate } from '../worker/realProtocol';

export interface RealClient {
  run(request: RealRequest, onUpdate: (update: RealUpdate) => void): Promise<RealOutcome>;
  cancel(): Promise<void>;
  /** Workloads dragged onto or off execution places while the run goes. */
  live(edits: readonly LiveEdit[]): Promise<void>;
  cores(): Promise<number>;
}

type ScenarioEvent = PipelineScenario['pipeline']['interference']['events'][number];

/** An event of the lab's scenario as the real run tracks it: where, what and from which query of the lab. */
const eventKey = (e: ScenarioEvent) => `${e.executionPlace}:${e.mode}:${e.fromQuery}`;

/**
 * What a change of the lab's interference events means for a real run under way (the lab's
 * drag and drop, ARCHITECTURE §2): an event that is new places its workload on the real
 * pipeline now (`add`), one that is gone or now ends takes it off (`end`). `placed` maps the
 * lab's events placed so far to their live ids; it is updated. The lab's query numbers are
 * the lab's simulation's, not the real run's: only the change counts, from the real run's next query.
 */
export function liveEditsBetween(before: readonly ScenarioEvent[], after: readonly ScenarioEvent[], placed: Map<string, number>, nextId: () => number): LiveEdit[] {
  const edits: LiveEdit[] = [];
  const was = new Map(before.map((e) => [eventKey(e), e]));
  const now = new Map(after.map((e) => [eventKey(e), e]));
  for (const [key, e] of now) {
    const old = was.get(key);
    if (old === undefined && e.toQuery === null) {
      const id = nextId();
      placed.set(key, id);
      edits.push({ kind: 'add', id, executionPlace: e.executionPlace, mode: e.mode });
    } else if (old !== undefined && old.toQuery === null && e.toQuery !== null && placed.has(key)) {
      edits.push({ kind: 'end', id: placed.get(key)! });
      placed.delete(key);
    }
  }
  for (const key of was.keys()) {
    if (!now.has(key) && placed.has(key)) {
      edits.push({ kind: 'end', id: placed.get(key)! });
      placed.delete(key);
    }
  }
  return edits;
}

export type RealStatus = 'idle' | 'measuring' | 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';

/** Bounds of the queries field: enough for a phase or two, few enough to wait for. */
export const REAL_QUERIES = { min: 4, max: 5000 } as const;
/** Bounds of the repeats field (5 or more give the intervals their meaning). */
export const REAL_LANE_REPEATS = { min: 1, max: 20 } as const;

export interface RealState {
  readonly open: boolean;
  readonly inputSize: RealInputSize;
  readonly queries: number;
  /** Schedulers of the lanes to run (the scenario's lanes with these ids). */
  readonly lanes: readonly string[];
  /** Real runs of each lane, interleaved (REAL_LANE_REPEATS bounds it). */
  readonly laneRepeats: number;
  readonly status: RealStatus;
  readonly measureFraction: number;
  /** The lane running now (index into the run's lanes). */
  readonly lane: number | null;
  readonly laneLabels: readonly string[];
  readonly points: readonly (readonly RealPoint[])[];
  readonly moves: readonly number[];
  readonly hogs: string;
  /** Per execution place, the mode whose hogs run on it now ('A': none). */
  readonly hogModes: readonly string[];
  readonly report: RealReport | null;
  readonly notice: { readonly kind: 'info' | 'error'; readonly text: string } | null;
  readonly cores: number | null;
  setOpen(open: boolean): void;
  setInputSize(size: RealInputSize): void;
  setQueries(queries: number): void;
  toggleLane(scheduler: string): void;
  setLaneRepeats(repeats: number): void;
  /** Runs the chosen lanes of `scenario` (the lab's), on `database` if one was measured at this size. */
  start(scenario: PipelineScenario, database: LayerTimeDatabase | null): Promise<void>;
  cancel(): Promise<void>;
  /** The lab's interference events changed (a drag): while a run goes, the change reaches its pipeline. */
  followLab(events: readonly ScenarioEvent[]): void;
  /** Workloads placed by hand during this run so far. */
  readonly livePlaced: number;
}

export type RealStore = StoreApi<RealState>;

/** The lanes offered first: ODIN's and LLS's when the scenario has them (the paper's comparison), else every lane. */
export function defaultRealLanes(scenario: PipelineScenario): string[] {
  const ids = scenario.pipeline.lanes.map((l) => l.scheduler);
  const paper = ids.filter((id) => id === 'odin' || id === 'lls');
  return paper.length > 0 ? [...new Set(paper)] : [...new Set(ids)];
}

export function createRealStore(client: RealClient, scenario: PipelineScenario): RealStore {
  // The lab's events the run started on (and followed since), and the live ids of those placed during it.
  let labEvents: readonly ScenarioEvent[] = scenario.pipeline.interference.events;
  let placed = new Map<string, number>();
  let nextId = 1;
  // The modes the run's database has (the simulation and the oracles need a mode's times).
  let measuredModes: readonly string[] = [];
  return createStore<RealState>()((set, get) => ({
    livePlaced: 0,
    open: false,
    inputSize: 112,
    queries: Math.min(scenario.pipeline.queries, 120),
    lanes: defaultRealLanes(scenario),
    laneRepeats: 1,
    status: 'idle',
    measureFraction: 0,
    lane: null,
    laneLabels: [],
    points: [],
    moves: [],
    hogs: 'none',
    hogModes: [],
    report: null,
    notice: null,
    cores: null,
    setOpen: (open) => {
      set({ open });
      if (open && get().cores === null) void client.cores().then((cores) => set({ cores }));
    },
    setInputSize: (inputSize) => {
      if ((REAL_INPUT_SIZES as readonly number[]).includes(inputSize)) set({ inputSize });
    },
    setQueries: (queries) => {
      if (Number.isInteger(queries) && queries >= REAL_QUERIES.min && queries <= REAL_QUERIES.max) set({ queries });
    },
    setLaneRepeats: (laneRepeats) => {
      if (Number.isInteger(laneRepeats) && laneRepeats >= REAL_LANE_REPEATS.min && laneRepeats <= REAL_LANE_REPEATS.max) set({ laneRepeats });
    },
    toggleLane: (scheduler) => {
      const lanes = get().lanes.includes(scheduler) ? get().lanes.filter((l) => l !== scheduler) : [...get().lanes, scheduler];
      set({ lanes });
    },
    start: async (labScenario, database) => {
      const s = get();
      if (s.status === 'measuring' || s.status === 'running' || s.status === 'cancelling') return;
      const refusal = realRunRefusal(labScenario);
      if (refusal !== null) {
        set({ notice: { kind: 'error', text: `Cannot run this scenario for real: ${refusal.field}: ${refusal.message}. Nothing was started.` } });
        return;
      }
      const lanes = labScenario.pipeline.lanes.filter((l) => s.lanes.includes(l.scheduler));
      if (lanes.length === 0) {
        set({ notice: { kind: 'error', text: 'Choose at least one lane to run.' } });
        return;
      }
      const scenario: PipelineScenario = { ...labScenario, pipeline: { ...labScenario.pipeline, lanes, queries: s.queries } };
      // A database from the Measure panel serves when it is this model's at this size; otherwise one is measured first.
      const usable = database !== null && database.model === scenario.pipeline.model && database.measurement?.inputSize === s.inputSize ? database : null;
      labEvents = labScenario.pipeline.interference.events;
      placed = new Map();
      measuredModes = usable === null ? modesNeeded(scenario) : Object.keys(usable.modes);
      set({ livePlaced: 0, status: usable === null ? 'measuring' : 'running', measureFraction: 0, lane: null, laneLabels: lanes.map((l) => l.scheduler), points: lanes.map(() => []), moves: lanes.map(() => 0), hogs: 'none', hogModes: Array.from({ length: scenario.pipeline.executionPlaces }, () => 'A'), report: null, notice: null });
      const outcome = await client.run({ scenario, inputSize: s.inputSize, repeats: 3, database: usable, laneRepeats: s.laneRepeats }, (update) => {
        const now = get();
        if (update.kind === 'measuring') set({ measureFraction: update.fraction });
        // Each repeat of a lane starts its trace afresh (the report keeps every repeat).
        else if (update.kind === 'lane') set({ status: now.status === 'cancelling' ? 'cancelling' : 'running', lane: update.lane, points: now.points.map((p, i) => (i === update.lane ? [] : p)) });
        else if (update.kind === 'points') {
          // Only the lanes this batch adds to get new arrays, copied once per batch.
          const points = [...now.points];
          const copied = new Map<number, RealPoint[]>();
          for (const point of update.points) {
            let lane = copied.get(point.lane);
            if (lane === undefined) {
              lane = [...(now.points[point.lane] ?? [])];
              copied.set(point.lane, lane);
              points[point.lane] = lane;
            }
            lane.push(point);
          }
          set({ points });
        } else if (update.kind === 'reconfiguration') {
          set({ moves: now.moves.map((m, i) => (i === update.lane ? m + 1 : m)) });
        } else {
          set({
            hogs: update.mode === 'A' ? `EP ${update.executionPlace + 1}: none` : `EP ${update.executionPlace + 1}: mode ${update.mode}`,
            hogModes: now.hogModes.map((m, i) => (i === update.executionPlace ? update.mode : m)),
          });
        }
      });
      if (outcome.kind === 'done') {
        set({ status: 'done', report: outcome.report, lane: null, laneLabels: outcome.report.lanes.map((l) => l.label), notice: { kind: 'info', text: `Measured ${lanes.length} lane${lanes.length === 1 ? '' : 's'} on this machine${s.laneRepeats > 1 ? `, ${s.laneRepeats} times each` : ''}; the simulation beside it ran on ${usable === null ? 'a database measured' : "Measure's database, measured"} at ${s.inputSize} px.` } });
      } else if (outcome.kind === 'cancelled') {
        set({ status: 'cancelled', lane: null, notice: { kind: 'info', text: 'Cancelled: the stage workers and hogs are stopped; nothing was kept.' } });
      } else {
        set({ status: 'failed', lane: null, notice: { kind: 'error', text: `The real run failed: ${outcome.message}` } });
      }
    },
    followLab: (events) => {
      const status = get().status;
      const running = status === 'measuring' || status === 'running';
      const all = running ? liveEditsBetween(labEvents, events, placed, () => nextId++) : [];
      labEvents = events;
      // A mode the run did not measure has no times to simulate it with: not placed, and said so.
      const unmeasured = all.filter((e) => e.kind === 'add' && !measuredModes.includes(e.mode));
      const edits = all.filter((e) => !unmeasured.includes(e));
      if (unmeasured.length > 0) {
        const modes = [...new Set(unmeasured.map((e) => (e.kind === 'add' ? e.mode : '')))].join(', ');
        set({ notice: { kind: 'info', text: `Mode ${modes} was not measured for this run (it measured ${measuredModes.join(', ')}): its hogs were not started. Put the workload in the scenario before the run to measure its mode.` } });
      }
      if (edits.length === 0) return;
      set({ livePlaced: get().livePlaced + edits.filter((e) => e.kind === 'add').length });
      void client.live(edits);
    },
    cancel: async () => {
      const status = get().status;
      if (status !== 'running' && status !== 'measuring') return;
      set({ status: 'cancelling' });
      await client.cancel();
    },
  }));
}
