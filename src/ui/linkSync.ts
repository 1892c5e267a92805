import type { AnyScenario } from '../scenario/schema';
import type { AnyLabStore } from '../store/liveStore';
import { withMoment } from '../store/moment';
import { afterWorlds } from '../kit/worlds';

/**
 * The link codec (`scenario/link.ts`), loaded when a link is first written or opened: it
 * validates with the schema (zod), which the first screen does not need (ARCHITECTURE §7a′).
 */
let codec: Promise<typeof import('../scenario/link')> | null = null;
export function linkCodec(): Promise<typeof import('../scenario/link')> {
  codec ??= afterWorlds(() => import('../scenario/link'));
  codec.catch(() => (codec = null));
  return codec;
}

/** How long the address waits after the last edit before it follows the scenario, ms. */
const DEBOUNCE_MS = 250;

/**
 * The hash for a scenario the lab holds, or null when it cannot travel in a link: too large to
 * open again (tens of thousands of events). It is not validated again (`encodeHeldScenarioLink`):
 * the store's scenario came through the worker's door, and the link is validated where it opens.
 */
export async function linkFor(scenario: AnyScenario): Promise<string | null> {
  const { encodeHeldScenarioLink, LINK_LIMITS } = await linkCodec();
  try {
    const hash = encodeHeldScenarioLink(scenario);
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

/**
 * Keeps the address bar's hash and the shown lab's scenario in step: edits rewrite the hash
 * (debounced, without adding history entries) with the world's `linkHash`, and a hash the
 * person pastes or navigates to is opened (the page routes it to its world's lab). The page
 * restarts it when another lab is shown.
 */
export function startLinkSync(
  store: Pick<AnyLabStore, 'subscribe' | 'getState'>,
  win: Window,
  linkHash: (scenario: never) => Promise<string | null>,
  open: (hash: string) => Promise<boolean>,
): () => void {
  let written = win.location.hash.replace(/^#/, '');
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Increases with every change: a hash encoded for an older scenario is not written. */
  let change = 0;
  let live = true;
  const write = (scenario: unknown) => {
    if (scenario === null) return;
    const own = ++change;
    void (linkHash as (s: unknown) => Promise<string | null>)(scenario).then((hash) => {
      if (own !== change || !live || hash === null || hash === written) return;
      written = hash;
      win.history.replaceState(win.history.state, '', `#${hash}`);
    });
  };
  // The shown lab owns the address bar from now on: its scenario is written at once.
  write(store.getState().scenario);
  const unsubscribe = store.subscribe(
    (s) => s.scenario,
    (scenario) => {
      clearTimeout(timer);
      timer = setTimeout(() => write(scenario), DEBOUNCE_MS);
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
    live = false;
    clearTimeout(timer);
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}

/**
 * The address of the current scenario at the moment the run is at (what "Copy link" copies: the
 * position, paused or playing, the algorithm step, the selected lane and the lesson step, `view.at`);
 * null when it is too large for a link.
 */
export async function currentLink(store: Pick<AnyLabStore, 'getState'>, win: Window): Promise<string | null> {
  const state = store.getState();
  const base = `${win.location.origin}${win.location.pathname}${win.location.search}`;
  if (state.scenario === null) return base;
  const hash = await linkFor(withMoment(state.scenario, state.moment()));
  return hash === null ? null : `${base}#${hash}`;
}
