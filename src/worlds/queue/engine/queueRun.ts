import { EventQueue } from '../../../engine/eventQueue';
import { createRng } from '../../../engine/rng';

/**
 * The queue world's engine (ARCHITECTURE §7b): an M/M/c queue — Poisson arrivals at
 * `arrivalRps`, exponential service at `serviceRps` per server — whose lane's scheduler chooses
 * c, the servers in use. Pure and seeded, like every world's engine.
 */

/** What a lane's run gives: the mean wait, the rate served and the server time it used. */
export interface QueueSummary {
  readonly requests: number;
  readonly servedRps: number;
  readonly waitMeanMs: number;
  readonly serverSeconds: number;
}

type QueueEvent = { readonly kind: 'arrival' } | { readonly kind: 'done' };

/** What a lane's run is given: the queue's rates and length, its seed, and its scheduler's choice of c. */
export interface QueueRunSpec {
  readonly seed: number;
  readonly arrivalRps: number;
  readonly serviceRps: number;
  readonly durationS: number;
  /** The servers in use with `waiting` requests in the queue (the lane's scheduler). */
  readonly servers: (waiting: number) => number;
}

/**
 * One lane run forward in simulated time (pure: a seeded generator; the arrival stream is the
 * same for every lane of a seed, the service stream too). A request starts when a server is
 * free within the lane's current c; c is read again at every arrival and completion.
 */
export class QueueLaneRun {
  private readonly arrivals: ReturnType<typeof createRng>;
  private readonly service: ReturnType<typeof createRng>;
  private readonly events = new EventQueue<QueueEvent>();
  private readonly endMs: number;
  private readonly waiting: number[] = [];
  private nowMs = 0;
  private busyNow = 0;
  private requests = 0;
  private served = 0;
  private waitSumMs = 0;
  private busyMs = 0;
  private lastMs = 0;

  constructor(private readonly spec: QueueRunSpec) {
    this.arrivals = createRng(spec.seed, 1);
    this.service = createRng(spec.seed, 2);
    this.endMs = spec.durationS * 1000;
    this.events.push(this.arrivals.exponential(1000 / spec.arrivalRps), { kind: 'arrival' });
  }

  /** Simulated ms reached. */
  get timeMs(): number {
    return this.nowMs;
  }

  /** Requests waiting and servers busy now. */
  get queue(): { readonly waiting: number; readonly busy: number } {
    return { waiting: this.waiting.length, busy: this.busyNow };
  }

  /** Runs every event up to `timeMs` (at most the run's end). */
  advanceTo(timeMs: number): void {
    const q = this.spec;
    const until = Math.min(timeMs, this.endMs);
    for (let e = this.events.peek(); e !== undefined && e.timeMs <= until; e = this.events.peek()) {
      this.events.pop();
      this.busyMs += this.busyNow * (e.timeMs - this.lastMs);
      this.lastMs = e.timeMs;
      if (e.payload.kind === 'arrival') {
        this.requests++;
        this.waiting.push(e.timeMs);
        this.events.push(e.timeMs + this.arrivals.exponential(1000 / q.arrivalRps), { kind: 'arrival' });
      } else {
        this.busyNow--;
        this.served++;
      }
      while (this.waiting.length > 0 && this.busyNow < q.servers(this.waiting.length)) {
        this.waitSumMs += e.timeMs - this.waiting.shift()!;
        this.busyNow++;
        this.events.push(e.timeMs + this.service.exponential(1000 / q.serviceRps), { kind: 'done' });
      }
    }
    this.nowMs = Math.max(this.nowMs, until);
  }

  /** The lane's summary over the time run so far (over `durationS` at the end). */
  summary(): QueueSummary {
    const seconds = this.nowMs === this.endMs ? this.spec.durationS : this.nowMs / 1000;
    const started = this.served + this.busyNow;
    return {
      requests: this.requests,
      servedRps: seconds > 0 ? this.served / seconds : 0,
      waitMeanMs: started > 0 ? this.waitSumMs / started : 0,
      serverSeconds: (this.busyMs + this.busyNow * (this.nowMs - this.lastMs)) / 1000,
    };
  }
}

/** Runs one lane for `durationS` (`QueueLaneRun` to its end). */
export function runQueueToEnd(spec: QueueRunSpec): QueueSummary {
  const run = new QueueLaneRun(spec);
  run.advanceTo(Number.POSITIVE_INFINITY);
  return run.summary();
}
