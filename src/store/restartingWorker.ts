import { proxy, wrap, type Remote } from 'comlink';

/** The APIs our workers expose: a frame subscription, a liveness answer, and methods the client forwards. */
interface LiveApi<F> {
  subscribe(callback: (frame: F) => void): void;
  /** Answers at once: the page's liveness check. */
  ping(): true;
}

/**
 * The liveness check (ARCHITECTURE §7): the page asks the worker every `heartbeatMs`; a worker that
 * has not answered for `timeoutMs` is taken for dead (it closed itself, hangs in a loop, or
 * its thread is gone) and restarted like a crashed one. While a call the page made is still
 * waiting for its answer, the worker is presumably computing it and gets `busyTimeoutMs`: a
 * serving seek replays from its checkpoint, a lane whose scheduler keeps none from time 0,
 * and ending a tenant of the scenario replays the run from time 0 to now, learning lanes
 * included, without yielding (minutes on a long run on a loaded two-core machine).
 */
export const WORKER_LIVENESS = { heartbeatMs: 1000, timeoutMs: 10_000, busyTimeoutMs: 120_000 } as const;

/** Why a worker was restarted. */
export type RestartReason = 'crashed' | 'stopped answering';

/**
 * What a call still waiting when its worker was restarted rejects with: its answer will
 * never come. Cancellation, not a fault: the crash banner already says what happened.
 */
export class WorkerRestartedError extends Error {
  constructor(readonly reason: RestartReason) {
    super(`the simulation worker ${reason} and was restarted before it answered`);
    this.name = 'WorkerRestartedError';
  }
}

/** True for a rejection that only says the worker was restarted under a waiting call. */
export function isWorkerRestarted(error: unknown): error is WorkerRestartedError {
  return error instanceof Error && error.name === 'WorkerRestartedError';
}

/** The page's clock and timers (a test gives its own). */
export interface LivenessTimers {
  now(): number;
  every(fn: () => void, ms: number): () => void;
}

const pageTimers: LivenessTimers = {
  now: () => performance.now(),
  every: (fn, ms) => {
    const id = setInterval(fn, ms);
    return () => clearInterval(id);
  },
};

/**
 * A comlink worker that is started again if it dies — an uncaught error inside it, or no
 * answer to the liveness check for `timeoutMs` (it closed itself or hangs): the frame
 * subscription is renewed on the new worker, every call still waiting is rejected with a
 * `WorkerRestartedError` (none is left hanging), and the restart listeners are told, so the
 * store can give it the scenario back (ARCHITECTURE §7). `create` must contain the
 * `new Worker(new URL(…, import.meta.url))` itself, for the bundler to see it.
 */
