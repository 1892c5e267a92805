/**
 * A numeric parameter a lane can set, in any world: it drives validation, the command line and
 * the page's sliders. Each world's registry lists its schedulers' parameters in this shape
 * (ARCHITECTURE §7b).
 */
export interface NumericParameter {
  readonly name: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  readonly default: number;
  /** The scheduler also reads it per model (`batchSize.yolo` sets it for YOLO only). */
  readonly perModel?: boolean;
}
