import { z } from 'zod';
import { CLAIMS_REPORT_VERSION, type ClaimsReport } from './claimsReport';
import { parseAnyScenario } from './parse';
import { describeValue, formatPath, type FieldError } from './schema';
import { VERDICTS } from './verdict';
import { papers } from '../kit/worlds';

/**
 * The door of a reproduction report (ARCHITECTURE §4a, the Claims view): the page fetches the shipped one
 * (`public/claims/report.json`) and trusts nothing in it. Every problem comes back as a field
 * error naming the field (`rows[3].estimate.halfWidth95: must be a finite number ≥ 0, got -1`);
 * each row's scenario passes the scenario door (migrations included), so a report written by
 * an older build still opens.
 */

/** Bounds that keep a hostile report from hanging the page (ARCHITECTURE §7). */
export const CLAIMS_REPORT_LIMITS = {
  /** Bytes of the fetched file. */
  bytes: 16 * 1024 * 1024,
  rows: 200,
  readings: 64,
  sensitivity: 32,
  references: 16,
  /** Shards a merged report lists in its provenance. */
  shards: 10_000,
  text: 2000,
  /** A row id becomes a test id and an element id: short, lower case, digits and dashes. */
  idPattern: /^[a-z0-9][a-z0-9-]{0,79}$/,
} as const;

const text = (max: number = CLAIMS_REPORT_LIMITS.text) => z.string({ error: 'must be a string' }).max(max, { message: `must be at most ${max} characters` });
const finite = z.number({ error: 'must be a number' }).refine((v) => Number.isFinite(v), { message: 'must be a finite number' });

/*
 * Objects are read loosely: a field this build does not know (a report written by a newer
 * command) is dropped, not refused, so that a report keeps opening while the registry grows.
 * Every field the view shows is checked.
 */
const estimateSchema = z.object({
  mean: finite,
  halfWidth95: finite.refine((v) => v >= 0, { message: 'must be a finite number ≥ 0' }),
  seeds: z.number({ error: 'must be a number' }).refine((v) => Number.isInteger(v) && v >= 0 && v <= 100_000, { message: 'must be an integer from 0 to 100000' }),
  /** A difference in points rather than in % of the baseline (claims.ts `pointsBelow`). */
  unit: z.literal('points', { error: 'must be "points" when present' }).optional(),
  baseline: finite.optional(),
});

const verdictSchema = z.enum(VERDICTS as [string, ...string[]], { error: `must be one of ${VERDICTS.map((v) => `"${v}"`).join(', ')}` });

const readingSchema = z.object({
  value: z.union([finite, text(200), z.boolean()], { error: 'must be a number, a string or true/false' }),
  estimate: estimateSchema.nullable(),
  verdict: verdictSchema,
});

const sensitivitySchema = z.object({
  path: text(200).min(1, { message: 'must name a scenario field' }),
  label: text(100).min(1, { message: 'must not be empty' }),
  readings: z.array(readingSchema).max(CLAIMS_REPORT_LIMITS.readings, { message: `must have at most ${CLAIMS_REPORT_LIMITS.readings} readings` }),
});

const rowSchema = z.object({
  id: z.string({ error: 'must be a string' }).regex(CLAIMS_REPORT_LIMITS.idPattern, { message: 'must be lower-case letters, digits and dashes (at most 80)' }),
  paper: z.string({ error: 'must be a string' }).superRefine((id, ctx) => {
    const known = papers().map((p) => `"${p.id}"`);
    if (!known.includes(`"${id}"`)) ctx.addIssue({ code: 'custom', message: `must be a paper of the worlds: ${known.join(' or ')}` });
  }),
  where: text(100).min(1, { message: 'must not be empty' }),
  quote: text().min(1, { message: 'must not be empty' }),
  paperNumber: text(200).optional(),
  labNumber: text(300),
  estimate: estimateSchema.nullable(),
  verdict: verdictSchema,
  reason: text(),
  sensitivity: z.array(sensitivitySchema).max(CLAIMS_REPORT_LIMITS.sensitivity, { message: `must have at most ${CLAIMS_REPORT_LIMITS.sensitivity} modelling choices` }),
  learns: z.boolean({ error: 'must be true or false' }),
  references: z
    .array(z.object({ label: text(100).min(1, { message: 'must not be empty' }), estimate: estimateSchema }))
    .max(CLAIMS_REPORT_LIMITS.references, { message: `must have at most ${CLAIMS_REPORT_LIMITS.references} reference lanes` })
    .optional(),
  note: text().optional(),
  seeds: z.number({ error: 'must be a number' }).refine((v) => Number.isInteger(v) && v >= 1 && v <= 1000, { message: 'must be an integer from 1 to 1000' }).optional(),
  /** Checked by the scenario door below (it names the scenario's own fields). */
  scenario: z.unknown(),
});

