/// <reference lib="webworker" />
/**
 * The measure worker (ARCHITECTURE §2): times real tfjs units on the wasm backend while hogs run
 * in workers of their own, started from here. A thin comlink adapter over
 * src/measure/runner.ts; tfjs is imported lazily, the first time something is measured.
 */
import { expose } from 'comlink';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import { loadTf } from '../agents/tf';
import type { HogConfig, HogReport } from '../measure/hogLoop';
import type { SpawnHog } from '../measure/hogs';
import { measureDatabase } from '../measure/runner';
import type { MeasureApi } from './measureProtocol';

const spawnHog: SpawnHog = (config: HogConfig, onReport, onError) => {
  const worker = new Worker(new URL('./hogWorker.ts', import.meta.url), { type: 'module', name: `hog-${config.kind}` });
  worker.onmessage = (event: MessageEvent<HogReport>) => onReport(event.data);
  worker.onerror = (event) => onError(new Error(event.message || 'a hog worker failed'));
  worker.postMessage(config);
  return { terminate: () => worker.terminate() };
};

let cancelled = false;

const api: MeasureApi = {
  measure: async (options, onProgress) => {
    cancelled = false;
    try {
      const tf = await loadTf({
        wasmPaths: { 'tfjs-backend-wasm.wasm': wasmUrl, 'tfjs-backend-wasm-simd.wasm': wasmSimdUrl, 'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl },
      });
      const result = await measureDatabase(
        options,
        {
          tf,
          now: () => performance.now(),
          // A macrotask: lets the page's cancel message in between units.
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          spawnHog,
          cores: navigator.hardwareConcurrency || 1,
          runtime: navigator.userAgent,
          date: () => new Date().toISOString(),
        },
        (progress) => void onProgress(progress),
        () => cancelled,
      );
      return result.ok ? { kind: 'done', database: result.database } : { kind: 'cancelled' };
    } catch (error) {
      return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  },
  cancel: () => {
    cancelled = true;
  },
  cores: () => navigator.hardwareConcurrency || 1,
};

export type MeasureWorkerApi = typeof api;
expose(api);
