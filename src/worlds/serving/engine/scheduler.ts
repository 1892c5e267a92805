import type { SettledDecision } from './credit';
import type { ModelId, ModelProfile } from './models';

/**
 * The serving world's scheduler interface: BCEdge §IV-B1's MDP, one step per scheduling
 * slot. At each slot boundary the engine hands the scheduler the state s_t and the reward
 * of its previous action (the slot's utility, Eq. 3 and Eq. 6: r_t = U); the scheduler
 * returns the action a_t = (b, m_c) for every model. Learning schedulers (src/agents/, ARCHITECTURE §3) keep
 * (s_t, a_t, r_t, s_t+1) from consecutive calls.
 *
 * Under the `eq1` slot reading (readings.ts, BCEdge §III-A2 Eq. 1) each model has slots of
 * its own: a decision is asked when one or more models' slots end, those models are `due`
 * (ModelObservation.due), their `lastSlot` is the slot that just ended, and the engine
 * applies only their actions (the others' are ignored). A scheduler that decides every model
 * at once stays correct: what it returns for a model not due is dropped. Under `fixed` every
 * model is due at every boundary (`due` absent).
 *
 * Two hooks serve DeepRT, which does not run BCEdge's per-model instances:
 * - `dispatch: 'edf'`: one batch at a time on the whole device, the model with the
 *   earliest queued deadline first (earliest-deadline-first over all requests); the
 *   action's `instances` is then ignored (reported as 1).
 * - `admit`: admission control, asked once per request when it reaches the edge; false
 *   drops it (it counts as an SLO violation, never served).
 */

/** The largest batch size and concurrency the engine accepts (the grid of Fig. 1). */
export const MAX_BATCH_SIZE = 128;
export const MAX_INSTANCES = 8;

/** The discrete action grid of Fig. 1 and §IV-B1 (M batch sizes × N instance counts). */
export const BATCH_SIZES: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128];
export const INSTANCE_COUNTS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** (b, m_c) for one model. */
export interface ModelAction {
  readonly batchSize: number;
  readonly instances: number;
}

/** One action per model, in the order of the run's models. */
export type ServingAction = readonly ModelAction[];

/** What happened to one model during the last slot. */
export interface ModelSlotStats {
  /** Requests that reached the edge. */
  readonly arrivals: number;
  /** Requests served (late ones included). */
  readonly completed: number;
  /** Late completions + failed (OOM) + dropped (admission). */
  readonly violations: number;
  readonly throughputRps: number;
  /** Mean end-to-end latency of the completed requests, ms (0 when none). */
  readonly latencyMeanMs: number;
  /** Eq. 3; null when the model had nothing to do. */
  readonly utility: number | null;
  readonly oomBatches: number;
  /** The slot's length, s (the fixed slot, or under `eq1` the model's own slot: b·SLO/m_c and what it waited); absent in records made before it was kept. */
  readonly seconds?: number;
}

/** The state s_t for one model (BCEdge §IV-B1: model type, input type and shape, SLO, queue). */
export interface ModelObservation {
  readonly model: ModelId;
  readonly profile: ModelProfile;
  readonly sloMs: number;
  /** SLO of the most urgent queued request (requests may carry their own, §III-A1), ms; the model's SLO when the queue is empty (absent: `sloMs`). */
  readonly headSloMs?: number;
  /** Mean input size of the queued requests relative to Table IV's shape (request classes, §IV-B1 (II)); 1 when empty or without classes (absent: 1). */
  readonly inputScaleMean?: number;
  /**
   * Whether this decision is the model's (absent: true): its scheduling slot ends now (slot
   * `eq1`), so its action is applied and `lastSlot` is the slot that just ended. A model not
   * due keeps its action; what is returned for it is ignored.
   */
  readonly due?: boolean | undefined;
  /** Whether the model's service is running (absent: true); out of service its action is ignored and no instance is loaded. */
  readonly inService?: boolean;
  readonly queueLength: number;
  /** Deadline − now of the most urgent queued request, ms; the SLO when the queue is empty. */
  readonly oldestSlackMs: number;
  /** The action in force. */
  readonly batchSize: number;
  readonly instances: number;
  readonly busyInstances: number;
  /** The model's last scheduling slot (its own under `eq1`); null before its first has ended. */
  readonly lastSlot: ModelSlotStats | null;
  /** The profile's batch time alone on this platform for each size of BATCH_SIZES, ms (the profiler's table, §IV-E). */
  readonly isolatedMsByBatch: readonly number[];
  /**
   * Credit `governed` (readings.ts): the index of the model's decision made now (0 at time 0;
   * absent under credit `slot`).
   */
  readonly decision?: number;
  /**
   * Credit `governed`: the model's earlier decisions whose governed requests have all finished
   * since its last decision, each with its reward (credit.ts); empty for a model not due.
   * A learner stores a decision's transition when it settles, not when its slot ends.
   */
  readonly settled?: readonly SettledDecision[];
}

