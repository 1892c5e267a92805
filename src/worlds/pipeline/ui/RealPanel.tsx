import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useHostWidth } from '../../../ui/useHostWidth';
import { useStore } from 'zustand';
import { renderRealLive, renderSimVsReal, renderTraceBeside, type RealLiveLane, type TraceLane } from '../charts/realCharts';
import { coreMapping, REAL_COMPARISON_QUERIES, realComparisonScenario, REAL_INPUT_SIZES, TRIAL_COST_READINGS, type RealInputSize } from '../scenario/realPipeline';
import { machineText } from '../scenario/realCalibration';
import { residencyText, type RealReport } from '../scenario/realRun';
import { measuredDatabase } from '../store/measuredDatabase';
import { createRealWorkerClient } from '../store/realClient';
import { createRealStore, REAL_LANE_REPEATS, REAL_QUERIES, type RealState, type RealStore } from '../store/realStore';
import { downloadText } from '../../../ui/download';
import { usePipelineLab, usePipelineStore } from './pipelineContext';
import type { PipelineScenario } from '../schema';

function LiveChart({ lanes, queries }: { readonly lanes: readonly RealLiveLane[]; readonly queries: number }) {
  const svg = useRef<SVGSVGElement>(null);
  const [host, width] = useHostWidth(360);
  useEffect(() => {
    if (svg.current !== null) renderRealLive(svg.current, lanes, queries, width);
  }, [lanes, queries, width]);
  return (
    <div ref={host} className="measure-chart" data-testid="chart.real-live">
      <svg ref={svg} role="img" aria-label="Throughput and latency of each query, measured on this machine" />
    </div>
  );
}

function SimVsRealChart({ report }: { readonly report: RealReport }) {
  const svg = useRef<SVGSVGElement>(null);
  const [host, width] = useHostWidth(360);
  useEffect(() => {
    if (svg.current !== null) renderSimVsReal(svg.current, report.lanes, width);
  }, [report, width]);
  return (
    <div ref={host} className="measure-chart" data-testid="chart.sim-vs-real">
      <svg ref={svg} role="img" aria-label="Simulated against measured: throughput, mean and p99 latency per lane" />
    </div>
  );
}

function TraceChart({ report, points }: { readonly report: RealReport; readonly points: RealState['points'] }) {
  const svg = useRef<SVGSVGElement>(null);
  const [host, width] = useHostWidth(360);
  const lanes = useMemo<TraceLane[]>(
    () =>
      report.fidelity.lanes.map((l, i) => ({
        label: l.label,
        // The panel's last run of the lane beside the simulation's first noise seed.
        measured: (points[i] ?? []).map((p) => ({ query: p.query, latencyMs: p.latencyMs })),
        simulated: l.simulatedTrace.map((q) => ({ query: q.query, latencyMs: q.latencyMs })),
      })),
    [report, points],
  );
  const interfered = useMemo(() => {
    const first = report.fidelity.lanes[0];
    return (first?.phases ?? []).filter((p) => p.modes.split(',').some((m) => m !== 'A')).map((p) => ({ fromQuery: p.fromQuery, toQuery: p.toQuery }));
  }, [report]);
  useEffect(() => {
    if (svg.current !== null) renderTraceBeside(svg.current, lanes, report.scenario.queries, interfered, width);
  }, [lanes, interfered, report, width]);
  return (
    <div ref={host} className="measure-chart" data-testid="chart.real-trace">
      <svg ref={svg} role="img" aria-label="Latency of each query: measured on this machine beside simulated on the calibrated machine" />
    </div>
  );
}

const pm = (m: { readonly mean: number; readonly halfWidth95: number }, digits = 2) => (Number.isFinite(m.mean) ? `${m.mean.toFixed(digits)} ± ${m.halfWidth95.toFixed(digits)}` : '—');
const pmPct = (m: { readonly mean: number; readonly halfWidth95: number } | undefined) => (m === undefined || !Number.isFinite(m.mean) ? '—' : `${m.mean >= 0 ? '+' : ''}${m.mean.toFixed(1)} ± ${m.halfWidth95.toFixed(1)} %`);

