import { useState } from 'react';
import { FileButton } from '../../../ui/FileButton';
import { useStore } from 'zustand';
import { traceLinkProblem, TRACE_LIMITS } from '../scenario/servingTrace';
import type { ServingStore } from '../store/servingStore';
import { downloadText, fileSlug } from '../../../ui/download';
import { TRACE_FILE_BYTES, traceFileScenario, withoutTrace } from './traceScenario';
import './servingPanels.css';

const MIB = 1024 * 1024;

/**
 * Trace replay in the serving lab (ARCHITECTURE §3): a CSV or JSON file of arrival times and models
 * replaces the drawn arrivals, read by the same parser with the same checks and caps as the
 * scenario and the command line (worlds/serving/scenario/servingTrace.ts). A malformed file is refused with a banner
 * naming the file and the field, and the current scenario stays. A trace longer than a link
 * carries travels as a scenario file: this panel says so and saves and opens such files.
 */
export function TracePanel({ store }: { readonly store: ServingStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  const [loaded, setLoaded] = useState<{ readonly name: string; readonly requests: number } | null>(null);
  const act = store.getState();
  const trace = scenario?.serving.trace;
  const fileOnly = scenario === null ? null : traceLinkProblem(scenario);

  const tooLarge = (file: File, what: string): boolean => {
    if (file.size <= TRACE_FILE_BYTES) return false;
    act.reject('file', [{ path: file.name, message: `is ${file.size.toLocaleString('en-US')} bytes; a ${what} may have at most ${TRACE_FILE_BYTES / MIB} MiB. Nothing changed.` }]);
    return true;
  };

  const readTrace = async (file: File | undefined) => {
    const current = store.getState().scenario;
    if (file === undefined || current === null || tooLarge(file, 'trace file')) return;
    const result = traceFileScenario(current, file.name, await file.text());
    if (!result.ok) {
      act.reject('file', result.errors);
      return;
    }
    if (await act.load(result.scenario, 'file')) setLoaded({ name: file.name, requests: result.requests });
  };

  const readScenario = async (file: File | undefined) => {
    if (file === undefined || tooLarge(file, 'scenario file')) return;
    let value: unknown;
    try {
      value = JSON.parse(await file.text());
    } catch (error) {
      act.reject('file', [{ path: file.name, message: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }]);
      return;
    }
    // The worker validates it like any scenario (a rejection keeps the current one).
    if (await act.load(value, 'file')) setLoaded(null);
  };

  return (
    <section className="trace-panel" aria-label="Trace replay and scenario files" data-testid="serving.trace">
      <div className="trace-row">
        <FileButton testId="trace.load" inputTestId="trace.input" accept=".csv,.json,text/csv,application/json" disabled={scenario === null} onFile={readTrace} title="CSV with columns time_s, model (optional slo_ms, shape_class), or JSON [{tS, model, sloMs?, shapeClass?}]">
          Replay a trace file…
        </FileButton>
        {trace === undefined || scenario === null ? null : (
          <button type="button" data-testid="trace.remove" onClick={() => void act.load(withoutTrace(scenario), 'edit')}>
            Draw arrivals again
          </button>
        )}
        <button
          type="button"
          data-testid="serving.export-scenario"
          disabled={scenario === null}
          onClick={() => scenario !== null && downloadText(`${fileSlug(scenario.title, 'serving-scenario')}.json`, `${JSON.stringify(scenario, null, 2)}\n`, 'application/json')}
        >
          Save scenario file
        </button>
        <FileButton testId="serving.import-scenario" inputTestId="serving.import-input" accept="application/json,.json" onFile={readScenario}>
          Open scenario file…
        </FileButton>
      </div>
      {trace === undefined || scenario === null ? null : (
        <p className="trace-status" data-testid="trace.status" data-requests={trace.requests.length}>
          Replaying {trace.requests.length.toLocaleString('en-US')} requests{loaded !== null && loaded.requests === trace.requests.length ? ` from ${loaded.name}` : ''} over {scenario.serving.durationS.toLocaleString('en-US')} s
          instead of drawing arrivals (the run ends in the second after the last request).
        </p>
      )}
      {fileOnly === null ? null : (
        <p className="trace-status" role="status" data-testid="trace.file-only">
          This trace is too long for a link (a link carries at most {TRACE_LIMITS.linkRequests.toLocaleString('en-US')} requests): it travels as a file. Save it with Save scenario file;
          Open scenario file… opens it here again.
        </p>
      )}
    </section>
  );
}
