import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { AnyLabStore } from '../store/liveStore';
import type { OpenedLink } from '../scenario/linkPacking';
import { startLinkSync } from './linkSync';
import { openPageLink } from './shell/openPageLink';
import { loadRouted, OpenInLabContext, pageWorldIn, PageWorldsContext, ShownWorldContext, SwitchLabContext, type OpenInLab, type PageWorld, type PageWorldModule, type SwitchLab } from './shell/pageWorld';

/** A world's lab once started: its page module and its store (with its worker). */
interface StartedLab {
  readonly module: PageWorldModule;
  readonly store: AnyLabStore;
}

/**
 * Routes an opened link (`openLink`: unpacked, not validated) to the lab of its world, whose
 * worker validates it once at its door; the lab shows its errors over its last good scenario.
 */
function routeLink(open: OpenInLab, link: OpenedLink, options: { readonly play: boolean }): Promise<boolean> {
  return open(link.ok ? { world: link.world, scenario: link.document, source: 'link', play: options.play } : { world: link.world, errors: link.errors });
}

/**
 * The page: one lab of the page's list of worlds shown at a time, each world's store and
 * worker started the first time its lab opens. The first screen is the lab of the link in the
 * address bar (`link`, opened before the page renders: `main.tsx`), else the first world's lab;
 * a link of another world does not start the first world's lab (its worker would share the
 * cores with the link's while that one starts) until the way back to it is taken. A scenario
 * of any world — from a link, a preset, a claim — opens in its own world's lab; the address bar
 * holds the shown lab's scenario, so that a link reopens it exactly. The page's list of worlds
 * (`pages`) is handed over by the page's composition root (`main.tsx`; ARCHITECTURE §7b).
 */