/** The state s_t of the whole device at a slot boundary. */
export interface ServingObservation {
  /** Index of the slot about to start (0 for the initial decision); under `eq1`, of the reporting interval under way. */
  readonly slot: number;
  readonly nowMs: number;
  /** The fixed slot, or under `eq1` the reporting interval, ms (assumptions.ts `slotMs`). */
  readonly slotMs: number;
  readonly models: readonly ModelObservation[];
  /** Memory not in use now (BCEdge §IV-B1 (IV), §IV-F), MB. */
  readonly availableMemoryMb: number;
  readonly memoryMb: number;
  /** Memory that no action moves: reserved by the system + held by background workloads, MB. */
  readonly staticMemoryMb: number;
  /** 1 − GPU demand of what runs now (background included), clamped at 0. */
  readonly availableCompute: number;
  /** Batches running now. */
  readonly runningBatches: number;
  /** r_t for the previous action: mean utility over the (due) models with one; null at slot 0 or when none. */
  readonly reward: number | null;
}

/** A request reaching the edge, as admission control sees it. */
export interface AdmissionRequest {
  /** Index of the model in the run. */
  readonly model: number;
  /** When the device sent it, ms. */
  readonly sentMs: number;
  readonly sloMs: number;
  /** sentMs + sloMs. */
  readonly deadlineMs: number;
}

/** What admission control may consult (the profiler's view, BCEdge §IV-E). */
export interface AdmissionView {
  readonly nowMs: number;
  readonly modelCount: number;
  /** The profiled batch time alone on this platform, ms (no contention: a profile). */
  isolatedBatchMs(model: number, batch: number): number;
  /** The batch size in force for a model. */
  batchSize(model: number): number;
  /** Queued requests of a model whose deadline is at most `deadlineMs`. */
  queuedWithDeadlineAtMost(model: number, deadlineMs: number): number;
  /** Profile-predicted time until the running batches finish (max over them, ≥ 0), ms. */
  readonly runningRemainingMs: number;
  /** Time to return a result of the model to the device (t_o of Eq. 2), ms. */
  returnMs(model: number): number;
}

export type DispatchPolicy = 'instances' | 'edf';

/**
 * What the profiler (BCEdge §IV-E) records of one batch: the device as the batch found it
 * when it started, and how long its inference took. The interference predictor (§IV-F)
 * learns from these.
 */
export interface BatchObservation {
  /** Index of the model in the run. */
  readonly model: number;
  readonly batchSize: number;
  /** Free memory share when it started (before its own activations). */
  readonly availableMemory: number;
  /** Free GPU share when it started (1 − demand of what ran, background included; may be < 0 when oversubscribed). */
  readonly availableCompute: number;
  /** Batches running when it started (itself excluded). */
  readonly runningBatches: number;
  /** Model instances loaded on the device when it started (all models). */
  readonly concurrentInstances: number;
  /** Its time alone on the platform (the profile), ms. */
  readonly isolatedMs: number;
  /** Its measured inference time, ms (interference included). */
  readonly inferenceMs: number;
}

