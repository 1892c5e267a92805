import type { CdfData, CdfSeries } from '../charts/cdfChart';
import type { TemperatureData } from '../charts/temperatureChart';
import type { TrainingCurvesData } from '../charts/trainingCurvesChart';
import { laneColour } from '../../../charts/palette';
import type { ServingSummary } from '../engine/metrics';
import { BATCH_SIZES, INSTANCE_COUNTS } from '../engine/scheduler';
import type { FieldError } from '../../../scenario/schema';
import type { ServingSeriesBuffer } from '../store/servingStore';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import type { LearningLive, ServingLaneInfo, ServingLaneSearch } from '../worker/servingProtocol';

/**
 * What the serving page shows of its learning lanes, computed from the store's plain data
 * (no React, no DOM): status, the policy grid, curves, update rates, the summaries' CDFs,
 * agent files.
 */

/** Where a learning lane's agent comes from and whether it learns. */
export type LearningStatus = 'pretrained' | 'scratch' | 'frozen' | 'loaded';

/**
 * A learning lane's status from its parameters: frozen when it does not train (`train` 0),
 * else loaded (an agent the person loaded since the run started), pretrained (it started
 * from the shipped agent) or training from scratch; with a sentence for people.
 */
export function learningStatus(params: Readonly<Record<string, number>>, loaded: boolean): { readonly status: LearningStatus; readonly text: string } {
  // A lane started from the shipped agent that learns acts greedily until its first update online (`greedyUntilUpdate`).
  const greedyFirst = params['explore'] !== 0 && params['train'] !== 0 && params['pretrained'] === 1 && !loaded && params['greedyUntilUpdate'] !== 0;
  const greedy = params['explore'] === 0 ? ', acting greedily' : greedyFirst ? ', acting greedily until it first learns online, then sampling its actions' : ', sampling its actions';
  const source = loaded ? 'the agent you loaded' : params['pretrained'] === 1 ? 'the shipped agent' : 'random weights';
  if (params['train'] === 0) return { status: 'frozen', text: `frozen: ${source}, not learning${greedy}` };
  if (loaded) return { status: 'loaded', text: `loaded agent, learning online${greedy}` };
  if (params['pretrained'] === 1) return { status: 'pretrained', text: `pretrained: started from the shipped agent, learning online${greedy}` };
  return { status: 'scratch', text: `training from scratch${greedy}` };
}

/** Actions per model: the (b, m_c) grid of BATCH_SIZES × INSTANCE_COUNTS. */
export const ACTIONS = BATCH_SIZES.length * INSTANCE_COUNTS.length;

/**
 * Model `model`'s row of a policy as the heatmap's grid: `[i_b][i_mc]` = π(a|s) in % for
 * a = i_b · |INSTANCE_COUNTS| + i_mc; null where the mask forbids the action. Null when the
 * policy has no such row.
 */
export function policyGrid(policy: Float32Array, masks: Uint8Array, model: number): (number | null)[][] | null {
  const base = model * ACTIONS;
  if (model < 0 || !Number.isInteger(model) || policy.length < base + ACTIONS) return null;
  return BATCH_SIZES.map((_, b) =>
    INSTANCE_COUNTS.map((__, m) => {
      const a = base + b * INSTANCE_COUNTS.length + m;
      const allowed = masks.length < base + ACTIONS || masks[a] === 1;
      return allowed ? 100 * policy[a]! : null;
    }),
  );
}

/** Sum of model `model`'s probabilities (≈ 1 for a policy; NaN without the row). */
export function policyTotal(policy: Float32Array, model: number): number {
  const base = model * ACTIONS;
  if (model < 0 || policy.length < base + ACTIONS) return Number.NaN;
  let sum = 0;
  for (let a = base; a < base + ACTIONS; a++) sum += policy[a]!;
  return sum;
}

/**
 * A lane's reward per slot from its utility series: the slot index of each point (its end
 * over the slot length, minus one) and the mean over models of their utility (NaN when no
 * model had one), as the learning lanes' curves average their models' rewards.
 */
export function seriesRewardCurve(series: ServingSeriesBuffer | undefined, slotMs: number): { slot: Float64Array; reward: Float64Array } {
  const n = series?.length ?? 0;
  const slot = new Float64Array(n);
  const reward = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    slot[i] = Math.max(0, Math.ceil(series!.columns.endMs[i]! / Math.max(1, slotMs)) - 1);
    let sum = 0;
    let count = 0;
    for (let m = 0; m < series!.models; m++) {
      const u = series!.at('utility', i, m);
      if (Number.isFinite(u)) {
        sum += u;
        count++;
      }
    }
    reward[i] = count > 0 ? sum / count : Number.NaN;
  }
  return { slot, reward };
}

function anyFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) return true;
  return false;
}

