/**
 * Parts of the page that are not on its first screen (ARCHITECTURE §7a′): their code is not in
 * the first load. A part below the first screen loads when it comes near the viewport or the
 * browser is first idle, whichever is first, with a placeholder of its usual height holding
 * its place; a part shown only on demand (the help, the classroom panel, the lessons' texts)
 * is fetched when the browser is first idle, so that it opens at once — also offline, once
 * the page has loaded. A load that fails (the network went away) is tried again when the
 * browser is back online.
 */
import { createElement, useEffect, useRef, useState, type ComponentType } from 'react';

/** How near the viewport (a fraction of its height) a part starts loading. */
const NEAR_MARGIN = '50%';
/** The longest a part waits for an idle moment, ms. */
const IDLE_TIMEOUT_MS = 1500;

/** Calls `run` once the browser is idle (at most `IDLE_TIMEOUT_MS` later); returns the cancel. */
export function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}

/** Calls `run` once, when `node` comes within `NEAR_MARGIN` of the viewport or the browser is idle; returns the cancel. */
export function whenNearOrIdle(node: Element | null, run: () => void): () => void {
  let done = false;
  const observer = typeof IntersectionObserver === 'function' && node !== null ? new IntersectionObserver((entries) => (entries.some((e) => e.isIntersecting) ? once() : undefined), { rootMargin: `${NEAR_MARGIN} 0px` }) : null;
  const cancelIdle = whenIdle(() => once());
  if (observer !== null && node !== null) observer.observe(node);
  function stop() {
    done = true;
    cancelIdle();
    observer?.disconnect();
  }
  function once() {
    if (done) return;
    stop();
    run();
  }
  return stop;
}

/** A module fetched at most once; a failed fetch is forgotten, so that the next call tries again. */
export function loadOnce<T>(load: () => Promise<T>): { (): Promise<T>; readonly value: () => T | undefined } {
  let value: T | undefined;
  let loading: Promise<T> | null = null;
  const start = () =>
    (loading ??= load().then(
      (v) => (value = v),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  return Object.assign(start, { value: () => value });
}

/** Fetches `load` when the browser is first idle, and again when it is back online if that failed; returns the cancel. */
export function preloadWhenIdle(load: () => Promise<unknown>): () => void {
  const go = () => void load().catch(() => window.addEventListener('online', go, { once: true }));
  const cancel = whenIdle(go);
  return () => {
    cancel();
    window.removeEventListener('online', go);
  };
}

/** When a load starts: `go` is the load; the result is the cancel (`now`, `whenIdle`, `whenNearOrIdle`). */
export type LoadStart = (go: () => void) => () => void;

/** Starts a load at once. */
export const now: LoadStart = (go) => {
  go();
  return () => undefined;
};

/**
 * What `load` gives, once it has (null until then), for a component: the load starts when
 * `start` says, and again when the browser is back online if it failed (offline before the
 * part loaded: the part comes with the network). `initial`: a value already loaded.
 */
export function useLoaded<T>(load: () => Promise<T>, start: LoadStart, initial: T | null = null): T | null {
  const [value, setValue] = useState<T | null>(() => initial);
  const ready = value !== null;
  useEffect(() => {
    if (ready) return undefined;
    let live = true;
    const go = () =>
      void load().then(
        (v) => (live ? setValue(() => v) : undefined),
        () => window.addEventListener('online', go, { once: true }),
      );
    const cancel = start(go);
    return () => {
      live = false;
      cancel();
      window.removeEventListener('online', go);
    };
  }, [ready, load, start]);
  return value;
}

/** How a deferred part starts loading: near the viewport or when idle (`below`), or as soon as it is shown (`onShow`). */
export type DeferredWhen = 'below' | 'onShow';

/**
 * A component whose code `load` fetches: for `below`, when its placeholder nears the viewport
 * or the browser is idle; for `onShow`, at once when it is rendered (fetch it earlier with
 * `preload`). `minHeight` (px) is the placeholder's height; `name` its `data-deferred`.
 */
export function deferred<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  options: { readonly minHeight?: number; readonly when?: DeferredWhen } = {},
): ComponentType<P> & { readonly preload: () => Promise<ComponentType<P>> } {
  const module = loadOnce(load);
  function Deferred(props: P) {
    const placeholder = useRef<HTMLDivElement>(null);
    const [start] = useState<LoadStart>(() => (options.when === 'onShow' ? now : (go: () => void) => whenNearOrIdle(placeholder.current, go)));
    const loaded = useLoaded(module, start, module.value() ?? null);
    if (loaded === null) return <div ref={placeholder} className="deferred" data-deferred={name} style={{ minHeight: options.minHeight ?? 0 }} aria-hidden="true" />;
    // The loaded module's component: one per deferred part, the same on every render.
    return createElement(loaded, props);
  }
  Deferred.displayName = `Deferred(${name})`;
  return Object.assign(Deferred, { preload: module });
}
