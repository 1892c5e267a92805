/**
 * A pool that starts the hogs of a mode (worlds/pipeline/engine/profiles/hogPlan.ts says which), gathers
 * their reports and stops them (ARCHITECTURE §2).
 */
import type { HogRates } from '../engine/profiles/types';
import type { HogPlan } from '../engine/profiles/hogPlan';
import type { HogConfig, HogReport } from './hogLoop';

export { describeHogPlan, hogPlan, PAPER_EP_CORES, type HogPlan } from '../engine/profiles/hogPlan';

/** One running hog, however it runs (Web Worker, worker thread, or a fake in tests). */
export interface HogWorker {
  /** Stops it at once (terminates the worker). */
  terminate(): void | Promise<unknown>;
  /** Starts an armed hog's loop (a message; `HogConfig.armed`). */
  start?(): void;
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
  /**
   * Resolves once every hog has reported since the last reset (or after one report interval and
   * a half, whichever comes first): a mode measured faster than a hog reports would otherwise
   * read a rate of 0 for work that was done.
   */
  reported(): Promise<void>;
  /** Reports received so far, per hog (tests and the page's "they are running"). */
  readonly reportCounts: readonly number[];
  /** Armed hogs (`options.armed`): starts their loops, one message each; nothing otherwise. */
  go(): void;
  stop(): Promise<void>;
}

/** How long a hog may take to post its first report before starting counts as failed, ms. */
export const HOG_START_TIMEOUT_MS = 15_000;
/**
 * The same for an armed hog: it touches its whole buffer first (hundreds of MiB; seconds on a
 * loaded machine), before the run, where waiting costs the run nothing.
 */
export const ARMED_HOG_START_TIMEOUT_MS = 120_000;

/**
 * Starts the hogs of `plan` and resolves once each has posted its first report (so it is
 * running, and a memBW hog has touched its whole buffer; armed, `options.armed`: it is ready
 * and waits for `go`, its first report one of no work). Rejects, stopping them all, if
 * one dies or stays silent for {@link HOG_START_TIMEOUT_MS}.
 */
export async function startHogs(
  plan: HogPlan,
  spawn: SpawnHog,
  options: { readonly bufferMiB: number; readonly reportEveryMs?: number; readonly schedule: (fn: () => void, ms: number) => void; readonly armed?: boolean },
): Promise<RunningHogs> {
  const reportEveryMs = options.reportEveryMs ?? 200;
  const timeoutMs = options.armed === true ? ARMED_HOG_START_TIMEOUT_MS : HOG_START_TIMEOUT_MS;
  const kinds: HogConfig['kind'][] = [...Array<'cpu'>(plan.cpu).fill('cpu'), ...Array<'memBW'>(plan.memBW).fill('memBW')];
  const counts = kinds.map(() => 0);
  const sinceReset = kinds.map(() => 0);
  const totals = { cpu: { work: 0, ms: 0 }, memBW: { work: 0, ms: 0 } };
  const workers: HogWorker[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  kinds.forEach((kind, index) => {
    workers.push(
      spawn(
        { kind, bufferMiB: options.bufferMiB, reportEveryMs, ...(options.armed === true ? { armed: true } : {}) },
        (report) => {
          counts[index] = (counts[index] ?? 0) + 1;
          sinceReset[index] = (sinceReset[index] ?? 0) + 1;
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
        failure ??= new Error(`a hog posted no report within ${timeoutMs} ms`);
        resolve(false);
      }
    }, timeoutMs);
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
    go: () => {
      if (options.armed !== true) return;
      for (const w of workers) w.start?.();
    },
    resetRates: () => {
      totals.cpu = { work: 0, ms: 0 };
      totals.memBW = { work: 0, ms: 0 };
      sinceReset.fill(0);
    },
    reported: () =>
      new Promise<void>((resolve) => {
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          wake = null;
          resolve();
        };
        wake = () => {
          if (failure !== null || sinceReset.every((c) => c > 0)) finish();
        };
        options.schedule(finish, reportEveryMs * 1.5);
        wake();
      }),
    rates: () => ({
      ...(plan.cpu > 0 ? { cpuOpsPerS: rate(totals.cpu) } : {}),
      ...(plan.memBW > 0 ? { memBytesPerS: rate(totals.memBW) } : {}),
    }),
    stop,
  };
}
