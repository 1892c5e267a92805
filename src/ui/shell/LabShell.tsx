import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { setShownLaneSchedulers } from '../../charts/palette';
import type { HideableControl } from '../../scenario/limits';
import { ErrorBanner } from '../ErrorBanner';
import { HelpOverlay, type Shortcut } from '../HelpOverlay';
import { LessonsPanel, LessonUnderWay, type LessonsOfLab } from '../LessonBar';
import { PlaybackBar, type WorldPlayback } from './PlaybackBar';
import { ShareBar, type WorldShare } from './ShareBar';
import { ShellStoreContext, useShell, type ShellStore } from './shellStore';
import { useHistoryKeys, type HistoryKeysStore } from './historyKeys';
import { ViewLauncher } from '../ViewLauncher';
import { LabAbout, LabSwitch } from './LabSwitch';
import { afterWorlds } from '../../kit/worlds';

/** The Claims view's mount, loaded when the view is first opened (it loads the view itself). */
const ClaimsMount = lazy(() => afterWorlds(() => import('../claims/ClaimsMount')).then((m) => ({ default: m.ClaimsMount })));

/** The Explore view (its store, worker pool, sweeps and charts), loaded when it is first opened. */
const ExploreMount = lazy(() => afterWorlds(() => import('../explore/ExploreMount')).then((m) => ({ default: m.ExploreMount })));

/** The views over every lab, one at a time (flags of the scenario's view, so a link reopens them). */
type OverFlags = { readonly explore?: boolean; readonly claims?: boolean };

/** The view over the lab that is open, if any: the Claims view, or the Explore view. */
function OverView() {
  const claiming = useShell((s) => (s.view as OverFlags).claims === true);
  const exploring = useShell((s) => (s.view as OverFlags).explore === true);
  if (claiming) {
    return (
      <Suspense fallback={<p className="loading" data-testid="claims.loading">Opening the Claims view…</p>}>
        <ClaimsMount />
      </Suspense>
    );
  }
  if (exploring) {
    return (
      <Suspense fallback={<p className="loading">Opening Explore…</p>}>
        <ExploreMount />
      </Suspense>
    );
  }
  return null;
}

/** A panel of the dock, and the classroom part that hides it. */
export interface DockPanel {
  readonly part: HideableControl;
  readonly node: ReactNode;
}

/**
 * What a world contributes to the page shell (ARCHITECTURE §7c): its header text, its
 * playback step and unit, its share bar (link codec, presets, files), its lessons and keys,
 * its board, the panels of its dock, its main time chart, its other charts and its time
 * line. Everything else — the layout, the error banner, undo/redo, the classroom view and
 * its hidden parts, the lessons bar, the help overlay — is the shell's.
 */
export interface LabWorld {
  /** The root's test id: `lab` (pipeline), `serving`. */
  readonly testId: string;
  /** Extra class of the root (`serving-lab`). */
  readonly className?: string;
  readonly title: string;
  readonly tagline: ReactNode;
  /** Buttons beside the title, after the shell's Explore and Claims (Measure; back to the first lab). */
  readonly launchers?: ReactNode;
  readonly playback: WorldPlayback;
  readonly share: WorldShare;
  readonly lessons: LessonsOfLab['lessons'];
  readonly shortcuts: readonly Shortcut[];
  /** Notices under the error banner (a reference lane's search progress). */
  readonly notices?: ReactNode;
  readonly board: ReactNode;
  /** The side dock's label and panels (the algorithm or learning panel, lanes, settings). */
  readonly dockLabel: string;
  readonly dock: readonly DockPanel[];
  /** The main time chart, under the board (throughput; per model in the serving world). */
  readonly mainChart: ReactNode;
  /** The other charts: chart grids (`ChartGrid`) the person can rearrange and collapse. */
  readonly charts: ReactNode;
  readonly timeline: ReactNode;
}

/**
 * The help overlay's state: the store's `helpOpen` (the shared slices give every lab's store one; the
 * pipeline's `?` key and the playback bar's help button both set it). The local state is a fallback for a
 * store without `setHelpOpen`, which `ShellStore`'s type does not allow.
 */
function useHelp(store: ShellStore): { open: boolean; setOpen: (open: boolean) => void } {
  const [local, setLocal] = useState(false);
  const stored = useShell((s) => s.helpOpen);
  if (stored !== undefined && store.getState().setHelpOpen !== undefined) return { open: stored, setOpen: (open) => store.getState().setHelpOpen?.(open) };
  return { open: local, setOpen: setLocal };
}

/** The lessons bar over the shown lab's store: the Lessons button and its list, and the lesson under way when the lab has no dock to show it in. */
function ShellLessons({ store, lessons, underWayHere }: { readonly store: ShellStore; readonly lessons: LabWorld['lessons']; readonly underWayHere: boolean }) {
  const lesson = useShell((s) => s.lesson);
  const act = store.getState();
  return <LessonsPanel lessons={lessons} lesson={lesson} startLesson={act.startLesson} lessonStep={act.lessonStep} endLesson={act.endLesson} underWayHere={underWayHere} />;
}

/** The lesson under way, at the top of the dock beside the board. */
function DockLesson({ store, lessons }: { readonly store: ShellStore; readonly lessons: LabWorld['lessons'] }) {
  const lesson = useShell((s) => s.lesson);
  const act = store.getState();
  return <LessonUnderWay lessons={lessons} lesson={lesson} startLesson={act.startLesson} lessonStep={act.lessonStep} endLesson={act.endLesson} />;
}

