import type { ServingReadings } from './readings';
import { slotUtility } from './metrics';

/**
 * A decision whose governed requests have all finished (credit `governed`, readings.ts): its
 * reward, delivered to the scheduler at the model's next decision after it settled.
 */
export interface SettledDecision {
  /** The model's decision index (`ModelObservation.decision` of the observation it was made in). */
  readonly decision: number;
  /** Eq. 3 over the requests it governed, scored as the summaries score an interval; null: it governed none. */
  readonly utility: number | null;
  /** How long its action was in force, ms. */
  readonly durationMs: number;
  /** Requests it governed: served (late ones included) and lost. */
  readonly requests: number;
  /** Late, failed and rejected among them. */
  readonly violations: number;
}

/** The sums of one open decision (the fields of `SlotUtilityInput` it needs). */
interface DecisionSums {
  decision: number;
  /** How long its action was in force, ms (set when it ends). */
  lengthMs: number;
  startMs: number;
  endMs: number;
  instances: number;
  completed: number;
  latencySum: number;
  late: number;
  violations: number;
  batches: number;
  batchSloSum: number;
  busyMs: number;
  /** Batches of it still running. */
  outstanding: number;
}

/** A `DecisionCredit`'s state for a checkpoint of the run. */
export interface DecisionCreditSnapshot {
  readonly current: Int32Array;
  readonly open: readonly (readonly DecisionSums[])[];
  readonly settled: readonly (readonly SettledDecision[])[];
  readonly window: readonly (readonly DecisionSums[])[];
  readonly nowMs: number;
  /** Running batch slot, its model, its decision. */
  readonly batches: readonly (readonly [number, number, number])[];
}

/**
 * Credits each model's decisions with the requests they governed (credit `governed`,
 * readings.ts; ARCHITECTURE §3): a batch belongs to the decision in force when it started
 * (or failed), a rejected or dropped request to the one in force when it was lost. When a
 * decision has ended and its last batch has finished, its utility is computed by
 * `slotUtility`, the very formula of the reporting intervals, over its own requests: T from
 * its batches' busy time and its m_c, L their mean latency, the within-SLO share theirs. The
 * scheduler reads the settled decisions of a model at that model's next decision.
 *
 * Kept beside the engine's own counters and read by nobody else, so it changes no number of
 * the run: with credit `slot` it is not built at all.
 */
export class DecisionCredit {
  private readonly current: Int32Array;
  private readonly open: Map<number, DecisionSums>[];
  private readonly settled: SettledDecision[][];
  /** Running batch slot → [model, decision]. */
  private readonly batches = new Map<number, readonly [number, number]>();
  /** Per model: the decisions settled within the last `windowMs`, with their sums (the reward's pool). */
  private readonly window: DecisionSums[][];
  private nowMs = 0;

  constructor(
    models: number,
    private readonly readings: Pick<ServingReadings, 'throughputTerm' | 'reward'>,
    /** The pool of a reward, ms: the reporting interval (`slotMs`). */
    private readonly windowMs: number,
  ) {
    this.window = Array.from({ length: models }, () => []);
    this.current = new Int32Array(models).fill(-1);
    this.open = Array.from({ length: models }, () => new Map());
    this.settled = Array.from({ length: models }, () => []);
  }

  /** The index of model m's decision in force (−1 before its first). */
  decisionOf(m: number): number {
    return this.current[m]!;
  }

  /** Model m's decision in force ends now (before its next is made). */
  close(m: number, nowMs: number): void {
    const sums = this.open[m]!.get(this.current[m]!);
    if (sums === undefined) return;
    sums.endMs = nowMs;
    sums.lengthMs = nowMs - sums.startMs;
    this.nowMs = nowMs;
    if (sums.outstanding === 0) this.settle(m, sums);
  }

  /** Model m's next decision starts now with `instances` (m_c). */
  start(m: number, nowMs: number, instances: number): void {
    const decision = ++this.current[m]!;
    this.open[m]!.set(decision, {
      decision,
      startMs: nowMs,
      endMs: Number.NaN,
      lengthMs: 0,
      instances,
      completed: 0,
      latencySum: 0,
      late: 0,
      violations: 0,
      batches: 0,
      batchSloSum: 0,
      busyMs: 0,
      outstanding: 0,
    });
  }

  /** A batch of model m started in slot `b` under the decision in force. */
  batchStarted(m: number, b: number): void {
    const sums = this.open[m]!.get(this.current[m]!);
    if (sums === undefined) return;
    sums.outstanding++;
    this.batches.set(b, [m, sums.decision]);
  }

  /** `count` requests of model m were lost now (a failed batch, a rejection, a drop). */
  lost(m: number, count: number): void {
    const sums = this.open[m]!.get(this.current[m]!);
    if (sums !== undefined) sums.violations += count;
  }