/**
 * Fig. 10's data: every lane's reward per slot — a learning lane's own learning curve when
 * it has rewards (a frozen lane records none: then its utility series, like the others). A
 * reference lane (an oracle) is drawn from its series once it runs beside the others; until
 * then the legend says where it is (`searches`: searching, or catching up from 0 s).
 */
export function trainingCurves(
  lanes: readonly ServingLaneInfo[],
  learning: readonly (LearningLive | null)[],
  series: readonly (ServingSeriesBuffer | undefined)[],
  slotMs: number,
  searches: readonly (ServingLaneSearch | null)[] = [],
): TrainingCurvesData {
  return {
    slotSeconds: slotMs / 1000,
    lanes: lanes.map((lane, i) => {
      const curve = learning[i]?.curve;
      const own = curve !== undefined && anyFinite(curve.reward);
      const { slot, reward } = own ? curve : seriesRewardCurve(series[i], slotMs);
      const oracle = SERVING_SCHEDULERS[lane.scheduler as keyof typeof SERVING_SCHEDULERS]?.reference !== undefined;
      const search = searches[i] ?? null;
      const note = !oracle ? undefined : search === null ? 'oracle' : search.replayedMs === null ? 'oracle searching…' : 'oracle catching up…';
      return { label: lane.label, index: lane.index, learning: lane.learning, slot, reward, ...(note === undefined ? {} : { note }) };
    }),
  };
}

/** The temperature chart's data: the learning lanes' α curves (NaN for the lanes without α). */
export function temperatureCurves(lanes: readonly ServingLaneInfo[], learning: readonly (LearningLive | null)[]): TemperatureData {
  const out: TemperatureData['lanes'][number][] = [];
  lanes.forEach((lane, i) => {
    const curve = learning[i]?.curve;
    if (lane.learning && curve !== undefined) out.push({ label: lane.label, index: lane.index, slot: curve.slot, temperature: curve.temperature });
  });
  return { lanes: out };
}

/** How far back the update rate looks, wall-clock ms. */
export const RATE_WINDOW_MS = 3000;
/** The shortest span a rate is computed over, ms (shorter: no rate yet). */
export const RATE_MIN_SPAN_MS = 400;

/**
 * Gradient updates per wall-clock second of each lane, from successive frames: the change
 * of the lane's update count over the last RATE_WINDOW_MS. A new generation (a restart) or a
 * count that went down starts the lane over.
 */
export class UpdateRateMeter {
  private generation = Number.NaN;
  private samples: { t: number; updates: number }[][] = [];

  observe(nowMs: number, generation: number, updates: readonly (number | null)[]): void {
    if (generation !== this.generation || updates.length !== this.samples.length) {
      this.generation = generation;
      this.samples = updates.map(() => []);
    }
    updates.forEach((u, i) => {
      const lane = this.samples[i]!;
      if (u === null) {
        lane.length = 0;
        return;
      }
      const last = lane.at(-1);
      if (last !== undefined && u < last.updates) lane.length = 0;
      lane.push({ t: nowMs, updates: u });
      while (lane.length > 2 && nowMs - lane[1]!.t >= RATE_WINDOW_MS) lane.shift();
    });
  }

  /** Updates per second of lane `lane`; null before enough frames came. */
  rate(lane: number): number | null {
    const s = this.samples[lane];
    if (s === undefined || s.length < 2) return null;
    const first = s[0]!;
    const last = s.at(-1)!;
    const span = last.t - first.t;
    return span < RATE_MIN_SPAN_MS ? null : (1000 * (last.updates - first.updates)) / span;
  }

  rates(): (number | null)[] {
    return this.samples.map((_, i) => this.rate(i));
  }
}

/** Agent files larger than this are refused before being read (a saved agent is about 0.5 MB). */
export const AGENT_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** Why a picked file cannot be an agent, before reading it (null when its size is fine). */
export function checkAgentFileSize(name: string, bytes: number): FieldError | null {
  if (bytes > AGENT_FILE_MAX_BYTES) {
    return { path: `file ${name}`, message: `is ${(bytes / 1024 / 1024).toFixed(1)} MB; an agent file is at most ${AGENT_FILE_MAX_BYTES / 1024 / 1024} MB` };
  }
  if (bytes === 0) return { path: `file ${name}`, message: 'is empty; expected an agent (JSON)' };
  return null;
}

/**
 * Reads an agent file's text as JSON. The fields themselves are checked by the worker when
 * the agent is loaded (it names the field that does not fit); here only the syntax.
 */
export function parseAgentText(name: string, text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: FieldError } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: { path: 'agent', message: `expected a JSON object (an agent file), got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` } };
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: { path: `file ${name}`, message: `is not valid JSON (${error instanceof Error ? error.message : String(error)})` } };
  }
}

/** A file name for a downloaded agent: `bcedge-six-models-on-xavier-nx-2025-01-31.json`. */
export function agentFileName(scheduler: string, title: string, date: Date): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const day = date.toISOString().slice(0, 10);
  return `${[scheduler, slug, day].filter((p) => p !== '').join('-')}.json`;
}

