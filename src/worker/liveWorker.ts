/**
 * What every world's worker shares (ARCHITECTURE §1): the host a live session runs on in a
 * worker (the wall clock, timers, frames posted with their typed arrays transferred) and the
 * calls of the generic API. Nothing here needs a worker's globals, so tests build the same API
 * in Node. A world adds its own calls in its API module (`pipelineApi.ts`, `servingApi.ts`:
 * `{ ...liveApi(session, frames), … }`), and its worker exposes that: `const api =
 * pipelineApi(session, frames); export type WorkerApi = typeof api; expose(api)`.
 */
import { transfer } from 'comlink';
import type { SessionHost } from './liveLoop';
import type { Answer, LiveApi, LoadResultOf } from './liveProtocol';
import { describeValue, refuse, type LiveSession } from './liveSession';
import type { SessionTypes } from '../kit/worldTypes';

/** The worker's session host and the page's frame callback behind it (registered by `subscribe`); the session never waits for the page. */
export function workerHost<F>(): { readonly host: SessionHost<F>; subscribe(callback: (frame: F) => void): void } {
  let onFrame: ((frame: F) => void) | null = null;
  return {
    host: {
      now: () => performance.now(),
      schedule: (fn, delayMs) => void setTimeout(fn, delayMs),
      emit: (frame, buffers) => {
        if (onFrame !== null) void onFrame(transfer(frame, buffers));
      },
    },
    subscribe: (callback) => {
      onFrame = callback;
    },
  };
}

/** The generic calls, answered by any world's session. */
export function liveApi<T extends SessionTypes>(
  session: LiveSession<T>,
  frames: { subscribe(callback: (frame: T['frame']) => void): void },
): LiveApi<T['frame'], LoadResultOf<T['loaded']>, T['scenario']> & { load(scenario: unknown): LoadResultOf<T['loaded']> } {
  return {
    /** Registers the page's frame callback (wrapped with comlink's `proxy` by the page); anything else would throw at the first frame. */
    subscribe: (callback: unknown) => {
      if (typeof callback !== 'function') return refuse('callback', `must be a function (the page's frame callback), got ${describeValue(callback)}`);
      frames.subscribe(callback as (frame: T['frame']) => void);
      return { ok: true };
    },
    ping: () => true as const,
    load: (scenario) => session.load(scenario),
    play: () => session.play(),
    pause: () => session.pause(),
    step: (amount) => session.step(amount),
    reset: () => session.reset(),
    setSpeed: (speed) => session.setSpeed(speed),
    currentScenario: () => session.currentScenario(),
    seek: (position) => session.seek(position),
  };
}

/** What a live edit answers when it went through: the scenario it made, and whether it changed anything. */
export interface EditDone {
  readonly scenario: unknown;
  readonly changed: boolean;
}

/**
 * A world's live edits, each answering (when it goes through) with the scenario it made and
 * whether it changed it, so that the page learns both in the edit's own round trip: one worker
 * call per edit, and the comparison of the scenarios before and after made here, in the worker,
 * once (an edit may replay from a point or restart the run: only the scenario says).
 */
export function liveEdits<T extends SessionTypes, A extends Record<string, (...args: never[]) => Answer | Promise<Answer>>>(session: LiveSession<T>, calls: A): A {
  const wrapped: Record<string, (...args: never[]) => Answer<Partial<EditDone>> | Promise<Answer<Partial<EditDone>>>> = {};
  for (const [name, call] of Object.entries(calls)) {
    wrapped[name] = (...args) => {
      const before = JSON.stringify(session.currentScenario());
      const done = (answer: Answer): Answer<Partial<EditDone>> => {
        if (!answer.ok) return answer;
        const scenario = session.currentScenario();
        return { ...answer, scenario, changed: JSON.stringify(scenario) !== before };
      };
      // An edit that answers at once answers at once here too; one that waits (a learner to load) is awaited.
      const answer = call(...args);
      return answer instanceof Promise ? answer.then(done) : done(answer);
    };
  }
  return wrapped as unknown as A;
}
