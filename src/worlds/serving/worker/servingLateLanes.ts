/**
 * The serving world's lanes built late (ARCHITECTURE §3): a reference lane waits for its
 * search, a learning lane for TensorFlow.js, while the others run; then it is built, run from
 * time 0 up to them with the live edits at their times (it chases them), and joins them.
 */
import type { ServingRunSpec } from '../engine/spec';
import { referenceSearchBound, type ReferenceResult } from '../schedulers/reference';
import { SERVING_SCHEDULERS, type LearningFactory, type ServingSchedulerId } from '../schedulers/registry';
import { TICK_BUDGET_MS } from '../../../worker/liveLoop';
import { referencePlanKey, ReferenceSearches, type SearchRequest, type SearchWorkerPort } from './referenceLanes';
import type { ServingEdit } from './servingEdits';
import type { Lane } from './servingLanes';
import type { ServingLaneInfo } from './servingProtocol';
import type { SessionContext } from '../../../worker/worldPlugin';
import type { SessionTypes } from '../../../kit/worldTypes';

/**
 * A lane not drawn yet (ARCHITECTURE §3): a reference lane whose search runs beside the run
 * (`waitsFor: 'plan'`), or a learning lane whose TensorFlow.js (and shipped agent) loads beside
 * it (`'learner'`). Once its plan or its learner is at hand the lane is built and run from time
 * 0 up to the others (`chase`), then it joins them: the other lanes do not wait for it.
 */
export interface WaitingLane {
  readonly kind: 'waiting';
  readonly waitsFor: 'plan' | 'learner';
  readonly info: ServingLaneInfo;
  /** Its plan's key (`referencePlanKey`): one per device copy where the models are served apart, each searched on its copy. */
  readonly keys: readonly string[];
  /** The most evaluations its search can take (`referenceSearchBound`). */
  readonly total: number;
  chase: Chase | null;
}

/** A lane built late, being run up to the others' time with the live edits at their times. */
export interface Chase {
  readonly lane: Lane;
  timeMs: number;
  slot: number;
  /** The evaluations its search took. */
  readonly evaluations: number;
  /** The live edits it has had. */
  readonly applied: Set<ServingEdit>;
  /** How far behind the others it was when its last slice began, ms (a chase that does not gain finishes in one go). */
  behindMs: number;
}

export type AnyLane = Lane | WaitingLane;

/** What a lane not drawn yet waits for, in words. */
export function waitingFor(lane: AnyLane): string {
  return lane.kind === 'waiting' && lane.waitsFor === 'learner' ? 'is waiting for TensorFlow.js' : 'is still searching';
}

/** Frees a lane's learners (tensors are not garbage-collected), a lane catching up's included. */
export function disposeLane(lane: AnyLane | undefined): void {
  for (const inner of (lane?.kind === 'running' ? lane : lane?.chase?.lane)?.inners ?? []) inner.dispose?.();
}

/**
 * Wall-clock pause between two slices of the reference lanes' work, ms: as the sweeps'
 * (`servingSweeps.ts`), the live run's ticks and the page's calls come first.
 */
const REFERENCE_SLICE_GAP_MS = 4;

/** How a lane catching up runs: in the world's slots, with its live edits. */
export interface ChaseSteps {
  /** Where slot `slot` ends, ms. */
  slotEnd(slot: number): number;
  /** One stretch of `lanes` in slot `slot` toward `target` (the world's); gives the slot under way after it. */
  stretch(lanes: readonly Lane[], slot: number, target: number): number;
  /** Every live edit of the run, in time order. */
  edits(): readonly ServingEdit[];
  /** A live edit on one lane. */
  applyEditTo(lane: Lane, edit: ServingEdit): void;
}

/** A chase of `lane`, built at time 0, from there. */
function chaseFrom0(lane: Lane, evaluations: number, behindMs: number): Chase {
  return { lane, timeMs: 0, slot: 0, evaluations, applied: new Set(), behindMs };
}

/**
 * Applies to a lane catching up the live edits made up to where it is (and before `beforeMs`),
 * in the order the session applies them.
 */
function applyDue(chase: Chase, steps: ChaseSteps, beforeMs = Number.POSITIVE_INFINITY): void {
  for (const edit of steps.edits()) {
    if (edit.atMs > chase.timeMs || edit.atMs >= beforeMs || chase.applied.has(edit)) continue;
    chase.applied.add(edit);
    steps.applyEditTo(chase.lane, edit);
  }
}

/** Where the next live edit a lane catching up has not had lies (Infinity when none). */
function nextEditFor(chase: Chase, steps: ChaseSteps): number {
  let next = Number.POSITIVE_INFINITY;
  for (const edit of steps.edits()) if (!chase.applied.has(edit) && edit.atMs > chase.timeMs && edit.atMs < next) next = edit.atMs;
  return next;
}