  /** The batch in slot `b` finished: its requests' sums. */
  batchFinished(b: number, nowMs: number, completed: number, latencySum: number, late: number, busyMs: number, batchSloSum: number): void {
    this.nowMs = nowMs;
    const owner = this.batches.get(b);
    if (owner === undefined) return;
    this.batches.delete(b);
    const [m, decision] = owner;
    const sums = this.open[m]!.get(decision);
    if (sums === undefined) return;
    sums.completed += completed;
    sums.latencySum += latencySum;
    sums.late += late;
    sums.violations += late;
    sums.batches++;
    sums.batchSloSum += batchSloSum;
    sums.busyMs += busyMs;
    sums.outstanding--;
    if (sums.outstanding === 0 && !Number.isNaN(sums.endMs)) this.settle(m, sums);
  }

  /** The decisions of model m settled since the last call, oldest first (drained). */
  take(m: number): readonly SettledDecision[] {
    const list = this.settled[m]!;
    if (list.length === 0) return EMPTY;
    this.settled[m] = [];
    return list;
  }

  /** The decisions of model m settled and not yet taken. */
  peek(m: number): readonly SettledDecision[] {
    return this.settled[m]!;
  }

  /**
   * Decision `s` of model m settles now: its reward. Eq. 3's terms are ratios of sums (T from
   * busy time, L a mean, the within-SLO share), which the summaries take over a reporting
   * interval; over a decision of one batch of two requests they would be another statistic
   * (ln of a share of 0, ½ or 1; a mean of logs instead of the log of a mean), which ranks
   * actions differently from the summaries (measured: `reward-check`). So the sums are pooled
   * over the model's decisions that settled within the last `windowMs` (the reporting
   * interval), ending with this one — the utility, as the summaries compute it, of the last
   * interval's worth of the requests its decisions governed. A decision that governed nothing
   * has no reward.
   */
  private settle(m: number, s: DecisionSums): void {
    this.open[m]!.delete(s.decision);
    const lost = s.violations - s.late;
    const at = Number.isNaN(s.endMs) ? s.startMs : s.endMs;
    const settledAtMs = Math.max(at, this.nowMs);
    let utility: number | null = null;
    if (s.completed > 0 || lost > 0) {
      const window = this.window[m]!;
      window.push({ ...s, endMs: settledAtMs });
      while (window.length > 1 && window[0]!.endMs <= settledAtMs - this.windowMs) window.shift();
      let completed = 0;
      let latencySum = 0;
      let late = 0;
      let violations = 0;
      let batches = 0;
      let batchSloSum = 0;
      let busyMs = 0;
      let instanceMs = 0;
      let lengthMs = 0;
      for (const w of window) {
        completed += w.completed;
        latencySum += w.latencySum;
        late += w.late;
        violations += w.violations;
        batches += w.batches;
        batchSloSum += w.batchSloSum;
        busyMs += w.busyMs;
        instanceMs += w.instances * Math.max(w.lengthMs, 1e-9);
        lengthMs += Math.max(w.lengthMs, 1e-9);
      }
      utility = slotUtility(this.readings, {
        completed,
        seconds: lengthMs / 1000,
        busyMs,
        batchSloMeanMs: batches > 0 ? batchSloSum / batches : 0,
        instances: instanceMs / lengthMs,
        latencyMeanMs: completed > 0 ? latencySum / completed : 0,
        late,
        violations,
        hadWork: true,
      });
    }
    this.settled[m]!.push({ decision: s.decision, utility, durationMs: s.endMs - s.startMs, requests: s.completed + lost, violations: s.violations });
  }

  snapshot(): DecisionCreditSnapshot {
    return {
      current: this.current.slice(),
      open: this.open.map((map) => Array.from(map.values(), (s) => ({ ...s }))),
      settled: this.settled.map((list) => list.slice()),
      window: this.window.map((list) => list.map((w) => ({ ...w }))),
      nowMs: this.nowMs,
      batches: Array.from(this.batches.entries(), ([b, [m, d]]) => [b, m, d] as const),
    };
  }

  restore(s: DecisionCreditSnapshot): void {
    this.current.set(s.current);
    s.open.forEach((list, m) => {
      const map = this.open[m]!;
      map.clear();
      for (const sums of list) map.set(sums.decision, { ...sums });
    });
    s.settled.forEach((list, m) => {
      this.settled[m] = list.slice();
    });
    s.window.forEach((list, m) => {
      this.window[m] = list.map((w) => ({ ...w }));
    });
    this.nowMs = s.nowMs;
    this.batches.clear();
    for (const [b, m, d] of s.batches) this.batches.set(b, [m, d]);
  }
}

const EMPTY: readonly SettledDecision[] = [];