const count = (min: number, max: number) => z.number({ error: 'must be a number' }).refine((v) => Number.isInteger(v) && v >= min && v <= max, { message: `must be an integer from ${min} to ${max}` });
const seconds = finite.refine((v) => v >= 0, { message: 'must be a finite number ≥ 0' });

const provenanceSchema = z.object({
  commit: text(100),
  seeds: count(1, 1000),
  date: text(100),
  machine: text(300),
  command: text(500),
  learning: z.object({ lengthS: count(1, 1_000_000), seeds: count(1, 1000), readingsLengthS: count(1, 1_000_000).optional() }).optional(),
  durationS: seconds.optional(),
  shards: z
    .array(z.object({ index: count(0, 100_000), count: count(1, 100_000), cells: count(0, 10_000_000), machine: text(300), date: text(100), durationS: seconds, command: text(500) }))
    .max(CLAIMS_REPORT_LIMITS.shards, { message: `must have at most ${CLAIMS_REPORT_LIMITS.shards} shards` })
    .optional(),
});

const machineRowSchema = z.object({
  id: z.string({ error: 'must be a string' }).regex(CLAIMS_REPORT_LIMITS.idPattern, { message: 'must be lower-case letters, digits and dashes (at most 80)' }),
  where: text(100).min(1, { message: 'must not be empty' }),
  quote: text().min(1, { message: 'must not be empty' }),
  labNumber: text(300),
  estimate: estimateSchema.nullable(),
  verdict: verdictSchema,
  reason: text(),
  lanes: z
    .array(
      z.object({
        label: text(100),
        scheduler: text(100),
        measuredQps: finite,
        simulatedQps: finite,
        throughputErrorPct: finite,
        latencyMeanErrorPct: finite,
        latencyP99ErrorPct: finite,
        moves: count(0, 100_000_000),
        moveMeanMs: finite,
        closestReading: text(100),
        throughputErrorHalfWidth95Pct: finite.optional(),
        latencyMeanErrorHalfWidth95Pct: finite.optional(),
        simulatedMoves: finite.optional(),
        phases: finite.optional(),
        simulatedPhases: finite.optional(),
      }),
    )
    .max(CLAIMS_REPORT_LIMITS.references, { message: `must have at most ${CLAIMS_REPORT_LIMITS.references} lanes` }),
  odinVsLls: z.object({ measuredPct: finite, simulatedPct: finite, agrees: z.boolean({ error: 'must be true or false' }) }).nullable(),
  provenance: z.object({ machine: text(300), date: text(100), command: text(500), commit: text(100), durationS: seconds, setting: text(700) }),
  simulatedMachine: text(300).optional(),
});

const reportSchema = z.object({
  version: z.literal(CLAIMS_REPORT_VERSION, { error: `must be ${CLAIMS_REPORT_VERSION} (this build reads version ${CLAIMS_REPORT_VERSION} reports)` }),
  provenance: provenanceSchema,
  rows: z.array(rowSchema, { error: 'must be a list of claims' }).max(CLAIMS_REPORT_LIMITS.rows, { message: `must have at most ${CLAIMS_REPORT_LIMITS.rows} claims` }),
  machineRows: z.array(machineRowSchema, { error: 'must be a list of claims' }).max(CLAIMS_REPORT_LIMITS.references, { message: `must have at most ${CLAIMS_REPORT_LIMITS.references} claims` }).optional(),
});

export type ClaimsReportResult = { readonly ok: true; readonly report: ClaimsReport } | { readonly ok: false; readonly errors: readonly FieldError[] };

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

type ShapeChecked = z.infer<typeof reportSchema>;

