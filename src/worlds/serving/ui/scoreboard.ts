import type { ServingSeriesBuffer } from '../store/servingSeriesBuffer';
import type { ServingLaneInfo } from '../worker/servingProtocol';

/**
 * The serving lab's live scoreboard (README "Reading the scoreboard"): what every lane card
 * shows while the run plays, computed on the page from the lanes' series (no React, no DOM).
 * Each lane's utility (Eq. 3, the mean over every model and reporting interval, as the summary
 * computes it) and SLO violations, over the run and over the last window, and its gap to the
 * scenario's reference lanes (the best fixed plan in hindsight, the best fixed plan per phase)
 * as exp(U − U_oracle) − 1 over the same span of simulated time (ARCHITECTURE §3: utilities
 * are compared as ratios). The series are downsampled by the worker (each point sums `stride`
 * reporting intervals, exactly), so a span is rounded to whole points.
 */

/**
 * Length of the scoreboard's recent window, simulated s. The papers give none; the lab's choice:
 * a minute follows a change of phase of the changing presets (phases of 200 s to 1000 s) within
 * a few seconds of watching at 10–30 × real time, and holds tens of reporting intervals.
 */
export const SCOREBOARD_WINDOW_S = 60;

/** The numbers of one lane over one span of simulated time. */
export interface SpanScore {
  /** Start of the span (the end of the point before its first), simulated ms. */
  readonly fromMs: number;
  /** End of the span (its last point's end), simulated ms. */
  readonly toMs: number;
  /** Mean utility (Eq. 3) over every model's reporting intervals in the span that had one; null when none had. */
  readonly utility: number | null;
  /**
   * SLO violations counted in the span (late, failed, rejected) per request that reached the
   * edge in it, %; null when none arrived. Over a whole run this is the summary's share up to
   * the requests still in flight at its end.
   */
  readonly violationPct: number | null;
}

/** Sums of a lane's series over the points whose end lies in (afterMs, toMs]. */
interface SpanSums {
  readonly fromMs: number;
  readonly toMs: number;
  readonly points: number;
  readonly utilitySum: number;
  readonly utilityCount: number;
  readonly violations: number;
  readonly arrivals: number;
}

