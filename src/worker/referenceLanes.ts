/**
 * The serving world's reference lanes in the page (ARCHITECTURE §3): their searches, run
 * beside the live run instead of before it, and the plans they found, kept per scenario and
 * lane so that reopening a scenario, going back in time or a link to the same run does not
 * search again. The engine and the command line search the same way (`reference.ts`), in
 * one go.
 */
import type { ServingRunSpec } from '../engine/serving/simulation';
import { referenceSearchBound, type ReferenceResult, type ReferenceSearch, type ReferenceSearchParams, type SearchStep } from '../schedulers/serving/reference';
import type { ReferenceLaneSearch } from '../schedulers/serving/registry';

/** Plans kept at most: each is minutes of search on the 3000 s presets, and a handful of numbers. */
export const REFERENCE_PLAN_CACHE_ENTRIES = 32;
/** Characters of keys kept at most (a key holds the lane's spec, a traced scenario's trace included). */
export const REFERENCE_PLAN_CACHE_KEY_CHARS = 16_000_000;

/**
 * JSON with every object's keys in sorted order, so that two equal values give one string
 * whatever order their fields were written in. Undefined fields are left out, as
 * `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * What a reference lane's plan depends on, as one string: its kind, the search's parameters
 * and the lane's engine spec (`buildServingSpec`: the trace, tenants, assumptions, seed).
 * The title, the view, the other lanes and the live edits are not in it: a plan is found on
 * the scenario's own run, before any edit (the command line's). `fixed-hindsight` reads no
 * phases, so its key leaves `phaseS` out, and a per-phase lane finds the hindsight search it
 * starts with under the same key.
 */
export function referencePlanKey(kind: ReferenceLaneSearch['kind'], spec: ServingRunSpec, params: ReferenceSearchParams): string {
  const { phaseS, ...common } = params;
  return canonicalJson({ kind, params: kind === 'fixed-hindsight' ? common : { ...common, phaseS: phaseS ?? 0 }, spec });
}

/** Found plans by key, the least recently used dropped first past the bounds. */
export class ReferencePlanCache {
  private readonly plans = new Map<string, ReferenceResult>();
  private keyChars = 0;

  constructor(
    private readonly maxEntries = REFERENCE_PLAN_CACHE_ENTRIES,
    private readonly maxKeyChars = REFERENCE_PLAN_CACHE_KEY_CHARS,
  ) {}

  get size(): number {
    return this.plans.size;
  }

  get(key: string): ReferenceResult | undefined {
    const found = this.plans.get(key);
    if (found === undefined) return undefined;
    // A Map keeps insertion order: taking it out and back makes it the most recent.
    this.plans.delete(key);
    this.plans.set(key, found);
    return found;
  }

  set(key: string, result: ReferenceResult): void {
    if (this.plans.delete(key)) this.keyChars -= key.length;
    // A key longer than the whole bound is not kept (it would push every other one out).
    if (key.length > this.maxKeyChars) return;
    this.plans.set(key, result);
    this.keyChars += key.length;
    for (const oldest of this.plans.keys()) {
      if (this.plans.size <= this.maxEntries && this.keyChars <= this.maxKeyChars) break;
      this.plans.delete(oldest);
      this.keyChars -= oldest.length;
    }
  }
}

/** A search a lane waits for. */
export interface SearchRequest {
  readonly key: string;
  readonly search: ReferenceLaneSearch;
  readonly spec: ServingRunSpec;
  readonly params: ReferenceSearchParams;
}

interface Job {
  readonly request: SearchRequest;
  /** Started when it comes first in line (a per-phase search then looks for its hindsight). */
  search: ReferenceSearch | null;
  step: SearchStep;
}

/**
 * The searches the lanes wait for, run one step at a time, one search after another: the
 * hindsight searches first, so that a per-phase search of the same spec and parameters
 * starts from the hindsight plan found (it searches that first: `fixedPerPhaseSearch`).
 * Results go to the cache; a search no lane waits for any more is dropped.
 */
export class ReferenceSearches {
  private jobs: Job[] = [];
  /** Evaluations (runs of a trace) finished by the searches run here. */
  evaluations = 0;

  constructor(readonly plans = new ReferencePlanCache()) {}

  /** Whether a search is under way or waiting. */
  get busy(): boolean {
    return this.jobs.length > 0;
  }

  /**
   * The searches the lanes now wait for (those without a known plan). A search already under
   * way for one of them goes on where it is; the others are dropped.
   */
  want(requests: readonly SearchRequest[]): void {
    const wanted = new Map<string, SearchRequest>();
    for (const r of requests) if (!wanted.has(r.key) && this.plans.get(r.key) === undefined) wanted.set(r.key, r);
    const kept = this.jobs.filter((job) => wanted.has(job.request.key));
    for (const job of this.jobs) if (!wanted.has(job.request.key)) job.search?.return(undefined as never);
    const fresh = [...wanted.values()]
      .filter((r) => !kept.some((job) => job.request.key === r.key))
      .map((request): Job => ({ request, search: null, step: { done: 0, total: referenceSearchBound(request.search.kind, request.spec, request.params) } }));
    const order = (job: Job) => (job.request.search.kind === 'fixed-hindsight' ? 0 : 1);
    // Array.prototype.sort is stable: lanes of one kind keep the scenario's order; one under way stays first.
    this.jobs = [...kept, ...fresh].sort((a, b) => (a.search !== null ? -1 : b.search !== null ? 1 : order(a) - order(b)));
  }

  /** How far the search of `key` is (done 0 while it waits its turn). */
  progress(key: string): SearchStep | null {
    return this.jobs.find((job) => job.request.key === key)?.step ?? null;
  }

  /** One step of the first search; the key of a search it finished (its plan is in the cache), else null. */
  step(): string | null {
    const job = this.jobs[0];
    if (job === undefined) return null;
    job.search ??= this.begin(job.request);
    const next = job.search.next();
    if (next.done !== true) {
      if (next.value.done > job.step.done) this.evaluations += next.value.done - job.step.done;
      job.step = next.value;
      return null;
    }
    this.jobs.shift();
    this.plans.set(job.request.key, next.value);
    return job.request.key;
  }

  private begin(request: SearchRequest): ReferenceSearch {
    const { search, spec, params } = request;
    // What the search begins with, when found before: per phase, hindsight's search; hindsight per model, the uniform one (issue 38).
    const prior =
      search.kind === 'fixed-per-phase' ? this.plans.get(referencePlanKey('fixed-hindsight', spec, params)) : params.perModel ? this.plans.get(referencePlanKey('fixed-hindsight', spec, { ...params, perModel: false })) : undefined;
    const started = search.start(spec, params, prior);
    // The evaluations a known plan stands for were not run here.
    if (prior !== undefined) this.evaluations -= prior.evaluations;
    return started;
  }
}
