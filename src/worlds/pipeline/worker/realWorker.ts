/// <reference lib="webworker" />
// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../../index';
/**
 * The real worker (ARCHITECTURE §2, the real backend): runs a pipeline scenario's lanes on
 * this machine — one stage Web Worker per execution place, hogs in workers of their own —
 * and sets each beside its simulation (src/worlds/pipeline/scenario/realRun.ts). A thin comlink adapter;
 * tfjs is imported lazily, for the measurement, the first time something runs.
 */
import { expose } from 'comlink';
import { runRealPipeline, type RealQuery, type StagePort } from '../measure/realPipeline/pipeline';
import type { StageReply } from '../measure/realPipeline/protocol';
import { measureDatabase } from '../measure/runner';
import { runReal, type LiveEdit } from '../scenario/realRun';
import { loadPageTf } from '../../../worker/pageTf';
import { spawnWebHog } from './webHogs';
import type { RealApi, RealPoint, RealUpdate } from './realProtocol';

const spawnStage = (index: number): StagePort => {
  const worker = new Worker(new URL('./realStageWorker.ts', import.meta.url), { type: 'module', name: `stage-${index}` });
  return {
    post: (request, transfer) => worker.postMessage(request, transfer),
    listen(onReply, onError) {
      worker.onmessage = (event: MessageEvent<StageReply>) => onReply(event.data);
      worker.onerror = (event) => onError(new Error(event.message || `stage ${index} failed`));
    },
    terminate: () => worker.terminate(),
  };
};

/** Queries per lane the live throughput is taken over. */
const THROUGHPUT_WINDOW = 8;
/** How often batched points are posted, ms. */
const POST_EVERY_MS = 150;

let cancelled = false;
/** Live edits waiting for the run's next admission (the page's drag and drop). */
let pendingEdits: LiveEdit[] = [];

const api: RealApi = {
  run: async (request, onUpdate) => {
    cancelled = false;
    pendingEdits = [];
    let batch: RealPoint[] = [];
    let lastPost = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const points = batch;
      batch = [];
      void onUpdate({ kind: 'points', points } satisfies RealUpdate);
    };
    const recent = new Map<number, number[]>();
    try {
      const tf = await loadPageTf();
      const report = await runReal(
        {
          scenario: request.scenario,
          inputSize: request.inputSize,
          database: request.database,
          repeats: request.repeats,
          hogBufferMiB: 256,
          cores: navigator.hardwareConcurrency || 1,
          ...(request.laneRepeats === undefined ? {} : { laneRepeats: request.laneRepeats }),
        },
        {
          tf,
          measureDatabase,
          runRealPipeline,
          now: () => performance.now(),
          spawnStage,
          spawnHog: spawnWebHog,
          runtime: navigator.userAgent,
          stderr: () => undefined,
          isCancelled: () => cancelled,
          liveEdits: () => pendingEdits.splice(0),
          onMeasureProgress: (fraction) => void onUpdate({ kind: 'measuring', fraction }),
          onProgress: (lane, progress) => {
            if (progress.kind === 'query') {
              const q: RealQuery = progress.query;
              if (q.query === 0) void onUpdate({ kind: 'lane', lane, scheduler: request.scenario.pipeline.lanes[lane]?.scheduler ?? '' });
              const times = recent.get(lane) ?? [];
              times.push(q.completionMs);
              if (times.length > THROUGHPUT_WINDOW + 1) times.shift();
              recent.set(lane, times);
              const span = times.length > 1 ? times[times.length - 1]! - times[0]! : 0;
              batch.push({
                lane,
                query: q.query,
                kind: q.kind,
                completionMs: q.completionMs,
                latencyMs: q.completionMs - q.admittedMs,
                throughputQps: span > 0 ? (1000 * (times.length - 1)) / span : 0,
                stageTimesMs: Array.from(q.stageTimesMs),
                configuration: q.configuration,
              });
              const t = performance.now();
              if (t - lastPost >= POST_EVERY_MS) {
                lastPost = t;
                flush();
              }
            } else if (progress.kind === 'reconfiguration') {
              const r = progress.reconfiguration;
              void onUpdate({ kind: 'reconfiguration', lane, beforeQuery: r.beforeQuery, to: r.to, wallMs: r.wallMs, trial: r.trial });
            } else {
              void onUpdate({ kind: 'hogs', lane, executionPlace: progress.executionPlace, mode: progress.mode });
            }
          },
        },
      );
      flush();
      return report === null ? { kind: 'cancelled' } : { kind: 'done', report };
    } catch (error) {
      return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  },
  cancel: () => {
    cancelled = true;
  },
  live: (edits) => {
    pendingEdits.push(...edits);
  },
  cores: () => navigator.hardwareConcurrency || 1,
};

expose(api);
