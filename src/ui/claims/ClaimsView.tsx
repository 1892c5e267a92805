import { paperName, papers, worldOf } from '../../kit/worlds';
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { ClaimRow, ClaimsProvenance, ReadingValue, SensitivityResult } from '../../scenario/claimsReport';
import type { MachineClaimRow } from '../../scenario/claimsReport';
import type { Verdict } from '../../scenario/verdict';
import { VERDICTS } from '../../scenario/verdict';
import { verdictCounts, visibleRows, type ClaimsState, type ClaimsStore, type RecomputeJob } from '../../store/claimsStore';
import { formatEstimate, formatNumber, unitOfRow } from './claimNumbers';
import { takeClaimFocus } from './claimFocus';

export interface ClaimsViewProps {
  readonly store: ClaimsStore;
  /** Open a row's scenario (with its sweep) in the live lab of its world. */
  readonly onOpen: (row: ClaimRow) => void;
  readonly onClose: () => void;
  /** Asks before a recomputation that trains learners (minutes); window.confirm in the page. */
  readonly confirm: (message: string) => boolean;
}


/** What each verdict means, in the view's words (the rules are in scenario/verdict.ts). */
const VERDICT_TEXT: Record<Verdict, string> = {
  holds: 'holds',
  partly: 'partly',
  fails: 'fails',
  noise: 'inside the noise',
};
/** The strip's badges are small: one word each. */
const VERDICT_SHORT: Record<Verdict, string> = { holds: 'holds', partly: 'partly', fails: 'fails', noise: 'noise' };
const VERDICT_HELP: Record<Verdict, string> = {
  holds: 'same sign or ordering as the paper and, where it gives a number, within the stated tolerance',
  partly: 'the direction agrees but the size does not, or some parts hold and others do not',
  fails: "the lab's interval lies on the wrong side",
  noise: 'the interval straddles the boundary: with these seeds the lab cannot tell',
};

function formatReading(value: ReadingValue): string {
  return typeof value === 'number' ? String(value) : typeof value === 'boolean' ? (value ? 'on' : 'off') : value;
}

function VerdictBadge({ verdict, small = false }: { readonly verdict: Verdict; readonly small?: boolean }) {
  return (
    <span className={`verdict verdict-${verdict}${small ? ' verdict-small' : ''}`} data-verdict={verdict} title={VERDICT_HELP[verdict]}>
      {small ? VERDICT_SHORT[verdict] : VERDICT_TEXT[verdict]}
    </span>
  );
}

