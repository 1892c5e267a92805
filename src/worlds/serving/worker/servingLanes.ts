/**
 * The serving world's running lanes: how one is built (its schedulers, one per device copy,
 * wrapped with the session's hooks, and its learners) and what it records at each slot's end
 * (its series and learning curves).
 */
import type { AdmissionView, ModelAction, ServingScheduler } from '../engine/scheduler';
import { wrapDecide } from '../engine/scheduler';
import type { ServingRunSpec } from '../engine/spec';
import type { LaneRun } from '../scenario/deviceCopies';
import type { ServingScenario } from '../schema';
import { buildLaneRun, servingLaneParameters } from '../scenario/servingRunner';
import { LearningScheduler } from '../agents/learningScheduler';
import type { ReferenceResult } from '../schedulers/reference';
import { isLearningScheduler, SERVING_SCHEDULERS, servingLaneLabel, servingSchedulerContext, type LearningFactory } from '../schedulers/registry';
import { LearningLane } from './learningLane';
import type { ServingLaneInfo } from './servingProtocol';
import { ServingSeries } from './servingSeries';

/** What a lane's scheduler wrapper shares with the session. */
export interface LaneHooks {
  /** Per-model actions set by the page (fixed lanes only); null = the scheduler's own. */
  readonly overrides: (ModelAction | null)[] | null;
  /** The engine's admission view, captured at the first request (its getters read live state). */
  view: AdmissionView | null;
}

/**
 * A lane that runs with the others. Where the scenario serves its models apart (BCEdge §V-D's
 * Nano and TX2, worlds/serving/scenario/deviceCopies.ts) its run is the device copies, with one scheduler,
 * one set of hooks and (learning lanes) one learner per copy.
 */
export interface Lane {
  readonly kind: 'running';
  info: ServingLaneInfo;
  /** The schedulers as built (before the session's wrapper), one per device copy (one when shared), disposed with the lane. */
  readonly inners: readonly ServingScheduler[];
  /**
   * Present for learning lanes: the learner of the first device copy (the only one when the
   * device is shared), whose curve, policy and agent the page shows, exports and explains.
   */
  readonly learning: LearningLane | null;
  /** Every copy's learner (`learning` first): each records its slots and takes a loaded agent. */
  readonly learnings: readonly LearningLane[];
  /** Wall-clock time of the lane's decisions, ms, and their number (Fig. 16). */
  decisionMs: number;
  decisions: number;
  readonly run: LaneRun;
  /** The copies' specs, or null when the models share the device. */
  readonly copies: readonly ServingRunSpec[] | null;
  readonly series: ServingSeries;
  /** The hooks of each copy's scheduler (one when the device is shared). */
  readonly hooks: readonly LaneHooks[];
  /** The action in force during the slot under way. */
  action: readonly ModelAction[];
}

/** Where model `m` of a lane is decided: its copy's hooks and its index there. */
export function modelHooks(lane: Pick<Lane, 'copies' | 'hooks'>, m: number): { readonly hooks: LaneHooks; readonly index: number } {
  return lane.copies === null ? { hooks: lane.hooks[0]!, index: m } : { hooks: lane.hooks[m]!, index: 0 };
}

/**
 * Wraps a lane's scheduler: per-model overrides on top of its decisions (the page's sliders
 * for a fixed lane, applied at the next slot boundary, where the engine asks for a
 * decision), and an `admit` that captures the engine's admission view for the live slack
 * buckets. Without an own `admit`, the wrapper admits everything, as the engine does.
 */
function wrapScheduler(inner: ServingScheduler, hooks: LaneHooks, timing: { now(): number; add(ms: number): void }): ServingScheduler {
  return wrapDecide(
    inner,
    (observation, decide) => {
      const t0 = timing.now();
      const action = decide(observation);
      timing.add(timing.now() - t0);
      const overrides = hooks.overrides;
      return overrides === null ? action : action.map((a, m) => overrides[m] ?? a);
    },
    (request, view, admit) => {
      hooks.view = view;
      return admit === undefined ? true : admit(request, view);
    },
  );
}

