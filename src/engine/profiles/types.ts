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
}

/** The models the lab ships databases for. */
export const MODEL_IDS = ['vgg16', 'resnet50', 'resnet152'] as const;
export type ModelId = (typeof MODEL_IDS)[number];