/** One stretch of a lane catching up, toward `stop`, as the session runs the others'. */
function stretchChase(chase: Chase, stop: number, steps: ChaseSteps): void {
  chase.timeMs = Math.min(steps.slotEnd(chase.slot), stop);
  chase.slot = steps.stretch([chase.lane], chase.slot, stop);
}

/**
 * Runs a lane built at time 0 to `timeMs` (slot `slot` under way), stretch by stretch as the
 * session runs them, with the live edits made before `timeMs` (those made at it are the
 * session's to apply, after the restore): the lane a replay from 0 would give.
 */
function replayLaneTo(lane: Lane, timeMs: number, slot: number, steps: ChaseSteps): Lane {
  const chase = chaseFrom0(lane, 0, 0);
  for (;;) {
    applyDue(chase, steps, timeMs);
    if (chase.timeMs === timeMs && chase.slot === slot) return lane;
    stretchChase(chase, Math.min(timeMs, nextEditFor(chase, steps)), steps);
  }
}

/** What the late lanes ask of the serving world. */
export interface LateLanesWorld extends ChaseSteps {
  /** Every lane, in the scenario's order: a lane that has caught up takes its waiting one's place. */
  lanes(): AnyLane[];
  /** Where the others are: the time, ms, and the slot under way. */
  at(): { readonly timeMs: number; readonly slot: number };
  /** The learners' builder, null while TensorFlow.js is not at hand. */
  learningFactory(): LearningFactory | null;
  /** The world's session: the wall clock, its own work between the loop's ticks, frames. */
  session(): Pick<SessionContext<SessionTypes>, 'now' | 'schedule' | 'background' | 'report'>;
  /** Builds a lane at time 0 (a reference lane with its plans, one per device copy). */
  buildLane(info: ServingLaneInfo, plans?: readonly ReferenceResult[]): Lane;
  /** Lanes joined the others: the next frame carries every lane's points again. */
  joined(): void;
}

/**
 * The lanes built late and their work: the reference lanes' searches (`ReferenceSearches`, for
 * as long as the worker lives: a rebuild takes a plan found and does not search again) and the
 * chases of the lanes whose plan or learner is at hand, in slices between the live run's ticks.
 */
export class LateLanes {
  /** The reference lanes' searches and the plans found, kept across loads. */
  readonly searches: ReferenceSearches;
  /** A slice of the reference lanes' work is scheduled. */
  private sliceDue = false;

  /** `searchPort`: a worker of its own for the reference searches (the page's); without one they run here in slices. */
  constructor(
    private readonly world: LateLanesWorld,
    searchPort: SearchWorkerPort | null,
  ) {
    this.searches = new ReferenceSearches(undefined, searchPort);
    this.searches.listen((found) => {
      if (found !== null) this.planFound(found);
      this.sliceLater();
      this.world.session().report(false);
    });
  }

  /**
   * The lanes of a run at time 0, one per `infos`, each device copy's spec in `specs` (the run's
   * alone when the models share the device). A lane runs at once when it can: a learning lane
   * waits for TensorFlow.js, a reference lane whose plans are not all known for its searches,
   * which go on where they were if they were under way.
   */
  start(infos: readonly ServingLaneInfo[], specs: readonly ServingRunSpec[]): AnyLane[] {
    const requests: SearchRequest[] = [];
    const lanes = infos.map((info): AnyLane => {
      // A learner whose TensorFlow.js is still loading joins once it is here.
      if (info.learning && this.world.learningFactory() === null) return { kind: 'waiting', waitsFor: 'learner', info, keys: [], total: 0, chase: null };
      const search = SERVING_SCHEDULERS[info.scheduler as ServingSchedulerId].reference;
      if (search === undefined) return this.world.buildLane(info);
      const searchParams = search.params(info.params);
      // Each device copy searches its own plan on its own run (as the command line does).
      const keys = specs.map((own) => referencePlanKey(search.kind, own, searchParams));
      const plans = keys.map((key) => this.searches.plans.get(key));
      if (plans.every((plan) => plan !== undefined)) return this.world.buildLane(info, plans as ReferenceResult[]);
      specs.forEach((own, i) => {
        if (plans[i] === undefined) requests.push({ key: keys[i]!, search, spec: own, params: searchParams });
      });
      const total = specs.reduce((sum, own) => sum + referenceSearchBound(search.kind, own, searchParams), 0);
      return { kind: 'waiting', waitsFor: 'plan', info, keys, total, chase: null };
    });
    this.searches.want(requests);
    return lanes;
  }

  /** `lane`, built at time 0, run to `timeMs` (slot `slot` under way) with the live edits made before it (`replayLaneTo`). */
  replayTo(lane: Lane, timeMs: number, slot: number): Lane {
    return replayLaneTo(lane, timeMs, slot, this.world);
  }

