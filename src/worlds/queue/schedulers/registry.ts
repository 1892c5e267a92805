/**
 * The queue world's two schedulers, each choosing c, the servers in use: `fixed` (c servers
 * always) and `threshold` (one more server per `perServer` requests waiting).
 */

/** The servers a scheduler may use at most. */
export const QUEUE_MAX_SERVERS = 16;

export const QUEUE_SCHEDULERS = {
  fixed: { parameters: [{ name: 'servers', label: 'servers', min: 1, max: QUEUE_MAX_SERVERS, integer: true, default: 2 }] },
  threshold: { parameters: [{ name: 'perServer', label: 'waiting per extra server', min: 1, max: 100, integer: true, default: 4 }] },
} as const;
export type QueueSchedulerId = keyof typeof QUEUE_SCHEDULERS;

/** A lane of the queue world as its scheduler reads it. */
export interface QueueSchedulerLane {
  readonly scheduler: QueueSchedulerId;
  readonly params?: { readonly servers?: number | undefined; readonly perServer?: number | undefined } | undefined;
}

/** The servers a lane's scheduler uses with `waiting` requests in the queue (what the engine asks at every arrival and completion). */
export function serversPolicy(lane: QueueSchedulerLane): (waiting: number) => number {
  if (lane.scheduler === 'fixed') {
    const c = lane.params?.servers ?? QUEUE_SCHEDULERS.fixed.parameters[0].default;
    return () => c;
  }
  const per = lane.params?.perServer ?? QUEUE_SCHEDULERS.threshold.parameters[0].default;
  return (waiting) => Math.min(QUEUE_MAX_SERVERS, 1 + Math.floor(waiting / per));
}