/** The report's shape (everything but the rows' scenarios); field errors or the document. */
function checkShape(input: unknown): { ok: true; value: ShapeChecked } | { ok: false; errors: FieldError[] } {
  let parsed;
  try {
    parsed = reportSchema.safeParse(input);
  } catch (error) {
    return { ok: false, errors: [{ path: '(report)', message: `could not be read: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = parsed.error.issues.slice(0, 20).map((issue): FieldError => {
    const path = formatPath(issue.path).replace(/^\(scenario\)$/, '(report)');
    if (issue.code === 'unrecognized_keys') return { path, message: `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` };
    const got = valueAt(input, issue.path);
    const parent = valueAt(input, issue.path.slice(0, -1));
    const missing = got === undefined && issue.path.length > 0 && parent !== null && typeof parent === 'object' && !Object.prototype.hasOwnProperty.call(parent, issue.path.at(-1)!);
    return { path, message: missing ? 'is required' : `${issue.message}, got ${describeValue(got)}` };
  });
  return { ok: false, errors };
}

/** Checks row i (its id against the ids before it, its scenario at the scenario door); the row with its validated scenario, or null. */
function checkRow(row: ShapeChecked['rows'][number], i: number, seen: Map<string, number>, errors: FieldError[]): ClaimsReport['rows'][number] | null {
  const first = seen.get(row.id);
  if (first !== undefined) errors.push({ path: `rows[${i}].id`, message: `"${row.id}" is also the id of rows[${first}]` });
  seen.set(row.id, i);
  const scenario = parseAnyScenario(row.scenario);
  if (!scenario.ok) {
    for (const e of scenario.errors.slice(0, 3)) errors.push({ path: `rows[${i}].scenario${e.path === '(scenario)' ? '' : `.${e.path}`}`, message: e.message });
    return null;
  }
  return { ...row, scenario: scenario.scenario } as ClaimsReport['rows'][number];
}

function finish(shape: ShapeChecked, rows: readonly (ClaimsReport['rows'][number] | null)[], errors: readonly FieldError[]): ClaimsReportResult {
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, 20) };
  return { ok: true, report: { ...shape, rows } as ClaimsReport };
}

/**
 * Validates a reproduction report (a parsed JSON document). Never throws; at most 20 errors,
 * each naming its field. Row ids must be unique (they are the rows' test ids).
 */
export function checkClaimsReport(input: unknown): ClaimsReportResult {
  const shape = checkShape(input);
  if (!shape.ok) return shape;
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const rows = shape.value.rows.map((row, i) => checkRow(row, i, seen, errors));
  return finish(shape.value, rows, errors);
}

/**
 * The same check, giving the thread back between rows (`yieldNow`, e.g. a zero timeout): each
 * row's scenario is validated with its sweep, a few milliseconds each, and a report of every
 * claim must not hold the page's main thread in one long task.
 */
export async function checkClaimsReportInSteps(input: unknown, yieldNow: () => Promise<void>): Promise<ClaimsReportResult> {
  const shape = checkShape(input);
  if (!shape.ok) return shape;
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const rows: (ClaimsReport['rows'][number] | null)[] = [];
  for (const [i, row] of shape.value.rows.entries()) {
    await yieldNow();
    rows.push(checkRow(row, i, seen, errors));
  }
  return finish(shape.value, rows, errors);
}

/** A report's text as a document, or the field error of a file that is too large or not JSON. */
function readJson(textOfFile: string): { ok: true; document: unknown } | { ok: false; errors: FieldError[] } {
  if (textOfFile.length > CLAIMS_REPORT_LIMITS.bytes) return { ok: false, errors: [{ path: '(report)', message: `is larger than ${CLAIMS_REPORT_LIMITS.bytes / 1024 / 1024} MB` }] };
  try {
    return { ok: true, document: JSON.parse(textOfFile) as unknown };
  } catch (error) {
    return { ok: false, errors: [{ path: '(report)', message: `is not JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}

/** Reads a report's text (the fetched file): JSON errors and oversized files are field errors too. */
export function parseClaimsReportJson(textOfFile: string): ClaimsReportResult {
  const read = readJson(textOfFile);
  return read.ok ? checkClaimsReport(read.document) : read;
}

/** `parseClaimsReportJson` giving the thread back between rows (the page's door). */
export async function parseClaimsReportJsonInSteps(textOfFile: string, yieldNow: () => Promise<void>): Promise<ClaimsReportResult> {
  const read = readJson(textOfFile);
  return read.ok ? checkClaimsReportInSteps(read.document, yieldNow) : read;
}
