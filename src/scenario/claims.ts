import type { ClaimRow, ReadingResult, ReadingValue, SensitivityResult } from './claimsReport';
import { estimateRunCost } from './cost';
import { findPreset } from './presets';
import type { AnyScenario } from './schema';
import { parseFieldPath, sweepCells, sweepMetricsOf, sweepSeeds, type Sweep, type SweepAxis, type SweepCell } from './sweep';
import { worldOf, worlds } from '../kit/worlds';
import type { CellOutcome, ResultRow } from './sweepReport';
import { differencePct, higherIsBetter, meanInterval } from './sweepStats';
import { combine, judge, type Estimate, type Verdict, type VerdictRule } from './verdict';
import { readingSetting, type Claim } from './claimModel';

/**
 * Every quantitative claim of the two papers the lab reproduces (ARCHITECTURE §4a), in the papers'
 * own words, with how the lab measures it and the rule that decides its verdict. Nothing
 * here is a result: a claim names swept scenarios (`claimScenarios`), any pool runs their
 * cells, and `estimateClaim` reduces the cell outcomes to the claim's number, which `judge`
 * turns into a verdict. Each claim is re-measured under every reading of the modelling
 * choices that can matter to it (its sensitivity strip), so one glance says which
 * assumption flips it.
 *
 * Pure: no DOM, no TensorFlow.js, no clock, no Node API. The page's workers and the CLI's
 * threads both run it (ARCHITECTURE §4a).
 */

/** Every claim, in the list's order of worlds (each world's table is in its folder: `World.claims`). */
export function allClaims(): readonly Claim[] {
  return worlds().flatMap((w) => w.claims());
}

// ---------------------------------------------------------------------------------------
// Scenarios

type Json = Record<string, unknown> | unknown[];

/** `document` (copied along the way) with the field at `path` set to `value`. */
function setPath<T>(document: T, path: string, value: unknown): T {
  const keys = parseFieldPath(path);
  if (keys === null) throw new RangeError(`claims: ${JSON.stringify(path)} is not a field path`);
  const root = structuredClone(document) as Json;
  let at: Json = root;
  keys.slice(0, -1).forEach((key, i) => {
    const holder = at as Record<string | number, unknown>;
    // A lane's optional `params` is made when a reading sets one of its parameters.
    if (holder[key] === undefined && key === 'params' && i === keys.length - 2) holder[key] = {};
    const next = holder[key];
    if (next === null || typeof next !== 'object') throw new RangeError(`claims: ${path} is not a field of the scenario`);
    at = next as Json;
  });
  (at as Record<string | number, unknown>)[keys.at(-1)!] = value;
  return root as T;
}

