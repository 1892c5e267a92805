import type { Configuration } from './configuration';
import type { Partition } from './partition';
import type { CompiledDatabase } from './stageTimes';

/**
 * What a rebalancing algorithm sees when the monitor triggers it: the configuration in
 * force and the stage times observed for the query that revealed the change. Only what
 * an online system can observe is here; oracles (optimal, evict) get `modes` instead.
 */
export interface RebalanceContext {
  /** The configuration in force (a copy the scheduler may keep). */
  readonly configuration: Configuration;
  /** t_i observed for the detecting query under `configuration`, ms. */
  readonly stageTimesMs: Float64Array;
  /** L, the number of units. */
  readonly unitCount: number;
  /** Why the monitor fired: the slowest stage got slower, or faster. */
  readonly trigger: 'increase' | 'decrease';
}

/**
 * A rebalancing phase as a generator: it yields each trial configuration, receives the
 * stage times observed when one query ran on it (what `throughput(C)` costs in ODIN's
 * Algorithm 1, line 22), and returns the configuration to install.
 */
export type Rebalancing = Generator<Configuration, Configuration, Float64Array>;

/** What an oracle sees: the per-EP modes of the coming query and the database. */
export interface OracleContext {
  readonly modes: Uint8Array;
  readonly database: CompiledDatabase;
  readonly hopMs: number;
  readonly configuration: Configuration;
  /** The exact optimum for any per-EP modes (cached; do not modify its counts). */
  optimum(modes: Uint8Array): Partition;
}

/**
 * One pipeline-world scheduler. Online schedulers implement `rebalance`; oracles that see
 * the interference directly implement `onModesChange` and pay no trial queries.
 */
export interface PipelineScheduler {
  /** Registry id, e.g. 'odin'. */
  readonly id: string;
  /** Called when the monitor detects a change; null keeps the configuration. */
  rebalance?(context: RebalanceContext): Rebalancing | null;
  /** Called before a query whose per-EP modes differ from the previous query's. */
  onModesChange?(context: OracleContext): Configuration | null;
  /** Changes a parameter on the fly (the lab's α slider); applies from the next phase on. */
  setParameter?(name: string, value: number): void;
  /** The parameters in force (what `setParameter` changes), for snapshots of a run. */
  parameters?(): Readonly<Record<string, number>>;
}

/**
 * Where an algorithm reports its line-by-line steps (the teaching view). `enabled` is read
 * before a step is built, so a sink that is off costs nothing on the hot path.
 */
export interface TraceSink<S> {
  readonly enabled: boolean;
  push(step: S): void;
}