  /** After a restore: lanes whose plan (or learner) is known by now catch up from time 0; the others wait for their search (or TensorFlow.js). */
  restored(): void {
    for (const key of new Set(this.world.lanes().flatMap((l) => (l.kind === 'waiting' ? l.keys : [])))) if (this.searches.plans.get(key) !== undefined) this.planFound(key);
    if (this.world.learningFactory() !== null) this.learnersReady();
  }

  /** Schedules a slice of the reference lanes' work, if there is some and none is scheduled. */
  sliceLater(): void {
    if (this.sliceDue || !(this.searches.busy || this.world.lanes().some((l) => l.kind === 'waiting' && l.chase !== null))) return;
    this.sliceDue = true;
    const session = this.world.session();
    const later = () => session.schedule(() => this.slice(), REFERENCE_SLICE_GAP_MS);
    // Background work: the first frame of a run goes out before the searches start (BackgroundGate).
    if (session.background === undefined) later();
    else session.background(later);
  }

  /**
   * The reference lanes' work for at most TICK_BUDGET_MS: lanes whose plan is known catch up
   * first (they are the nearest to being drawn), then the searches, one step at a time. A
   * lane that catches up joins the others at once, in the same task, so the run cannot move
   * in between; the frame after it carries every lane's points again (a lane built late has
   * compacted its series on its own).
   */
  private slice(): void {
    this.sliceDue = false;
    const session = this.world.session();
    const startMs = session.now();
    let joined = false;
    let searched = false;
    do {
      const lanes = this.world.lanes();
      const chasing = lanes.find((l): l is WaitingLane => l.kind === 'waiting' && l.chase !== null);
      if (chasing !== undefined) {
        if (this.chaseStep(chasing.chase!, startMs)) {
          lanes[chasing.info.index] = chasing.chase!.lane;
          joined = true;
        }
        continue;
      }
      if (!this.searches.busy) break;
      searched = true;
      const found = this.searches.step();
      if (found !== null) this.planFound(found);
    } while (session.now() - startMs < TICK_BUDGET_MS);
    if (joined) this.world.joined();
    if (joined || searched) session.report(joined);
    this.sliceLater();
  }

  /** A search finished: the lanes that waited for it are built with its plan and start catching up. */
  private planFound(key: string): void {
    for (const lane of this.world.lanes()) {
      if (lane.kind !== 'waiting' || !lane.keys.includes(key) || lane.chase !== null) continue;
      // A lane of device copies starts once every copy's plan is known.
      const plans = lane.keys.map((k) => this.searches.plans.get(k));
      if (!plans.every((plan) => plan !== undefined)) continue;
      const evaluations = (plans as ReferenceResult[]).reduce((sum, plan) => sum + plan.evaluations, 0);
      lane.chase = chaseFrom0(this.world.buildLane(lane.info, plans as ReferenceResult[]), evaluations, Number.POSITIVE_INFINITY);
    }
  }

  /** TensorFlow.js is here: the learning lanes that waited for it are built and start catching up. */
  learnersReady(): void {
    for (const lane of this.world.lanes()) {
      if (lane.kind !== 'waiting' || lane.waitsFor !== 'learner' || lane.chase !== null) continue;
      lane.chase = chaseFrom0(this.world.buildLane(lane.info), 0, Number.POSITIVE_INFINITY);
    }
    this.sliceLater();
  }

  /**
   * Runs a lane built late toward the others' time, stretch by stretch as the session runs
   * them (ARCHITECTURE §1: the live edits due applied before and after each stretch, a stretch
   * stopping at the next one), until the time started with plus the budget; true once it is
   * where they are. A chase that did not gain on them since its last slice (the run plays as
   * fast as the lane alone runs) finishes in one go.
   */
  private chaseStep(chase: Chase, sliceStartMs: number): boolean {
    const { timeMs, slot } = this.world.at();
    const inStep = () => chase.timeMs === timeMs && chase.slot === slot;
    // The run goes back only by a rebuild, which drops the lanes that were catching up.
    if (chase.timeMs > timeMs) throw new RangeError(`a lane catching up is at ${chase.timeMs} ms, past the run's ${timeMs} ms`);
    const behind = timeMs - chase.timeMs;
    const gaining = behind < chase.behindMs;
    chase.behindMs = behind;
    for (;;) {
      applyDue(chase, this.world);
      if (inStep()) return true;
      stretchChase(chase, Math.min(timeMs, nextEditFor(chase, this.world)), this.world);
      if (gaining && this.world.session().now() - sliceStartMs >= TICK_BUDGET_MS) break;
    }
    applyDue(chase, this.world);
    return inStep();
  }
}
