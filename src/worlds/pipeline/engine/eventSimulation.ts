import { EventQueue } from '../../../engine/eventQueue';
import { UNBOUNDED_BUFFER } from './assumptions';

/**
 * The pipeline's queueing as a plain discrete-event simulation over the engine's event
 * queue: the reference the fast recurrence of `PipelineRun` is tested against, and the
 * "naive event loop" baseline of `npm run bench`. Every stage is used (no empty stages) and
 * the configuration is fixed; stage times may vary per query.
 */
export interface EventSimulationInput {
  readonly stages: number;
  readonly queries: number;
  /** t_i(q), ms. */
  stageTimeMs(query: number, stage: number): number;
  /** Buffer capacity between consecutive stages (blocking after service). */
  readonly bufferCapacity: number;
  /** Arrival times (Poisson admission), or null for a saturated closed loop. */
  readonly arrivalsMs: Float64Array | null;
}

export interface EventSimulationResult {
  readonly admittedMs: Float64Array;
  readonly completionMs: Float64Array;
}

type Event = { readonly kind: 'arrive'; readonly query: number } | { readonly kind: 'finish'; readonly stage: number; readonly query: number };

/** Runs the whole event simulation. */
export function runEventSimulation(input: EventSimulationInput): EventSimulationResult {
  const { stages, queries } = input;
  const capacity = Math.min(input.bufferCapacity, UNBOUNDED_BUFFER);
  const events = new EventQueue<Event>();
  const admittedMs = new Float64Array(queries);
  const completionMs = new Float64Array(queries);
  const holding: (number | null)[] = new Array<number | null>(stages).fill(null);
  const blocked: boolean[] = new Array<boolean>(stages).fill(false);
  const buffers: number[][] = Array.from({ length: stages }, () => []);
  const inputQueue: number[] = [];
  let nextSaturated = 0;

  const start = (stage: number, query: number, now: number): void => {
    holding[stage] = query;
    blocked[stage] = false;
    if (stage === 0) admittedMs[query] = now;
    events.push(now + input.stageTimeMs(query, stage), { kind: 'finish', stage, query });
  };
  const tryStartFirst = (now: number): void => {
    if (holding[0] !== null) return;
    if (input.arrivalsMs === null) {
      if (nextSaturated < queries) start(0, nextSaturated++, now);
    } else if (inputQueue.length > 0) {
      start(0, inputQueue.shift()!, now);
    }
  };
  // Stage `stage` has just become free: refill it from its buffer, or from upstream.
  const pull = (stage: number, now: number): void => {
    if (stage === 0) {
      tryStartFirst(now);
      return;
    }
    const waiting = buffers[stage]!;
    if (waiting.length > 0) start(stage, waiting.shift()!, now);
    if (blocked[stage - 1]) tryPass(stage - 1, now);
  };
  const tryPass = (stage: number, now: number): void => {
    const query = holding[stage]!;
    const next = stage + 1;
    if (holding[next] === null) {
      start(next, query, now);
    } else if (buffers[next]!.length < capacity) {
      buffers[next]!.push(query);
    } else {
      blocked[stage] = true;
      return;
    }
    holding[stage] = null;
    blocked[stage] = false;
    pull(stage, now);
  };

  if (input.arrivalsMs === null) tryStartFirst(0);
  else input.arrivalsMs.forEach((t, q) => events.push(t, { kind: 'arrive', query: q }));

  for (let e = events.pop(); e !== undefined; e = events.pop()) {
    const now = e.timeMs;
    const ev = e.payload;
    if (ev.kind === 'arrive') {
      inputQueue.push(ev.query);
      tryStartFirst(now);
    } else if (ev.stage === stages - 1) {
      completionMs[ev.query] = now;
      holding[ev.stage] = null;
      pull(ev.stage, now);
    } else {
      tryPass(ev.stage, now);
    }
  }
  return { admittedMs, completionMs };
}