/** Lane `index` as `scenario` has it (live settings not applied). */
export function servingLaneInfo(scenario: ServingScenario, index: number): ServingLaneInfo {
  const l = scenario.serving.lanes[index]!;
  const params = servingLaneParameters(l);
  return {
    index,
    scheduler: l.scheduler,
    label: servingLaneLabel(l.scheduler, params),
    params,
    configurable: l.scheduler === 'fixed',
    learning: isLearningScheduler(l.scheduler),
  };
}

/** What the lanes are built from: the run, the scenario's seed, the learners' builder and the clock that times decisions. */
export interface LaneBuild {
  /** The engine's spec of the scenario. */
  readonly spec: ServingRunSpec;
  /** The specs of its device copies when it serves its models apart (worlds/serving/scenario/deviceCopies.ts), else null. */
  readonly copies: readonly ServingRunSpec[] | null;
  readonly seed: number;
  readonly learningFactory: LearningFactory | null;
  /** Wall-clock ms. */
  now(): number;
}

/** Builds a lane at time 0 (a reference lane with its plans, found before: one per device copy). */
export function buildLane(info: ServingLaneInfo, build: LaneBuild, referenceResults?: readonly ReferenceResult[]): Lane {
  const spec = { ...build.spec, seriesCap: 2 };
  const copies = build.copies?.map((c) => ({ ...c, seriesCap: 2 })) ?? null;
  const models = spec.models.map((m) => m.model);
  const lane: Pick<Lane, 'decisionMs' | 'decisions'> = { decisionMs: 0, decisions: 0 };
  const timing = {
    now: () => build.now(),
    add: (ms: number) => {
      lane.decisionMs += ms;
      lane.decisions++;
    },
  };
  const inners: ServingScheduler[] = [];
  const hooks: LaneHooks[] = [];
  const run = buildLaneRun(
    spec,
    copies,
    (own, i) => {
      const ownModels = own.models.map((m) => m.model);
      const context = servingSchedulerContext(build.seed, ownModels, build.learningFactory ?? undefined, own);
      const referenceResult = referenceResults?.[i];
      const inner = SERVING_SCHEDULERS[info.scheduler as keyof typeof SERVING_SCHEDULERS].create(info.params, referenceResult === undefined ? context : { ...context, referenceResult });
      inners.push(inner);
      const h: LaneHooks = { overrides: info.scheduler === 'fixed' ? ownModels.map(() => null) : null, view: null };
      hooks.push(h);
      return wrapScheduler(inner, h, timing);
    },
    () => {
      for (const inner of inners) inner.dispose?.();
    },
  );
  const learnings = inners.flatMap((inner) => (inner instanceof LearningScheduler ? [new LearningLane(inner)] : []));
  return Object.assign(lane, {
    kind: 'running' as const,
    info,
    inners,
    learning: learnings[0] ?? null,
    learnings,
    run,
    copies,
    series: new ServingSeries(models.length),
    hooks,
    action: run.currentAction,
  });
}

/**
 * Slot `slot`, [startMs, endMs], has ended on `lane`: its point in the series (closed when the
 * run ends with it), the learners' slot records, and the action in force for the next slot.
 */
export function recordSlot(lane: Lane, slot: number, startMs: number, endMs: number, runEnded: boolean): void {
  // The reporting interval's numbers (under slot `eq1` the models' own scheduling slots differ from it).
  const interval = lane.run.lastIntervalStats;
  const samples = lane.action.map((a, i) => {
    const s = interval?.[i];
    return {
      arrivals: s?.arrivals ?? 0,
      completed: s?.completed ?? 0,
      latencyMeanMs: s?.latencyMeanMs ?? 0,
      utility: s?.utility ?? null,
      violations: s?.violations ?? 0,
      batchSize: a.batchSize,
      instances: a.instances,
    };
  });
  lane.series.add(startMs, endMs, samples);
  if (runEnded) lane.series.flush();
  for (const learning of lane.learnings) learning.recordSlot(slot);
  lane.action = lane.run.currentAction;
}
