import { proxy, wrap, type Remote } from 'comlink';

/** The APIs our workers expose: a frame subscription, and methods the client forwards. */
interface FrameApi<F> {
  subscribe(callback: (frame: F) => void): void;
}

/**
 * A comlink worker that is started again if it dies (an uncaught error inside it): the
 * frame subscription is renewed on the new worker and the crash listeners are told, so the
 * store can give it the scenario back (ARCHITECTURE §7). `create` must contain the
 * `new Worker(new URL(…, import.meta.url))` itself, for the bundler to see it.
 */
export function restartingWorker<Api extends FrameApi<F>, F>(
  create: () => Worker,
): { remote: () => Remote<Api>; subscribe: (callback: (frame: F) => void) => Promise<void>; onCrash: (listener: () => void) => void } {
  let onFrame: ((frame: F) => void) | null = null;
  const crashListeners: (() => void)[] = [];
  let remote: Remote<Api>;
  const start = (): void => {
    const worker = create();
    remote = wrap<Api>(worker);
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      start();
      for (const listener of crashListeners) listener();
    });
    if (onFrame !== null) void (remote.subscribe as (cb: unknown) => Promise<void>)(proxy(onFrame));
  };
  start();
  return {
    remote: () => remote,
    subscribe: (callback) => {
      onFrame = callback;
      return (remote.subscribe as (cb: unknown) => Promise<void>)(proxy(callback));
    },
    onCrash: (listener) => void crashListeners.push(listener),
  };
}
