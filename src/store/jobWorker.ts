import { wrap, type Remote } from 'comlink';

/** How long a worker may take to stop after it was asked to cancel, before it is terminated, ms. */
export const CANCEL_GRACE_MS = 5000;

/**
 * A worker that runs one long job at a time (a measurement, a real run), started the first
 * time it is needed. Cancel asks the job to stop; if it has not ended within
 * {@link CANCEL_GRACE_MS} (a very slow unit), the worker is terminated — its own workers
 * (hogs, stages) end with it —, the job resolves as cancelled, and a fresh worker is started
 * next time. `create` must contain the `new Worker(new URL(…, import.meta.url))` itself, for
 * the bundler to see it.
 */
export function jobWorker<Api>(create: () => Worker): {
  remote: () => Remote<Api>;
  /** Runs `call`; resolves to its answer, `failed(message)` if it throws, or `cancelled` once abandoned. */
  run<T>(call: (remote: Remote<Api>) => Promise<T>, cancelled: T, failed: (message: string) => T): Promise<T>;
  /** Asks the job to stop (`ask`), and terminates the worker if it does not in time. */
  cancel(ask: (remote: Remote<Api>) => Promise<void>): Promise<void>;
} {
  let worker: Worker | null = null;
  let remote: Remote<Api> | null = null;
  let abandon: (() => void) | null = null;
  const get = () => {
    if (remote === null) {
      worker = create();
      remote = wrap<Api>(worker);
    }
    return remote;
  };
  return {
    remote: get,
    run: (call, cancelled, failed) =>
      new Promise((resolve) => {
        abandon = () => resolve(cancelled);
        void call(get())
          .then(resolve, (error: unknown) => resolve(failed(error instanceof Error ? error.message : String(error))))
          .finally(() => (abandon = null));
      }),
    cancel: async (ask) => {
      await ask(get());
      const stuck = abandon;
      setTimeout(() => {
        if (stuck !== null && stuck === abandon) {
          worker?.terminate();
          worker = null;
          remote = null;
          stuck();
        }
      }, CANCEL_GRACE_MS);
    },
  };
}
