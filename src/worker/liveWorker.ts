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
import type { LiveApi, LoadResultOf } from './liveProtocol';
import { describeValue, refuse, type LiveSession } from './liveSession';
import type { WorldTypes } from './world';

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
export function liveApi<T extends WorldTypes>(
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
