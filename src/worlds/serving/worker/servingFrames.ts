/**
 * What the serving world's lanes put in a frame: a running lane's new points, live state (the
 * device, each model's queue, slack buckets and forming batch) and learner; a waiting lane's
 * progress (its search, its learner's loading, its catching up); and a running lane's summary.
 */
import type { ServingSummary } from '../engine/metrics';
import { laneReport } from '../scenario/servingRunner';
import type { ReferenceSearches } from './referenceLanes';
import type { ServingLaneFrame, ServingLaneLive, ServingModelLive, ServingSeriesChunk } from './servingProtocol';
import { modelHooks, type Lane } from './servingLanes';
import type { WaitingLane } from './servingLateLanes';
import type { FrameContext } from '../../../worker/worldPlugin';

/** The lane's summary so far: its run's, its decisions' mean time, and its learners' report. */
export function servingLaneSummary(lane: Lane): ServingSummary {
  const report = laneReport(
    lane.inners.map((inner) => inner.report?.()),
    lane.copies,
  );
  const decisionMeanUs = lane.decisions > 0 ? (1000 * lane.decisionMs) / lane.decisions : 0;
  return { ...lane.run.summary(), decisionMeanUs, ...(report === undefined ? {} : { learning: report }) };
}

/** A running lane in a frame, and whether its points replace the page's (its series compacted). */
export function runningLaneFrame(lane: Lane, context: FrameContext): { readonly frame: ServingLaneFrame; readonly replace: boolean } {
  const { nowMs: now, force, transfer } = context;
  const { chunk, replace } = lane.series.takeChunk();
  for (const a of Object.values(chunk)) transfer.push((a as Float64Array).buffer as ArrayBuffer);
  // null before the first decision; 0 when every decision took less than the clock's resolution.
  const decisionUs = lane.decisions > 0 ? (1000 * lane.decisionMs) / lane.decisions : null;
  if (lane.learning === null) return { frame: { points: chunk, live: laneLive(lane), decisionUs }, replace };
  const learning = lane.learning.live(now, decisionUs ?? 0, force);
  transfer.push(...learning.transfer);
  return { frame: { points: chunk, live: laneLive(lane), decisionUs, learning: learning.live }, replace };
}

/**
 * A waiting lane in a frame: no points, no device, how far its search (or its learner's
 * loading, or its catching up) is. `learningError`: why the learners could not start, if they could not.
 */
export function waitingFrame(lane: WaitingLane, searches: Pick<ReferenceSearches, 'plans' | 'progress'>, learningError: string | null): ServingLaneFrame {
  const chase = lane.chase;
  if (lane.waitsFor === 'learner') {
    const learner = chase !== null ? ('ready' as const) : learningError !== null ? ('failed' as const) : ('loading' as const);
    const search = { done: 0, total: 0, replayedMs: chase === null ? null : chase.timeMs, learner, ...(learningError !== null && chase === null ? { error: learningError } : {}) };
    return { points: emptyChunk(), live: null, decisionUs: null, search };
  }
  const done = chase === null ? lane.keys.reduce((sum, key) => sum + (searches.plans.get(key)?.evaluations ?? searches.progress(key)?.done ?? 0), 0) : chase.evaluations;
  return {
    points: emptyChunk(),
    live: null,
    decisionUs: null,
    search: { done, total: lane.total, replayedMs: chase === null ? null : chase.timeMs },
  };
}

/** A lane's live state: the device's memory and compute, each model's instances, queue, slack buckets and forming batch. */
function laneLive(lane: Lane): ServingLaneLive {
  const o = lane.run.observe();
  const now = o.nowMs;
  const models: ServingModelLive[] = o.models.map((m, i) => {
    const { hooks, index } = modelHooks(lane, i);
    const view = hooks.view;
    const atMost = (fraction: number) => (view === null ? 0 : view.queuedWithDeadlineAtMost(index, now + fraction * m.sloMs));
    const late = atMost(0);
    const under25 = atMost(0.25);
    const under50 = atMost(0.5);
    return {
      instances: m.instances,
      busyInstances: m.busyInstances,
      batchSize: m.batchSize,
      queueLength: m.queueLength,
      oldestSlackMs: m.oldestSlackMs,
      slack: { late, under25: under25 - late, under50: under50 - under25, rest: m.queueLength - under50 },
      forming: formingOf(lane.run.formingBatch(i)),
    };
  });
  return {
    memoryUsedMb: o.memoryMb - o.availableMemoryMb,
    memoryTotalMb: o.memoryMb,
    availableCompute: o.availableCompute,
    runningBatches: o.runningBatches,
    models,
  };
}

/** A chunk without points (a lane waiting for its plan): fresh each time, since a frame's buffers move to the page. */
function emptyChunk(): ServingSeriesChunk {
  return {
    endMs: new Float64Array(0),
    slots: new Float64Array(0),
    throughputRps: new Float64Array(0),
    latencyMeanMs: new Float64Array(0),
    utility: new Float64Array(0),
    utilityCount: new Float64Array(0),
    arrivals: new Float64Array(0),
    violations: new Float64Array(0),
    batchSize: new Int32Array(0),
    instances: new Int32Array(0),
  };
}

/** A lane's forming batch as the frame carries it. */
function formingOf(f: { readonly waiting: number; readonly startInMs: number } | null): ServingModelLive['forming'] {
  return f === null ? null : { waiting: f.waiting, startInMs: f.startInMs };
}