export function App({ pages, store: given, link }: { readonly pages: readonly PageWorld[]; readonly store?: AnyLabStore; readonly link?: OpenedLink | null }) {
  /** The first world of the page's list: its lab is the first screen, its module at hand. */
  const FIRST = pageWorldIn(pages, '');
  const pageWorldOf = useCallback((id: string) => pageWorldIn(pages, id), [pages]);
  /** The labs started so far, by world id (one Map for the page's life: it is written, never replaced). */
  const [labs] = useState(() => new Map<string, StartedLab>());
  /** The first world's lab, started the first time it is needed (at once unless a link of another world opened the page). */
  const firstLab = useCallback((): StartedLab => {
    const existing = labs.get(FIRST.id);
    if (existing !== undefined) return existing;
    const module = FIRST.eager;
    if (module === undefined) throw new Error(`the first world (${FIRST.id}) must have its page module at hand`);
    const lab = { module, store: given ?? module.startStore() };
    labs.set(FIRST.id, lab);
    return lab;
  }, [labs, given, FIRST]);
  const [linkWorld] = useState(() => (link === undefined || link === null ? FIRST.id : pageWorldOf(link.world).id));
  const [shown, setShown] = useState<{ readonly id: string; readonly lab: StartedLab | null }>(() => ({ id: linkWorld, lab: linkWorld === FIRST.id ? firstLab() : null }));
  /** Increases with every `open`: a lab that finishes loading after a later `open` is not shown. */
  const opening = useRef(0);

  /** The lab of `id`, started (module loaded, store and worker created) the first time. */
  const start = useCallback(async (id: string): Promise<StartedLab> => {
    const existing = labs.get(id);
    if (existing !== undefined) return existing;
    if (id === FIRST.id) return firstLab();
    const module = await pageWorldOf(id).load();
    const again = labs.get(id);
    if (again !== undefined) return again;
    const lab = { module, store: module.startStore() };
    labs.set(id, lab);
    return lab;
  }, [labs, firstLab, FIRST, pageWorldOf]);

  const open = useCallback<OpenInLab>(
    (routed) => {
      const id = pageWorldOf(routed.world).id;
      // One lab runs at a time: the others pause (their workers would share the cores).
      for (const [other, lab] of labs) if (other !== id) void lab.store.getState().pause();
      const own = ++opening.current;
      setShown({ id, lab: labs.get(id) ?? null });
      return start(id).then(async (lab) => {
        if (own === opening.current) setShown({ id, lab });
        return loadRouted(lab, routed);
      });
    },
    [labs, start, pageWorldOf],
  );

  // The first scenario: the link in the address bar (opened once, validated once, by its lab's
  // worker), or the first world's default, played.
  useEffect(() => {
    void (async () => {
      if (link !== undefined && link !== null && linkWorld !== FIRST.id) {
        // A link of another world opens its lab, played; the first lab starts when it is asked for.
        await routeLink(open, link, { play: true });
        return;
      }
      const store = firstLab().store;
      if (link === undefined || link === null) {
        await store.getState().load(FIRST.eager!.defaultScenario() as never, 'preset');
      } else {
        // A broken link leaves its banner over the default scenario, which plays.
        await routeLink(open, link, { play: false });
      }
      // A link that opens the Explore or Claims view leaves the lab paused: their workers need the cores.
      // A link made at a moment (`view.at`) was reopened there by the store, playing or paused as it was.
      const state = store.getState();
      const view = state.view as { readonly explore?: boolean; readonly claims?: boolean };
      if (state.scenario !== null && state.openedAt === null && view.explore !== true && view.claims !== true) await state.play();
    })();
  }, [firstLab, open, link, linkWorld, FIRST]);

  // The address bar holds the shown lab's scenario; a link navigated to is routed by its world.
  const shownLab = shown.lab;
  useEffect(() => {
    if (shownLab === null) return;
    return startLinkSync(shownLab.store, window, shownLab.module.linkHash as (scenario: never) => Promise<string | null>, async (hash) => routeLink(open, await openPageLink(hash, pages), { play: false }));
  }, [shownLab, open, pages]);

  const exit = useCallback(() => {
    for (const [id, lab] of labs) if (id !== FIRST.id) void lab.store.getState().pause();
    const lab = firstLab();
    setShown({ id: FIRST.id, lab });
    // Started only now (the page opened on a link of another world): its default, paused.
    if (lab.store.getState().scenario === null) void lab.store.getState().load(lab.module.defaultScenario() as never, 'preset');
  }, [firstLab, labs, FIRST]);

  /** The header's lab switch: the first lab, or another world's, opened on its default scenario (playing) the first time. */
  const switchLab = useCallback<SwitchLab>(
    (id) => {
      if (id === shown.id) return;
      if (pageWorldOf(id).id === FIRST.id) return exit();
      const started = labs.get(id);
      if (started !== undefined && started.store.getState().scenario !== null) {
        for (const [other, lab] of labs) if (other !== id) void lab.store.getState().pause();
        setShown({ id, lab: started });
        return;
      }
      void pageWorldOf(id)
        .load()
        .then((module) => open({ world: id, scenario: module.defaultScenario(), source: 'preset', play: true }));
    },
    [exit, labs, open, shown.id, FIRST, pageWorldOf],
  );

  const loading = (
    <p className="loading" data-testid={`${shown.id}.loading`}>
      Opening the {shown.id} lab…
    </p>
  );
  const Lab = shownLab?.module.Lab;
  return (
    <PageWorldsContext.Provider value={pages}>
      <OpenInLabContext.Provider value={open}>
        <SwitchLabContext.Provider value={switchLab}>
          <ShownWorldContext.Provider value={shown.id}>{Lab === undefined || shownLab === null ? loading : <Suspense fallback={loading}><Lab store={shownLab.store} onExit={exit} /></Suspense>}</ShownWorldContext.Provider>
        </SwitchLabContext.Provider>
      </OpenInLabContext.Provider>
    </PageWorldsContext.Provider>
  );
}
