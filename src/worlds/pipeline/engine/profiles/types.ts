/**
 * Co-location modes of the ODIN paper's Table 1 (§4.1). Mode A is the CNN alone on the
 * execution place; B–L add iBench CPU or memory-bandwidth hogs, or shrink the CNN to 4 cores.
 */
export const MODE_IDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'] as const;
export type ModeId = (typeof MODE_IDS)[number];

/** A mode with a co-located workload (every mode but A). */
export type InterferenceModeId = Exclude<ModeId, 'A'>;

/** The interference modes (every mode but A). */
export const INTERFERENCE_MODE_IDS: readonly InterferenceModeId[] = MODE_IDS.slice(1) as InterferenceModeId[];

/**
 * A layer-time database `D[l][k]` (ODIN §3.3): milliseconds for unit `l` of a model under
 * co-location mode `k`. Mode A is always present; a custom database may omit other modes.
 */
export interface LayerTimeDatabase {
  /** Model id ('vgg16', 'resnet50', 'resnet152') or a free name for an imported database. */
  readonly model: string;
  /** Unit names in forward order (a residual block counts as one unit for ResNet-152). */
  readonly layers: readonly string[];
  /** Per mode, one time in ms per unit, same order as `layers`. */
  readonly modes: Readonly<Partial<Record<ModeId, readonly number[]>>>;
  /** Where and how a measured database was measured (ARCHITECTURE §2); absent for a derived one. */
  readonly measurement?: MeasurementRecord;
}

/** Work rates of the hogs during one mode: what shows they were running. */
export interface HogRates {
  /** CPU hogs together, arithmetic operations per second. */
  readonly cpuOpsPerS?: number;
  /** Memory-bandwidth hogs together, bytes streamed per second. */
  readonly memBytesPerS?: number;
}

/**
 * The record kept with a measured database, so two databases can be compared honestly
 * (ARCHITECTURE §2): the machine and runtime, the input size and repeats, and per mode
 * the hogs that ran, their work rates and the spread of each unit's time.
 */
export interface MeasurementRecord {
  /** tfjs backend the units ran on ('wasm'). */
  readonly backend: string;
  /** Threads the CNN ran on (1: the wasm backend without multithreading). */
  readonly threads: number;
  /** The browser's user agent, or `Node vX.Y.Z (platform)`. */
  readonly runtime: string;
  /** Logical cores the machine reported. */
  readonly cores: number;
  /** Input side, pixels (224 as in the paper, or smaller for quick runs). */
  readonly inputSize: number;
  /** Timed runs per unit and mode after warm-up (the time is their median). */
  readonly repeats: number;
  /** When the measurement finished, ISO 8601. */
  readonly date: string;
  /** Size of each memory-bandwidth hog's buffer, MiB. */
  readonly hogBufferMiB: number;
  /** Per mode, the hogs started for it (e.g. "2 memBW hogs"). */
  readonly hogs: Readonly<Partial<Record<ModeId, string>>>;
  /** Per mode, the hogs' work rates while the units ran. */
  readonly hogRates: Readonly<Partial<Record<ModeId, HogRates>>>;
  /** Per mode, the interquartile range of each unit's repeats, ms (same order as `layers`). */
  readonly spreadMs: Readonly<Partial<Record<ModeId, readonly number[]>>>;
}

/** The models the lab ships databases for. */
export const MODEL_IDS = ['vgg16', 'resnet50', 'resnet152'] as const;
export type ModelId = (typeof MODEL_IDS)[number];
