/**
 * Parts of the page below the first screen (issue 12 part 6): their code loads right after the
 * first screen is drawn — when the part comes near the viewport or the browser is first idle,
 * whichever comes first — so that the page's first load carries only what the first screen
 * shows, and the page still works offline once it has loaded. Until then a placeholder of the
 * part's usual height holds its place. A load that fails (the network went away) is tried again
 * when the browser is back online.
 */
import { useEffect, useRef, useState, type ComponentType } from 'react';

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

/**
 * Calls `run` once, when `node` comes within `NEAR_MARGIN` of the viewport or the browser is
 * idle, whichever is first; returns the cancel.
 */
export function whenNearOrIdle(node: Element | null, run: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    run();
  };
  const cancelIdle = whenIdle(once);
  const observer = typeof IntersectionObserver === 'function' && node !== null ? new IntersectionObserver((entries) => (entries.some((e) => e.isIntersecting) ? once() : undefined), { rootMargin: `${NEAR_MARGIN} 0px` }) : null;
  if (observer !== null && node !== null) observer.observe(node);
  function cancel() {
    cancelIdle();
    observer?.disconnect();
  }
  return () => {
    done = true;
    cancel();
  };
}

/**
 * A component whose code is fetched by `load` when its placeholder nears the viewport or the
 * browser is idle; `minHeight` (px) is the placeholder's height, `name` its `data-deferred`.
 */
export function deferred<P extends object>(name: string, load: () => Promise<ComponentType<P>>, minHeight: number): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  function Deferred(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const placeholder = useRef<HTMLDivElement>(null);
    const ready = Component !== null;
    useEffect(() => {
      if (ready) return undefined;
      let live = true;
      const go = () =>
        void start().then(
          (c) => (live ? setComponent(() => c) : undefined),
          // Offline before the part loaded: the placeholder stays, and the part comes when the network does.
          () => window.addEventListener('online', go, { once: true }),
        );
      const cancel = whenNearOrIdle(placeholder.current, go);
      return () => {
        live = false;
        cancel();
        window.removeEventListener('online', go);
      };
    }, [ready]);
    if (Component === null) return <div ref={placeholder} className="deferred" data-deferred={name} style={{ minHeight }} aria-hidden="true" />;
    return <Component {...props} />;
  }
  Deferred.displayName = `Deferred(${name})`;
  return Deferred;
}
