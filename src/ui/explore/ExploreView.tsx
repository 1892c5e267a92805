import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { chartFileName, chartPngBlob, chartSvgString } from '../../charts/export';
import { drawExplore } from '../../charts/exploreChart';
import { laneColour } from '../../charts/palette';
import { exploreData, formatValue, type ExplorePoint, type HeatmapMode } from '../../charts/exploreData';
import { toCsv } from '../../scenario/csv';
import { formatErrors, validateAnyScenario, type AnyScenario } from '../../scenario/schema';
import { worldOf } from '../../kit/worlds';
import { cellScenario, sweepCombinations, sweepMetricsOf, type Sweep } from '../../scenario/sweep';
import { fieldName, metricName } from '../../scenario/sweepNames';
import { csvRows, sweepReport, type CellOutcome, type ResultRow } from '../../scenario/sweepReport';
import { higherIsBetter } from '../../scenario/sweepStats';
import type { ExploreStore } from '../../store/exploreStore';
import { pageWorkers } from '../../store/explorePool';
import { downloadBlob, downloadText } from '../download';
import { axisText, defaultSweep, parseAxisValues, sweepableFields } from './fields';
import { findSurprises } from './surprises';

/**
 * While a sweep runs, the seconds since it started and the cells under way, every second: a cell of
 * the serving world can take a minute, and "0 of 15" said nothing for that long (issue 37).
 */
function Elapsed({ since, running }: { readonly since: number; readonly running: number }) {
  const [nowMs, setNowMs] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(performance.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span data-testid="explore.elapsed">
      {' '}
      · {Math.max(0, Math.round((nowMs - since) / 1000))} s, {running} cell{running === 1 ? '' : 's'} under way
    </span>
  );
}

export interface ExploreViewProps {
  /** The live lab's scenario: the sweep runs over its fields. */
  readonly scenario: AnyScenario;
  readonly store: ExploreStore;
  /** The person changed the sweep (it travels in the link). */
  readonly onSweepChange: (sweep: Sweep) => void;
  /** Open one run (a cell's fields and seed) in the live lab. */
  readonly onOpenRun: (scenario: AnyScenario) => void;
  readonly onClose: () => void;
  /** Start the sweep when the view opens (a sweep link). */
  readonly autoStart?: boolean;
  /** Open the Claims view on a claim (its id in `scenario/claims.ts`): a result that contradicts a lesson points at the claim that explains it. */
  readonly onOpenClaim?: (id: string) => void;
}

interface Draft {
  readonly axes: { path: string; text: string }[];
  readonly seeds: number;
  readonly metric: string;
  readonly compare: { a: number; b: number } | null;
}

function draftOf(sweep: Sweep, scenario: AnyScenario): Draft {
  // The scenario's own sweep as it is (two axes at most); the world's default starts with one axis, a line per lane (Add an axis for a heatmap).
  const axes = scenario.sweep === undefined ? 1 : 2;
  return {
    axes: sweep.axes.slice(0, axes).map((a) => ({ path: a.path, text: axisText(a) })),
    seeds: sweep.seeds ?? 1,
    metric: sweep.metric ?? sweepMetricsOf(scenario)[0]!,
    compare: sweep.compare ?? null,
  };
}

function sweepOf(draft: Draft): Sweep {
  return {
    axes: draft.axes.map((a) => parseAxisValues(a.path, a.text)),
    seeds: draft.seeds,
    metric: draft.metric,
    ...(draft.compare === null ? {} : { compare: draft.compare }),
  };
}

/**
 * Explore: a sweep over one or two of the scenario's fields, run on a pool of Web Workers.
 * One axis draws a line per lane with its 95 % band over seeds; two draw a heatmap of one
 * lane or of the difference of two lanes. Hover a cell for mean ± interval and seed count;
 * click it to open that run in the live lab.
 */
