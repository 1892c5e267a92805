import type { PipelineAssumptions } from './assumptions';

/** What the monitor reads from the assumptions (absent optional fields: the single-sample rule). */
export type MonitorAssumptions = Pick<PipelineAssumptions, 'detectionThreshold' | 'detectionSignal' | 'monitorReference' | 'detectionWindow'>;

/** What one normal query's stage times did to the monitor (`StageMonitor.observe`). */
export type MonitorReading = 'reference' | 'changed' | 'same';

/** The window of a monitor, as a checkpoint keeps it (`StageMonitor.windowState`). */
export interface MonitorWindowState {
  readonly times: Float64Array;
  readonly count: number;
  readonly head: number;
}

/**
 * The monitor of ODIN §3.1, shared by the simulated lane (simulation.ts) and the real
 * pipeline (src/worlds/pipeline/measure/realPipeline): it keeps the stage times at the last
 * reconfiguration and says whether the times just observed moved past the threshold.
 * `detectionSignal` says what it watches, `detectionWindow` over how many queries and
 * `monitorReference` where its reference comes from (assumptions.ts). Both sides call
 * `observe` for each normal query served by the installed configuration, in order, and
 * `installed` at the end of a rebalancing phase, so they read the same trace alike.
 */
export class StageMonitor {
  /** Slowest-stage time at the last reconfiguration (NaN: take the next observation). */
  referenceMs = Number.NaN;
  /** Stage times at the last reconfiguration (for `detectionSignal: 'anyStage'`). */
  readonly referenceTimes: Float64Array;
  /** The stage times the last `observe` decided on (the query's, or the window's mean). */
  readonly signalTimes: Float64Array;
  /** The bottleneck of `signalTimes`. */
  signalBottleneckMs = 0;
  /** The last `detectionWindow` observations, stage by stage (a ring; allocated on first use of a window > 1). */
  private window: Float64Array = new Float64Array(0);
  private windowCount = 0;
  private windowHead = 0;

  constructor(private readonly stages: number) {
    this.referenceTimes = new Float64Array(stages);
    this.signalTimes = new Float64Array(stages);
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

  /**
   * Reads one normal query's stage times. The single-sample rule (window 1, reference
   * `first`): the first observation after a reconfiguration becomes the reference, each
   * later one is compared with it. With a window of w > 1 the monitor decides on the mean
   * stage times of the last w queries (none before it holds w), and with reference `steady`
   * the reference is the mean of the first w. `signalTimes` holds what it decided on; on
   * `changed` the caller starts a rebalancing (or, without one, calls `setReference` with
   * `signalTimes`).
   */
  observe(a: MonitorAssumptions, times: Float64Array, bottleneck: number): MonitorReading {
    const w = Math.max(1, a.detectionWindow ?? 1);
    if (w === 1) {
      this.signalTimes.set(times);
      this.signalBottleneckMs = bottleneck;
      if (this.needsReference) {
        this.setReference(times, bottleneck);
        return 'reference';
      }
      return this.changed(a, times, bottleneck) ? 'changed' : 'same';
    }
    if (this.needsReference && (a.monitorReference ?? 'first') === 'first') {
      this.signalTimes.set(times);
      this.signalBottleneckMs = bottleneck;
      this.setReference(times, bottleneck);
      return 'reference';
    }
    this.push(w, times);
    if (this.windowCount < w) return 'same';
    this.windowMean(w);
    if (this.needsReference) {
      this.setReference(this.signalTimes, this.signalBottleneckMs);
      return 'reference';
    }
    return this.changed(a, this.signalTimes, this.signalBottleneckMs) ? 'changed' : 'same';
  }

  /**
   * The end of a rebalancing phase: `observed` is what the installed configuration was last
   * seen doing (a trial's or the detecting query's times; undefined: never seen). Reference
   * `first` takes it as the reference (ODIN §3.1's "at the last reconfiguration"); `steady`
   * waits for the configuration's own pipelined queries, like for like (a serial trial runs
   * a stage alone, faster than beside the others).
   */
  installed(a: MonitorAssumptions, observed: Float64Array | undefined): void {
    if (observed === undefined || (a.monitorReference ?? 'first') === 'steady') this.clear();
    else this.setReference(observed, maxOf(observed));
  }

  setReference(times: Float64Array, bottleneck: number): void {
    this.referenceMs = bottleneck;
    this.referenceTimes.set(times);
    this.windowCount = 0;
    this.windowHead = 0;
  }

  /** Forgets the reference: the next observation becomes it. */
  clear(): void {
    this.referenceMs = Number.NaN;
    this.windowCount = 0;
    this.windowHead = 0;
  }

  /** The window, for a checkpoint (empty with window 1). */
  windowState(): MonitorWindowState {
    return { times: this.window.slice(), count: this.windowCount, head: this.windowHead };
  }

  restoreWindow(s: MonitorWindowState): void {
    this.window = s.times.slice();
    this.windowCount = s.count;
    this.windowHead = s.head;
  }

  private push(w: number, times: Float64Array): void {
    const n = this.stages;
    if (this.window.length !== w * n) {
      this.window = new Float64Array(w * n);
      this.windowCount = 0;
      this.windowHead = 0;
    }
    this.window.set(times.subarray(0, n), this.windowHead * n);
    this.windowHead = this.windowHead + 1 === w ? 0 : this.windowHead + 1;
    if (this.windowCount < w) this.windowCount += 1;
  }

  private windowMean(w: number): void {
    const n = this.stages;
    this.signalTimes.fill(0);
    for (let k = 0; k < w; k++) for (let i = 0; i < n; i++) this.signalTimes[i] = this.signalTimes[i]! + this.window[k * n + i]!;
    for (let i = 0; i < n; i++) this.signalTimes[i] = this.signalTimes[i]! / w;
    this.signalBottleneckMs = maxOf(this.signalTimes);
  }
}

/** The largest of `values` (0 for none): the bottleneck of a set of stage times. */
export function maxOf(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  return m;
}
