import { lazy, Suspense, useEffect, useState } from 'react';
import { FileButton } from './FileButton';
import type { HideableControl, ServingScenario } from '../scenario/schema';
import { whenIdle } from './deferred';
import { downloadText } from './download';
import { useLab, useLabStore } from './labContext';
import { currentLink } from './linkSync';

/** The gallery of every preset, loaded when it is first opened (issue 12: first load). */
const PresetsGallery = lazy(() => import('./PresetsGallery').then((m) => ({ default: m.PresetsGallery })));
/** The classroom settings and the results' JSON and CSV writers, not on the first load (issue 12 part 6): fetched when the browser is first idle, so that they work at once, also offline. */
const classroomPanel = () => import('./ClassroomPanel');
const ClassroomPanel = lazy(() => classroomPanel().then((m) => ({ default: m.ClassroomPanel })));
const results = () => import('./results');

/** Files larger than this are refused before they are read (a scenario is a few KiB). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const HIDE_LABELS: Record<HideableControl, string> = {
  playback: 'playback',
  palette: 'workload palette',
  lanes: 'lanes',
  scenario: 'scenario settings',
  assumptions: 'assumptions',
  events: 'workload list',
  charts: 'charts',
  links: 'this share bar',
  algorithm: 'algorithm panel',
  timeline: 'time line',
  lessons: 'lessons',
};

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'scenario'
  );
}

/** Sharing and files: copy link, presets, import/export, undo/redo, classroom view. */
export function ShareBar({ onOpenServing }: { readonly onOpenServing?: (scenario: ServingScenario) => void } = {}) {
  const store = useLabStore();
  useEffect(() => whenIdle(() => void Promise.all([classroomPanel(), results()]).catch(() => undefined)), []);
  const canUndo = useLab((s) => s.past.length > 0);
  const canRedo = useLab((s) => s.future.length > 0);
  const view = useLab((s) => s.view);
  const title = useLab((s) => s.scenario?.title ?? 'scenario');
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState<'copied' | 'select' | 'too-large' | null>(null);
  const [panel, setPanel] = useState<'presets' | 'classroom' | null>(null);
  const act = store.getState();

  const copyLink = async () => {
    const url = await currentLink(store, window);
    if (url === null) {
      setLink(null);
      setCopied('too-large');
      return;
    }
    setLink(url);
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      // No clipboard permission (or an insecure context): the link is shown, selected, to copy by hand.
      setCopied('select');
    }
  };

  const importFile = async (file: File | undefined) => {
    if (file === undefined) return;
    if (file.size > MAX_FILE_BYTES) {
      act.reject('file', [{ path: '(file)', message: `is ${file.size} bytes; a scenario file may have at most ${MAX_FILE_BYTES}` }]);
      return;
    }
    // The validator (zod) loads with the first file: the first screen does not need it (issue 12).
    const { parseScenarioJson } = await import('../scenario/parse');
    const parsed = parseScenarioJson(await file.text());
    if (!parsed.ok) act.reject('file', parsed.errors);
    else await act.load(parsed.scenario, 'file');
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
        <FileButton testId="files.import" inputTestId="files.import-input" accept="application/json,.json" onFile={importFile}>
          Import scenario…
        </FileButton>
        <button type="button" data-testid="files.export-scenario" onClick={() => downloadText(`${slug(title)}.json`, `${JSON.stringify(store.getState().scenario, null, 2)}\n`, 'application/json')}>
          Export scenario
        </button>
        <button type="button" data-testid="files.export-json" onClick={() => void results().then(({ resultsJson }) => downloadText(`${slug(title)}-results.json`, resultsJson(store.getState()), 'application/json'))}>
          Results JSON
        </button>
        <button type="button" data-testid="files.export-csv" onClick={() => void results().then(({ resultsCsv }) => downloadText(`${slug(title)}-results.csv`, resultsCsv(store.getState()), 'text/csv'))}>
          Results CSV
        </button>
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
      {copied === 'too-large' ? (
        <p className="share-link" role="status">
          This scenario is too large for a link (over 64 KiB once packed): use Export scenario to share it as a file.
        </p>
      ) : null}
      {link !== null ? (
        <p className="share-link">
          <label>
            {copied === 'copied' ? 'Copied to the clipboard:' : 'Copy this link:'}{' '}
            <input readOnly value={link} data-testid="links.url" onFocus={(e) => e.target.select()} autoFocus={copied === 'select'} />
          </label>
          <span className="subtle"> ({link.length.toLocaleString('en-US')} characters)</span>
        </p>
      ) : null}
      {panel === 'presets' ? (
        <Suspense fallback={<p className="loading">Opening the presets…</p>}>
          <PresetsGallery
            onOpenServing={onOpenServing}
            onLoad={(scenario) => {
              setPanel(null);
              void act.load(scenario, 'preset');
            }}
            onClose={() => setPanel(null)}
          />
        </Suspense>
      ) : null}
      {panel === 'classroom' ? (
        <Suspense fallback={null}>
          <ClassroomPanel view={view} onChange={(v) => act.setView({ mode: v.mode, hide: [...v.hide] })} parts={HIDE_LABELS} />
        </Suspense>
      ) : null}
    </section>
  );
}