export function ExploreView({ scenario, store, onSweepChange, onOpenRun, onClose, autoStart = false, onOpenClaim }: ExploreViewProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(defaultSweep(scenario), scenario));
  const [errors, setErrors] = useState<string | null>(null);
  const [hover, setHover] = useState<{ point: ExplorePoint; lane: number | null } | null>(null);
  const [lane, setLane] = useState(0);
  const [poolSize, setPoolSize] = useState(pageWorkers);
  const status = useStore(store, (s) => s.status);
  const done = useStore(store, (s) => s.done);
  const total = useStore(store, (s) => s.total);
  const version = useStore(store, (s) => s.version);
  const workers = useStore(store, (s) => s.workers);
  const swept = useStore(store, (s) => s.scenario);
  const error = useStore(store, (s) => s.error);
  const svgRef = useRef<SVGSVGElement>(null);
  const fields = useMemo(() => sweepableFields(scenario), [scenario]);
  const lanes = worldOf(scenario).lanes(scenario);
  const schedulerName = (id: string) => worldOf(scenario).schedulerLabel?.(id) ?? id;

  const candidate = (): AnyScenario | null => {
    const next = { ...scenario, sweep: sweepOf(draft) } as AnyScenario;
    const checked = validateAnyScenario(next);
    if (!checked.ok) {
      setErrors(formatErrors(checked.errors));
      return null;
    }
    setErrors(null);
    return checked.scenario;
  };
  const start = () => {
    const next = candidate();
    if (next === null) return;
    onSweepChange(next.sweep!);
    store.getState().start(next, poolSize);
  };
  const started = useRef(false);
  useEffect(() => {
    if (autoStart && !started.current) {
      started.current = true;
      start();
    }
    // Once, when the view opens from a link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const mode: HeatmapMode = draft.compare !== null && swept?.sweep?.compare !== undefined ? { kind: 'difference', ...swept.sweep.compare } : { kind: 'lane', lane };
  const data = useMemo(() => {
    if (swept === null) return null;
    const s = store.getState();
    return exploreData(swept, s.seeds, s.outcomes, mode);
    // `version` changes with every finished cell.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [swept, version, mode.kind, lane, draft.compare]);

  // A result that contradicts a lesson (ODIN below Static at every α, violations falling as the rate rises): a line under the chart says why and names its claim.
  const surprises = useMemo(() => {
    if (swept === null || data === null || data.lines.length === 0 || data.axes.length !== 1) return [];
    const axis = data.axes[0]!;
    const world = worldOf(swept);
    return findSurprises(data, { schedulers: world.lanes(swept).map((l) => l.scheduler), axisPath: axis.path, axisName: axis.name });
  }, [swept, data]);

  const openCell = (i: number, j: number) => {
    const s = store.getState().scenario;
    if (s === null) return;
    const axes = s.sweep?.axes ?? [];
    const cols = axes.length >= 2 ? sweepCombinations({ ...s, sweep: { axes: [axes[1]!] } }).length : 1;
    const inner = axes.length > 2 ? sweepCombinations({ ...s, sweep: { axes: axes.slice(2) } }).length : 1;
    const values = sweepCombinations(s)[(i * cols + j) * inner]!;
    // The run with the sweep's first seed (the scenario's own): the one the lab plays.
    onOpenRun(cellScenario(s, { values, seed: s.seed }));
  };

  useEffect(() => {
    const svg = svgRef.current;
    if (svg === null || data === null) return;
    // Redrawn at most once per frame however fast the cells arrive.
    const frame = requestAnimationFrame(() =>
      drawExplore(svg, data, {
        onHover: (point, l) => setHover(point === null ? null : { point, lane: l }),
        onOpen: (i, j) => openCell(i, j),
      }),
    );
    return () => cancelAnimationFrame(frame);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);

  const report = (): { json: object; rows: Record<string, unknown>[] } | null => {
    const s = store.getState();
    if (s.scenario === null || s.status !== 'done') return null;
    const json = sweepReport(s.scenario, s.seeds, s.outcomes as CellOutcome[]) as { results: ResultRow[] };
    return { json, rows: csvRows(json.results) };
  };
  const title = swept === null ? 'Explore' : `Explore ${swept.title}`;
  const cellsPerS = status === 'done' && swept !== null ? total / Math.max(1e-3, ((store.getState().finishedMs ?? 0) - store.getState().startedMs) / 1000) : null;
  const hoverText = (() => {
    if (hover === null || data === null) return 'Hover a cell for its mean ± 95 % interval and seeds; click it to open that run in the lab.';
    const p = hover.point;
    const where = data.axes.map((a, k) => `${a.name} ${String(a.values[k === 0 ? p.i : p.j])}`).slice(0, Math.max(1, Math.min(2, data.axes.length))).join(', ');
    const who = hover.lane !== null ? `${data.laneLabels[hover.lane]}: ` : '';
    const diff = data.heatmap?.mode.kind === 'difference';
    if (p.seeds === 0) return `${where}: not run yet`;
    // An interval only where the seeds give different numbers (a scenario without randomness gives a rounding error's width, "± 2.162e−14").
    if (!(Math.abs(p.halfWidth95) > 1e-9 * Math.max(1, Math.abs(p.mean)))) return `${where} — ${who}${formatValue(p.mean, diff)}${diff ? ' %' : ''} (${p.seeds === 1 ? 'one seed' : `the same on all ${p.seeds} seeds`}${p.seeds < p.total ? ` so far, of ${p.total}` : ''})`;
    return `${where} — ${who}${formatValue(p.mean, diff)}${diff ? ' %' : ''} ± ${formatValue(p.halfWidth95)} (95 % interval, ${p.seeds} of ${p.total} seeds)`;
  })();
  const combos = (() => {
    try {
      return sweepCombinations({ ...scenario, sweep: sweepOf(draft) } as AnyScenario).length;
    } catch {
      return 0;
    }
  })();

  return (
    <section className="explore" data-testid="explore" aria-labelledby="explore-heading">
      <header className="explore-header">
        <h2 id="explore-heading">{title}</h2>
        <button type="button" onClick={onClose} data-testid="explore.close">
          Back to the lab
        </button>
      </header>
      <div className="explore-controls">
        {draft.axes.map((axis, k) => (
          <fieldset key={k} className="explore-axis">
            <legend>Axis {k + 1}</legend>
            <label>
              Field
              <select
                data-testid={`explore.axis-${k}.path`}
                value={axis.path}
                onChange={(e) => setDraft({ ...draft, axes: draft.axes.map((a, m) => (m === k ? { ...a, path: e.target.value } : a)) })}
              >
                {fields.some((f) => f.path === axis.path) ? null : <option value={axis.path}>{fieldName(axis.path, scenario)}</option>}
                {fields.map((f) => (
                  <option key={f.path} value={f.path} title={f.path}>
                    {fieldName(f.path, scenario)} (now {String(f.value)})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Values
              <input
                data-testid={`explore.axis-${k}.values`}
                value={axis.text}
                placeholder="2, 10, 100 or 1..30:5"
                onChange={(e) => setDraft({ ...draft, axes: draft.axes.map((a, m) => (m === k ? { ...a, text: e.target.value } : a)) })}
              />
            </label>
            {draft.axes.length > 1 ? (
              <button type="button" onClick={() => setDraft({ ...draft, axes: draft.axes.filter((_, m) => m !== k) })}>
                Remove axis
              </button>
            ) : null}
          </fieldset>
        ))}
        {draft.axes.length < 2 ? (
          <button type="button" data-testid="explore.add-axis" onClick={() => setDraft({ ...draft, axes: [...draft.axes, { path: fields[0]?.path ?? '', text: String(fields[0]?.value ?? '') }] })}>
            Add an axis
          </button>
        ) : null}
        <label>
          Seeds
          <input type="number" min={1} max={1000} data-testid="explore.seeds" value={draft.seeds} onChange={(e) => setDraft({ ...draft, seeds: Math.max(1, Math.round(Number(e.target.value) || 1)) })} />
        </label>
        <label>
          Metric
          <select data-testid="explore.metric" value={draft.metric} onChange={(e) => setDraft({ ...draft, metric: e.target.value })}>
            {sweepMetricsOf(scenario).map((m) => (
              <option key={m} value={m} title={m}>
                {metricName(m)}, {higherIsBetter(m) ? 'higher is better' : 'lower is better'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Compare
          <select
            data-testid="explore.compare"
            value={draft.compare === null ? '' : `${draft.compare.a}:${draft.compare.b}`}
            onChange={(e) => {
              const [a, b] = e.target.value.split(':').map(Number);
              setDraft({ ...draft, compare: e.target.value === '' ? null : { a: a!, b: b! } });
            }}
          >
            <option value="">no comparison</option>
            {lanes.flatMap((_, a) =>
              lanes.map((__, b) =>
                a === b ? null : (
                  <option key={`${a}:${b}`} value={`${a}:${b}`}>
                    lane {a + 1} ({schedulerName(lanes[a]!.scheduler)}) against lane {b + 1} ({schedulerName(lanes[b]!.scheduler)})
                  </option>
                ),
              ),
            )}
          </select>
        </label>
        {draft.axes.length === 2 && draft.compare === null ? (
          <label>
            Heatmap of
            <select data-testid="explore.lane" value={lane} onChange={(e) => setLane(Number(e.target.value))}>
              {lanes.map((l, k) => (
                <option key={k} value={k}>
                  lane {k + 1} ({data?.laneLabels[k] ?? schedulerName(l.scheduler)})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Workers
          <input type="number" min={1} max={64} data-testid="explore.workers" value={poolSize} onChange={(e) => setPoolSize(Math.max(1, Math.min(64, Math.round(Number(e.target.value) || 1))))} />
        </label>
        <button type="button" className="primary" data-testid="explore.run" onClick={start} disabled={status === 'running'}>
          Run {combos} × {draft.seeds} cells
        </button>
        <button type="button" data-testid="explore.cancel" onClick={() => store.getState().cancel()} disabled={status !== 'running'}>
          Cancel
        </button>
      </div>
      {errors !== null ? (
        <pre className="explore-errors" role="alert" data-testid="explore.errors">
          {errors}
        </pre>
      ) : null}
      <div className="explore-status">
        <progress data-testid="explore.progress" value={done} max={Math.max(1, total)} data-status={status} aria-label="cells done" />
        <span data-testid="explore.status">
          {status === 'idle' ? 'Not run yet.' : `${done} of ${total} cells on ${workers} worker${workers === 1 ? '' : 's'} — ${status}`}
          {status === 'running' ? <Elapsed since={store.getState().startedMs} running={Math.min(workers, total - done)} /> : null}
          {cellsPerS !== null ? `, ${formatValue(cellsPerS)} cells/s` : ''}
          {error !== null ? `: ${error}` : ''}
        </span>
      </div>
      {data?.heatmap ? <p className="explore-chart-title">{data.heatmap.title}{data.heatmap.mode.kind === 'difference' ? ' (blue: the first lane does better, red: worse)' : ''}</p> : null}
      {data !== null && data.lines.length > 0 ? (
        <ul className="explore-legend">
          {data.lines.map((l) => (
            <li key={l.lane} data-lane={l.lane} style={{ ['--swatch' as string]: laneColour(l.lane) }}>
              {l.label}
            </li>
          ))}
        </ul>
      ) : null}
      <svg ref={svgRef} className="explore-svg" data-testid="explore.chart" />
      <p className="explore-hover" data-testid="explore.hover" aria-live="polite">
        {hoverText}
      </p>
      {surprises.length > 0 ? (
        <ul className="explore-surprises" data-testid="explore.surprises" aria-label="Results that contradict a lesson, and the claim that explains them">
          {surprises.map((x) => (
            <li key={x.key} data-claim={x.claimId}>
              {x.text}{' '}
              {onOpenClaim !== undefined ? (
                <button type="button" data-testid={`explore.claim-${x.claimId}`} onClick={() => onOpenClaim(x.claimId)}>
                  See the claim: {x.claimName}
                </button>
              ) : (
                <>See the claim {x.claimName} in Claims.</>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="explore-exports">
        <button
          type="button"
          data-testid="explore.export-csv"
          disabled={status !== 'done'}
          onClick={() => {
            const r = report();
            if (r) downloadText(chartFileName(title, 'csv'), toCsv(r.rows), 'text/csv');
          }}
        >
          Table (CSV)
        </button>
        <button
          type="button"
          data-testid="explore.export-json"
          disabled={status !== 'done'}
          onClick={() => {
            const r = report();
            if (r) downloadText(chartFileName(title, 'json'), `${JSON.stringify(r.json, null, 2)}\n`, 'application/json');
          }}
        >
          Table (JSON)
        </button>
        <button type="button" data-testid="explore.export-svg" disabled={data === null} onClick={() => svgRef.current && downloadText(chartFileName(title, 'svg'), chartSvgString(svgRef.current, { title: data?.heatmap?.title ?? title }), 'image/svg+xml')}>
          Chart (SVG)
        </button>
        <button
          type="button"
          data-testid="explore.export-png"
          disabled={data === null}
          onClick={() => void (svgRef.current && chartPngBlob(svgRef.current, { title: data?.heatmap?.title ?? title }).then((blob) => downloadBlob(chartFileName(title, 'png'), blob)))}
        >
          Chart (PNG)
        </button>
      </div>
      <p className="explore-note">
        Each cell is one run of the scenario with the axis fields set, for one seed (from the scenario's seed on); the same cell gives the same numbers in{' '}
        <code>npm run sim -- sweep</code>. Axes: {(swept?.sweep?.axes ?? []).map((a) => `${a.name ?? fieldName(a.path, swept!)} (${a.path})`).join(' × ') || '–'}.
      </p>
    </section>
  );
}
