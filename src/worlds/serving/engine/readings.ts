import type { LatencyProfileId } from './models';

// The readings of BCEdge that change the serving world's results, as plain constants (no
// engine code), so that the scenario's migrations and the page's panels read them without
// loading the engine.

/**
 * How a batch forms (BCEdge §I: "aggregating arriving requests into a batch within a given
 * time window … The more requests in a batch, the longer the waiting time"; §III-A1:
 * seq_b = {r_1 … r_b}, with a queueing time t_w that grows with b).
 * - `form` (the paper's reading): an instance that is free waits for its batch of b. It
 *   dispatches as soon as b requests wait, or earlier, with the k < b that wait, at the
 *   last moment that still lets the most urgent of them meet its SLO: when
 *   now + t_s(k) + t_iso(k) + t_o = its deadline, with t_iso the batch's time alone on the
 *   device (the profiler's table, §IV-E; the batcher cannot know the contention to come).
 *   t_w is then the time from a request's arrival at the edge to its batch's start.
 * - `cap` (the earlier reading): b is a cap; a free instance takes up to b waiting
 *   requests at once (Triton's dynamic batcher with `max_queue_delay` 0).
 * DeepRT's EDF executor keeps its own dispatch under both (it batches what waits).
 */
export type BatchingReading = 'form' | 'cap';

/**
 * The T of Eq. 3, T_{t_i}(b, m_c): the throughput of the configuration.
 * - `configuration` (the paper's reading; Figs. 1 and 12 report it as the configuration's):
 *   the rate the configuration serves while busy, m_c × (requests of the batches completed
 *   in the slot) / (their instance-busy time, t_s + t_m): what the action delivers when its
 *   instances are kept busy, under the interference they met. It equals the closed-loop
 *   rate of the configuration in steady state.
 * - `completed` (the earlier reading): requests completed in the slot per second, which
 *   equals the offered load whenever the device keeps up.
 */
export type ThroughputTermReading = 'configuration' | 'completed';

/**
 * Eq. 4's constraint L_i ≤ SLO_i on the objective.
 * - `withinSlo` (the paper's reading): U is taken over the requests that meet their SLO:
 *   U + ln(share of the slot's judged requests served within their SLO), floored at the
 *   stalled utility (a slot that meets no SLO is as bad as a stall). A penalty, not a mask:
 *   every action stays open, violating ones pay.
 * - `utility` (the earlier reading): U alone (Eq. 3), the constraint left to the SLO metric.
 */
export type RewardReading = 'withinSlo' | 'utility';


/**
 * What the interference predictor judges (§IV-F: interference is "caused by concurrent
 * inference of multiple models or multiple instances of a single model").
 * - `coLocated` (the paper's reading): a model's candidate action is judged with the
 *   co-located models' actions in force (their instances, batches and memory), so the
 *   predictor can see the interference they cause.
 * - `ownModel` (the earlier reading): each model's action is judged against the device as
 *   it is now, its own action alone changing; its (1, 1) is never masked.
 * Read by the learning scheduler (worlds/serving/agents/learningScheduler.ts); the engine does not use it.
 */
export type InterferenceReading = 'coLocated' | 'ownModel';

/**
 * The scheduling slot (§III-A2: "we set the i-th scheduling time slot t_i as the ratio of the
 * sum of SLO_i for a batch requests to the number of concurrent models: t_i = Σ_{j=1..b} SLO_j
 * / m_c (1) … BCEdge starts the next scheduling immediately after finishing the current
 * scheduling").
 * - `eq1` (the paper's reading): each model has its own slots. Model m's slot i lasts
 *   t_i = (Σ of the SLOs of the b requests its next batch takes) / m_c, with its action
 *   (b, m_c) in force: the b most urgent requests queued at the slot's start (the order its
 *   batches take them, §IV-C), the model's nominal SLO for each of the b the queue lacks, so
 *   that without SLO jitter t_i = b · SLO / m_c. The next slot starts when the previous ends;
 *   the model's decision (and its reward, Eq. 3 over its own slot) happens at its own
 *   boundary. Records, charts and metrics keep the fixed reporting interval `slotMs`.
 * - `fixed` (the earlier reading): one slot of `slotMs` for every model; every model decides
 *   at its boundary (scheduling slot = reporting interval).
 */
export type SlotReading = 'eq1' | 'fixed';

/**
 * Which requests a decision's reward is the utility of (Eq. 3 and Eq. 6: r_t = U of the
 * action's slot; the paper does not say which requests a slot's U is taken over).
 * - `governed` (the lab's reading): the requests the decision governed — those of the
 *   batches dispatched (or failed, or rejected) while its action was in force — scored with
 *   the very formula the summaries score a reporting interval with (`slotUtility`), once the
 *   last of them has finished. A decision that governed no request (its slot ended before
 *   a batch of it started, e.g. a slot of 7 ms at b = 1) has no reward and is not learned
 *   from; the stall's −10 is only for a decision whose requests were all lost or late.
 * - `slot` (the earlier reading): the requests that completed inside the decision's slot.
 *   Under Eq. 1's short slots (b·SLO/m_c, 7 ms to 17 s) a slot often ends before its batch
 *   does and scores the stall's −10, so small batches are punished in training and not in
 *   the summaries: the reward ranks actions differently from the metric (ARCHITECTURE §3).
 */
export type CreditReading = 'governed' | 'slot';

/**
 * What happens to a queued request that can no longer meet its SLO (the paper is silent:
 * §III-A1 queues every request, §IV-C orders the queue by deadline).
 * - `reject` (the default: what an edge server does — Triton's queue policy can time out and
 *   reject a request, and an answer past its deadline is worth nothing to the client): a
 *   queued request whose deadline is earlier than the soonest it could finish (sent to its
 *   batch now, alone: t_s + t_iso + t_o) is rejected when its model next dispatches; it is an
 *   SLO violation, never served. A short overload then costs its own requests, not every
 *   later one.
 * - `keep` (the earlier reading): every request waits until it is served, however late; after
 *   an overload the backlog may take minutes to drain, or grow without bound.
 */
export type LateRequestReading = 'reject' | 'keep';

/**
 * The readings of BCEdge that change results (ARCHITECTURE §3), each named so that a
 * scenario can choose, the claims can sweep them and the Assumptions panel can show them.
 */
export interface ServingReadings {
  readonly batching: BatchingReading;
  readonly throughputTerm: ThroughputTermReading;
  readonly reward: RewardReading;
  /** Batch-1 latencies: `tensorrt` (published Jetson TensorRT figures, models.ts) or `lab` (the earlier, slower profile). */
  readonly latencyProfile: LatencyProfileId;
  readonly interference: InterferenceReading;
  readonly slot: SlotReading;
  readonly credit: CreditReading;
  readonly lateRequests: LateRequestReading;
}

/** The paper's readings (ARCHITECTURE §3). */
export const PAPER_SERVING_READINGS: ServingReadings = {
  batching: 'form',
  throughputTerm: 'configuration',
  reward: 'withinSlo',
  latencyProfile: 'tensorrt',
  interference: 'coLocated',
  slot: 'eq1',
  credit: 'governed',
  lateRequests: 'reject',
};

/** The readings of the lab before they were named: with these, every earlier run keeps its numbers bit for bit. */
export const EARLIER_SERVING_READINGS: ServingReadings = {
  batching: 'cap',
  throughputTerm: 'completed',
  reward: 'utility',
  latencyProfile: 'lab',
  interference: 'ownModel',
  slot: 'fixed',
  credit: 'slot',
  lateRequests: 'keep',
};

