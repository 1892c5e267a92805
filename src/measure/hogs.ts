/**
 * Which hogs each co-location mode of the ODIN paper's Table 1 starts on this machine,
 * and a pool that starts them, gathers their reports and stops them (issue 15, part 2).
 *
 * What a browser cannot do as the paper did (§4.1, Table 1): pin threads to cores, give
 * the CNN exactly 8 or 4 cores, or run the CNN on several threads (the wasm backend runs
 * single-threaded here, WASM_HAS_MULTITHREAD_SUPPORT off). So the mapping keeps Table 1's
 * *proportions* of the execution place, not its core numbers:
 * - a mode with n hog threads on the paper's 8-core EP starts max(1, round(n · C / 8))
 *   hogs of that kind on a machine with C logical cores (C = 8: exactly Table 1);
 * - the operating system places them; nothing is pinned;
 * - J–L ("CNN on 4 cores, hogs on the other 4") start the same count as 4 hogs on the
 *   other cores; the CNN's one thread is not confined, so J–L differ from D/H/L's
 *   "shared cores" only by what the scheduler does.
 * On this project's 2-core machine: B, C, D → 1 memBW hog; E → 2; F, G, H → 1 CPU hog;
 * I → 2; J → 1 memBW; K → 1 CPU; L → 1 CPU + 1 memBW. B–D (and F–H) then coincide, which
 * the Measure panel says.
 */
import { TABLE1_COLOCATIONS } from '../engine/profiles/roofline';
import type { HogRates, ModeId } from '../engine/profiles/types';
import type { HogConfig, HogReport } from './hogLoop';

/** Cores of the paper's execution place (§4.1: the 8 P-cores). */
export const PAPER_EP_CORES = 8;

/** How many hogs of each kind a mode starts. */
export interface HogPlan {
  readonly cpu: number;
  readonly memBW: number;
}

/** The hogs `mode` starts on a machine with `cores` logical cores (see the module comment). */
export function hogPlan(mode: ModeId, cores: number): HogPlan {
  if (!Number.isInteger(cores) || cores < 1) throw new RangeError(`cores must be a positive integer, got ${cores}`);
  const plan = { cpu: 0, memBW: 0 };
  for (const hog of TABLE1_COLOCATIONS[mode].hogs) {
    plan[hog.kind] += Math.max(1, Math.round((hog.cores.length * cores) / PAPER_EP_CORES));
  }
  return plan;
}

/** "alone", "1 memBW hog", "2 CPU hogs", "1 CPU hog + 1 memBW hog". */
export function describeHogPlan(plan: HogPlan): string {
  const parts: string[] = [];
  if (plan.cpu > 0) parts.push(`${plan.cpu} CPU hog${plan.cpu === 1 ? '' : 's'}`);
  if (plan.memBW > 0) parts.push(`${plan.memBW} memBW hog${plan.memBW === 1 ? '' : 's'}`);
  return parts.length === 0 ? 'alone' : parts.join(' + ');
}

/** One running hog, however it runs (Web Worker, worker thread, or a fake in tests). */
export interface HogWorker {
  /** Stops it at once (terminates the worker). */
  terminate(): void | Promise<unknown>;
}

/** Starts one hog with `config`; it calls `onReport` for each report it posts, `onError` if it dies. */
export type SpawnHog = (config: HogConfig, onReport: (report: HogReport) => void, onError: (error: Error) => void) => HogWorker;

/** The hogs of one mode, running. */
export interface RunningHogs {
  readonly plan: HogPlan;
  /** Forgets the reports so far: rates are measured from here on (after the settle time). */
  resetRates(): void;
  /** Work rates since the last reset, summed over hogs of each kind. */
  rates(): HogRates;
  /** Reports received so far, per hog (tests and the page's "they are running"). */
  readonly reportCounts: readonly number[];
  stop(): Promise<void>;
}

/** How long a hog may take to post its first report before starting counts as failed, ms. */
export const HOG_START_TIMEOUT_MS = 15_000;

/**
 * Starts the hogs of `plan` and resolves once each has posted its first report (so it is
 * running, and a memBW hog has touched its whole buffer). Rejects, stopping them all, if
 * one dies or stays silent for {@link HOG_START_TIMEOUT_MS}.
 */
export async function startHogs(
  plan: HogPlan,
  spawn: SpawnHog,
  options: { readonly bufferMiB: number; readonly reportEveryMs?: number; readonly schedule: (fn: () => void, ms: number) => void },
): Promise<RunningHogs> {
  const reportEveryMs = options.reportEveryMs ?? 200;
  const kinds: HogConfig['kind'][] = [...Array<'cpu'>(plan.cpu).fill('cpu'), ...Array<'memBW'>(plan.memBW).fill('memBW')];
  const counts = kinds.map(() => 0);
  const totals = { cpu: { work: 0, ms: 0 }, memBW: { work: 0, ms: 0 } };
  const workers: HogWorker[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  kinds.forEach((kind, index) => {
    workers.push(
      spawn(
        { kind, bufferMiB: options.bufferMiB, reportEveryMs },
        (report) => {
          counts[index] = (counts[index] ?? 0) + 1;
          // Rates per kind: the work of all its hogs over one hog's elapsed time.
          totals[report.kind].work += report.work;
          totals[report.kind].ms += report.elapsedMs / kinds.filter((k) => k === report.kind).length;
          wake?.();
        },
        (error) => {
          failure ??= error;
          wake?.();
        },
      ),
    );
  });
  const stop = async (): Promise<void> => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
  const started = await new Promise<boolean>((resolve) => {
    let done = false;
    const check = () => {
      if (done) return;
      if (failure !== null || counts.every((c) => c > 0)) {
        done = true;
        resolve(failure === null);
      }
    };
    wake = check;
    options.schedule(() => {
      if (!done) {
        done = true;
        failure ??= new Error(`a hog posted no report within ${HOG_START_TIMEOUT_MS} ms`);
        resolve(false);
      }
    }, HOG_START_TIMEOUT_MS);
    check();
  });
  wake = null;
  if (!started) {
    await stop();
    throw failure ?? new Error('hogs did not start');
  }
  const rate = (t: { work: number; ms: number }) => (t.ms > 0 ? (t.work / t.ms) * 1000 : 0);
  return {
    plan,
    reportCounts: counts,
    resetRates: () => {
      totals.cpu = { work: 0, ms: 0 };
      totals.memBW = { work: 0, ms: 0 };
    },
    rates: () => ({
      ...(plan.cpu > 0 ? { cpuOpsPerS: rate(totals.cpu) } : {}),
      ...(plan.memBW > 0 ? { memBytesPerS: rate(totals.memBW) } : {}),
    }),
    stop,
  };
}