/** The index of the last point whose end is at most `ms` (−1 when none is). */
function lastPointAtOrBefore(series: ServingSeriesBuffer, ms: number): number {
  const endMs = series.columns.endMs;
  let lo = 0;
  let hi = series.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (endMs[mid]! <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function sumsOver(series: ServingSeriesBuffer, afterMs: number, toMs: number): SpanSums {
  const last = lastPointAtOrBefore(series, toMs);
  const first = lastPointAtOrBefore(series, afterMs) + 1;
  const models = series.models;
  const { utility, utilityCount, violations, arrivals } = series.modelColumns;
  let uSum = 0;
  let uCount = 0;
  let v = 0;
  let a = 0;
  for (let i = first; i <= last; i++) {
    for (let m = 0; m < models; m++) {
      const k = i * models + m;
      const count = utilityCount[k]!;
      if (count > 0) {
        uSum += utility[k]! * count;
        uCount += count;
      }
      v += violations[k]!;
      a += arrivals[k]!;
    }
  }
  const endMs = series.columns.endMs;
  return {
    fromMs: first > 0 ? endMs[first - 1]! : 0,
    toMs: last >= 0 ? endMs[last]! : 0,
    points: Math.max(0, last - first + 1),
    utilitySum: uSum,
    utilityCount: uCount,
    violations: v,
    arrivals: a,
  };
}

function scoreOf(s: SpanSums): SpanScore | null {
  if (s.points === 0) return null;
  return {
    fromMs: s.fromMs,
    toMs: s.toMs,
    utility: s.utilityCount > 0 ? s.utilitySum / s.utilityCount : null,
    violationPct: s.arrivals > 0 ? (100 * s.violations) / s.arrivals : null,
  };
}

/** The end of a lane's last point, simulated ms (null when it has none). */
export function seriesEndMs(series: ServingSeriesBuffer | undefined): number | null {
  return series === undefined || series.length === 0 ? null : series.columns.endMs[series.length - 1]!;
}

/** A lane's numbers from time 0 to `toMs` and over the last `windowMs` before it (null: no point there). */
export function spanScores(series: ServingSeriesBuffer | undefined, toMs: number, windowMs: number): { readonly run: SpanScore | null; readonly window: SpanScore | null } {
  if (series === undefined || series.length === 0) return { run: null, window: null };
  return { run: scoreOf(sumsOver(series, Number.NEGATIVE_INFINITY, toMs)), window: scoreOf(sumsOver(series, toMs - windowMs, toMs)) };
}

/** exp(U_a − U_b) − 1: the ratio of two utilities (Eq. 3 is a logarithm) less one; null when either is missing. */
export function utilityGap(u: number | null | undefined, oracle: number | null | undefined): number | null {
  if (u === null || u === undefined || oracle === null || oracle === undefined) return null;
  return Math.expm1(u - oracle);
}

/** The two reference lanes a lane is set against. */
export type OracleKind = 'hindsight' | 'perPhase';

/** Words for each reference lane on a card: short, and in full. */
export const ORACLE_NAMES: Readonly<Record<OracleKind, { readonly short: string; readonly full: string }>> = {
  hindsight: { short: 'vs hindsight', full: 'the best fixed plan in hindsight' },
  perPhase: { short: 'vs per phase', full: 'the best fixed plan per phase' },
};

/**
 * The scenario's reference lanes, one of each kind (null: the scenario has none). Of several
 * `fixed-hindsight` lanes the one that searches per model (the stronger; `perModel: 0` is
 * Triton's best uniform setting) is the hindsight oracle; of several of a kind, the first.
 */
export function oracleLanes(lanes: readonly ServingLaneInfo[]): Readonly<Record<OracleKind, number | null>> {
  const hindsight = lanes.filter((l) => l.scheduler === 'fixed-hindsight');
  const perModel = hindsight.find((l) => l.params['perModel'] !== 0) ?? hindsight[0];
  const perPhase = lanes.find((l) => l.scheduler === 'fixed-per-phase');
  return { hindsight: perModel?.index ?? null, perPhase: perPhase?.index ?? null };
}

/** A lane's gap to one reference lane. */
export interface GapScore {
  readonly kind: OracleKind;
  /** The reference lane's index. */
  readonly oracle: number;
  /** exp(U − U_oracle) − 1 from time 0 to `asOfMs` and over the window before it; null while the reference lane has no points. */
  readonly run: number | null;
  readonly window: number | null;
  /** The end of the span both lanes have points for, simulated ms (null: none). */
  readonly asOfMs: number | null;
}

/** What one lane card shows. */
export interface LaneScore {
  readonly lane: number;
  /** The end of the lane's points, simulated ms (null: none yet). */
  readonly asOfMs: number | null;
  readonly run: SpanScore | null;
  readonly window: SpanScore | null;
  /** Against each reference lane of the scenario other than this one. */
  readonly gaps: readonly GapScore[];
}

/**
 * Every lane's scoreboard from the lanes' series: its own numbers up to its last point, and
 * its gap to each reference lane over the span both have points for (time 0 to the earlier of
 * their last points, and the window before that end), so that two lanes are always compared
 * on the same requests.
 */
export function laneScores(lanes: readonly ServingLaneInfo[], series: readonly (ServingSeriesBuffer | undefined)[], windowMs: number = SCOREBOARD_WINDOW_S * 1000): LaneScore[] {
  const oracles = oracleLanes(lanes);
  return lanes.map((lane) => {
    const own = series[lane.index];
    const asOfMs = seriesEndMs(own);
    const { run, window } = asOfMs === null ? { run: null, window: null } : spanScores(own, asOfMs, windowMs);
    const gaps: GapScore[] = [];
    for (const kind of ['hindsight', 'perPhase'] as const) {
      const oracle = oracles[kind];
      if (oracle === null || oracle === lane.index) continue;
      const theirs = series[oracle];
      const theirEnd = seriesEndMs(theirs);
      if (asOfMs === null || theirEnd === null) {
        gaps.push({ kind, oracle, run: null, window: null, asOfMs: null });
        continue;
      }
      const common = Math.min(asOfMs, theirEnd);
      const mine = spanScores(own, common, windowMs);
      const best = spanScores(theirs, common, windowMs);
      gaps.push({
        kind,
        oracle,
        run: utilityGap(mine.run?.utility, best.run?.utility),
        window: utilityGap(mine.window?.utility, best.window?.utility),
        asOfMs: mine.run?.toMs ?? null,
      });
    }
    return { lane: lane.index, asOfMs, run, window, gaps };
  });
}

/**
 * Each lane's utility per model over the whole of its series (BCEdge Fig. 7's raw values):
 * `[model][lane]`, null where the lane has no point or the model no utility.
 */
export function perModelUtility(models: number, lanes: readonly ServingLaneInfo[], series: readonly (ServingSeriesBuffer | undefined)[]): (number | null)[][] {
  const out: (number | null)[][] = Array.from({ length: models }, () => lanes.map(() => null));
  lanes.forEach((lane, l) => {
    const s = series[lane.index];
    if (s === undefined || s.length === 0 || s.models !== models) return;
    const { utility, utilityCount } = s.modelColumns;
    for (let m = 0; m < models; m++) {
      let sum = 0;
      let count = 0;
      for (let i = 0; i < s.length; i++) {
        const c = utilityCount[i * models + m]!;
        if (c > 0) {
          sum += utility[i * models + m]! * c;
          count += c;
        }
      }
      out[m]![l] = count > 0 ? sum / count : null;
    }
  });
  return out;
}

/** Whether a card's numbers are not those of the run as it stands, and why (null: they are current). */
export type Staleness = { readonly kind: 'behind'; readonly asOfMs: number } | { readonly kind: 'edited'; readonly asOfMs: number; readonly editMs: number } | null;

/**
 * Whether numbers that end at `asOfMs` are stale for a run at `timeMs`: an edit made at or after
 * their end (a setting changed while paused: they do not show it yet), or an end more than one
 * point and one reporting interval behind the run (a point still being filled is not sent, so
 * a lag of one point is the series' own).
 */
export function staleness(asOfMs: number | null, timeMs: number, pointMs: number, slotMs: number, editedAtMs: number | null): Staleness {
  if (asOfMs === null) return null;
  if (editedAtMs !== null && editedAtMs >= asOfMs && editedAtMs <= timeMs) return { kind: 'edited', asOfMs, editMs: editedAtMs };
  if (asOfMs < timeMs - pointMs - slotMs) return { kind: 'behind', asOfMs };
  return null;
}

/** The length of a series' last point, ms (0 when it has fewer than one point). */
export function lastPointMs(series: ServingSeriesBuffer | undefined): number {
  if (series === undefined || series.length === 0) return 0;
  const n = series.length;
  return series.columns.endMs[n - 1]! - (n > 1 ? series.columns.endMs[n - 2]! : 0);
}

/** A utility gap as people read it: "−8.1 %", "+0.4 %", "0 %" (sign always shown but for 0). */
export function gapText(gap: number | null): string {
  if (gap === null || !Number.isFinite(gap)) return '–';
  const pct = 100 * gap;
  const digits = Math.abs(pct) >= 10 ? 0 : 1;
  const shown = pct.toFixed(digits);
  if (Number(shown) === 0) return '0 %';
  return `${pct > 0 ? '+' : '−'}${Math.abs(pct).toFixed(digits)} %`;
}
