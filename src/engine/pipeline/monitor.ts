import type { PipelineAssumptions } from './assumptions';

/**
 * The monitor of ODIN §3.1, shared by the simulated lane (simulation.ts) and the real
 * pipeline (src/measure/realPipeline): it keeps the stage times at the last
 * reconfiguration and says whether the times just observed moved past the threshold.
 * `detectionSignal` says what it watches (assumptions.ts).
 */
export class StageMonitor {
  /** Slowest-stage time at the last reconfiguration (NaN: take the next observation). */
  referenceMs = Number.NaN;
  /** Stage times at the last reconfiguration (for `detectionSignal: 'anyStage'`). */
  readonly referenceTimes: Float64Array;

  constructor(private readonly stages: number) {
    this.referenceTimes = new Float64Array(stages);
  }

  /** True until a reference is set (the first observation after a reconfiguration becomes it). */
  get needsReference(): boolean {
    return Number.isNaN(this.referenceMs);
  }

  /** Did the observed stage times move past `detectionThreshold` of the reference? */
  changed(a: Pick<PipelineAssumptions, 'detectionThreshold' | 'detectionSignal'>, times: Float64Array, bottleneck: number): boolean {
    const limit = a.detectionThreshold * this.referenceMs;
    if (Math.abs(bottleneck - this.referenceMs) > limit) return true;
    if (a.detectionSignal === 'anyStage') {
      for (let i = 0; i < this.stages; i++) if (Math.abs(times[i]! - this.referenceTimes[i]!) > limit) return true;
    }
    return false;
  }

  setReference(times: Float64Array, bottleneck: number): void {
    this.referenceMs = bottleneck;
    this.referenceTimes.set(times);
  }

  /** Forgets the reference: the next observation becomes it. */
  clear(): void {
    this.referenceMs = Number.NaN;
  }
}

/** The largest of `values` (0 for none): the bottleneck of a set of stage times. */
export function maxOf(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  return m;
}