/** The sensitivity strip: per modelling choice, each reading's value, the lab's number under it and its verdict. */
function SensitivityStrip({ sensitivity, id, labNumber }: { readonly sensitivity: readonly SensitivityResult[]; readonly id: string; readonly labNumber: string }) {
  if (sensitivity.length === 0) return <span className="claims-muted">no modelling choice swept</span>;
  return (
    <ul className="claims-strip" data-testid={`claims.strip-${id}`}>
      {sensitivity.map((choice) => (
        <li key={choice.path} title={choice.path}>
          <span className="claims-strip-label">{choice.label}</span>
          <ul className="claims-readings">
            {choice.readings.map((r, k) => (
              <li key={k} className={`claims-reading reading-${r.verdict}`} data-verdict={r.verdict} title={`${choice.path} = ${formatReading(r.value)}: ${r.estimate === null ? 'not measured' : formatEstimate(r.estimate, unitOfRow(r.estimate, labNumber))}, ${VERDICT_TEXT[r.verdict]}`}>
                <span className="claims-reading-value">{formatReading(r.value)}</span> <span className="claims-reading-number">{r.estimate === null ? '–' : `${formatNumber(r.estimate.mean, true)}${r.estimate.unit === 'points' ? ' pp' : ''}`}</span>{' '}
                <VerdictBadge verdict={r.verdict} small />
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

/** The quoted claim: its first sentence (or 140 characters), the rest behind a disclosure. */
function Quote({ quote }: { readonly quote: string }) {
  const cut = (() => {
    const sentence = quote.search(/[.!?]\s/);
    const end = sentence > 0 && sentence < 140 ? sentence + 1 : Math.min(quote.length, 140);
    return end >= quote.length - 1 ? null : end;
  })();
  if (cut === null) return <q className="claims-quote">{quote}</q>;
  return (
    <details className="claims-quote">
      <summary>
        <q>{quote.slice(0, cut)}…</q>
      </summary>
      <q>{quote}</q>
    </details>
  );
}

/** `48 s`, `80 min`, `2.5 h`. */
function durationText(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function provenanceText(p: ClaimsProvenance): string {
  return `commit ${p.commit}, ${p.seeds} seed${p.seeds === 1 ? '' : 's'}, ${p.date}, ${p.machine}`;
}

/**
 * The lab's own claims of one machine (worlds/pipeline/scenario/realClaim.ts): a real pipeline run on this
 * machine's cores beside its simulation, with where and how it was measured. Not a claim of
 * either paper, so outside the papers' table, its filters and counts.
 */
function MachineRows({ rows }: { readonly rows: readonly MachineClaimRow[] | undefined }) {
  return (
    <section className="claims-machine" aria-labelledby="claims-machine-heading" data-testid="claims.machine">
      <h3 id="claims-machine-heading">On a real machine: the lab’s own claim</h3>
      {rows === undefined || rows.length === 0 ? (
        <p className="claims-muted" data-testid="claims.machine-none">
          This report has no real-pipeline row. Run <code>npx interference-lab real default --lanes odin,lls --claims-report public/claims/report.json</code> on the machine to measure, or use Run on this machine in the pipeline lab.
        </p>
      ) : (
        rows.map((row) => (
          <article key={row.id} className="claims-machine-row" data-testid={`claims.row-${row.id}`} data-verdict={row.verdict} data-mean={row.estimate === null ? '' : String(row.estimate.mean)}>
            <p>
              <strong>The simulated system predicts a real pipeline on this machine.</strong> ODIN {row.where}: <Quote quote={row.quote} />
            </p>
            <p>
              <span className="claims-estimate">{row.estimate === null ? 'not computed' : `${formatNumber(row.estimate.mean)} %`}</span> <span className="claims-lab-what">{row.labNumber}</span> <VerdictBadge verdict={row.verdict} />
            </p>
            <p className="claims-reason">{row.reason}</p>
            <table className="claims-machine-lanes">
              <caption className="visually-hidden">Each lane measured beside simulated</caption>
              <thead>
                <tr>
                  <th scope="col">Lane</th>
                  <th scope="col">Measured qps</th>
                  <th scope="col">Simulated qps</th>
                  <th scope="col">Throughput error</th>
                  <th scope="col">Mean latency error</th>
                  <th scope="col">p99 latency error</th>
                  <th scope="col">Moves (mean ms)</th>
                  <th scope="col">Closest trial cost</th>
                </tr>
              </thead>
              <tbody>
                {row.lanes.map((l) => (
                  <tr key={l.label}>
                    <th scope="row">{l.label}</th>
                    <td>{formatNumber(l.measuredQps)}</td>
                    <td>{formatNumber(l.simulatedQps)}</td>
                    <td>{formatNumber(l.throughputErrorPct, true)} %</td>
                    <td>{formatNumber(l.latencyMeanErrorPct, true)} %</td>
                    <td>{formatNumber(l.latencyP99ErrorPct, true)} %</td>
                    <td>
                      {l.moves} ({formatNumber(l.moveMeanMs)})
                    </td>
                    <td>{l.closestReading}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="claims-lab-what">
              {row.provenance.setting}. {row.provenance.machine}; {row.provenance.date}; commit {row.provenance.commit}; took {durationText(row.provenance.durationS)}. <code>{row.provenance.command}</code>
            </p>
          </article>
        ))
      )}
    </section>
  );
}

/**
 * A row's buttons and progress. Each row subscribes to the job itself, so that progress (at
 * most every 100 ms) redraws one cell of the table, not the table.
 */
function RowActions({ store, row, onOpen, onRecompute }: { readonly store: ClaimsStore; readonly row: ClaimRow; readonly onOpen: () => void; readonly onRecompute: () => void }) {
  const mine: RecomputeJob | null = useStore(store, (s) => (s.job !== null && s.job.id === row.id ? s.job : null));
  const busy = useStore(store, (s) => s.job?.status === 'running');
  const running = mine?.status === 'running';
  const onCancel = () => store.getState().cancel();
  return (
    <div className="claims-actions">
      <button
        type="button"
        data-testid={`claims.open-${row.id}`}
        onClick={onOpen}
        aria-label={`Open in the lab: ${paperName(row.paper)} ${row.where} (${worldOf(row.scenario).labName})`}
        title={`Open the scenario that measures it in ${worldOf(row.scenario).labName}`}
      >
        Open in the lab
      </button>
      {running ? (
        <button type="button" data-testid={`claims.cancel-${row.id}`} onClick={onCancel} aria-label={`Cancel: ${paperName(row.paper)} ${row.where}`}>
          Cancel
        </button>
      ) : (
        <button
          type="button"
          data-testid={`claims.recompute-${row.id}`}
          onClick={onRecompute}
          disabled={busy}
          aria-label={`Recompute${row.learns ? ' (minutes)' : ''}: ${paperName(row.paper)} ${row.where}, here`}
          title={row.learns ? 'Trains learners: takes minutes' : 'Runs its cells on this browser’s workers'}
        >
          Recompute{row.learns ? ' (minutes)' : ''}
        </button>
      )}
      {mine !== null ? (
        <div className="claims-progress">
          <progress data-testid={`claims.progress-${row.id}`} data-status={mine.status} value={mine.done} max={Math.max(1, mine.total)} aria-label={`cells of ${row.id} done`} />
          <span data-testid={`claims.job-${row.id}`} aria-live="polite">
            {mine.done} of {mine.total} cells — {mine.status === 'running' ? 'running' : mine.status}
            {mine.error !== null ? `: ${mine.error}` : ''}
          </span>
        </div>
      ) : null}
    </div>
  );
}

const selectRows = (s: ClaimsState) => visibleRows(s);

/**
 * The Claims view (ARCHITECTURE §4a): every claim of both papers beside the lab's number, its verdict,
 * the readings of the modelling choices that flip it, and a way to open or recompute it. The
 * rows come from the report the CLI computed and the build ships (with its provenance); a row
 * recomputed here replaces the shipped one and says so.
 */
export function ClaimsView({ store, onOpen, onClose, confirm }: ClaimsViewProps) {
  const status = useStore(store, (s) => s.status);
  const shipped = useStore(store, (s) => s.shipped);
  const loadMessage = useStore(store, (s) => s.loadMessage);
  const loadErrors = useStore(store, (s) => s.loadErrors);
  const filters = useStore(store, (s) => s.filters);
  const allRows = useStore(store, (s) => s.rows);
  const rows = useStore(store, useShallow(selectRows));
  const computedHere = useStore(store, (s) => s.computedHere);
  const [banner, setBanner] = useState(true);
  // Rows open one line each (the claim, the lab's number, the verdict); a row unfolds on its button.
  // A row asked for by another view (an Explore line pointing at its claim) opens unfolded, and is scrolled to once the rows are in.
  const [focus] = useState(takeClaimFocus);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(focus === null ? [] : [focus]));
  const focusShown = rows.some((r) => r.id === focus);
  useEffect(() => {
    if (focus !== null && focusShown) document.querySelector(`[data-testid="claims.row-${focus}"]`)?.scrollIntoView({ block: 'start' });
  }, [focus, focusShown]);
  useEffect(() => {
    void store.getState().load();
  }, [store]);
  const counts = useMemo(() => verdictCounts(allRows), [allRows]);
  const recompute = (row: ClaimRow) => {
    if (row.learns && !confirm(`“${row.where}” of ${paperName(row.paper)} trains learners: recomputing it takes minutes on this machine, on every core. Recompute anyway?`)) return;
    store.getState().recompute(row.id);
  };

  return (
    <section className="claims" data-testid="claims" data-status={status} aria-labelledby="claims-heading">
      <header className="claims-header">
        <h2 id="claims-heading">Does the lab reproduce the papers?</h2>
        <button type="button" onClick={onClose} data-testid="claims.close">
          Back to the lab
        </button>
      </header>
      <p className="claims-intro">
        Every quantitative claim of ODIN and BCEdge beside the lab’s number (mean ± 95 % interval over seeds), its verdict under the default readings, and the
        same claim re-measured under each reading of the modelling choices that can matter to it. The numbers are computed, never written down.
      </p>
      {status === 'invalid' && banner ? (
        <div className="banner" role="alert" data-testid="claims.banner">
          <strong>The shipped reproduction report is malformed; the lab keeps working without it.</strong>
          <ul>
            {(loadErrors ?? []).slice(0, 8).map((e) => (
              <li key={`${e.path}:${e.message}`}>
                <code>{e.path}</code>: {e.message}
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setBanner(false)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {status === 'loading' || status === 'idle' ? <p data-testid="claims.loading">Loading the shipped report…</p> : null}
      {status === 'missing' || status === 'invalid' ? (
        <p className="claims-none" data-testid="claims.none">
          This build has no reproduction report{status === 'missing' && loadMessage !== null ? ` (${loadMessage})` : ''}. Compute one with <code>npm run claims -- --format json --out public/claims/report.json</code> and rebuild.
        </p>
      ) : null}
      {shipped !== null ? (
        <>
          <dl className="claims-provenance" data-testid="claims.provenance" aria-label="Provenance of the shipped report">
            <div>
              <dt>Commit</dt>
              <dd data-testid="claims.provenance-commit">{shipped.provenance.commit}</dd>
            </div>
            <div>
              <dt>Seeds</dt>
              <dd data-testid="claims.provenance-seeds">{shipped.provenance.seeds}</dd>
            </div>
            <div>
              <dt>Date</dt>
              <dd>{shipped.provenance.date}</dd>
            </div>
            <div>
              <dt>Machine</dt>
              <dd>{shipped.provenance.machine}</dd>
            </div>
            <div className="claims-command">
              <dt>Command</dt>
              <dd>
                <code>{shipped.provenance.command}</code>
              </dd>
            </div>
            {shipped.provenance.learning !== undefined ? (
              <div>
                <dt>Learning rows</dt>
                <dd data-testid="claims.provenance-learning">
                  {shipped.provenance.learning.lengthS} s, at most {shipped.provenance.learning.seeds} seed{shipped.provenance.learning.seeds === 1 ? '' : 's'}
                  {shipped.provenance.learning.readingsLengthS !== undefined ? `; their readings ${shipped.provenance.learning.readingsLengthS} s` : ''}
                </dd>
              </div>
            ) : null}
            {shipped.provenance.durationS !== undefined ? (
              <div>
                <dt>Took</dt>
                <dd data-testid="claims.provenance-duration">{durationText(shipped.provenance.durationS)}{shipped.provenance.shards !== undefined ? ' (the shards added up)' : ''}</dd>
              </div>
            ) : null}
            {shipped.provenance.shards !== undefined ? (
              <div>
                <dt>Shards</dt>
                <dd data-testid="claims.provenance-shards" title={shipped.provenance.shards.map((x) => `${x.index}/${x.count}: ${x.cells} cells, ${durationText(x.durationS)}, ${x.machine}, ${x.date}`).join('\n')}>
                  {shipped.provenance.shards.length}
                </dd>
              </div>
            ) : null}
          </dl>
          <div className="claims-filters" role="group" aria-label="Filters">
            <label>
              Paper
              <select data-testid="claims.filter-paper" value={filters.paper} onChange={(e) => store.getState().setFilters({ paper: e.target.value })}>
                <option value="all">{papers().length === 2 ? 'both papers' : 'every paper'}</option>
                {papers().map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Verdict
              <select data-testid="claims.filter-verdict" value={filters.verdict} onChange={(e) => store.getState().setFilters({ verdict: e.target.value as Verdict | 'all' })}>
                <option value="all">any verdict</option>
                {VERDICTS.map((v) => (
                  <option key={v} value={v}>
                    {VERDICT_TEXT[v]} ({counts[v]})
                  </option>
                ))}
              </select>
            </label>
            <p className="claims-counts" data-testid="claims.counts">
              {allRows.length} claims: {VERDICTS.map((v) => `${counts[v]} ${VERDICT_TEXT[v]}`).join(', ')}. Showing {rows.length}.
            </p>
            <button type="button" data-testid="claims.expand-all" onClick={() => setExpanded(new Set(rows.map((r) => r.id)))}>
              Expand every row
            </button>
            <button type="button" data-testid="claims.collapse-all" onClick={() => setExpanded(new Set())}>
              Collapse every row
            </button>
          </div>
          <div className="claims-table-wrap">
            <table className="claims-table">
              <caption className="visually-hidden">Claims of the papers and the lab’s numbers</caption>
              <colgroup>
                <col className="claims-col-claim" />
                <col className="claims-col-paper" />
                <col className="claims-col-lab" />
                <col className="claims-col-verdict" />
                <col className="claims-col-strip" />
                <col className="claims-col-why" />
                <col className="claims-col-actions" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Claim</th>
                  <th scope="col">Paper</th>
                  <th scope="col">Lab</th>
                  <th scope="col">Verdict</th>
                  <th scope="col">What flips it</th>
                  <th scope="col">Why</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => {
                  const here = computedHere[row.id];
                  const open = expanded.has(row.id);
                  const toggle = () => setExpanded((was) => {
                    const next = new Set(was);
                    if (next.has(row.id)) next.delete(row.id);
                    else next.add(row.id);
                    return next;
                  });
                  return (
                    <tr
                      key={row.id}
                      className={open ? 'claims-row' : 'claims-row collapsed'}
                      data-testid={`claims.row-${row.id}`}
                      data-expanded={open ? 'yes' : 'no'}
                      data-verdict={row.verdict}
                      data-paper={row.paper}
                      data-computed={here === undefined ? 'shipped' : 'here'}
                      data-mean={row.estimate === null ? '' : String(row.estimate.mean)}
                      data-half-width={row.estimate === null ? '' : String(row.estimate.halfWidth95)}
                      data-seeds={row.estimate === null ? '' : String(row.estimate.seeds)}
                      data-unit={row.estimate?.unit ?? ''}
                    >
                      <th scope="row" className="claims-claim">
                        <button type="button" className="claims-toggle" aria-expanded={open} data-testid={`claims.toggle-${row.id}`} onClick={toggle} title={open ? 'Collapse this claim to one line' : 'Show the whole claim, what flips it and why'}>
                          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {paperName(row.paper)} {row.where}
                        </button>
                        {open ? <Quote quote={row.quote} /> : <span className="claims-quote-line">{row.quote}</span>}
                      </th>
                      <td className="claims-paper">{row.paperNumber ?? <span className="claims-muted">a direction</span>}</td>
                      <td className="claims-lab">
                        <span className="claims-estimate" data-testid={`claims.estimate-${row.id}`}>
                          {row.estimate === null ? 'not computed' : formatEstimate(row.estimate, unitOfRow(row.estimate, row.labNumber))}
                        </span>
                        <div className="claims-detail" hidden={!open}>
                          <span className="claims-lab-what">{row.labNumber}</span>
                          {row.references !== undefined && row.references.length > 0 ? (
                            <ul className="claims-references" aria-label="Reference lanes, measured the same way">
                              {row.references.map((r) => (
                                <li key={r.label}>
                                  {r.label}: {formatEstimate(r.estimate, unitOfRow(r.estimate, row.labNumber))}
                                </li>
                              ))}
                            </ul>
                          ) : null}
                        </div>
                        {here !== undefined ? (
                          <span className="claims-here" data-testid={`claims.here-${row.id}`} title={provenanceText(here)}>
                            computed here: {provenanceText(here)}
                          </span>
                        ) : null}
                      </td>
                      <td>
                        <VerdictBadge verdict={row.verdict} />
                      </td>
                      <td>
                        <div className="claims-detail" hidden={!open}>
                          <SensitivityStrip sensitivity={row.sensitivity} id={row.id} labNumber={row.labNumber} />
                        </div>
                        {open ? null : <span className="claims-muted">{row.sensitivity.length === 0 ? 'no modelling choice swept' : `${row.sensitivity.length} modelling choice${row.sensitivity.length === 1 ? '' : 's'}`}</span>}
                      </td>
                      <td className="claims-reason">
                        <div className="claims-detail" hidden={!open}>
                          {row.reason}
                          {row.note !== undefined && !row.reason.includes(row.note) ? <span className="claims-lab-what">{row.note}</span> : null}
                        </div>
                      </td>
                      <td>
                        <RowActions store={store} row={row} onOpen={() => onOpen(row)} onRecompute={() => recompute(row)} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p className="claims-note">
            Verdicts: <strong>holds</strong> — {VERDICT_HELP.holds}; <strong>partly</strong> — {VERDICT_HELP.partly}; <strong>fails</strong> — {VERDICT_HELP.fails};{' '}
            <strong>inside the noise</strong> — {VERDICT_HELP.noise}. In the strip, each reading shows the lab’s number under it (signed) and its verdict. A recomputed row
            runs the same cells with the report’s seeds, so it gives the shipped number bit for bit when the code is the same.
          </p>
          <MachineRows rows={shipped.machineRows} />
        </>
      ) : null}
    </section>
  );
}
