/**
 * The serving world's checkpoints (ARCHITECTURE §7a): what one holds per lane, how a lane is
 * copied into one and put back from it, and how many the world keeps, how far apart.
 */
import type { ModelAction } from '../engine/scheduler';
import type { LaneRunSnapshot } from '../scenario/deviceCopies';
import type { LearningLaneSnapshot } from './learningLane';
import type { ServingLaneInfo } from './servingProtocol';
import type { ServingSeriesSnapshot } from './servingSeries';
import type { Lane } from './servingLanes';
import type { AnyLane } from './servingLateLanes';
import type { TimeTravel } from '../../../worker/worldPlugin';

/**
 * A lane as a checkpoint holds it: the lane object (alive as long as the run is, since only
 * a new run disposes lanes) and its copied state. `state` is null for a lane that waited for
 * its plan then (it waits again, or catches up from time 0, after a restore).
 */
interface LaneCheckpoint {
  readonly lane: AnyLane;
  readonly state: LaneState | null;
}

/** What a running lane holds that changes as it runs, copied. */
interface LaneState {
  readonly run: LaneRunSnapshot;
  /** Each device copy's scheduler's state; null when one of them cannot be copied (the lane is replayed from 0 on restore). */
  readonly schedulers: readonly unknown[] | null;
  readonly info: ServingLaneInfo;
  readonly overrides: readonly ((ModelAction | null)[] | null)[];
  readonly action: readonly ModelAction[];
  readonly decisions: number;
  readonly decisionMs: number;
  readonly series: ServingSeriesSnapshot;
  readonly learnings: readonly LearningLaneSnapshot[];
}

/** A checkpoint of the serving world: the time, the slot under way and every lane. */
export interface ServingCheckpoint {
  readonly timeMs: number;
  readonly slot: number;
  readonly lanes: readonly LaneCheckpoint[];
}

/**
 * Checkpoint spacing at first, simulated ms (ARCHITECTURE §7a); after `CHECKPOINT_FIT_AFTER`
 * checkpoints the spacing is fitted to the run's length and the budget below (`CheckpointLog`).
 * A seek replays at most one spacing from the checkpoint before its target: a run with a BCEdge
 * lane replays a simulated second in 10–18 ms on two shared cores (up to 36 ms when they are
 * loaded).
 */
export const SERVING_CHECKPOINT_EVERY_MS = 10_000;
/** The most checkpoints kept (the spacing doubles past it): a 3000 s run at 10 s apart, if the budget allows. */
export const SERVING_CHECKPOINTS_MAX = 300;
/**
 * What the checkpoints may hold together, bytes (256 MB; the spacing is fitted to it, and
 * doubles past it). A BCEdge lane's checkpoint holds about 1.05 MB of its own: SAC's networks
 * and Adam's moments (0.67 MB), the interference predictor (0.2 MB: its record ring, network,
 * Adam state and error windows), the engine (0.1 MB: requests in flight, batches, latency
 * sketches) and the replay buffer's chunk it was filling (the full chunks and the series'
 * points are shared with the checkpoints before); a fixed lane's about 0.1 MB, its engine. On
 * the 3000 s bcedge-dynamic run with a Triton and a BCEdge lane the fitted spacing is 15 s
 * (229 MB at the end); more learning lanes or device copies fit a wider one.
 */
export const SERVING_CHECKPOINT_BUDGET_BYTES = 256 * 1024 * 1024;

/** How the serving world keeps its checkpoints. */
export interface ServingCheckpointPolicy {
  readonly everyMs: number;
  readonly max: number;
  readonly budgetBytes: number;
}

export const SERVING_CHECKPOINT_POLICY: ServingCheckpointPolicy = {
  everyMs: SERVING_CHECKPOINT_EVERY_MS,
  max: SERVING_CHECKPOINTS_MAX,
  budgetBytes: SERVING_CHECKPOINT_BUDGET_BYTES,
};

/**
 * How the serving world goes back in time: by checkpoints taken by `snapshot` and put back by
 * `restore`, with `SERVING_CHECKPOINT_POLICY`'s spacing, count and budget unless `checkpoints`
 * says otherwise (tests and the bench change them).
 */
export function servingTimeTravel(
  checkpoints: Partial<ServingCheckpointPolicy>,
  world: { snapshot(): ServingCheckpoint; restore(checkpoint: ServingCheckpoint): void },
): TimeTravel<ServingCheckpoint> {
  const policy = { ...SERVING_CHECKPOINT_POLICY, ...checkpoints };
  return {
    by: 'checkpoints',
    every: policy.everyMs,
    max: policy.max,
    budget: { bytes: policy.budgetBytes, held: (c) => c.lanes.map((l) => l.state) },
    snapshot: () => world.snapshot(),
    restore: (c) => world.restore(c),
  };
}

/**
 * A lane in a checkpoint (ARCHITECTURE §7a): a running lane with its run (`LaneRun.snapshot`),
 * each device copy's scheduler (learners with their networks, optimizer, replay buffer and
 * random stream), the page's overrides, the action in force, the decision counters, the series
 * and the learning curve; a lane waiting for its plan is kept as waiting.
 */
export function laneCheckpoint(lane: AnyLane): LaneCheckpoint {
  if (lane.kind === 'waiting') return { lane, state: null };
  const schedulers = lane.inners.map((inner) => inner.snapshot?.());
  return {
    lane,
    state: {
      run: lane.run.snapshot(),
      schedulers: schedulers.some((x) => x === undefined) ? null : schedulers,
      info: lane.info,
      overrides: lane.hooks.map((h) => h.overrides?.map((o) => (o === null ? null : { ...o })) ?? null),
      action: lane.action.map((a) => ({ ...a })),
      decisions: lane.decisions,
      decisionMs: lane.decisionMs,
      series: lane.series.snapshot(),
      learnings: lane.learnings.map((l) => l.snapshot()),
    },
  };
}

/** Puts `lane` back as `state` holds it; `schedulers` are `state`'s, every device copy's scheduler's state (none missing). */
export function restoreLane(lane: Lane, state: LaneState, schedulers: readonly unknown[]): Lane {
  lane.run.restore(state.run);
  schedulers.forEach((s, i) => lane.inners[i]!.restore!(s));
  lane.info = state.info;
  state.overrides.forEach((o, i) => {
    const hooks = lane.hooks[i]!;
    if (o !== null && hooks.overrides !== null) o.forEach((x, m) => (hooks.overrides![m] = x === null ? null : { ...x }));
  });
  lane.action = state.action.map((a) => ({ ...a }));
  lane.decisions = state.decisions;
  lane.decisionMs = state.decisionMs;
  lane.series.restore(state.series);
  state.learnings.forEach((l, i) => lane.learnings[i]!.restore(l));
  return lane;
}
