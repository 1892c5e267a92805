/// <reference lib="webworker" />
/**
 * The serving worker's way to its search worker (`oracleWorker.ts`, ARCHITECTURE §3): one
 * search at a time over comlink, its progress a proxied callback. Stopping a search terminates
 * the worker (a search runs to its end in one go there, so it cannot be told to stop); the
 * next search starts a new one.
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { ReferenceResult } from '../schedulers/reference';
import type { OracleApi } from './oracleApi';
import type { OracleSearchRequest, SearchWorkerPort } from './referenceLanes';

export function oracleWorkerPort(): SearchWorkerPort {
  let worker: Worker | null = null;
  let remote: Remote<OracleApi> | null = null;
  let stopCurrent: (() => void) | null = null;
  return {
    search(request: OracleSearchRequest, progress): Promise<ReferenceResult> {
      if (worker === null || remote === null) {
        worker = new Worker(new URL('./oracleWorker.ts', import.meta.url), { type: 'module', name: 'oracle-search' });
        remote = wrap<OracleApi>(worker);
      }
      const running = remote;
      const failed = new Promise<never>((_resolve, reject) => {
        stopCurrent = () => reject(new Error('the search was stopped'));
        worker!.addEventListener('error', (event) => reject(new Error(event.message || 'the search worker failed')), { once: true });
      });
      return Promise.race([running.search(request, proxy(progress)), failed]).finally(() => {
        stopCurrent = null;
      });
    },
    stop() {
      worker?.terminate();
      worker = null;
      remote = null;
      stopCurrent?.();
    },
  };
}
