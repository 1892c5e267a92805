/**
 * The serving world's reference lanes in the page (ARCHITECTURE §3): their searches, run
 * beside the live run instead of before it, and the plans they found, kept per scenario and
 * lane so that reopening a scenario, going back in time or a link to the same run does not
 * search again. The engine and the command line search the same way (`reference.ts`), in
 * one go.
 */
import type { ServingRunSpec } from '../engine/spec';
import { referenceSearchBound, type ReferenceResult, type ReferenceSearch, type ReferenceSearchParams, type SearchStep } from '../schedulers/reference';
import type { ReferenceLaneSearch } from '../schedulers/registry';
import { canonicalJson, referencePlanKey } from '../schedulers/planKey';
import { shippedPlan } from '../schedulers/shippedPlans';

/** Plans kept at most: each is minutes of search on the 3000 s presets, and a handful of numbers. */
export const REFERENCE_PLAN_CACHE_ENTRIES = 32;
/** Characters of keys kept at most (a key holds the lane's spec, a traced scenario's trace included). */
export const REFERENCE_PLAN_CACHE_KEY_CHARS = 16_000_000;

/** Where the keys are made (worlds/serving/schedulers/planKey.ts), for the worker's callers and tests. */
export { canonicalJson, referencePlanKey };

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

  /** The plan of `key`: found here before, or shipped with the presets (`shippedPlan`: then kept as found). */
  get(key: string): ReferenceResult | undefined {
    const found = this.plans.get(key);
    if (found === undefined) {
      const shipped = shippedPlan(key);
      if (shipped !== undefined) this.set(key, shipped);
      return shipped;
    }
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
  /** Sent to the search worker (`SearchWorkerPort`), and not back yet. */
  remote: boolean;
  /** Failed in the search worker: run here instead, step by step. */
  here: boolean;
  step: SearchStep;
}

/** One search as the search worker runs it (`oracleWorker.ts`): the lane's kind, spec, parameters, and the result it starts from when found before. */
export interface OracleSearchRequest {
  readonly kind: ReferenceLaneSearch['kind'];
  readonly spec: ServingRunSpec;
  readonly params: ReferenceSearchParams;
  readonly prior?: ReferenceResult;
}

/**
 * A worker of its own that runs one search at a time to its end (the page's: `oracleWorkerPort.ts`),
 * so that the serving worker's ticks never wait on one (ARCHITECTURE §3).
 */
export interface SearchWorkerPort {
  /** Runs the search elsewhere, telling `progress` after each evaluation; rejects when stopped or failed. */
  search(request: OracleSearchRequest, progress: (step: SearchStep) => void): Promise<ReferenceResult>;
  /** Stops the search under way (its promise rejects); the next search starts afresh. */
  stop(): void;
}

/**
 * What the searches tell their owner when they run in a search worker: a search's progress or
 * failure (`found` null: a failed search is then run here, step by step) or its end (the key of
 * the plan now in the cache).
 */
export type SearchNews = (found: string | null) => void;

/**
 * The searches the lanes wait for, one search after another: the hindsight searches first, so
 * that a per-phase search of the same spec and parameters starts from the hindsight plan found
 * (it searches that first: `fixedPerPhaseSearch`). Results go to the cache; a search no lane
 * waits for any more is dropped. Without a `port` they run here, one step at a time (`step`, in
 * the serving worker's slices; the tests and Node); with one, each runs to its end in the
 * search worker while the serving worker goes on, and `news` says what came back.
 */
export class ReferenceSearches {
  private jobs: Job[] = [];
  /** Evaluations (runs of a trace) finished by the searches run here. */
  evaluations = 0;
  private news: SearchNews = () => {};

  constructor(
    readonly plans = new ReferencePlanCache(),
    private readonly port: SearchWorkerPort | null = null,
  ) {}

  /** Who is told what the search worker sends back (the serving world). */
  listen(news: SearchNews): void {
    this.news = news;
  }

