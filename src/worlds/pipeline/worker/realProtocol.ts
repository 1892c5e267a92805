/**
 * What the page and the real worker say to each other (ARCHITECTURE §2, the real backend).
 * Expected failures come back as results (ARCHITECTURE §8: only `message` and `stack` survive comlink).
 */
import type { LayerTimeDatabase } from '../engine/profiles/types';
import type { LiveEdit, RealReport } from '../scenario/realRun';
import type { PipelineScenario } from '../schema';

export interface RealRequest {
  /** A validated pipeline scenario, its lanes the ones to run, one after another. */
  readonly scenario: PipelineScenario;
  readonly inputSize: number;
  readonly repeats: number;
  /** A database measured earlier at this size (the Measure panel's); null: measure one first. */
  readonly database: LayerTimeDatabase | null;
  /** Real runs of each lane, interleaved (absent: 1). */
  readonly laneRepeats?: number;
}

/** One measured query, as the live charts draw it. */
export interface RealPoint {
  readonly lane: number;
  readonly query: number;
  readonly kind: 'normal' | 'trial';
  readonly completionMs: number;
  readonly latencyMs: number;
  /** Completed queries per second over the last few queries of the lane. */
  readonly throughputQps: number;
  readonly stageTimesMs: readonly number[];
  readonly configuration: string;
}

/** What the worker reports while it runs; points come in batches. */
export type RealUpdate =
  | { readonly kind: 'measuring'; readonly fraction: number }
  | { readonly kind: 'lane'; readonly lane: number; readonly scheduler: string }
  | { readonly kind: 'points'; readonly points: readonly RealPoint[] }
  | { readonly kind: 'reconfiguration'; readonly lane: number; readonly beforeQuery: number; readonly to: string; readonly wallMs: number; readonly trial: boolean }
  | { readonly kind: 'hogs'; readonly lane: number; readonly executionPlace: number; readonly mode: string };

export type RealOutcome = { readonly kind: 'done'; readonly report: RealReport } | { readonly kind: 'cancelled' } | { readonly kind: 'failed'; readonly message: string };

export interface RealApi {
  run(request: RealRequest, onUpdate: (update: RealUpdate) => void): Promise<RealOutcome>;
  cancel(): void;
  /** Workloads dragged onto or off execution places during the run: they apply from the next query admitted. */
  live(edits: readonly LiveEdit[]): void;
  cores(): number;
}
