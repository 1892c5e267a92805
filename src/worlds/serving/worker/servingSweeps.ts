/**
 * The serving lab's sweeps, computed in the serving worker beside the live run (ARCHITECTURE §7a′):
 * BCEdge Fig. 1 (one model alone, every batch size × instances cell) and Fig. 15 (SLO
 * violations against the request rate, every lane of the scenario, learning lanes included:
 * only the worker has TensorFlow.js). A sweep is a generator of small steps; `SweepRunner`
 * runs steps for at most `TICK_BUDGET_MS` of wall-clock time, then yields to the live loop's
 * ticks and the page's messages (a liveness ping is answered between two slices), and tells
 * the page how far it is.
 */
import { runFigure1Sweep } from '../engine/figure1';
import { MODEL_IDS, type ModelId } from '../engine/models';
import { PLATFORM_IDS, type PlatformId } from '../engine/platforms';
import { BATCH_SIZES, INSTANCE_COUNTS } from '../engine/scheduler';
import { parseWorldScenario } from '../../../scenario/parse';
import { servingWorld } from '../world';
import type { ServingScenario } from '../schema';
import { servingCellLanes, type ServingLaneRunner } from '../scenario/servingRunner';
import { sweepCells } from '../../../scenario/sweep';
import { SERVING_SCHEDULERS, type LearningFactory } from '../schedulers/registry';
import { TICK_BUDGET_MS, type SessionHost } from '../../../worker/liveLoop';
import type { Figure1Cells, RpsSweepLines, ServingSweepProgress, ServingSweepRequest, ServingSweepResult } from './servingProtocol';

/** Simulated load per Fig. 1 cell, ms: the same 10 s the page used to compute (about 2 ms of work each). */
export const FIGURE1_CELL_MS = 10_000;
/** The request rates of BCEdge Fig. 15, rps. */
export const SWEEP_RATES = [10, 20, 30, 40, 50] as const;
/** Simulated time per rate of the lab's Fig. 15 sweep, s (the CLI's `bcedge-fig15-rps` runs longer). */
export const SWEEP_SECONDS = 120;
/** A lane is advanced this far between two looks at the clock, simulated ms (a learner's slot is 1 s). */
const LANE_SLICE_MS = 250;
/**
 * Wall-clock pause between two slices, ms: the sweep is background work, and the live run's
 * ticks and the page's calls (a step, a seek) come first; the sweep takes at most about three
 * quarters of the worker's time.
 */
const SLICE_GAP_MS = 4;

/** One step of a sweep: how far it is now. The generator's return value is the result. */
type SweepJob = Generator<ServingSweepProgress, Extract<ServingSweepResult, { ok: true }>, void>;

/** Fig. 1 for one model on one platform, one cell per step. */
function* figure1Job(model: ModelId, platform: PlatformId): SweepJob {
  const total = BATCH_SIZES.length * INSTANCE_COUNTS.length;
  const throughput = BATCH_SIZES.map(() => INSTANCE_COUNTS.map((): number | null => null));
  const latency = BATCH_SIZES.map(() => INSTANCE_COUNTS.map((): number | null => null));
  for (let i = 0; i < total; i++) {
    const b = Math.floor(i / INSTANCE_COUNTS.length);
    const m = i % INSTANCE_COUNTS.length;
    const r = runFigure1Sweep({ model, platform, batchSizes: [BATCH_SIZES[b]!], instanceCounts: [INSTANCE_COUNTS[m]!], durationMs: FIGURE1_CELL_MS });
    // A cell whose batches ran out of memory has no number: the chart draws it as out of memory.
    const oom = (r.oomBatches[0]?.[0] ?? 0) > 0;
    throughput[b]![m] = oom ? null : r.throughputRps[0]![0]!;
    latency[b]![m] = oom ? null : r.latencyMeanMs[0]![0]!;
    yield { done: i + 1, total };
  }
  const figure1: Figure1Cells = { model, platform, throughput, latency };
  return { ok: true, kind: 'figure1', figure1 };
}

/**
 * The scenario one rate of Fig. 15 runs: the scenario's lanes and models at `rateRps`, for at
 * most SWEEP_SECONDS, without its tenants (the figure is about load, not interference) and
 * without its own sweep.
 */
export function rpsSweepScenario(scenario: ServingScenario, rateRps: number): ServingScenario {
  const { sweep: _sweep, ...plain } = scenario;
  void _sweep;
  return { ...plain, serving: { ...plain.serving, rateRps, durationS: Math.min(plain.serving.durationS, SWEEP_SECONDS), background: [] } };
}

/**
 * Fig. 15 over every lane: for each rate, each lane in turn (one learner alive at a time),
 * advanced LANE_SLICE_MS per step. A learning lane starts where the scenario says (from
 * scratch with the scenario's seed, or from the shipped agent) at every rate, as the CLI's
 * sweep does. Progress counts simulated lane-seconds.
 */
