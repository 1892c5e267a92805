/**
 * The Measure panel's own small store (ARCHITECTURE §2): what to measure, the run's progress,
 * the measured (or imported) database, and the actions. It talks to the measure worker
 * through a {@link MeasureClient}; putting a database into the pipeline scenario goes
 * through the lab store's own load path (see `useInScenario`), so undo, the link and the
 * schedulers see it like any other change.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { MODE_IDS, type LayerTimeDatabase, type ModeId, type ModelId } from '../engine/profiles/types';
import { formatValidationErrors } from '../engine/profiles/validate';
import { parseDatabaseFile, scenarioWithDatabase } from '../scenario/databaseFile';
import type { PipelineScenario } from '../schema';
import type { MeasureOptions, MeasureOutcome, MeasureProgress } from '../worker/measureProtocol';

/** The page's handle on the measure worker. */
export interface MeasureClient {
  measure(options: MeasureOptions, onProgress: (progress: MeasureProgress) => void): Promise<MeasureOutcome>;
  cancel(): Promise<void>;
  cores(): Promise<number>;
}

export type MeasureStatus = 'idle' | 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';

/** A message for the person: what happened, and whether it is a problem. */
export interface MeasureNotice {
  readonly kind: 'info' | 'error';
  readonly text: string;
}

export interface MeasureState {
  readonly open: boolean;
  readonly model: ModelId;
  /** Interference modes to measure besides A. */
  readonly modes: readonly ModeId[];
  readonly repeats: number;
  readonly inputSize: 224 | 112;
  readonly status: MeasureStatus;
  readonly progress: MeasureProgress | null;
  /** The last database measured or imported (what *Use* puts into the scenario). */
  readonly database: LayerTimeDatabase | null;
  /** Where `database` came from. */
  readonly source: 'measured' | 'imported' | null;
  readonly notice: MeasureNotice | null;
  /** Cores the worker sees, once asked. */
  readonly cores: number | null;
  setOpen(open: boolean): void;
  setModel(model: ModelId): void;
  toggleMode(mode: ModeId): void;
  setRepeats(repeats: number): void;
  setInputSize(size: 224 | 112): void;
  start(): Promise<void>;
  cancel(): Promise<void>;
  /** Reads a database file (JSON or CSV); a bad one leaves everything as it was and says why. */
  importText(text: string, fileName: string): void;
  /**
   * The scenario running on the current database, or a notice why not (no database, or
   * the scenario uses modes the database lacks).
   */
  scenarioFor(scenario: PipelineScenario): PipelineScenario | null;
  notify(notice: MeasureNotice | null): void;
}

export type MeasureStore = StoreApi<MeasureState>;

/** Bounds of the repeats field. */
export const MEASURE_REPEATS = { min: 1, max: 50 } as const;

/** Each memBW hog's buffer in the page, MiB: larger than a desktop's last-level cache (8–64 MB), small enough for two in a tab. */
export const PAGE_HOG_BUFFER_MIB = 256;

export function createMeasureStore(client: MeasureClient): MeasureStore {
  return createStore<MeasureState>()((set, get) => ({
    open: false,
    model: 'vgg16',
    // The two ends of Figure 4: memory bandwidth on every core, CPU on every core.
    modes: ['E', 'I'],
    repeats: 3,
    inputSize: 112,
    status: 'idle',
    progress: null,
    database: null,
    source: null,
    notice: null,
    cores: null,
    setOpen: (open) => {
      set({ open });
      if (open && get().cores === null) void client.cores().then((cores) => set({ cores }));
    },
    setModel: (model) => set({ model }),
    toggleMode: (mode) => {
      if (mode === 'A') return;
      const modes = get().modes.includes(mode) ? get().modes.filter((m) => m !== mode) : [...get().modes, mode];
      set({ modes: MODE_IDS.filter((m) => modes.includes(m)) });
    },
    setRepeats: (repeats) => {
      if (Number.isInteger(repeats) && repeats >= MEASURE_REPEATS.min && repeats <= MEASURE_REPEATS.max) set({ repeats });
    },
    setInputSize: (inputSize) => set({ inputSize }),
    start: async () => {
      if (get().status === 'running' || get().status === 'cancelling') return;
      const { model, modes, repeats, inputSize } = get();
      set({ status: 'running', progress: null, notice: null });
      const outcome = await client.measure({ model, modes, repeats, inputSize, hogBufferMiB: PAGE_HOG_BUFFER_MIB }, (progress) => {
        if (get().status === 'running') set({ progress });
      });
      if (outcome.kind === 'done') {
        set({ status: 'done', database: outcome.database, source: 'measured', notice: { kind: 'info', text: `Measured ${outcome.database.layers.length} units of ${model} under ${Object.keys(outcome.database.modes).length} modes.` } });
      } else if (outcome.kind === 'cancelled') {
        set({ status: 'cancelled', notice: { kind: 'info', text: 'Cancelled: nothing measured was kept; the hogs are stopped.' } });
      } else {
        set({ status: 'failed', notice: { kind: 'error', text: `The measurement failed: ${outcome.message}` } });
      }
    },
    cancel: async () => {
      if (get().status !== 'running') return;
      set({ status: 'cancelling' });
      await client.cancel();
    },
    importText: (text, fileName) => {
      const parsed = parseDatabaseFile(text, 'database');
      if (!parsed.ok) {
        set({ notice: { kind: 'error', text: `${fileName}: not imported.\n${formatValidationErrors(parsed.errors)}` } });
        return;
      }
      set({ database: parsed.database, source: 'imported', notice: { kind: 'info', text: `Imported ${fileName}: ${parsed.database.layers.length} units, modes ${Object.keys(parsed.database.modes).join(', ')}.` } });
    },
    scenarioFor: (scenario) => {
      const db = get().database;
      if (db === null) return null;
      const result = scenarioWithDatabase(scenario, db);
      if (!result.ok) {
        set({ notice: { kind: 'error', text: `The scenario places workloads of mode ${result.missingModes.join(', ')}, which this database lacks: measure ${result.missingModes.length === 1 ? 'it' : 'them'} too, or remove those workloads first.` } });
        return null;
      }
      return result.scenario;
    },
    notify: (notice) => set({ notice }),
  }));
}