export function restartingWorker<Api extends LiveApi<F>, F>(
  create: () => Worker,
  options: { readonly liveness?: { readonly heartbeatMs: number; readonly timeoutMs: number; readonly busyTimeoutMs: number }; readonly timers?: LivenessTimers } = {},
): {
  remote: () => Remote<Api>;
  subscribe: (callback: (frame: F) => void) => Promise<void>;
  onCrash: (listener: (reason: RestartReason) => void) => void;
  /** Stops the liveness check and the worker (tests, and a page that goes away). */
  dispose: () => void;
} {
  const { heartbeatMs, timeoutMs, busyTimeoutMs } = options.liveness ?? WORKER_LIVENESS;
  const timers = options.timers ?? pageTimers;
  let onFrame: ((frame: F) => void) | null = null;
  const crashListeners: ((reason: RestartReason) => void)[] = [];
  const pending = new Set<(error: Error) => void>();
  let worker: Worker;
  let remote: Remote<Api>;
  /** Increases with every worker started: answers of an older one are ignored. */
  let incarnation = 0;
  let pingSentMs: number | null = null;
  let lastCheckMs: number | null = null;

  const restart = (reason: RestartReason): void => {
    worker.terminate();
    start();
    for (const reject of [...pending]) reject(new WorkerRestartedError(reason));
    pending.clear();
    for (const listener of crashListeners) listener(reason);
  };

  const start = (): void => {
    incarnation++;
    pingSentMs = null;
    const own = incarnation;
    worker = create();
    remote = wrap<Api>(worker);
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (own === incarnation) restart('crashed');
    });
    if (onFrame !== null) void (remote.subscribe as (cb: unknown) => Promise<void>)(proxy(delivered(own)));
  };

  /**
   * The frame callback of worker `own`: a frame is an answer too (a worker busy in a long
   * call that sends frames as it goes is alive, even when a ping waits behind it).
   */
  const delivered =
    (own: number) =>
    (frame: F): void => {
      if (own === incarnation) pingSentMs = null;
      onFrame?.(frame);
    };

  const check = (): void => {
    const now = timers.now();
    // A hidden tab runs the page's timers late: a late check judges nothing, it starts over.
    const late = lastCheckMs !== null && now - lastCheckMs > 2 * heartbeatMs;
    lastCheckMs = now;
    if (pingSentMs !== null) {
      if (late) pingSentMs = now;
      else if (now - pingSentMs >= (pending.size > 0 ? busyTimeoutMs : timeoutMs)) restart('stopped answering');
      return;
    }
    pingSentMs = now;
    const own = incarnation;
    void (remote.ping as () => Promise<true>)().then(
      () => {
        if (own === incarnation) pingSentMs = null;
      },
      () => undefined,
    );
  };

  /** Calls through the current worker, rejected if the worker is restarted before it answers. */
  const tracked = new Proxy({} as Remote<Api>, {
    get: (_target, name) =>
      (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          const settle = (error: Error) => reject(error);
          pending.add(settle);
          const method = (remote as unknown as Record<PropertyKey, (...a: unknown[]) => Promise<unknown>>)[name]!;
          method(...args).then(
            (value) => {
              pending.delete(settle);
              resolve(value);
            },
            (error: unknown) => {
              pending.delete(settle);
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
        }),
  });

  start();
  const stopChecks = timers.every(check, heartbeatMs);
  return {
    remote: () => tracked,
    subscribe: (callback) => {
      onFrame = callback;
      return (remote.subscribe as (cb: unknown) => Promise<void>)(proxy(delivered(incarnation)));
    },
    onCrash: (listener) => void crashListeners.push(listener),
    dispose: () => {
      stopChecks();
      worker.terminate();
    },
  };
}

/** The page's view of a worker API: each method answers with a promise (comlink), `subscribe` and `ping` aside. */
export type ClientOf<Api> = {
  [K in Exclude<keyof Api, 'subscribe' | 'ping'>]: Api[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** A worker client: the API's methods, the frame subscription, and the restart notice. */
export type WorkerClient<Api, F> = ClientOf<Api> & {
  subscribe(onFrame: (frame: F) => void): Promise<void>;
  /** Calls `listener` when the simulation had to be restarted (its state is gone). */
  onCrash?(listener: (reason: RestartReason) => void): void;
};

/**
 * The page's one handle on a world's worker, derived from its API type: every method is
 * forwarded to the current worker (restarted when it dies or stops answering).
 */
export function workerClient<Api extends LiveApi<F>, F>(
  create: () => Worker,
  /** Methods the page adds steps to (they may call the forwarded ones). */
  extend: (forwarded: ClientOf<Api>) => Partial<ClientOf<Api>> = () => ({}),
): WorkerClient<Api, F> {
  const worker = restartingWorker<Api, F>(create);
  const forwarded = new Proxy({}, { get: (_target, name) => (worker.remote() as unknown as Record<PropertyKey, unknown>)[name] }) as ClientOf<Api>;
  const own = { ...extend(forwarded), subscribe: worker.subscribe, onCrash: worker.onCrash } as Record<PropertyKey, unknown>;
  return new Proxy(own, { get: (target, name) => target[name] ?? (forwarded as Record<PropertyKey, unknown>)[name] }) as WorkerClient<Api, F>;
}
