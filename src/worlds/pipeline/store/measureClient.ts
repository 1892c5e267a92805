import { proxy } from 'comlink';
import type { MeasureApi, MeasureOutcome } from '../worker/measureProtocol';
import { jobWorker } from '../../../store/jobWorker';
import type { MeasureClient } from './measureStore';

/**
 * The page's handle on the measure worker, started the first time the Measure panel asks
 * for something; cancel stops after the current unit, or terminates the worker (jobWorker.ts).
 */
export function createMeasureWorkerClient(): MeasureClient {
  const job = jobWorker<MeasureApi>(() => new Worker(new URL('../worker/measureWorker.ts', import.meta.url), { type: 'module', name: 'measure' }));
  return {
    measure: (options, onProgress) =>
      job.run<MeasureOutcome>(
        (remote) => remote.measure(options, proxy(onProgress)),
        { kind: 'cancelled' },
        (message) => ({ kind: 'failed', message }),
      ),
    cancel: () => job.cancel((remote) => remote.cancel()),
    cores: () => job.remote().cores(),
  };
}