/** One serving-world scheduler. */
export interface ServingScheduler {
  /** Registry id, e.g. 'fixed'. */
  readonly id: string;
  /** How batches reach the GPU; default 'instances'. */
  readonly dispatch?: DispatchPolicy;
  /** Called at time 0 and at every slot boundary (under `eq1`, whenever a model's slot ends); returns one action per model. */
  decide(observation: ServingObservation): ServingAction;
  /**
   * Optional, for a scheduler whose decision reads nothing of the state but the time (a
   * reference lane's plan replayed by its search, reference.ts): the action `decide` would
   * return at `nowMs`. The engine then calls it instead of `decide` and builds no observation
   * (about a tenth of a search's run, issue 38); it must give the same actions. The engine
   * reads the action and keeps none of it, so it may be the scheduler's own, not a copy.
   */
  actionAt?(nowMs: number): ServingAction;
  /**
   * Called right after each `decide`: learning schedulers train here, so that a decision's
   * wall-clock time (BCEdge Fig. 16) is the inference alone.
   */
  learn?(): void;
  /** When present, the engine reports every finished batch (the profiler's records). */
  observeBatch?(batch: BatchObservation): void;
  /** What the scheduler adds to its lane's summary (the learners' statistics), as plain JSON. */
  report?(): Readonly<Record<string, unknown>>;
  /** Frees what the scheduler holds outside the JS heap (a learner's tensors); the engine never calls it, its owner does. */
  dispose?(): void;
  /** Admission control; absent = admit everything. */
  admit?(request: AdmissionRequest, view: AdmissionView): boolean;
  /**
   * Its state for a checkpoint of the run (ARCHITECTURE §7a), copied: `restore` puts it back
   * so that the scheduler decides on as it did. A scheduler without state returns null;
   * absent, or undefined returned (a learner whose state cannot be copied), its lane goes
   * back in time by replaying from time 0.
   */
  snapshot?(): unknown;
  restore?(state: unknown): void;
}

/** Whether an action is valid for `modelCount` models (integers in 1..MAX). */
export function isValidAction(action: ServingAction, modelCount: number): boolean {
  if (action.length !== modelCount) return false;
  for (const a of action) {
    if (!Number.isInteger(a.batchSize) || a.batchSize < 1 || a.batchSize > MAX_BATCH_SIZE) return false;
    if (!Number.isInteger(a.instances) || a.instances < 1 || a.instances > MAX_INSTANCES) return false;
  }
  return true;
}

/**
 * A scheduler whose decisions pass through `decide(observation, innerDecide)` (timing,
 * overrides) and whose other hooks are the inner scheduler's, bound to it.
 */
export function wrapDecide(
  inner: ServingScheduler,
  decide: (observation: ServingObservation, innerDecide: (o: ServingObservation) => ServingAction) => ServingAction,
  admit?: (request: AdmissionRequest, view: AdmissionView, innerAdmit: ((r: AdmissionRequest, v: AdmissionView) => boolean) | undefined) => boolean,
): ServingScheduler {
  const innerDecide = inner.decide.bind(inner);
  const innerAdmit = inner.admit?.bind(inner);
  const wrapped: { -readonly [K in keyof ServingScheduler]: ServingScheduler[K] } = {
    id: inner.id,
    decide: (observation) => decide(observation, innerDecide),
  };
  if (inner.dispatch !== undefined) wrapped.dispatch = inner.dispatch;
  if (admit !== undefined) wrapped.admit = (request, view) => admit(request, view, innerAdmit);
  else if (innerAdmit !== undefined) wrapped.admit = innerAdmit;
  if (inner.learn !== undefined) wrapped.learn = inner.learn.bind(inner);
  if (inner.observeBatch !== undefined) wrapped.observeBatch = inner.observeBatch.bind(inner);
  if (inner.dispose !== undefined) wrapped.dispose = inner.dispose.bind(inner);
  if (inner.report !== undefined) wrapped.report = inner.report.bind(inner);
  if (inner.snapshot !== undefined) wrapped.snapshot = inner.snapshot.bind(inner);
  if (inner.restore !== undefined) wrapped.restore = inner.restore.bind(inner);
  return wrapped;
}
