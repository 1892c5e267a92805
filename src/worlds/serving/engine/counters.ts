/** The counters a serving run keeps per model (simulation.ts): over the run, and over the slot under way. */

/** Per-model counters for the run. */
export interface ModelTotals {
  requests: number;
  completed: number;
  late: number;
  failed: number;
  dropped: number;
  oomBatches: number;
  batches: number;
  batchedRequests: number;
  latencySum: number;
  transmissionSum: number;
  serializationSum: number;
  queueingSum: number;
  inferenceSum: number;
  returnSum: number;
  utilitySum: number;
  utilityCount: number;
}

/** Per-model counters for the current slot. */
export interface SlotCounters {
  arrivals: number;
  completed: number;
  latencySum: number;
  violations: number;
  /** Completed after their deadline (part of `violations`). */
  late: number;
  batchSloSum: number;
  batches: number;
  /** Instance-busy time of the completed batches (t_s + t_m), ms. */
  busyMs: number;
  oomBatches: number;
  /** Work was queued or running when the slot began. */
  busyAtStart: boolean;
}

export const zeroTotals = (): ModelTotals => ({
  requests: 0,
  completed: 0,
  late: 0,
  failed: 0,
  dropped: 0,
  oomBatches: 0,
  batches: 0,
  batchedRequests: 0,
  latencySum: 0,
  transmissionSum: 0,
  serializationSum: 0,
  queueingSum: 0,
  inferenceSum: 0,
  returnSum: 0,
  utilitySum: 0,
  utilityCount: 0,
});

/** Starts a slot's counters afresh. */
export function resetCounters(c: SlotCounters, busyAtStart: boolean): void {
  c.arrivals = 0;
  c.completed = 0;
  c.latencySum = 0;
  c.violations = 0;
  c.late = 0;
  c.batchSloSum = 0;
  c.batches = 0;
  c.busyMs = 0;
  c.oomBatches = 0;
  c.busyAtStart = busyAtStart;
}

export const zeroSlot = (): SlotCounters => ({
  arrivals: 0,
  completed: 0,
  latencySum: 0,
  violations: 0,
  late: 0,
  batchSloSum: 0,
  batches: 0,
  busyMs: 0,
  oomBatches: 0,
  busyAtStart: false,
});