/** The fidelity of the run: intervals, counts, phases and where the time went; or why no verdict. */
function FidelityTables({ report }: { readonly report: RealReport }) {
  const f = report.fidelity;
  return (
    <>
      {f.tooShort !== null ? (
        <p className="measure-notice info" data-testid="real.too-short" role="status">
          No verdict: {f.tooShort}.
        </p>
      ) : null}
      <p className="measure-explain" data-testid="real.machine">
        {report.calibration === null
          ? "Simulated on the paper's ideal machine only (no calibration lane)."
          : `Calibrated on this machine (a static lane without hogs, ${report.calibration.queriesUsed} steady queries, ${report.calibration.movesUsed} moves): ${machineText(report.calibration.machine)}.`}{' '}
        {residencyText(report)}
      </p>
      <table className="real-table" data-testid="real.fidelity">
        <caption>
          {f.repeats} real run{f.repeats === 1 ? '' : 's'} a lane{f.repeats < 5 ? ' (5 or more give the intervals their meaning)' : ''}, the simulation over {f.noiseSeeds} noise seed{f.noiseSeeds === 1 ? '' : 's'}: means ± 95 % intervals
        </caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Throughput, qps (measured / machine / ideal)</th>
            <th scope="col">Throughput error (machine / ideal)</th>
            <th scope="col">Mean latency error (machine / ideal)</th>
            <th scope="col">Phases (real / sim)</th>
            <th scope="col">Trials (real / sim)</th>
            <th scope="col">Moves (real / sim)</th>
          </tr>
        </thead>
        <tbody>
          {f.lanes.map((l) => {
            const sim = l.machine ?? l.ideal;
            return (
              <tr key={l.label} data-testid={`real.fidelity-${l.scheduler}`}>
                <th scope="row">{l.label}</th>
                <td>
                  {pm(l.measured.throughputQps)} / {l.machine === null ? '—' : pm(l.machine.throughputQps)} / {num(l.ideal.throughputQps.mean, 2)}
                </td>
                <td>
                  {pmPct(l.error.machine?.throughputPct)} / {pmPct(l.error.ideal.throughputPct)}
                  {l.error.machineNoSharing === null ? null : <> (no core sharing: {pmPct(l.error.machineNoSharing.throughputPct)})</>}
                </td>
                <td>
                  {pmPct(l.error.machine?.latencyMeanPct)} / {pmPct(l.error.ideal.latencyMeanPct)}
                </td>
                <td>
                  {num(l.measured.phases.mean)} / {num(sim.phases.mean)}
                </td>
                <td>
                  {num(l.measured.trials.mean)} / {num(sim.trials.mean)}
                </td>
                <td>
                  {num(l.measured.moves.mean)} / {num(sim.moves.mean)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <table className="real-table" data-testid="real.phases">
        <caption>Per interference phase: throughput measured / simulated (means), and the errors</caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Queries</th>
            <th scope="col">Modes (per EP)</th>
            <th scope="col">Throughput, qps</th>
            <th scope="col">Throughput error</th>
            <th scope="col">Mean latency error</th>
          </tr>
        </thead>
        <tbody>
          {f.lanes.flatMap((l) =>
            l.phases.map((p) => (
              <tr key={`${l.label}-${p.fromQuery}`}>
                <th scope="row">{l.label}</th>
                <td>
                  {p.fromQuery}–{p.toQuery - 1}
                </td>
                <td>{p.modes}</td>
                <td>
                  {num(p.measuredQps, 2)} / {num(p.simulatedQps, 2)}
                </td>
                <td>{pct(p.throughputErrorPct)}</td>
                <td>{pct(p.latencyMeanErrorPct)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <table className="real-table" data-testid="real.time">
        <caption>Where the real time went, seconds a run (means)</caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Normal queries</th>
            <th scope="col">Trials</th>
            <th scope="col">Moves</th>
            <th scope="col">Drains</th>
            <th scope="col">Hog starts</th>
          </tr>
        </thead>
        <tbody>
          {f.lanes.map((l) => (
            <tr key={l.label}>
              <th scope="row">{l.label}</th>
              <td>{num(l.time.normal / 1000, 2)}</td>
              <td>{num(l.time.trials / 1000, 2)}</td>
              <td>{num(l.time.moves / 1000, 3)}</td>
              <td>{num(l.time.drains / 1000, 2)}</td>
              <td>{num(l.time.hogStalls / 1000, 3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {f.odinVsLls !== null && f.tooShort === null ? (
        <p className="measure-explain" data-testid="real.sign">
          ODIN against LLS in throughput: measured {pmPct(f.odinVsLls.measuredPct)}, simulated {pmPct(f.odinVsLls.simulatedPct)} — the sign {f.odinVsLls.agrees ? 'agrees' : 'does not agree'}.
        </p>
      ) : null}
    </>
  );
}

const pct = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(1)} %` : '—');
const num = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '—');

/**
 * The execution places as the real run has them now, in the board's own look: the running
 * lane's configuration (units per stage), each stage's measured time for the last query, and
 * the hogs running on it — measured on this machine.
 */
function RealBoard({ state }: { readonly state: RealState }) {
  // While a lane runs, that lane; at the end, the last lane that ran.
  const lane = state.lane ?? (state.points.length > 0 ? state.points.reduce((last, p, i) => (p.length > 0 ? i : last), -1) : null);
  if (lane === null || lane < 0) return null;
  const last = state.points[lane]?.at(-1);
  if (last === undefined) return null;
  const units = last.configuration.split(',').map(Number);
  const slowest = Math.max(...last.stageTimesMs);
  return (
    <figure className="real-board" data-testid="real.board">
      <figcaption>
        {state.laneLabels[lane] ?? ''}, query {last.query}: stage times measured on this machine{state.lane === null ? ' (the run is over: its last query)' : ''}
      </figcaption>
      <div className="ep-row" style={{ '--eps': units.length } as CSSProperties}>
        {units.map((count, i) => {
          const mode = state.hogModes[i] ?? 'A';
          const t = last.stageTimesMs[i] ?? 0;
          return (
            <div key={i} className={`ep${t === slowest && t > 0 ? ' bottleneck' : ''}${mode !== 'A' ? ' interfered' : ''}`} data-testid={`real.ep-${i}`} data-mode={mode} data-units={count}>
              <div className="ep-head">
                <span className="ep-name">EP {i + 1}</span>
                <span className="ep-time">{t.toFixed(1)} ms</span>
                <span className="ep-chips">{mode === 'A' ? '' : <span className={`chip mode-${mode}`}>{mode}</span>}</span>
              </div>
              <p className="real-units">
                {count} unit{count === 1 ? '' : 's'}
              </p>
            </div>
          );
        })}
      </div>
    </figure>
  );
}

function ReportTable({ report }: { readonly report: RealReport }) {
  return (
    <>
      <table className="real-table" data-testid="real.table">
        <caption>Measured on this machine beside the simulation (error = simulated − measured, over measured)</caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Throughput, qps (measured / simulated / error)</th>
            <th scope="col">Mean latency, ms</th>
            <th scope="col">p99 latency, ms</th>
            <th scope="col">Moves (mean ms)</th>
            <th scope="col">Closest reading</th>
          </tr>
        </thead>
        <tbody>
          {report.lanes.map((l) => (
            <tr key={l.label} data-testid={`real.row-${l.scheduler}`}>
              <th scope="row">{l.label}</th>
              <td>
                {num(l.measured.throughputQps, 2)} / {num(l.simulated.throughputQps, 2)} / {pct(l.error.throughputQps)}
              </td>
              <td>
                {num(l.measured.latencyMeanMs)} / {num(l.simulated.latencyMeanMs)} / {pct(l.error.latencyMeanMs)}
              </td>
              <td>
                {num(l.measured.latencyP99Ms)} / {num(l.simulated.latencyP99Ms)} / {pct(l.error.latencyP99Ms)}
              </td>
              <td>
                {l.measured.reconfigurations.length} ({num(l.measured.reconfigurationMeanMs)})
              </td>
              <td>{l.closestReading}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="measure-explain" data-testid="real.readings">
        Mean absolute error by trial-cost reading (whole run and each interference phase): {TRIAL_COST_READINGS.map((r) => `${r} ${num(report.mapeByReading[r] ?? 0)} %`).join(', ')}; closest: {report.closestReading}. The real run&apos;s trials are serial; this table is the first run of each lane against the paper&apos;s ideal machine (the one above has the calibrated machine and the intervals).
        {report.odinVsLls !== null && report.fidelity.tooShort === null
          ? ` ODIN against LLS in throughput: measured ${pct(report.odinVsLls.measuredPct)}, simulated ${pct(report.odinVsLls.simulatedPct)} — the sign ${report.odinVsLls.agrees ? 'agrees' : 'does not agree'}.`
          : ''}
      </p>
      {liveText(report) !== null ? (
        <p className="measure-explain" data-testid="real.live-events">
          {liveText(report)}
        </p>
      ) : null}
    </>
  );
}

/** The workloads placed by hand during the run, per lane (null when there were none). */
function liveText(report: RealReport): string | null {
  const parts = report.lanes.filter((l) => l.liveEvents.length > 0).map((l) => `${l.label}: ${l.liveEvents.map((e) => `EP ${e.executionPlace + 1} mode ${e.mode} from query ${e.fromQuery}${e.toQuery === null ? '' : ` to ${e.toQuery}`}`).join(', ')}`);
  return parts.length === 0 ? null : `Placed by hand (each lane simulated on the schedule it ran; lanes before a drag ran without it): ${parts.join('; ')}.`;
}

function statusText(s: RealState): string {
  switch (s.status) {
    case 'measuring':
      return `measuring the layer-time database for the simulation: ${Math.round(s.measureFraction * 100)} %`;
    case 'running':
      return s.lane === null ? 'starting the stage workers…' : `lane ${s.lane + 1} of ${s.laneLabels.length} (${s.laneLabels[s.lane] ?? ''}): ${s.points[s.lane]?.length ?? 0} queries, ${s.moves[s.lane] ?? 0} moves · hogs ${s.hogs}`;
    case 'cancelling':
      return 'cancelling…';
    case 'done':
      return 'done';
    default:
      return '';
  }
}

/**
 * Run on this machine (ARCHITECTURE §2, the real backend): the lab's pipeline scenario on real
 * tfjs stages, one worker per execution place, with real hogs for its interference, lanes
 * one after another, then each beside its simulation on a database measured here.
 */
export function RealPanel() {
  const scenario = usePipelineLab((s) => s.scenario);
  if (scenario === null) return <p className="measure-explain">Loading the scenario…</p>;
  return <RealPanelFor scenario={scenario} />;
}

function RealPanelFor({ scenario }: { readonly scenario: PipelineScenario }) {
  const [store] = useState<RealStore>(() => {
    const created = createRealStore(createRealWorkerClient(), scenario);
    created.getState().setOpen(true);
    return created;
  });
  const s = useStore(store, (state) => state);
  const act = store.getState();
  // A workload dragged onto (or off) the board's execution places reaches a run under way.
  const events = scenario.pipeline.interference.events;
  useEffect(() => store.getState().followLab(events), [store, events]);
  const busy = s.status === 'measuring' || s.status === 'running' || s.status === 'cancelling';
  const lab = usePipelineStore();
  // The lab's own simulation pauses while a real run takes the cores, and plays again after if it was playing.
  const resume = useRef(false);
  useEffect(() => {
    if (busy && lab.getState().status === 'playing') {
      resume.current = true;
      void lab.getState().pause();
    } else if (!busy && resume.current) {
      resume.current = false;
      void lab.getState().play();
    }
  }, [busy, lab]);
  const measured = useStore(measuredDatabase, (m) => m.database);
  const measuredMatches = measured !== null && measured.model === scenario.pipeline.model && measured.measurement?.inputSize === s.inputSize;
  const preset = async (eps: number) => {
    const ok = await lab.getState().load(realComparisonScenario(eps), 'edit');
    if (!ok) return;
    act.setInputSize(112);
    act.setQueries(REAL_COMPARISON_QUERIES);
    act.setLaneRepeats(5);
  };
  const laneIds = useMemo(() => [...new Set(scenario.pipeline.lanes.map((l) => l.scheduler))], [scenario]);
  const mapping = s.cores === null ? null : coreMapping(scenario.pipeline.executionPlaces, s.cores, scenario);
  const live = useMemo<RealLiveLane[]>(
    () => s.points.map((points, i) => ({ label: s.laneLabels[i] ?? '', points: points.map((p) => ({ query: p.query, throughputQps: p.throughputQps, latencyMs: p.latencyMs, trial: p.kind === 'trial' })) })),
    [s.points, s.laneLabels],
  );
  return (
    <section className="measure-bar" aria-label="Run on this machine">
      <button type="button" data-testid="real.open" aria-expanded={s.open} onClick={() => act.setOpen(!s.open)}>
        {s.open ? 'Hide the real run' : 'Run on this machine…'}
      </button>
      {s.open ? (
        <div className="measure-panel" data-testid="real">
          <h2>Run this scenario on this machine</h2>
          <p className="measure-explain">
            Each execution place becomes a worker running its stage&apos;s units as real TensorFlow.js layers (wasm, one thread, seeded weights); activations travel between them through the
            scenario&apos;s buffers; the monitor reads the measured stage times and each lane&apos;s scheduler decides exactly as in the simulation; every stage holds, for the whole run, the units it may receive,
            so a move hands units over (its time is still measured as its cost). Interference events start the hogs of their mode. A calibration lane without hogs first learns this machine (stage-time noise, the pipelined factor,
            hop, move cost, core sharing); the lanes then run one after another (several times each, interleaved), and the same lanes are simulated on a database measured here at the same
            input size, on the paper&apos;s ideal machine and on the calibrated one over 20 noise seeds. The lab&apos;s own simulation pauses meanwhile. A browser&apos;s wasm on shared cores is not the paper&apos;s pinned execution places: the numbers say how far the simulation is from this machine, nothing more.
          </p>
          <p className="measure-explain" data-testid="real.mapping">
            {mapping === null ? 'Reading the cores…' : `${mapping.text}.`}
          </p>
          <div className="measure-controls">
            <label>
              Input{' '}
              <select data-testid="real.size" value={s.inputSize} disabled={busy} onChange={(e) => act.setInputSize(Number(e.target.value) as RealInputSize)}>
                {REAL_INPUT_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size} × {size}
                    {size === 224 ? ' (the paper’s)' : ''}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Queries per lane{' '}
              <input data-testid="real.queries" type="number" min={REAL_QUERIES.min} max={REAL_QUERIES.max} value={s.queries} disabled={busy} onChange={(e) => act.setQueries(Number(e.target.value))} />
            </label>
            <label>
              Runs a lane{' '}
              <input data-testid="real.repeats" type="number" min={REAL_LANE_REPEATS.min} max={REAL_LANE_REPEATS.max} value={s.laneRepeats} disabled={busy} onChange={(e) => act.setLaneRepeats(Number(e.target.value))} />
            </label>
            <fieldset className="measure-modes" disabled={busy}>
              <legend>Lanes</legend>
              {laneIds.map((id) => (
                <label key={id}>
                  <input type="checkbox" data-testid={`real.lane-${id}`} checked={s.lanes.includes(id)} onChange={() => act.toggleLane(id)} /> {id}
                </label>
              ))}
            </fieldset>
          </div>
          <div className="measure-actions" aria-label="Comparison presets">
            <button type="button" data-testid="real.preset-2" disabled={busy} title="VGG16 at 112 px, a memBW hog on EP 2 for the middle third, ODIN α=10 and LLS, 90 queries, 5 runs a lane" onClick={() => void preset(2)}>
              Comparison preset: 2 EPs
            </button>
            <button type="button" data-testid="real.preset-4" disabled={busy} title="The same on 4 EPs (on fewer cores, stages share them: the simulation models the sharing)" onClick={() => void preset(4)}>
              Comparison preset: 4 EPs
            </button>
          </div>
          <p className="measure-explain" data-testid="real.database" data-matches={measuredMatches ? 'yes' : 'no'}>
            {measuredMatches
              ? `The database from Measure (${measured.model} at ${s.inputSize} px, modes ${Object.keys(measured.modes).join(', ')}) is used: nothing is measured first.`
              : 'A layer-time database is measured first at this size (or measure one in Measure at this size: it is then used).'}
          </p>
          <div className="measure-actions">
            <button type="button" data-testid="real.run" disabled={busy} onClick={() => void act.start(scenario, measuredMatches ? measured : null)}>
              Run on this machine
            </button>
            <button type="button" data-testid="real.cancel" disabled={!busy || s.status === 'cancelling'} onClick={() => void act.cancel()}>
              Cancel
            </button>
            <button type="button" data-testid="real.download" disabled={s.report === null} onClick={() => s.report !== null && downloadText('real-run.json', `${JSON.stringify(s.report, null, 2)}\n`, 'application/json')}>
              Download the report (JSON)
            </button>
          </div>
          <p className="measure-explain" data-testid="real.status" data-status={s.status} role="status">
            {statusText(s)}
          </p>
          {busy ? (
            <p className="measure-explain" data-testid="real.live-hint" data-placed={s.livePlaced}>
              Drag a workload onto an execution place of the board to start its hogs on the real pipeline from its next query (or off, to stop them); it stays for the lanes after this one
              {s.livePlaced > 0 ? ` · ${s.livePlaced} placed by hand so far` : ''}.
            </p>
          ) : null}
          {s.notice !== null ? (
            <p className={`measure-notice ${s.notice.kind}`} data-testid="real.notice" role={s.notice.kind === 'error' ? 'alert' : 'status'}>
              {s.notice.text}
            </p>
          ) : null}
          <RealBoard state={s} />
          {s.points.some((p) => p.length > 0) ? <LiveChart lanes={live} queries={s.report?.scenario.queries ?? s.queries} /> : null}
          {s.report !== null ? (
            <>
              <TraceChart report={s.report} points={s.points} />
              <FidelityTables report={s.report} />
              <SimVsRealChart report={s.report} />
              <ReportTable report={s.report} />
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
