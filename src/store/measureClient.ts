import { proxy, wrap } from 'comlink';
import type { MeasureApi } from '../worker/measureProtocol';
import type { MeasureClient } from './measureStore';

/**
 * The page's handle on the measure worker, started the first time the Measure panel asks
 * for something. Cancel asks the worker to stop after its current unit; if it does not
 * answer within a few seconds (a very slow unit), the worker is terminated, hogs included
 * (a worker's own workers end with it), and a fresh one is started next time.
 */
export function createMeasureWorkerClient(): MeasureClient {
  let worker: Worker | null = null;
  let remote: ReturnType<typeof wrap<MeasureApi>> | null = null;
  let abandon: (() => void) | null = null;
  const get = () => {
    if (remote === null) {
      worker = new Worker(new URL('../worker/measureWorker.ts', import.meta.url), { type: 'module', name: 'measure' });
      remote = wrap<MeasureApi>(worker);
    }
    return remote;
  };
  return {
    measure: (options, onProgress) =>
      new Promise((resolve) => {
        abandon = () => resolve({ kind: 'cancelled' });
        void get()
          .measure(options, proxy(onProgress))
          .then(resolve, (error: unknown) => resolve({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }))
          .finally(() => (abandon = null));
      }),
    cancel: async () => {
      await get().cancel();
      const stuck = abandon;
      setTimeout(() => {
        if (stuck !== null && stuck === abandon) {
          worker?.terminate();
          worker = null;
          remote = null;
          stuck();
        }
      }, 5000);
    },
    cores: () => get().cores(),
  };
}