/** The 101 percentiles at `path` of an untyped report (the summaries' `learning`), or null. */
export function reportQuantiles(report: unknown, path: readonly string[]): number[] | null {
  let node: unknown = report;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return null;
    node = (node as Record<string, unknown>)[key];
  }
  if (!Array.isArray(node) || node.length === 0 || !node.every((v) => typeof v === 'number')) return null;
  return node as number[];
}

/** A number of an untyped report, or NaN. */
function reportNumber(report: unknown, path: readonly string[]): number {
  let node: unknown = report;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return Number.NaN;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'number' ? node : Number.NaN;
}

const pct = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : v.toFixed(0)} %` : '–');

/** Colours of Fig. 13 when one lane has a predictor: the MLP and linear regression apart. */
export const PREDICTOR_COLOURS = { mlp: '#0072B2', linear: '#D55E00' } as const;

/** Whether a lane runs BCEdge's interference predictor (its parameter, or its report says so). */
export function hasPredictor(lane: ServingLaneInfo, summary: ServingSummary | null | undefined): boolean {
  const predictor = (summary?.learning as Record<string, unknown> | undefined)?.['predictor'];
  return (typeof predictor === 'object' && predictor !== null) || (lane.scheduler === 'bcedge' && lane.params['predictor'] !== 0);
}

/** What the CDFs say before the first summary (they come when the run pauses or ends). */
export const CDF_WAITING = 'Pause the run (or let it finish) to see this distribution';

/**
 * Fig. 13's data from the summaries: for every lane with the interference predictor, the
 * relative error (%) of the MLP's online predictions and of linear regression scored the
 * same way, each with its median and 95th percentile in the legend.
 */
export function predictorErrorCdf(lanes: readonly ServingLaneInfo[], summaries: readonly (ServingSummary | null)[] | null): CdfData {
  const series: CdfSeries[] = [];
  const withPredictor = lanes.filter((lane, i) => hasPredictor(lane, summaries?.[i]));
  const many = withPredictor.length > 1;
  for (const lane of withPredictor) {
    const report = summaries?.[lanes.indexOf(lane)]?.learning;
    for (const which of ['mlp', 'linear'] as const) {
      const q = reportQuantiles(report, ['predictor', which, 'quantiles']) ?? [];
      const name = which === 'mlp' ? 'interference predictor (MLP)' : 'linear regression';
      const p50 = reportNumber(report, ['predictor', which, 'p50']) * 100;
      const p95 = reportNumber(report, ['predictor', which, 'p95']) * 100;
      const samples = reportNumber(report, ['predictor', which, 'samples']);
      const numbers = summaries === null ? 'pause to see' : q.length === 0 ? 'no batches scored yet' : `median ${pct(p50)}, p95 ${pct(p95)} (${samples} batches)`;
      series.push({
        key: `${lane.index}-${which}`,
        label: `${name}${many ? ` — ${lane.label}` : ''}: ${numbers}`,
        colour: many ? laneColour(lane.index) : PREDICTOR_COLOURS[which],
        dashed: which === 'linear',
        quantiles: q.map((v) => v * 100),
      });
    }
  }
  return {
    xLabel: 'relative error of the predicted inference time (%)',
    unit: '%',
    series,
    empty: series.length === 0 ? 'No lane with the interference predictor in this scenario' : summaries === null ? CDF_WAITING : 'No batches scored yet: let the run go on, then pause',
    description: 'Cumulative distribution of the relative error of the interference predictor (MLP) and of linear regression on batches they had not learned from.',
  };
}

/** Fig. 14's data from the summaries: each learning lane's per-slot SLO violation rate (%). */
export function sloViolationCdf(lanes: readonly ServingLaneInfo[], summaries: readonly (ServingSummary | null)[] | null): CdfData {
  const series: CdfSeries[] = [];
  lanes.forEach((lane, i) => {
    if (!lane.learning) return;
    const report = summaries?.[i]?.learning;
    const q = reportQuantiles(report, ['slotViolationPct', 'quantiles']) ?? [];
    const p50 = reportNumber(report, ['slotViolationPct', 'p50']);
    const p99 = reportNumber(report, ['slotViolationPct', 'p99']);
    const numbers = summaries === null ? 'pause to see' : q.length === 0 ? 'no slots yet' : `median ${pct(p50)}, p99 ${pct(p99)}`;
    series.push({ key: `${lane.index}`, label: `${lane.label}: ${numbers}`, colour: laneColour(lane.index), quantiles: q });
  });
  return {
    xLabel: 'SLO violations in a slot (% of its requests)',
    unit: '%',
    series,
    empty: series.length === 0 ? 'No learning lane in this scenario' : summaries === null ? CDF_WAITING : 'No slots with requests yet: let the run go on, then pause',
    description: 'Cumulative distribution of the share of requests that missed their SLO in each scheduling slot, per learning lane.',
  };
}
