import { MODEL_IDS } from '../engine/models';
import { encodeHeldScenarioLink, LINK_LIMITS } from '../../../scenario/link';
import type { ServingScenario } from '../schema';
import { parseTrace, traceLinkProblem, TRACE_LIMITS, type TracedRequestSpec } from '../scenario/servingTrace';

export type ServingModels = ServingScenario['serving']['models'];

/**
 * The scenario replaying `requests` (a parsed trace file). Choices (the papers have no trace
 * files; ARCHITECTURE §3): the run lasts until the whole second after the trace's last
 * request, so the whole trace is replayed and nothing after it is simulated; a model the
 * trace sends to but the scenario does not list is added (weight 1: weights do not matter
 * while a trace replays). Everything else — lanes, tenants, assumptions — stays.
 */
export function withTrace(scenario: ServingScenario, requests: readonly TracedRequestSpec[]): ServingScenario {
  const listed = new Set(scenario.serving.models.map((m) => m.model));
  const used = new Set(requests.map((r) => r.model));
  const added: ServingModels = MODEL_IDS.filter((m) => used.has(m) && !listed.has(m)).map((model) => ({ model, weight: 1 }));
  const lastS = requests.at(-1)?.tS ?? 0;
  return {
    ...scenario,
    serving: { ...scenario.serving, models: [...scenario.serving.models, ...added], durationS: Math.floor(lastS) + 1, trace: { requests: [...requests] } },
  };
}

/** The scenario drawing its arrivals again (rates and schedules), its trace removed. */
export function withoutTrace(scenario: ServingScenario): ServingScenario {
  const { trace: _trace, ...serving } = scenario.serving;
  void _trace;
  return { ...scenario, serving };
}

export type TraceFileResult = { readonly ok: true; readonly scenario: ServingScenario; readonly requests: number } | { readonly ok: false; readonly errors: readonly { readonly path: string; readonly message: string }[] };

/**
 * A trace file read into the scenario: the same parser, checks and caps as everywhere
 * (worlds/serving/scenario/servingTrace.ts); problems name the file and the field (`trace line 3.model`). The
 * worker validates the result as any scenario (models' classes, the run's bounds).
 */
export function traceFileScenario(scenario: ServingScenario, fileName: string, text: string): TraceFileResult {
  const parsed = parseTrace(text);
  if (!parsed.ok) return { ok: false, errors: parsed.errors.map((e) => ({ path: `${fileName}: ${e.path}`, message: e.message })) };
  return { ok: true, scenario: withTrace(scenario, parsed.requests), requests: parsed.requests.length };
}

/** Bytes a trace file (or a scenario file carrying one) may have; larger files are refused before they are read. */
export const TRACE_FILE_BYTES = TRACE_LIMITS.fileBytes;

export type ServingLink = { readonly ok: true; readonly hash: string } | { readonly ok: false; readonly reason: string };

/**
 * The link of a serving scenario, or why it cannot have one: a trace longer than a link
 * carries (`traceLinkProblem`) — it travels as a scenario file instead — or a scenario too
 * large once packed. Checked before packing, so a long trace is never compressed for nothing.
 */
export function servingLink(scenario: ServingScenario): ServingLink {
  const problem = traceLinkProblem(scenario);
  if (problem !== null) return { ok: false, reason: problem };
  let hash: string;
  try {
    hash = encodeHeldScenarioLink(scenario);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (hash.length > LINK_LIMITS.maxHashChars) return { ok: false, reason: `the scenario is ${hash.length} characters once packed; a link carries at most ${LINK_LIMITS.maxHashChars}: save the scenario as a file instead` };
  return { ok: true, hash };
}

/** The hash the address bar shows for a serving scenario, or null when it cannot have one (the bar then keeps the last one). */
export function servingLinkHash(scenario: ServingScenario): string | null {
  const linked = servingLink(scenario);
  return linked.ok ? linked.hash : null;
}
