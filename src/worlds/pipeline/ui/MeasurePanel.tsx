import { useEffect, useMemo, useRef, useState } from 'react';
import { FileButton } from '../../../ui/FileButton';
import { useHostWidth } from '../../../ui/useHostWidth';
import { useStore } from 'zustand';
import { renderSlowdownChart } from '../charts/slowdownChart';
import { getDatabase } from '../engine/profiles/databases';
import { unitBoundness, unitSlowdowns } from '../engine/profiles/slowdown';
import { INTERFERENCE_MODE_IDS, MODE_IDS, MODEL_IDS, type LayerTimeDatabase, type ModeId, type ModelId } from '../engine/profiles/types';
import { describeMode } from '../engine/profiles/databases';
import { describeHogPlan, hogPlan } from '../engine/profiles/hogPlan';
import { databaseToCsv, databaseToJson, MAX_DATABASE_FILE_BYTES } from '../scenario/databaseFile';
import { createMeasureWorkerClient } from '../store/measureClient';
import { measuredDatabase } from '../store/measuredDatabase';
import { createMeasureStore, MEASURE_REPEATS, PAGE_HOG_BUFFER_MIB, type MeasureState, type MeasureStore } from '../store/measureStore';
import { downloadText } from '../../../ui/download';
import { usePipelineStore } from './pipelineContext';
import { linkFor } from '../../../ui/linkSync';

const MODEL_LABELS: Record<ModelId, string> = { vgg16: 'VGG16', resnet50: 'ResNet-50', resnet152: 'ResNet-152' };

/** How many hogs a mode starts on `cores` cores (hogPlan.ts). */
function hogsHere(mode: ModeId, cores: number): string {
  return describeHogPlan(hogPlan(mode, cores));
}

