/**
 * The real-run panel's own small store (ARCHITECTURE §2, the real backend): what to run (input
 * size, queries, lanes), the run as it goes (points per lane, moves, hogs) and the report
 * that sets it beside its simulation. It talks to the real worker through a
 * {@link RealClient}; the scenario is the lab's, read when the run starts and never changed.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import { realRunRefusal, REAL_INPUT_SIZES, type RealInputSize } from '../scenario/realPipeline';
import type { RealReport } from '../scenario/realRun';
import type { PipelineScenario } from '../scenario/schema';
import type { RealOutcome, RealPoint, RealRequest, RealUpdate } from '../worker/realProtocol';

export interface RealClient {
  run(request: RealRequest, onUpdate: (update: RealUpdate) => void): Promise<RealOutcome>;
  cancel(): Promise<void>;
  cores(): Promise<number>;
}

export type RealStatus = 'idle' | 'measuring' | 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';

/** Bounds of the queries field: enough for a phase or two, few enough to wait for. */
export const REAL_QUERIES = { min: 4, max: 5000 } as const;

export interface RealState {
  readonly open: boolean;
  readonly inputSize: RealInputSize;
  readonly queries: number;
  /** Schedulers of the lanes to run (the scenario's lanes with these ids). */
  readonly lanes: readonly string[];
  readonly status: RealStatus;
  readonly measureFraction: number;
  /** The lane running now (index into the run's lanes). */
  readonly lane: number | null;
  readonly laneLabels: readonly string[];
  readonly points: readonly (readonly RealPoint[])[];
  readonly moves: readonly number[];
  readonly hogs: string;
  readonly report: RealReport | null;
  readonly notice: { readonly kind: 'info' | 'error'; readonly text: string } | null;
  readonly cores: number | null;
  setOpen(open: boolean): void;
  setInputSize(size: RealInputSize): void;
  setQueries(queries: number): void;
  toggleLane(scheduler: string): void;
  /** Runs the chosen lanes of `scenario` (the lab's), on `database` if one was measured at this size. */
  start(scenario: PipelineScenario, database: LayerTimeDatabase | null): Promise<void>;
  cancel(): Promise<void>;
}

export type RealStore = StoreApi<RealState>;

/** The lanes offered first: ODIN's and LLS's when the scenario has them (the paper's comparison), else every lane. */
export function defaultRealLanes(scenario: PipelineScenario): string[] {
  const ids = scenario.pipeline.lanes.map((l) => l.scheduler);
  const paper = ids.filter((id) => id === 'odin' || id === 'lls');
  return paper.length > 0 ? [...new Set(paper)] : [...new Set(ids)];
}

export function createRealStore(client: RealClient, scenario: PipelineScenario): RealStore {
  return createStore<RealState>()((set, get) => ({
    open: false,
    inputSize: 112,
    queries: Math.min(scenario.pipeline.queries, 120),
    lanes: defaultRealLanes(scenario),
    status: 'idle',
    measureFraction: 0,
    lane: null,
    laneLabels: [],
    points: [],
    moves: [],
    hogs: 'none',
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
      set({ status: usable === null ? 'measuring' : 'running', measureFraction: 0, lane: null, laneLabels: lanes.map((l) => l.scheduler), points: lanes.map(() => []), moves: lanes.map(() => 0), hogs: 'none', report: null, notice: null });
      const outcome = await client.run({ scenario, inputSize: s.inputSize, repeats: 3, database: usable }, (update) => {
        const now = get();
        if (update.kind === 'measuring') set({ measureFraction: update.fraction });
        else if (update.kind === 'lane') set({ status: now.status === 'cancelling' ? 'cancelling' : 'running', lane: update.lane });
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
        } else set({ hogs: update.mode === 'A' ? `EP ${update.executionPlace + 1}: none` : `EP ${update.executionPlace + 1}: mode ${update.mode}` });
      });
      if (outcome.kind === 'done') {
        set({ status: 'done', report: outcome.report, lane: null, laneLabels: outcome.report.lanes.map((l) => l.label), notice: { kind: 'info', text: `Measured ${lanes.length} lane${lanes.length === 1 ? '' : 's'} on this machine; the simulation beside it ran on a database measured at ${s.inputSize} px.` } });
      } else if (outcome.kind === 'cancelled') {
        set({ status: 'cancelled', lane: null, notice: { kind: 'info', text: 'Cancelled: the stage workers and hogs are stopped; nothing was kept.' } });
      } else {
        set({ status: 'failed', lane: null, notice: { kind: 'error', text: `The real run failed: ${outcome.message}` } });
      }
    },
    cancel: async () => {
      const status = get().status;
      if (status !== 'running' && status !== 'measuring') return;
      set({ status: 'cancelling' });
      await client.cancel();
    },
  }));
}