  /** Whether there is a step to take here: a search to run here, or one to send to the search worker. */
  get busy(): boolean {
    return this.jobs.length > 0 && !this.jobs[0]!.remote;
  }

  /**
   * The searches the lanes now wait for (those without a known plan). A search already under
   * way for one of them goes on where it is; the others are dropped.
   */
  want(requests: readonly SearchRequest[]): void {
    const wanted = new Map<string, SearchRequest>();
    for (const r of requests) if (!wanted.has(r.key) && this.plans.get(r.key) === undefined) wanted.set(r.key, r);
    const kept = this.jobs.filter((job) => wanted.has(job.request.key));
    for (const job of this.jobs) {
      if (wanted.has(job.request.key)) continue;
      job.search?.return(undefined as never);
      if (job.remote) {
        job.remote = false;
        this.port?.stop();
      }
    }
    const fresh = [...wanted.values()]
      .filter((r) => !kept.some((job) => job.request.key === r.key))
      .map((request): Job => ({ request, search: null, remote: false, here: false, step: { done: 0, total: referenceSearchBound(request.search.kind, request.spec, request.params) } }));
    const order = (job: Job) => (job.request.search.kind === 'fixed-hindsight' ? 0 : 1);
    const started = (job: Job) => job.search !== null || job.remote;
    // Array.prototype.sort is stable: lanes of one kind keep the scenario's order; one under way stays first.
    this.jobs = [...kept, ...fresh].sort((a, b) => (started(a) ? -1 : started(b) ? 1 : order(a) - order(b)));
  }

  /** How far the search of `key` is (done 0 while it waits its turn). */
  progress(key: string): SearchStep | null {
    return this.jobs.find((job) => job.request.key === key)?.step ?? null;
  }

  /**
   * One step of the first search; the key of a search it finished (its plan is in the cache), else
   * null. With a search worker, the step sends the first search there (its end comes as news).
   */
  step(): string | null {
    const job = this.jobs[0];
    if (job === undefined) return null;
    if (this.port !== null && !job.here) {
      if (!job.remote) this.send(job, this.port);
      return null;
    }
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

  /** What the search of `request` begins with, when found before: per phase, hindsight's search; hindsight per model, the uniform one (issue 38). */
  private prior(request: SearchRequest): ReferenceResult | undefined {
    const { search, spec, params } = request;
    if (search.kind === 'fixed-per-phase') return this.plans.get(referencePlanKey('fixed-hindsight', spec, params));
    return params.perModel ? this.plans.get(referencePlanKey('fixed-hindsight', spec, { ...params, perModel: false })) : undefined;
  }

  private begin(request: SearchRequest): ReferenceSearch {
    const prior = this.prior(request);
    const started = request.search.start(request.spec, request.params, prior);
    // The evaluations a known plan stands for were not run here.
    if (prior !== undefined) this.evaluations -= prior.evaluations;
    return started;
  }

  /** Sends `job` to the search worker; what comes back is for it only while it is still wanted and still the one sent. */
  private send(job: Job, port: SearchWorkerPort): void {
    job.remote = true;
    const prior = this.prior(job.request);
    const { search, spec, params, key } = job.request;
    const current = () => job.remote && this.jobs[0] === job;
    let counted = prior?.evaluations ?? 0;
    port
      .search({ kind: search.kind, spec, params, ...(prior === undefined ? {} : { prior }) }, (step) => {
        if (!current()) return;
        this.evaluations += Math.max(0, step.done - counted);
        counted = Math.max(counted, step.done);
        job.step = step;
        this.news(null);
      })
      .then(
        (result) => {
          if (!current()) return;
          this.jobs.shift();
          this.plans.set(key, result);
          this.news(key);
        },
        () => {
          if (!current()) return;
          // It failed there (a stopped search is no longer current): the same search runs here instead, as without a search worker.
          job.remote = false;
          job.here = true;
          job.step = { done: 0, total: job.step.total };
          this.evaluations -= counted - (prior?.evaluations ?? 0);
          this.news(null);
        },
      );
  }
}
