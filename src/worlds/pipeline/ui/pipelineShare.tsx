import { useEffect } from 'react';
import type { HideableControl } from '../../../scenario/schema';
import type { PipelineLabStore } from '../store/pipelineStore';
import { downloadText, fileSlug } from '../../../ui/download';
import { FileButton } from '../../../ui/FileButton';
import { usePipelineLab, usePipelineStore } from './pipelineContext';
import { currentLink } from '../../../ui/linkSync';
import { afterWorlds } from '../../../kit/worlds';
import { loadOnce, preloadWhenIdle } from '../../../ui/shell/deferred';
import { PresetsGallery } from '../../../ui/shell/presetsGallery';
import type { WorldShare } from '../../../ui/shell/ShareBar';


/** The results' JSON and CSV writers, not on the first load (ARCHITECTURE §7a′): fetched when the browser is first idle, so that they work at once, also offline. */
const results = loadOnce(() => import('./pipelineResults'));

/** Files larger than this are refused before they are read (a scenario is a few KiB). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The parts a pipeline classroom link can hide. */
export const PIPELINE_PARTS: Record<HideableControl, string> = {
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

/** The pipeline world's file buttons in the share bar: scenario import and export, results as JSON and CSV. */
function PipelineFiles() {
  const store = usePipelineStore();
  const title = usePipelineLab((s) => s.scenario?.title ?? 'scenario');
  const act = store.getState();
  useEffect(() => preloadWhenIdle(results), []);
  const importFile = async (file: File | undefined) => {
    if (file === undefined) return;
    if (file.size > MAX_FILE_BYTES) {
      act.reject('file', [{ path: '(file)', message: `is ${file.size} bytes; a scenario file may have at most ${MAX_FILE_BYTES}` }]);
      return;
    }
    // The validator (zod) loads with the first file: the first screen does not need it (ARCHITECTURE §7a′).
    const { parsePipelineScenarioJson } = await afterWorlds(() => import('../door'));
    const parsed = parsePipelineScenarioJson(await file.text());
    if (!parsed.ok) act.reject('file', parsed.errors);
    else await act.load(parsed.scenario, 'file');
  };
  return (
    <>
      <FileButton testId="files.import" inputTestId="files.import-input" accept="application/json,.json" title="Import a scenario file (JSON)" onFile={importFile}>
        Import…
      </FileButton>
      <button type="button" data-testid="files.export-scenario" title="Export the scenario as a file (JSON)" onClick={() => downloadText(`${fileSlug(title)}.json`, `${JSON.stringify(store.getState().scenario, null, 2)}\n`, 'application/json')}>
        Export
      </button>
      <button type="button" data-testid="files.export-json" onClick={() => void results().then((r) => downloadText(`${fileSlug(title)}-results.json`, r.pipelineResultsJson(store.getState()), 'application/json'))}>
        Results JSON
      </button>
      <button type="button" data-testid="files.export-csv" onClick={() => void results().then((r) => downloadText(`${fileSlug(title)}-results.csv`, r.pipelineResultsCsv(store.getState()), 'text/csv'))}>
        Results CSV
      </button>
    </>
  );
}

/** The pipeline world's share bar: its link codec, the presets gallery (of every world) and its files. */
export function pipelineShare(store: PipelineLabStore): WorldShare {
  return {
    copyLink: async () => {
      const url = await currentLink(store, window);
      return url === null ? { problem: 'this scenario is too large for a link (over 64 KiB once packed): use Export to share it as a file' } : { url };
    },
    presets: (close) => (
      <PresetsGallery onClose={close} />
    ),
    files: <PipelineFiles />,
    parts: PIPELINE_PARTS,
  };
}
