import type { PipelineScenario } from '../scenario/schema';
import type { LabStore } from '../store/labStore';

/**
 * The link codec (`scenario/link.ts`), loaded when a link is first written or opened: it
 * validates with the schema (zod), which the first screen does not need (issue 12: first load).
 */
let codec: Promise<typeof import('../scenario/link')> | null = null;
export function linkCodec(): Promise<typeof import('../scenario/link')> {
  codec ??= import('../scenario/link');
  codec.catch(() => (codec = null));
  return codec;
}

/** How long the address waits after the last edit before it follows the scenario, ms. */
const DEBOUNCE_MS = 250;

/**
 * The hash for a scenario, or null when it cannot travel in a link: too large to open
 * again (tens of thousands of events), or — a bug — not valid.
 */
export async function linkFor(scenario: PipelineScenario): Promise<string | null> {
  const { encodeScenarioLink, LINK_LIMITS } = await linkCodec();
  try {
    const hash = encodeScenarioLink(scenario);
    return hash.length <= LINK_LIMITS.maxHashChars ? hash : null;
  } catch {
    return null;
  }
}

/** The hash of an address without its '#' (null when the address cannot be parsed). */
function hashOf(url: string): string | null {
  try {
    return new URL(url).hash.replace(/^#/, '');
  } catch {
    return null;
  }
}

/** Opens a link's scenario; a broken link leaves a banner and the current scenario. */
export async function openLink(store: LabStore, hash: string): Promise<boolean> {
  const decoded = (await linkCodec()).decodeScenarioLink(hash);
  if (!decoded.ok) {
    store.getState().reject('link', decoded.errors);
    return false;
  }
  return store.getState().load(decoded.scenario, 'link');
}

/**
 * Keeps the address bar's hash and the scenario in step: edits rewrite the hash (debounced,
 * without adding history entries), and a hash the person pastes or navigates to is opened.
 */
export function startLinkSync(
  store: LabStore,
  win: Window,
  active: () => boolean = () => true,
  /** Opens a hash the person navigated to (the page routes it to its world's lab). */
  open: (hash: string) => Promise<boolean> = (hash) => openLink(store, hash),
): () => void {
  let written = win.location.hash.replace(/^#/, '');
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Increases with every change: a hash encoded for an older scenario is not written. */
  let change = 0;
  const unsubscribe = store.subscribe(
    (s) => s.scenario,
    (scenario) => {
      if (scenario === null) return;
      clearTimeout(timer);
      const own = ++change;
      timer = setTimeout(() => {
        // Another lab (the serving world) may own the address bar for now.
        if (!active()) return;
        void linkFor(scenario).then((hash) => {
          if (own !== change || !active() || hash === null || hash === written) return;
          written = hash;
          win.history.replaceState(win.history.state, '', `#${hash}`);
        });
      }, DEBOUNCE_MS);
    },
  );
  const onHashChange = (event: HashChangeEvent) => {
    // The hash navigated to, from the event: a debounced write of the current scenario may
    // have replaced the address between the navigation and this event, and must not swallow it.
    const hash = hashOf(event.newURL) ?? win.location.hash.replace(/^#/, '');
    if (hash === '' || hash === written) return;
    written = hash;
    void open(hash);
  };
  win.addEventListener('hashchange', onHashChange);
  return () => {
    clearTimeout(timer);
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}

/** The address of the current scenario (what "Copy link" copies); null when it is too large for a link. */
export async function currentLink(store: LabStore, win: Window): Promise<string | null> {
  const scenario = store.getState().scenario;
  const base = `${win.location.origin}${win.location.pathname}${win.location.search}`;
  if (scenario === null) return base;
  const hash = await linkFor(scenario);
  return hash === null ? null : `${base}#${hash}`;
}