function formatMs(ms: number | null): string {
  if (ms === null) return 'estimating…';
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s left` : `${s} s left`;
}

function formatRate(value: number | undefined, unit: string): string {
  if (value === undefined) return '';
  return `${(value / 1e9).toFixed(2)} G${unit}/s`;
}

function slug(db: LayerTimeDatabase): string {
  const size = db.measurement?.inputSize;
  return `${db.model}-database${size === undefined ? '' : `-${size}`}`;
}

function useMeasure<T>(store: MeasureStore, selector: (s: MeasureState) => T): T {
  return useStore(store, selector);
}

/** The chart, redrawn when its data changes or the panel is resized. */
function SlowdownChart({ database, partial, model, inputSize, modes }: { readonly database: LayerTimeDatabase | null; readonly partial: Partial<Record<ModeId, readonly number[]>> | null; readonly model: ModelId; readonly inputSize: number; readonly modes: readonly ModeId[] }) {
  const svg = useRef<SVGSVGElement>(null);
  const [host, width] = useHostWidth(320);
  const data = useMemo(() => {
    const roofline = getDatabase(model);
    const measured = partial ?? database?.modes ?? null;
    const shown = modes.filter((m) => m !== 'A');
    const measuredSlowdowns: Partial<Record<ModeId, number[]>> = {};
    const alone = measured?.A;
    if (measured !== null && alone !== undefined) {
      for (const m of shown) {
        const times = measured[m];
        if (times !== undefined) measuredSlowdowns[m] = times.map((t, l) => t / (alone[l] ?? Number.NaN));
      }
    }
    const rooflineSlowdowns = Object.fromEntries(shown.map((m) => [m, unitSlowdowns(roofline, m)]));
    const sameUnits = database === null || database.layers.length === roofline.layers.length;
    return {
      layers: roofline.layers,
      boundness: unitBoundness(model, inputSize),
      modes: shown,
      panels: sameUnits
        ? [
            { title: 'measured here', slowdowns: measuredSlowdowns },
            { title: 'roofline (derived, the lab’s default)', slowdowns: rooflineSlowdowns },
          ]
        : [{ title: 'roofline (derived, the lab’s default)', slowdowns: rooflineSlowdowns }],
    };
  }, [database, partial, model, inputSize, modes]);
  useEffect(() => {
    if (svg.current !== null) renderSlowdownChart(svg.current, data, width);
  }, [data, width]);
  return (
    <div ref={host} className="measure-chart" data-testid="measure.chart">
      <svg ref={svg} role="img" aria-label="Slowdown per unit under each mode: measured here and from the roofline model" />
    </div>
  );
}

/**
 * The Measure panel (ARCHITECTURE §2, measured databases): measure the layer-time database on this machine, the way
 * the ODIN paper built its own, watch it fill in, and run the schedulers on it.
 */
export function MeasurePanel({ initiallyOpen = false }: { readonly initiallyOpen?: boolean } = {}) {
  const lab = usePipelineStore();
  const [store] = useState<MeasureStore>(() => {
    const created = createMeasureStore(createMeasureWorkerClient());
    if (initiallyOpen) created.getState().setOpen(true);
    return created;
  });
  const open = useMeasure(store, (s) => s.open);
  const model = useMeasure(store, (s) => s.model);
  const modes = useMeasure(store, (s) => s.modes);
  const repeats = useMeasure(store, (s) => s.repeats);
  const inputSize = useMeasure(store, (s) => s.inputSize);
  const status = useMeasure(store, (s) => s.status);
  const progress = useMeasure(store, (s) => s.progress);
  const database = useMeasure(store, (s) => s.database);
  const source = useMeasure(store, (s) => s.source);
  const notice = useMeasure(store, (s) => s.notice);
  const cores = useMeasure(store, (s) => s.cores);
  // The real-run panel uses this database when it matches its run.
  useEffect(() => measuredDatabase.setState({ database }), [database]);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const act = store.getState();
  const running = status === 'running' || status === 'cancelling';

  const use = async () => {
    const scenario = lab.getState().scenario;
    if (scenario === null) return;
    const next = act.scenarioFor(scenario);
    if (next === null) return;
    const ok = await lab.getState().load(next, 'edit');
    if (!ok) {
      act.notify({ kind: 'error', text: 'The scenario did not accept this database (see the message above the board).' });
      return;
    }
    const json = JSON.stringify(lab.getState().scenario);
    if ((await linkFor(next)) === null) {
      setTooLarge(json);
      act.notify({ kind: 'info', text: 'The scenario now runs on this database. It is too large to travel in a link: download the scenario file to share it.' });
    } else {
      setTooLarge(null);
      act.notify({ kind: 'info', text: 'The scenario now runs on this database; the link carries it.' });
    }
  };

  const onFile = async (file: File | undefined) => {
    if (file === undefined) return;
    if (file.size > MAX_DATABASE_FILE_BYTES) {
      act.notify({ kind: 'error', text: `${file.name}: is ${file.size} bytes; a database file may have at most ${MAX_DATABASE_FILE_BYTES}. Nothing changed.` });
      return;
    }
    act.importText(await file.text(), file.name);
  };

  const shownModel = (database?.model as ModelId | undefined) && (MODEL_IDS as readonly string[]).includes(database!.model) && !running ? (database!.model as ModelId) : model;
  const shownSize = !running && database?.measurement !== undefined ? database.measurement.inputSize : inputSize;
  const chartModes = running ? MODE_IDS.filter((m) => m === 'A' || modes.includes(m)) : database !== null ? MODE_IDS.filter((m) => database.modes[m] !== undefined) : MODE_IDS.filter((m) => m === 'A' || modes.includes(m));

  return (
    <section className="measure-bar" aria-label="Measure your machine">
      <button type="button" data-testid="measure.open" title="Measure the layer-time database on this machine" aria-expanded={open} onClick={() => act.setOpen(!open)}>
        {open ? 'Hide Measure' : 'Measure…'}
      </button>
      {open ? (
        <div className="measure-panel" data-testid="measure">
          <h2>Measure a layer-time database on this machine</h2>
          <p className="measure-explain">
            As the ODIN paper built its database (§4.1, Table 1): each unit of the model runs as real TensorFlow.js layers (wasm backend, one thread, seeded random weights) alone
            (mode A) and beside CPU hogs (arithmetic in registers) and memory-bandwidth hogs (streaming a {PAGE_HOG_BUFFER_MIB} MiB buffer), each a Web Worker.
          </p>
          <p className="measure-explain" data-testid="measure.mapping">
            A browser cannot pin threads to cores or give the CNN exactly 8 or 4 cores. So each mode keeps Table 1&apos;s share of the paper&apos;s 8-core execution place: n hog threads there
            start max(1, round(n × {cores ?? 'C'} / 8)) hogs on this machine&apos;s {cores ?? 'C'} cores, placed by the operating system; J–L cannot confine the CNN to half the cores.
            {cores !== null && cores < 8 ? ` With ${cores} cores, modes with the same count coincide (e.g. B, C, D).` : ''}
          </p>
          <div className="measure-controls">
            <label>
              Model{' '}
              <select data-testid="measure.model" value={model} disabled={running} onChange={(e) => act.setModel(e.target.value as ModelId)}>
                {MODEL_IDS.map((id) => (
                  <option key={id} value={id}>
                    {MODEL_LABELS[id]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Input{' '}
              <select data-testid="measure.size" value={inputSize} disabled={running} onChange={(e) => act.setInputSize(e.target.value === '224' ? 224 : 112)}>
                <option value={112}>112 × 112 (quick)</option>
                <option value={224}>224 × 224 (the paper&apos;s)</option>
              </select>
            </label>
            <label>
              Repeats{' '}
              <input
                data-testid="measure.repeats"
                type="number"
                min={MEASURE_REPEATS.min}
                max={MEASURE_REPEATS.max}
                value={repeats}
                disabled={running}
                onChange={(e) => act.setRepeats(Number(e.target.value))}
              />
            </label>
          </div>
          <fieldset className="measure-modes" disabled={running}>
            <legend>Modes (A, alone, is always measured)</legend>
            {INTERFERENCE_MODE_IDS.map((mode) => (
              <label key={mode} title={describeMode(mode)}>
                <input type="checkbox" data-testid={`measure.mode-${mode}`} checked={modes.includes(mode)} onChange={() => act.toggleMode(mode)} /> {mode}{' '}
                <span className="measure-hogs-count">({cores === null ? describeMode(mode) : hogsHere(mode, cores)})</span>
              </label>
            ))}
          </fieldset>
          <div className="measure-actions">
            <button type="button" data-testid="measure.start" disabled={running} onClick={() => void act.start()}>
              Measure
            </button>
            <button type="button" data-testid="measure.cancel" disabled={!running} onClick={() => void act.cancel()}>
              Cancel
            </button>
            <button type="button" data-testid="measure.use" disabled={running || database === null} onClick={() => void use()}>
              Use this database
            </button>
            <FileButton testId="measure.import" inputTestId="measure.file" accept=".json,.csv,application/json,text/csv" disabled={running} onFile={onFile}>
              Import database…
            </FileButton>
            <button type="button" data-testid="measure.export-json" disabled={database === null} onClick={() => database !== null && downloadText(`${slug(database)}.json`, databaseToJson(database), 'application/json')}>
              Export JSON
            </button>
            <button type="button" data-testid="measure.export-csv" disabled={database === null} onClick={() => database !== null && downloadText(`${slug(database)}.csv`, databaseToCsv(database), 'text/csv')}>
              Export CSV
            </button>
            {tooLarge !== null ? (
              <button type="button" data-testid="measure.download-scenario" onClick={() => downloadText('scenario.json', `${tooLarge}\n`, 'application/json')}>
                Download the scenario file
              </button>
            ) : null}
          </div>
          <div className="measure-progress-row">
            <progress data-testid="measure.progress" max={1} value={progress?.fraction ?? (status === 'done' ? 1 : 0)} aria-label="Measurement progress" data-status={status} />
            <span data-testid="measure.status">
              {status === 'running' && progress !== null
                ? `${Math.round(progress.fraction * 100)} % · mode ${progress.mode} · ${progress.unit} · ${formatMs(progress.remainingMs)}`
                : status === 'running'
                  ? 'loading TensorFlow.js and warming up…'
                  : status === 'cancelling'
                    ? 'cancelling…'
                    : status === 'done'
                      ? 'done'
                      : ''}
            </span>
          </div>
          {running && progress !== null ? (
            <p data-testid="measure.hogs" className="measure-hogs">
              Hogs now: {progress.hogs}
              {progress.hogRates.cpuOpsPerS !== undefined ? ` · CPU ${formatRate(progress.hogRates.cpuOpsPerS, 'FLOP')}` : ''}
              {progress.hogRates.memBytesPerS !== undefined ? ` · memBW ${formatRate(progress.hogRates.memBytesPerS, 'B')}` : ''}
            </p>
          ) : null}
          {notice !== null ? (
            <p className={`measure-notice ${notice.kind}`} data-testid="measure.notice" role={notice.kind === 'error' ? 'alert' : 'status'}>
              {notice.text}
            </p>
          ) : null}
          {database?.measurement !== undefined && !running ? (
            <p className="measure-record" data-testid="measure.record">
              {source === 'imported' ? 'Imported; measured' : 'Measured'} on {database.measurement.backend}, {database.measurement.threads} thread, {database.measurement.cores} cores, {database.measurement.inputSize} ×{' '}
              {database.measurement.inputSize}, median of {database.measurement.repeats}, {database.measurement.date}; {database.measurement.runtime}.
            </p>
          ) : null}
          <SlowdownChart database={running ? null : database} partial={running ? (progress?.partial ?? null) : null} model={shownModel} inputSize={shownSize} modes={chartModes} />
        </div>
      ) : null}
    </section>
  );
}
