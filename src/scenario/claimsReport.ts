import type { AnyScenario } from './schema';
import type { Estimate, Verdict } from './verdict';

/**
 * The shape of a reproduction report (ARCHITECTURE §4a): every claim of both papers beside the lab's
 * number, its verdict and its sensitivity strip. The CLI's `claims` command writes it
 * (`--format json`), the build ships one (computed by the CLI, with its provenance), and the
 * page's Claims view shows it and recomputes rows of it on the worker pool.
 *
 * How a row is computed is the registry's business (`claims.ts`): a claim is measured by
 * swept scenarios whose cells run anywhere a sweep runs (page pool, CLI threads, a cluster),
 * and a pure reduction of their cell outcomes gives the estimate. This file is only the
 * report's shape, shared by the writer and the readers.
 */

export const CLAIMS_REPORT_VERSION = 1;

/** A paper's id, as a world declares it (`World.papers`: `odin`, `bcedge`). */
export type Paper = string;

/** A value a scenario field takes in one reading of a modelling choice. */
export type ReadingValue = number | string | boolean;

/** The claim re-measured under one reading of one modelling choice. */
export interface ReadingResult {
  readonly value: ReadingValue;
  /** Null when this reading could not be measured (the reason says why). */
  readonly estimate: Estimate | null;
  readonly verdict: Verdict;
}

/** One modelling choice a claim is re-measured under (one column group of the strip). */
export interface SensitivityResult {
  /** The scenario field, as `--set` and sweep axes name it (`pipeline.assumptions.trialCost`). */
  readonly path: string;
  /** Short name for the strip (`trial cost`). */
  readonly label: string;
  readonly readings: readonly ReadingResult[];
}

export interface ClaimRow {
  /** Stable id (`odin-fig6-throughput`): the test id is `claims.row-<id>`. */
  readonly id: string;
  readonly paper: Paper;
  /** Where the paper says it: `Fig. 6`, `§4.2`. */
  readonly where: string;
  /** The paper's words, quoted. */
  readonly quote: string;
  /** The paper's number as it states it (absent when it states only a direction). */
  readonly paperNumber?: string;
  /** What the lab's number is, in one line, with its unit. */
  readonly labNumber: string;
  /** The lab's number under the default readings; null when it could not be computed. */
  readonly estimate: Estimate | null;
  readonly verdict: Verdict;
  /** One line written from the computed numbers (e.g. naming the reading that flips the sign). */
  readonly reason: string;
  readonly sensitivity: readonly SensitivityResult[];
  /** Whether measuring it trains learners (minutes per cell). */
  readonly learns: boolean;
  /** The scenario (with its sweep) that measures it under the default readings: what "open in the lab" opens. */
  readonly scenario: AnyScenario;
  /**
   * Reference lanes measured the same way as the claim's lane under the default readings
   * (ODIN: Static and Optimal against the same baseline), so the reader sees what no
   * rebalancing and the exhaustive optimum give.
   */
  readonly references?: readonly ReferenceResult[];
  /** What the lab changed against the paper's setting to measure it (a shorter run, fewer seeds). */
  readonly note?: string;
  /** Seeds per cell this row was computed with (learning rows may use fewer than the report's). */
  readonly seeds?: number;
}

/** A reference lane's number, measured like the claim's. */
export interface ReferenceResult {
  readonly label: string;
  readonly estimate: Estimate;
}

/** Where and how a report was computed, so that two reports can be compared honestly. */
export interface ClaimsProvenance {
  /** `git rev-parse --short HEAD` of the code that computed it ('unknown' outside a checkout). */
  readonly commit: string;
  /** Seeds per cell. */
  readonly seeds: number;
  /** ISO date and time. */
  readonly date: string;
  /** e.g. `Node v20.19.0, linux x64, 2 cores` or the browser's user agent. */
  readonly machine: string;
  /** The command that computed it. */
  readonly command: string;
  /** How long the learning rows ran and their seed cap (claims.ts `LearningRuns`; absent in reports written before it was recorded). */
  readonly learning?: { readonly lengthS: number; readonly seeds: number; readonly readingsLengthS?: number };
  /** Wall-clock time of the computation, s: of the one run, or of every shard added up. */
  readonly durationS?: number;
  /** A report merged from shards (`claims merge`): where and how long each shard ran. */
  readonly shards?: readonly ClaimsShardProvenance[];
}

/** One shard of a merged report: which share of the cells, where, when and how long. */
export interface ClaimsShardProvenance {
  readonly index: number;
  readonly count: number;
  /** Cells it ran. */
  readonly cells: number;
  readonly machine: string;
  readonly date: string;
  readonly durationS: number;
  readonly command: string;
}

export interface ClaimsReport {
  readonly version: typeof CLAIMS_REPORT_VERSION;
  readonly provenance: ClaimsProvenance;
  readonly rows: readonly ClaimRow[];
  /**
   * The lab's own claims of one machine (realClaim.ts): a real pipeline beside its simulation,
   * written by `interference-lab real --claims-report FILE` with that machine's provenance.
   */
  readonly machineRows?: readonly MachineClaimRow[];
}

/**
 * A claim of one machine (the real pipeline beside its simulation: worlds/pipeline/scenario/realClaim.ts
 * makes it): part of the report's format, so that the Claims view reads it without naming a world.
 */
/** One lane of the row: measured beside simulated (the scenario's trial-cost reading). */
export interface MachineClaimLane {
  readonly label: string;
  readonly scheduler: string;
  readonly measuredQps: number;
  readonly simulatedQps: number;
  /** Signed, % of the measured. */
  readonly throughputErrorPct: number;
  readonly latencyMeanErrorPct: number;
  readonly latencyP99ErrorPct: number;
  readonly moves: number;
  /** Mean wall time of a real move, ms (what the simulation does not model). */
  readonly moveMeanMs: number;
  readonly closestReading: string;
  /** Half-widths of the 95 % intervals of the two errors, % (absent: one run, no interval). */
  readonly throughputErrorHalfWidth95Pct?: number;
  readonly latencyMeanErrorHalfWidth95Pct?: number;
  /** Moves a run, simulated (the real ones are `moves`), and rebalancing phases real and simulated. */
  readonly simulatedMoves?: number;
  readonly phases?: number;
  readonly simulatedPhases?: number;
}

/** Where, when and how the row was measured. */
export interface MachineClaimProvenance {
  readonly machine: string;
  readonly date: string;
  readonly command: string;
  readonly commit: string;
  readonly durationS: number;
  readonly setting: string;
}

export interface MachineClaimRow {
  readonly id: string;
  readonly where: string;
  readonly quote: string;
  readonly labNumber: string;
  /** Mean absolute throughput error over the lanes, %, of the one run (seeds 1, no interval). */
  readonly estimate: Estimate | null;
  readonly verdict: Verdict;
  readonly reason: string;
  readonly lanes: readonly MachineClaimLane[];
  /** ODIN's throughput against LLS's, % — measured and simulated (null unless both ran). */
  readonly odinVsLls: { readonly measuredPct: number; readonly simulatedPct: number; readonly agrees: boolean } | null;
  readonly provenance: MachineClaimProvenance;
  /** The simulation's machine: the calibrated one, as a line (absent: the paper's ideal machine). */
  readonly simulatedMachine?: string;
}
