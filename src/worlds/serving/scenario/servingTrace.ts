import { csvParseRows } from 'd3';
import { MODEL_IDS, type ModelId } from '../engine/models';
import { SERVING_LIMITS, type FieldError } from '../../../scenario/schema';
import { type ServingScenario } from '../schema';

/** One replayed request as a scenario holds it. */
export type TracedRequestSpec = NonNullable<ServingScenario['serving']['trace']>['requests'][number];

/** Bounds of a trace file and of a trace that may travel in a link. */
export const TRACE_LIMITS = {
  /** Bytes of a CSV or JSON trace file read by the page or the CLI. */
  fileBytes: 16 * 1024 * 1024,
  /** Requests a shared link may carry; a longer trace travels as a scenario file (a link is at most 64 KiB). */
  linkRequests: 2_000,
} as const;

export type TraceResult = { readonly ok: true; readonly requests: TracedRequestSpec[] } | { readonly ok: false; readonly errors: readonly FieldError[] };

const COLUMNS = ['time_s', 'model', 'slo_ms', 'shape_class'] as const;

/**
 * Reads a trace of arrival times and models: CSV with a header naming `time_s` and `model`
 * (and optionally `slo_ms`, `shape_class`), one request per row in send order, or JSON (an
 * array of `{tS, model, sloMs?, shapeClass?}` or `{requests: [...]}`). Never throws; every
 * problem names its row and column, e.g. `trace[3].model: must be one of …, got "yolov5"`.
 * The scenario schema checks the rest (models listed, classes, the run's duration).
 */
export function parseTrace(text: string): TraceResult {
  if (text.length > TRACE_LIMITS.fileBytes) return fail('trace', `is ${text.length} bytes; at most ${TRACE_LIMITS.fileBytes}`);
  const trimmed = text.trimStart();
  return trimmed.startsWith('[') || trimmed.startsWith('{') ? parseJsonTrace(trimmed) : parseCsvTrace(text);
}

function fail(path: string, message: string): TraceResult {
  return { ok: false, errors: [{ path, message }] };
}

function parseCsvTrace(text: string): TraceResult {
  const rows = csvParseRows(text).filter((r) => r.some((c) => c.trim() !== ''));
  if (rows.length === 0) return fail('trace', 'is empty');
  const header = rows[0]!.map((c) => c.trim().toLowerCase());
  const index = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>;
  if (index.time_s < 0 || index.model < 0) return fail('trace', `needs a header with columns time_s and model (optional: slo_ms, shape_class), got ${JSON.stringify(rows[0]!.join(','))}`);
  const unknown = header.filter((c) => !(COLUMNS as readonly string[]).includes(c));
  if (unknown.length > 0) return fail('trace', `has unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => JSON.stringify(c)).join(', ')}`);
  const body = rows.slice(1);
  if (body.length > SERVING_LIMITS.traceRequests) return fail('trace', `has ${body.length} requests; at most ${SERVING_LIMITS.traceRequests}`);
  const raw = body.map((r) => {
    const cell = (i: number): string | undefined => (i < 0 ? undefined : r[i]?.trim());
    const number = (i: number): number | undefined => {
      const c = cell(i);
      return c === undefined || c === '' ? undefined : Number(c);
    };
    return { tS: number(index.time_s), model: cell(index.model), sloMs: number(index.slo_ms), shapeClass: number(index.shape_class) };
  });
  return checkRequests(raw, 2);
}

function parseJsonTrace(text: string): TraceResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail('trace', `is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const list = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? (value as { requests?: unknown }).requests : undefined;
  if (!Array.isArray(list)) return fail('trace', 'must be an array of requests or {"requests": [...]}');
  if (list.length > SERVING_LIMITS.traceRequests) return fail('trace', `has ${list.length} requests; at most ${SERVING_LIMITS.traceRequests}`);
  return checkRequests(
    list.map((r: unknown) => (r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : {})),
    0,
  );
}

/** Field checks per request; `firstLine` numbers CSV rows as a spreadsheet does (0: JSON indices). */
function checkRequests(raw: readonly Record<string, unknown>[], firstLine: number): TraceResult {
  const errors: FieldError[] = [];
  const requests: TracedRequestSpec[] = [];
  let last = Number.NEGATIVE_INFINITY;
  raw.forEach((r, i) => {
    if (errors.length >= 20) return;
    const at = firstLine > 0 ? `trace line ${i + firstLine}` : `trace[${i}]`;
    const { tS, model, sloMs, shapeClass } = r;
    if (typeof tS !== 'number' || !Number.isFinite(tS) || tS < 0) return void errors.push({ path: `${at}.time_s`, message: `must be a time ≥ 0 in seconds, got ${JSON.stringify(tS ?? null)}` });
    if (tS < last) return void errors.push({ path: `${at}.time_s`, message: `must not be before the previous request's (${last}): a trace is in send order` });
    if (typeof model !== 'string' || !(MODEL_IDS as readonly string[]).includes(model)) {
      return void errors.push({ path: `${at}.model`, message: `must be one of ${MODEL_IDS.join(', ')}, got ${JSON.stringify(model ?? null)}` });
    }
    if (sloMs !== undefined && (typeof sloMs !== 'number' || !(sloMs >= SERVING_LIMITS.sloMs.min && sloMs <= SERVING_LIMITS.sloMs.max))) {
      return void errors.push({ path: `${at}.slo_ms`, message: `must be a number from ${SERVING_LIMITS.sloMs.min} to ${SERVING_LIMITS.sloMs.max}, got ${JSON.stringify(sloMs)}` });
    }
    if (shapeClass !== undefined && (typeof shapeClass !== 'number' || !Number.isInteger(shapeClass) || shapeClass < 0 || shapeClass >= SERVING_LIMITS.classes)) {
      return void errors.push({ path: `${at}.shape_class`, message: `must be an integer from 0 to ${SERVING_LIMITS.classes - 1}, got ${JSON.stringify(shapeClass)}` });
    }
    last = tS;
    requests.push({ tS, model: model as ModelId, ...(sloMs === undefined ? {} : { sloMs }), ...(shapeClass === undefined ? {} : { shapeClass }) });
  });
  if (errors.length > 0) return { ok: false, errors };
  if (requests.length === 0) return fail('trace', 'has no requests');
  return { ok: true, requests };
}

/** Whether a serving scenario's trace is too long for a link (it then travels as a file); the message says so. */
export function traceLinkProblem(scenario: ServingScenario): string | null {
  const n = scenario.serving.trace?.requests.length ?? 0;
  return n > TRACE_LIMITS.linkRequests
    ? `serving.trace: has ${n} requests; a link carries at most ${TRACE_LIMITS.linkRequests}: save the scenario as a file instead`
    : null;
}