/**
 * The page shell of every lab (ARCHITECTURE §7c): a compact header (title, launchers, playback), one
 * toolbar row (share bar and lessons), the error banner, then the lab in a grid — the board
 * and the main chart in the wide column, the time line and the chart grid under them, and
 * the dock at the side over the whole height, so that the algorithm panel never pushes the
 * charts down. The dock collapses to a strip. Classroom views: presentation (large type, the
 * board and the main chart and the dock on one screen at 1280 × 720) and embed (no chrome);
 * hidden parts are not rendered.
 */
export function LabShell({ store, world }: { readonly store: ShellStore; readonly world: LabWorld }) {
  return (
    <ShellStoreContext.Provider value={store}>
      <Shell store={store} world={world} />
    </ShellStoreContext.Provider>
  );
}

function Shell({ store, world }: { readonly store: ShellStore; readonly world: LabWorld }) {
  const mode = useShell((s) => s.view.mode);
  // Each scheduler's own colour (palette.ts), set while rendering: before the charts and lane cards below draw with it.
  const lanes = useShell((s) => s.lanes);
  useMemo(() => setShownLaneSchedulers(lanes.map((l) => (l as { readonly scheduler?: string }).scheduler ?? '')), [lanes]);
  const hide = useShell((s) => s.view.hide);
  const hidden = (part: HideableControl) => hide.includes(part);
  const help = useHelp(store);
  // Undo and redo keys go to the lab that is shown (every store has the history slice).
  useHistoryKeys(store as unknown as HistoryKeysStore);
  const [dockOpen, setDockOpen] = useState(true);
  const over = useShell((s) => (s.view as OverFlags).explore === true || (s.view as OverFlags).claims === true);
  const chrome = mode !== 'embed';
  // While stepping (paused) or in a lesson the algorithm (or learning) panel leads the dock, beside the board.
  const stepping = useShell((s) => s.lesson !== null || (s.status !== 'playing' && !s.starting));
  const dock = world.dock.filter((p) => !hidden(p.part));
  // The lesson under way sits at the top of the dock (it opens for it); a lab without a dock keeps it in the toolbar.
  const lessonId = useShell((s) => s.lesson?.id ?? null);
  const lessonInDock = chrome && dock.length > 0 && !hidden('lessons');
  // A lesson that starts opens a folded dock (state adjusted while rendering, as React advises for a change of a prop).
  const [lessonSeen, setLessonSeen] = useState(lessonId);
  if (lessonId !== lessonSeen) {
    setLessonSeen(lessonId);
    if (lessonId !== null && lessonInDock && !dockOpen) setDockOpen(true);
  }
  return (
    <div className={`lab shell${world.className === undefined ? '' : ` ${world.className}`}`} data-view={mode} data-testid={world.testId}>
      <header className="lab-header shell-header">
        <div className="lab-title">
          <h1 data-testid="app.title">{world.title}</h1>
          {chrome ? (
            <>
              <LabSwitch />
              <div className="lab-launchers">
                <ViewLauncher view="explore" label="Explore…" title="Sweep one or two of the scenario's fields over seeds, on every core" />
                <ViewLauncher view="claims" label="Claims…" title="Every claim of both papers beside the lab’s number, its verdict and the assumptions that flip it" />
                {world.launchers}
              </div>
              <LabAbout />
            </>
          ) : null}
          <p className="tagline">{world.tagline}</p>
        </div>
        {hidden('playback') ? null : <PlaybackBar playback={world.playback} onHelp={() => help.setOpen(true)} />}
        <div className="lab-toolbar">
          {hidden('links') || !chrome ? null : <ShareBar share={world.share} />}
          {hidden('lessons') ? null : <ShellLessons store={store} lessons={world.lessons} underWayHere={!lessonInDock} />}
        </div>
      </header>
      <ErrorBanner />
      {world.notices}
      <OverView />
      <main className={`lab-main shell-main${dock.length === 0 || !chrome ? ' no-dock' : ''}${dockOpen ? '' : ' dock-closed'}`} hidden={over} data-stepping={stepping}>
        <section className="lab-board shell-board" aria-label="Board">
          {world.board}
        </section>
        {hidden('charts') ? null : <div className="shell-main-chart">{world.mainChart}</div>}
        {hidden('timeline') ? null : <div className="lab-timeline shell-timeline">{world.timeline}</div>}
        {hidden('charts') ? null : (
          <section className="lab-charts shell-charts" aria-label="Charts">
            {world.charts}
          </section>
        )}
        {dock.length === 0 || !chrome ? null : (
          <aside className="lab-side shell-dock" aria-label={world.dockLabel} data-testid="dock" data-open={dockOpen}>
            <button type="button" className="dock-toggle" data-testid="dock.toggle" aria-expanded={dockOpen} onClick={() => setDockOpen(!dockOpen)} title={dockOpen ? 'Fold the side panels away' : 'Show the side panels'}>
              {dockOpen ? 'Hide panels ▸' : '◂'}
            </button>
            {dockOpen && lessonInDock && lessonId !== null ? (
              <div className="dock-panel dock-lesson">
                <DockLesson store={store} lessons={world.lessons} />
              </div>
            ) : null}
            {dockOpen ? dock.map((p) => <div key={p.part} className={`dock-panel dock-${p.part}`}>{p.node}</div>) : null}
          </aside>
        )}
      </main>
      <HelpOverlay open={help.open} onClose={() => help.setOpen(false)} shortcuts={world.shortcuts} />
    </div>
  );
}
