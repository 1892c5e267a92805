/// <reference lib="webworker" />
/**
 * The measure worker (ARCHITECTURE §2): times real tfjs units on the wasm backend while hogs run
 * in workers of their own, started from here. A thin comlink adapter over
 * src/worlds/pipeline/measure/runner.ts; tfjs is imported lazily, the first time something is measured.
 */
import { expose } from 'comlink';
import { measureDatabase } from '../measure/runner';
import type { MeasureApi } from './measureProtocol';
import { loadPageTf } from '../../../worker/pageTf';
import { spawnWebHog } from './webHogs';

let cancelled = false;

const api: MeasureApi = {
  measure: async (options, onProgress) => {
    cancelled = false;
    try {
      const tf = await loadPageTf();
      const result = await measureDatabase(
        options,
        {
          tf,
          now: () => performance.now(),
          // A macrotask: lets the page's cancel message in between units.
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          spawnHog: spawnWebHog,
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
