import { useEffect, useState, type ReactNode } from 'react';
import type { HideableControl } from '../../scenario/limits';
import { deferred, preloadWhenIdle } from './deferred';
import { useShell, useShellStore } from './shellStore';

/** The classroom settings, not on the first load (ARCHITECTURE §7a′): fetched when the browser is first idle. */
const ClassroomPanel = deferred('classroom', () => import('../ClassroomPanel').then((m) => m.ClassroomPanel), { when: 'onShow' });

/** A link to the scenario, or why there is none (too large, a trace too long for a link). */
export type CopiedLink = { readonly url: string } | { readonly problem: string };

/** What a world puts in the share bar. */
export interface WorldShare {
  /** The link to the scenario shown (its world's codec), or why there is none. */
  copyLink(): Promise<CopiedLink>;
  /** The presets list or gallery; `close` folds it again. */
  presets(close: () => void): ReactNode;
  /** The world's file buttons (scenario files, results, traces), after the shared ones. */
  readonly files?: ReactNode;
  /** The parts a classroom link can hide, in this world's words (parts it lacks are not offered). */
  readonly parts: Partial<Record<HideableControl, string>>;
}

/**
 * The share bar of both labs: Copy link, Presets, undo/redo and the classroom panel, with
 * the world's file buttons between them. Test ids `links.copy`, `links.url`,
 * `links.problem`, `links.presets`, `controls.undo`, `controls.redo`, `view.classroom`.
 */
export function ShareBar({ share }: { readonly share: WorldShare }) {
  const store = useShellStore();
  const canUndo = useShell((s) => s.past.length > 0);
  const canRedo = useShell((s) => s.future.length > 0);
  const view = useShell((s) => s.view);
  const [link, setLink] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState<'copied' | 'select' | null>(null);
  const [panel, setPanel] = useState<'presets' | 'classroom' | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const act = store.getState();
  useEffect(() => preloadWhenIdle(ClassroomPanel.preload), []);
  // In presentation the world's file buttons fold into one, so that the share bar fits on the
  // title's row and the board, the main chart and the dock share the projector's screen.
  const foldFiles = view.mode === 'presentation' && share.files !== undefined;

  const copyLink = async () => {
    const linked = await share.copyLink();
    if ('problem' in linked) {
      setLink(null);
      setProblem(linked.problem);
      return;
    }
    setProblem(null);
    setLink(linked.url);
    try {
      await navigator.clipboard.writeText(linked.url);
      setCopied('copied');
    } catch {
      // No clipboard permission (or an insecure context): the link is shown, selected, to copy by hand.
      setCopied('select');
    }
  };

  return (
    <section className="share" aria-label="Share, files and history" data-hideable="links">
      <div className="share-row">
        <button type="button" data-testid="links.copy" onClick={() => void copyLink()}>
          Copy link
        </button>
        <button type="button" data-testid="links.presets" aria-expanded={panel === 'presets'} onClick={() => setPanel(panel === 'presets' ? null : 'presets')}>
          Presets
        </button>
        {foldFiles ? (
          <button type="button" data-testid="links.files" aria-expanded={filesOpen} onClick={() => setFilesOpen(!filesOpen)}>
            Files {filesOpen ? '▴' : '▾'}
          </button>
        ) : null}
        {!foldFiles || filesOpen ? share.files : null}
        <button type="button" data-testid="controls.undo" disabled={!canUndo} onClick={() => void act.undo()} aria-keyshortcuts="Control+Z" title="Undo (Ctrl+Z)">
          ↶ Undo
        </button>
        <button type="button" data-testid="controls.redo" disabled={!canRedo} onClick={() => void act.redo()} aria-keyshortcuts="Control+Shift+Z" title="Redo (Ctrl+Shift+Z)">
          ↷ Redo
        </button>
        <button type="button" data-testid="view.classroom" aria-expanded={panel === 'classroom'} onClick={() => setPanel(panel === 'classroom' ? null : 'classroom')}>
          Classroom…
        </button>
      </div>
      {problem === null ? null : (
        <p className="share-link" role="status" data-testid="links.problem">
          No link: {problem}.
        </p>
      )}
      {link !== null ? (
        <p className="share-link">
          <label>
            {copied === 'copied' ? 'Copied to the clipboard:' : 'Copy this link:'}{' '}
            <input readOnly value={link} data-testid="links.url" onFocus={(e) => e.target.select()} autoFocus={copied === 'select'} />
          </label>
          <span className="subtle"> ({link.length.toLocaleString('en-US')} characters)</span>
        </p>
      ) : null}
      {panel === 'presets' ? share.presets(() => setPanel(null)) : null}
      {panel === 'classroom' ? <ClassroomPanel view={view} onChange={(v) => act.setView({ mode: v.mode, hide: [...v.hide] })} parts={share.parts} /> : null}
    </section>
  );
}