/** The value of the field at `path`, or undefined. */
function getPath(document: unknown, path: string): unknown {
  let at = document;
  for (const key of parseFieldPath(path) ?? []) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Seeds a claim runs with when `seeds` are asked for. */
export function claimSeedCount(claim: Claim, seeds: number): number {
  return Math.max(1, Math.min(seeds, claim.measure.maxSeeds ?? seeds));
}

/** The claim's scenario under the default readings, its sweep set (axes, seeds, metric, comparison). */
function mainScenario(claim: Claim, seeds: number): AnyScenario {
  const m = claim.measure;
  const preset = findPreset(m.preset);
  if (preset === undefined) throw new RangeError(`claim ${claim.id}: no preset ${m.preset}`);
  let scenario = structuredClone(preset.scenario) as AnyScenario;
  if (m.lanes !== undefined) {
    scenario = worldOf(scenario).withLanes(scenario, m.lanes);
  }
  // The named choices a scenario may leave out are written at their defaults, so a reading of
  // the default is the very same scenario (run once) and the strip shows it.
  scenario = worldOf(scenario).withOptionalDefaults(scenario);
  for (const [path, value] of Object.entries(m.set ?? {})) scenario = setPath(scenario, path, value);
  // A one-combination claim still has a sweep (its seeds): one axis holding the field's own value.
  const oneCell: SweepAxis = worldOf(scenario).lengthAxis(scenario);
  const axes = m.axes ?? scenario.sweep?.axes ?? [oneCell];
  const metrics = sweepMetricsOf(scenario);
  const sweep: Sweep = {
    axes: [...axes],
    seeds: claimSeedCount(claim, seeds),
    ...(metrics.includes(m.metric) ? { metric: m.metric } : {}),
    ...((m.compare.kind === 'diffPct' || m.compare.kind === 'ratioPct') && m.compare.a !== m.compare.b ? { compare: { a: m.compare.a, b: m.compare.b } } : {}),
  };
  return { ...scenario, title: `${claim.where}: ${claim.id}`.slice(0, 80), sweep };
}

/** One scenario of a claim's sensitivity strip: the claim re-measured under one reading. */
export interface ClaimReadingScenario {
  readonly path: string;
  readonly label: string;
  readonly value: ReadingValue;
  readonly scenario: AnyScenario;
}

/**
 * Every swept scenario whose cells measure the claim: the default readings (`main`), then one
 * per reading of each sensitivity (the reading that equals the default gives the main
 * scenario again; `computeClaims` runs it once). Each is an ordinary scenario with a sweep.
 */
export function claimScenarios(claim: Claim, seeds: number): { main: AnyScenario; readings: ClaimReadingScenario[] } {
  const main = mainScenario(claim, seeds);
  const at = claim.measure.readingsAt;
  const base = at === undefined ? main : mainScenario({ ...claim, measure: { ...claim.measure, ...at } }, seeds);
  const readings = claim.sensitivity.flatMap((s) => s.values.map((value) => ({ path: s.path, label: s.label, value, scenario: setPath(base, s.path, readingSetting(s, value)) })));
  return { main, readings };
}

/**
 * The default reading of a choice: the value at `path` of the claim's main scenario, or, for
 * an object field, the name of the reading whose setting it equals.
 */
export function defaultReading(claim: Claim, path: string): ReadingValue | undefined {
  const value = getPath(mainScenario(claim, 1), path);
  const s = claim.sensitivity.find((x) => x.path === path);
  if (s?.settings !== undefined) return s.values.find((v) => JSON.stringify(readingSetting(s, v)) === JSON.stringify(value));
  return (value as ReadingValue | undefined) ?? s?.absent;
}

// ---------------------------------------------------------------------------------------
// The reduction

function metricValue(summary: object, metric: string): number {
  let at: unknown = summary;
  for (const key of metric.split('/')) {
    if (at === null || typeof at !== 'object') return Number.NaN;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'number' ? at : Number.NaN;
}

/** The outcomes of one scenario as [combination][seed] → lane rows. */
function grid(scenario: AnyScenario, seeds: readonly number[], outcomes: readonly CellOutcome[]): (readonly ResultRow[])[][] {
  const cells = sweepCells(scenario, seeds);
  if (outcomes.length !== cells.length) throw new RangeError(`estimateClaim: ${outcomes.length} outcomes for ${cells.length} cells`);
  const combinations = cells.length / seeds.length;
  const out: (readonly ResultRow[])[][] = Array.from({ length: combinations }, () => []);
  outcomes.forEach((o, i) => {
    if (o.index !== i || o.seed !== cells[i]!.seed) throw new RangeError(`estimateClaim: cell ${i} is missing or out of order`);
    out[cells[i]!.combination]!.push(o.results);
  });
  return out;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Which side of a rule is wrong for a number: higher values are worse when this is +1. */
function worseDirection(rule: VerdictRule): 1 | -1 {
  switch (rule.kind) {
    case 'atMost':
      return 1;
    case 'atLeast':
      return -1;
    case 'sign':
      return rule.sign > 0 ? -1 : 1;
    case 'near':
      return 1;
  }
}

/**
 * The claim's number from one scenario's cell outcomes (in canonical order), with lane `a`
 * replaced by `lane` when given (the reference lanes). Pure.
 */
export function estimateClaim(claim: Claim, scenario: AnyScenario, seeds: readonly number[], outcomes: readonly CellOutcome[], lane?: number): Estimate {
  const m = claim.measure;
  const scale = m.scale ?? 1;
  const byCell = grid(scenario, seeds, outcomes);
  const combos = byCell.length;
  const a = lane ?? m.compare.a;
  const value = (rows: readonly ResultRow[], index: number, metric = m.metric): number => {
    const row = rows[index];
    if (row === undefined) throw new RangeError(`claim ${claim.id}: lane ${index} is not a lane of its scenario`);
    return scale * metricValue(row.summary, metric);
  };
  const perSeed = (s: number, combination: number, index: number, metric?: string) => value(byCell[combination]![s]!, index, metric);
  const seedsIdx = seeds.map((_, s) => s);
  const compare = m.compare;
  switch (compare.kind) {
    case 'cells':
      return meanInterval(seedsIdx.map((s) => differencePct(perSeed(s, compare.from, a), perSeed(s, compare.to, a))));
    case 'lastVsBest': {
      const higher = higherIsBetter(m.metric);
      return meanInterval(
        seedsIdx.map((s) => {
          const values = byCell.map((_, c) => perSeed(s, c, a));
          const best = higher ? Math.max(...values) : Math.min(...values);
          return differencePct(values.at(-1)!, best);
        }),
      );
    }
    case 'laterVsEarlier': {
      const axis = scenario.sweep!.axes[0]!;
      const [d1, d2] = (axis.values ?? []) as number[];
      if (combos !== 2 || d1 === undefined || d2 === undefined || !(d2 > d1)) throw new RangeError(`claim ${claim.id}: laterVsEarlier needs one axis of two increasing run lengths`);
      return meanInterval(
        seedsIdx.map((s) => {
          const early = perSeed(s, 0, a);
          const later = (perSeed(s, 1, a) * d2 - early * d1) / (d2 - d1);
          return differencePct(later, early);
        }),
      );
    }
    case 'value':
    case 'diffPct':
    case 'ratioPct': {
      if (compare.at !== undefined) {
        const only = byCell[compare.at];
        if (only === undefined) throw new RangeError(`claim ${claim.id}: the sweep has no combination ${compare.at}`);
        byCell.splice(0, byCell.length, only);
      }
      const side = (s: number, c: number): number => perSeed(s, c, a);
      const other = (s: number, c: number): number =>
        compare.kind === 'diffPct' ? perSeed(s, c, compare.b, compare.bMetric) : compare.kind === 'ratioPct' ? perSeed(s, c, compare.b) : 0;
      const number = (aValue: number, bValue: number): number =>
        compare.kind === 'value' ? aValue : compare.kind === 'ratioPct' ? 100 * Math.expm1(aValue - bValue) : differencePct(aValue, bValue);
      const threshold = compare.kind === 'diffPct' ? compare.pointsBelow : undefined;
      // Per seed, lane a's and lane b's numbers → the estimate (against a threshold: `pointsBelow`).
      const estimate = (pairs: readonly (readonly [number, number])[]): Estimate => {
        if (threshold === undefined) return meanInterval(pairs.map(([x, y]) => number(x, y)));
        const baseline = mean(pairs.map(([, y]) => y));
        if (!(baseline >= threshold)) return { ...meanInterval(pairs.map(([x, y]) => x - y)), unit: 'points', baseline };
        return { ...meanInterval(pairs.map(([x, y]) => (100 * (x - y)) / baseline)), baseline };
      };
      if (m.over === 'mean') {
        return estimate(seedsIdx.map((s) => [mean(byCell.map((_, c) => side(s, c))), mean(byCell.map((_, c) => other(s, c)))] as const));
      }
      const perCombination = byCell.map((_, c) => estimate(seedsIdx.map((s) => [side(s, c), other(s, c)] as const)));
      const direction = worseDirection(claim.rule);
      const target = claim.rule.kind === 'near' ? claim.rule.paperValue : 0;
      const badness = (e: Estimate): number => (claim.rule.kind === 'near' ? Math.abs(e.mean - target) : direction * e.mean);
      return perCombination.reduce((worst, e) => (badness(e) > badness(worst) ? e : worst));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Rows

/** What was computed for one claim: the main estimate and each reading's (null: not computed). */
export interface ClaimComputation {
  readonly main: Estimate | null;
  readonly readings: readonly { readonly path: string; readonly label: string; readonly value: ReadingValue; readonly estimate: Estimate | null }[];
  /** The reference lanes under the default readings. */
  readonly references?: readonly { readonly label: string; readonly estimate: Estimate }[];
  /** Seeds each scenario ran with. */
  readonly seeds?: number;
}

const fmt = (v: number): string => {
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return `${v > 0 ? '+' : ''}${v.toFixed(digits)}`;
};

/** `−30.1 ± 2.2` (or the mean alone for one seed); `+4.2 ± 1.1 pp` for a difference in points (`Estimate.unit`). */
export function formatEstimate(e: Estimate): string {
  const shown = e.seeds > 1 ? `${fmt(e.mean)} ± ${Math.abs(e.halfWidth95) < 0.005 ? '0' : fmt(e.halfWidth95).replace('+', '')}` : fmt(e.mean);
  return e.unit === 'points' ? `${shown} pp` : shown;
}

/**
 * A claim's judgement of one estimate: its rule, except that a difference in points (`unit`,
 * the baseline below `pointsBelow`) is judged by its sign alone — the paper's size is a % of
 * the baseline, which the lab could not take.
 */
export function judgeEstimate(rule: VerdictRule, e: Estimate): ReturnType<typeof judge> {
  if (e.unit === 'points' && rule.kind === 'sign') return judge({ kind: 'sign', sign: rule.sign }, e);
  return judge(rule, e);
}

const judged = (rule: VerdictRule, e: Estimate | null): Verdict => (e === null || !Number.isFinite(e.mean) || !Number.isFinite(e.halfWidth95) ? 'noise' : judgeEstimate(rule, e).verdict);

const describeValue = (v: ReadingValue): string => (typeof v === 'string' ? v : String(v));

/** How long a claim's runs are: `300 s of serving`, or `runs of 300 and 600 s` when the sweep is over the length (`World.runLength`). */
function runLength(scenario: AnyScenario): string {
  return worldOf(scenario).runLength(scenario);
}

/**
 * The claim's row: verdict, sensitivity strip and a one-line reason written from the numbers
 * — the judgement of the default readings, then the first modelling choice whose readings
 * disagree on the verdict ("fails with trial cost = serial (−30 ± 2), holds with trial cost =
 * pipelined (+3 ± 1): trial cost flips it"), or that none of them does.
 */
export function claimRow(claim: Claim, computed: ClaimComputation): ClaimRow {
  const main = computed.main !== null && Number.isFinite(computed.main.mean) ? computed.main : null;
  const verdict = judged(claim.rule, main);
  const sensitivity: SensitivityResult[] = claim.sensitivity.map((s) => ({
    path: s.path,
    label: s.label,
    readings: s.values.map((value): ReadingResult => {
      const found = computed.readings.find((r) => r.path === s.path && r.value === value);
      // A reading whose metric is missing from its runs (NaN, null once in JSON) was not measured.
      const estimate = found?.estimate !== null && found?.estimate !== undefined && Number.isFinite(found.estimate.mean) && Number.isFinite(found.estimate.halfWidth95) ? found.estimate : null;
      return { value, estimate, verdict: judged(claim.rule, estimate) };
    }),
  }));
  const judgement = main === null ? null : judgeEstimate(claim.rule, main);
  const parts: string[] = [judgement === null ? 'not computed' : judgement.reason];
  // A comparison against a threshold says which unit the number is in, and why.
  const threshold = claim.measure.compare.kind === 'diffPct' ? claim.measure.compare.pointsBelow : undefined;
  if (main !== null && threshold !== undefined && main.baseline !== undefined) {
    // Two significant digits for a baseline near 0 (0.00033, not 0.00).
    const base = main.baseline !== 0 && Math.abs(main.baseline) < 0.01 ? main.baseline.toPrecision(2) : fmt(main.baseline).replace('+', '');
    parts.push(
      main.unit === 'points'
        ? `in percentage points: the baseline's mean, ${base}, is below ${fmt(threshold).replace('+', '')}, where a % of it would divide by ≈ 0, so the paper's size is not judged, only the sign`
        : `in % of the baseline's mean (${base}, at least ${fmt(threshold).replace('+', '')})`,
    );
  }
  const defaults = new Map(claim.sensitivity.map((s) => [s.path, defaultReading(claim, s.path)]));
  const measured = (s: SensitivityResult) => s.readings.filter((r) => r.estimate !== null);
  const flips = sensitivity.filter((s) => new Set(measured(s).map((r) => r.verdict)).size > 1);
  const [flip, ...others] = flips;
  if (flip !== undefined) {
    // The default reading is the row's own number: named, not repeated.
    const isDefault = (s: SensitivityResult, r: ReadingResult) => defaults.get(s.path) === r.value;
    const shown = measured(flip)
      .map((r) => `${r.verdict} with ${flip.label} = ${describeValue(r.value)} (${isDefault(flip, r) ? 'the default' : formatEstimate(r.estimate!)})`)
      .join(', ');
    // Each other choice that flips it, by the readings that disagree with the default's verdict.
    const also = others.map((s) => {
      const away = measured(s).filter((r) => r.verdict !== verdict);
      return `${s.label} = ${away.map((r) => `${describeValue(r.value)} (${r.verdict}, ${formatEstimate(r.estimate!)})`).join(' or ')}`;
    });
    parts.push(`${shown}: ${flip.label} flips it${also.length > 0 ? `; so ${also.length === 1 ? 'does' : 'do'} ${also.join('; ')}` : ''}`);
  } else if (sensitivity.some((s) => measured(s).length > 0)) {
    const values = sensitivity.flatMap((s) => measured(s).map((r) => r.estimate!.mean));
    const range = values.length > 1 ? ` (its readings give ${formatEstimate({ mean: Math.min(...values), halfWidth95: 0, seeds: 1 })} to ${formatEstimate({ mean: Math.max(...values), halfWidth95: 0, seeds: 1 })})` : '';
    parts.push(`no reading of ${sensitivity.filter((s) => measured(s).length > 0).map((s) => s.label).join(', ')} changes the verdict${range}`);
  }
  // Choices whose readings were not all computed say so, rather than pass for agreeing.
  const missing = sensitivity
    .filter((s) => s.readings.some((r) => r.estimate === null))
    .map((s) => `${s.label} = ${s.readings.filter((r) => r.estimate === null).map((r) => describeValue(r.value)).join(' or ')}`);
  if (main !== null && missing.length > 0) parts.push(`no number under ${missing.join('; ')} (the metric is missing from those runs)`);
  const scenario = mainScenario(claim, computed.seeds ?? main?.seeds ?? 1);
  // Learning rows say how much they ran: seeds (unless the judgement just said them) and run length against the paper's.
  if (claim.learns && computed.seeds !== undefined) {
    const seedsSaid = judgement !== null && judgement.verdict === 'noise' && judgement.reason.includes(' seed');
    const seeds = seedsSaid ? '' : `${computed.seeds} seed${computed.seeds === 1 ? '' : 's'} of `;
    parts.push(`${seeds}${runLength(scenario)}${claim.measure.paperRun === undefined ? '' : ` (the paper: ${claim.measure.paperRun})`}`);
  }
  return {
    id: claim.id,
    paper: claim.paper,
    where: claim.where,
    quote: claim.quote,
    ...(claim.paperNumber === undefined ? {} : { paperNumber: claim.paperNumber }),
    labNumber: claim.labNumber,
    estimate: main,
    verdict,
    reason: parts.join('; '),
    sensitivity,
    learns: claim.learns,
    scenario,
    ...(computed.references === undefined || computed.references.length === 0 ? {} : { references: computed.references }),
    ...(claim.measure.note === undefined ? {} : { note: claim.measure.note }),
    ...(computed.seeds === undefined ? {} : { seeds: computed.seeds }),
  };
}

/** The verdicts of several rows, combined (the report's summary line). */
export function verdictCounts(rows: readonly Pick<ClaimRow, 'verdict'>[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { holds: 0, partly: 0, fails: 0, noise: 0 };
  for (const r of rows) counts[r.verdict]++;
  return counts;
}

export { combine };

/** Runs every cell of a scenario with the given seeds: the CLI passes its thread pool, the page its Web Worker pool. */
export type RunCells = (scenario: AnyScenario, seeds: readonly number[], onCell?: (done: number) => void) => Promise<CellOutcome[]>;

/** Progress of `computeClaims`: cells done of the cells to run (each distinct scenario once). */
export type ClaimsProgress = (done: number, total: number) => void;

/**
 * Scenarios that run the same cells share them: the sweep's metric and comparison do not
 * change a cell, a reading of BCEdge left out is the paper's (so a strip's paper reading is
 * the main scenario again), and the platform setting changes nothing where no combination of
 * the sweep serves several models on Nano or TX2 (readings.ts `servedApart`).
 */
export function cellsKey(scenario: AnyScenario): string {
  const { sweep, title: _title, ...rest } = canonicalCells(scenario);
  void _title;
  return JSON.stringify([rest, sweep?.axes, sweep?.seeds]);
}

/** The scenario as its cells run it (`World.asCellsRun`: the serving readings written out, the platform setting left out where it changes nothing). */
function canonicalCells(scenario: AnyScenario): AnyScenario {
  return worldOf(scenario).asCellsRun(scenario);
}

/** The lane labels of a scenario's rows (for the references' names). */
function laneLabelOf(outcomes: readonly CellOutcome[], lane: number): string {
  return outcomes[0]?.results[lane]?.label ?? `lane ${lane}`;
}

/** One scenario of a plan: run once for every claim whose cells it holds. */
export interface PlannedScenario {
  /** `cellsKey` of the scenario. */
  readonly key: string;
  readonly scenario: AnyScenario;
  readonly seeds: readonly number[];
  /** Its cells (`sweepCells(scenario, seeds)`). */
  readonly cells: number;
  /** The plan-wide index of its first cell: its cells are `first` … `first + cells − 1` (what shards split). */
  readonly first: number;
}

/**
 * What computing `claims` takes: each claim's scenarios (main and readings) and seeds, and
 * every distinct scenario once, in the claims' order (`scenarios`), its cells numbered across
 * the plan (`cells` in all). A pure function of the claims and the seeds: a shard of the
 * claims (`claims --shard I/N`) runs the plan-wide cells i with i mod N = I of the same plan.
 */
export interface ClaimsPlan {
  readonly claims: readonly { readonly claim: Claim; readonly main: AnyScenario; readonly readings: readonly ClaimReadingScenario[]; readonly seeds: readonly number[] }[];
  readonly scenarios: readonly PlannedScenario[];
  readonly cells: number;
}

export function planClaims(claims: readonly Claim[], seeds: number): ClaimsPlan {
  const plans = claims.map((claim) => ({ claim, ...claimScenarios(claim, seeds), seeds: sweepSeeds(mainScenario(claim, seeds)) }));
  const distinct = new Map<string, PlannedScenario>();
  let first = 0;
  for (const plan of plans) {
    for (const scenario of [plan.main, ...plan.readings.map((r) => r.scenario)]) {
      const key = cellsKey(scenario);
      if (distinct.has(key)) continue;
      const cells = sweepCells(scenario, plan.seeds).length;
      distinct.set(key, { key, scenario, seeds: plan.seeds, cells, first });
      first += cells;
    }
  }
  return { claims: plans, scenarios: [...distinct.values()], cells: first };
}

/**
 * The rows of a plan from its scenarios' cell outcomes (by `cellsKey`, each in canonical
 * order): `estimateClaim` per claim, reading and reference lane, then `claimRow`. Pure: the
 * same outcomes give the same rows, however the cells were split.
 */
export function planRows(plan: ClaimsPlan, outcomes: ReadonlyMap<string, readonly CellOutcome[]>): ClaimRow[] {
  const of = (scenario: AnyScenario) => {
    const found = outcomes.get(cellsKey(scenario));
    if (found === undefined) throw new RangeError(`claims: no outcomes for the scenario ${scenario.title}`);
    return found;
  };
  return plan.claims.map((p) => {
    const main = estimateClaim(p.claim, p.main, p.seeds, of(p.main));
    const references = (p.claim.measure.references ?? []).map((lane) => ({ label: laneLabelOf(of(p.main), lane), estimate: estimateClaim(p.claim, p.main, p.seeds, of(p.main), lane) }));
    const readings = p.readings.map((r) => ({ path: r.path, label: r.label, value: r.value, estimate: estimateClaim(p.claim, r.scenario, p.seeds, of(r.scenario)) }));
    return claimRow(p.claim, { main, readings, references, seeds: p.seeds.length });
  });
}

/** Which share of a plan's cells runs: shard `index` of `count` (0-based), as sweeps are sharded. */
export interface PlanShard {
  readonly index: number;
  readonly count: number;
}

/**
 * The cells of `plan` a shard runs, per scenario in the plan's order (scenarios with none left
 * out): the plan-wide cell i belongs to shard i mod count. Round robin, as a sweep's shards
 * (cli/shards.ts): a scenario's cells (its seeds, its combinations) cost alike and go to
 * different shards, so a learning scenario of 12 cells spreads over 12 shards. Null: every cell.
 */
export function planShardCells(plan: ClaimsPlan, shard: PlanShard | null): { readonly scenario: PlannedScenario; readonly cells: readonly SweepCell[] }[] {
  return plan.scenarios
    .map((scenario) => ({ scenario, cells: sweepCells(scenario.scenario, scenario.seeds).filter((c) => shard === null || (scenario.first + c.index) % shard.count === shard.index) }))
    .filter((x) => x.cells.length > 0);
}

/** Runs some cells of a scenario (their outcomes in the cells' order): the CLI's threads or this thread. */
export type RunSomeCells = (scenario: AnyScenario, seeds: readonly number[], cells: readonly SweepCell[], onCell?: (done: number) => void) => Promise<CellOutcome[]>;

/**
 * Runs a shard's cells of a plan (every cell for null), the costliest scenarios first and all
 * handed to the runner at once (as `computeClaims`), and gives their outcomes by scenario key.
 * With every cell, `planRows` of the result is what `computeClaims` gives.
 */
export async function runPlanCells(plan: ClaimsPlan, shard: PlanShard | null, runCells: RunSomeCells, onProgress?: ClaimsProgress): Promise<Map<string, CellOutcome[]>> {
  const work = planShardCells(plan, shard);
  const total = work.reduce((sum, w) => sum + w.cells.length, 0);
  onProgress?.(0, total);
  const doneBy = new Map<string, number>();
  let done = 0;
  const report = (key: string, n: number): void => {
    done += n - (doneBy.get(key) ?? 0);
    doneBy.set(key, n);
    onProgress?.(done, total);
  };
  const cost = (w: (typeof work)[number]) => estimateRunCost(w.scenario.scenario, w.scenario.seeds.length).laneEvents;
  const ordered = [...work].sort((x, y) => cost(y) - cost(x));
  const outcomes = new Map<string, CellOutcome[]>();
  await Promise.all(
    ordered.map(async (w) => {
      const result = await runCells(w.scenario.scenario, w.scenario.seeds, w.cells, (n) => report(w.scenario.key, n));
      report(w.scenario.key, w.cells.length);
      outcomes.set(w.scenario.key, result);
    }),
  );
  return outcomes;
}

/**
 * Computes the rows of `claims`: every distinct scenario of every claim (main and readings)
 * runs once through `runCells`, with `claimSeedCount(claim, seeds)` seeds from the scenario's
 * seed on, and each claim's estimates come from `estimateClaim` on those cells.
 */
export async function computeClaims(claims: readonly Claim[], seeds: number, runCells: RunCells, onProgress?: ClaimsProgress): Promise<ClaimRow[]> {
  const plan = planClaims(claims, seeds);
  const distinct = new Map(plan.scenarios.map((d) => [d.key, d] as const));
  const total = plan.cells;
  onProgress?.(0, total);
  // Every scenario is handed to the runner at once, so a pool keeps all its workers busy even
  // when each scenario has fewer cells than workers (learning claims: one cell per seed).
  const doneBy = new Map<string, number>();
  let done = 0;
  const report = (key: string, n: number): void => {
    done += n - (doneBy.get(key) ?? 0);
    doneBy.set(key, n);
    onProgress?.(done, total);
  };
  const outcomes = new Map<string, CellOutcome[]>();
  // The costliest scenarios first (learning runs), so the pool does not end on one long cell.
  const ordered = [...distinct].sort(([, x], [, y]) => estimateRunCost(y.scenario, y.seeds.length).laneEvents - estimateRunCost(x.scenario, x.seeds.length).laneEvents);
  await Promise.all(
    ordered.map(async ([key, d]) => {
      const result = await runCells(d.scenario, d.seeds, (n) => report(key, n));
      report(key, d.cells);
      outcomes.set(key, result);
    }),
  );
  return planRows(plan, outcomes);
}