function* rpsJob(scenario: ServingScenario, learning: LearningFactory | undefined, live: { lane: ServingLaneRunner | null }): SweepJob {
  // The reference lanes are left out: their search re-runs the trace tens to thousands of times per rate.
  const swept = scenario.serving.lanes.map((_, i) => i).filter((i) => SERVING_SCHEDULERS[scenario.serving.lanes[i]!.scheduler].reference === undefined);
  const seconds = Math.min(scenario.serving.durationS, SWEEP_SECONDS);
  const total = SWEEP_RATES.length * swept.length * seconds;
  const points: { rps: number; violationPct: number }[][] = scenario.serving.lanes.map(() => []);
  const labels: string[] = scenario.serving.lanes.map((l) => l.scheduler);
  let done = 0;
  for (const rateRps of SWEEP_RATES) {
    const plain = rpsSweepScenario(scenario, rateRps);
    const starts = servingCellLanes(plain, sweepCells(plain, [plain.seed])[0]!, () => 0, learning);
    for (const l of swept) {
      const lane = starts[l]!();
      live.lane = lane;
      const base = done;
      while (!lane.run.done && lane.run.timeMs < seconds * 1000) {
        lane.run.advanceTo(lane.run.timeMs + LANE_SLICE_MS);
        done = base + Math.min(seconds, Math.floor(lane.run.timeMs / 1000));
        yield { done, total };
      }
      const result = lane.finish();
      live.lane = null;
      done = base + seconds;
      labels[l] = result.label;
      points[l]!.push({ rps: rateRps, violationPct: result.summary.sloViolationPct });
    }
  }
  const rps: RpsSweepLines = { secondsPerRate: seconds, lanes: swept.map((index) => ({ label: labels[index]!, index, points: points[index]! })) };
  return { ok: true, kind: 'rps', rps };
}

/** Checks a request at the worker's door; the field errors name what is wrong. */
export function checkSweepRequest(request: unknown): { ok: true; request: ServingSweepRequest } | { ok: false; errors: { path: string; message: string }[] } {
  const r = request as Partial<Record<string, unknown>> | null;
  if (r === null || typeof r !== 'object') return { ok: false, errors: [{ path: 'sweep', message: 'is not an object' }] };
  if (r['kind'] === 'figure1') {
    if (!MODEL_IDS.includes(r['model'] as ModelId)) return { ok: false, errors: [{ path: 'sweep.model', message: `is not one of ${MODEL_IDS.join(', ')}` }] };
    if (!PLATFORM_IDS.includes(r['platform'] as PlatformId)) return { ok: false, errors: [{ path: 'sweep.platform', message: `is not one of ${PLATFORM_IDS.join(', ')}` }] };
    return { ok: true, request: { kind: 'figure1', model: r['model'] as ModelId, platform: r['platform'] as PlatformId } };
  }
  if (r['kind'] === 'rps') {
    const parsed = parseWorldScenario(servingWorld, r['scenario']);
    if (!parsed.ok) return { ok: false, errors: parsed.errors.map((e) => ({ path: `sweep.scenario.${e.path}`, message: e.message })) };
    return { ok: true, request: { kind: 'rps', scenario: parsed.scenario } };
  }
  return { ok: false, errors: [{ path: 'sweep.kind', message: "is neither 'figure1' nor 'rps'" }] };
}

interface Running {
  readonly job: SweepJob;
  readonly live: { lane: ServingLaneRunner | null };
  readonly onProgress: (progress: ServingSweepProgress) => void;
  readonly resolve: (result: ServingSweepResult) => void;
  cancelled: boolean;
}

/**
 * Runs the sweeps, at most one of each kind: a newer request cancels the older one (which
 * answers `cancelled` and frees its learner). Each slice computes for at most
 * `TICK_BUDGET_MS`, then reports the progress and schedules the next.
 */
export class SweepRunner {
  private readonly running = new Map<ServingSweepRequest['kind'], Running>();

  constructor(private readonly host: Pick<SessionHost<unknown>, 'now' | 'schedule' | 'background'>) {}

  /** Starts a sweep; `learning` builds the learning lanes of an rps sweep (null: the scenario has none). */
  start(request: ServingSweepRequest, learning: LearningFactory | null, onProgress: (progress: ServingSweepProgress) => void): Promise<ServingSweepResult> {
    this.cancel(request.kind);
    return new Promise((resolve) => {
      const live = { lane: null as ServingLaneRunner | null };
      const job = request.kind === 'figure1' ? figure1Job(request.model, request.platform) : rpsJob(request.scenario, learning ?? undefined, live);
      const running: Running = { job, live, onProgress, resolve, cancelled: false };
      this.running.set(request.kind, running);
      const first = () => this.host.schedule(() => this.slice(request.kind, running), 0);
      // Background work: a run's first frame goes out before a sweep starts (BackgroundGate).
      if (this.host.background === undefined) first();
      else this.host.background(first);
    });
  }

  /** Cancels the sweep of a kind, if one runs. */
  cancel(kind: ServingSweepRequest['kind']): void {
    const running = this.running.get(kind);
    if (running === undefined) return;
    this.running.delete(kind);
    running.cancelled = true;
    running.live.lane?.dispose();
    running.job.return(undefined as never);
    running.resolve({ ok: false, cancelled: true });
  }

  private slice(kind: ServingSweepRequest['kind'], running: Running): void {
    if (running.cancelled) return;
    const startMs = this.host.now();
    let progress: ServingSweepProgress | undefined;
    try {
      for (;;) {
        const step = running.job.next();
        if (step.done === true) {
          this.running.delete(kind);
          running.resolve(step.value);
          return;
        }
        progress = step.value;
        if (this.host.now() - startMs >= TICK_BUDGET_MS) break;
      }
    } catch (error) {
      this.running.delete(kind);
      running.live.lane?.dispose();
      running.resolve({ ok: false, cancelled: false, errors: [{ path: `sweep.${kind}`, message: error instanceof Error ? error.message : String(error) }] });
      return;
    }
    if (progress !== undefined) running.onProgress(progress);
    this.host.schedule(() => this.slice(kind, running), SLICE_GAP_MS);
  }
}
