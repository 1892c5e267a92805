import { proxy } from 'comlink';
import type { RealApi, RealOutcome } from '../worker/realProtocol';
import { jobWorker } from '../../../store/jobWorker';
import type { RealClient } from './realStore';

/**
 * The page's handle on the real worker, started the first time the panel asks for something;
 * cancel stops between queries, or terminates the worker with its stages and hogs (jobWorker.ts).
 */
export function createRealWorkerClient(): RealClient {
  const job = jobWorker<RealApi>(() => new Worker(new URL('../worker/realWorker.ts', import.meta.url), { type: 'module', name: 'real' }));
  return {
    run: (request, onUpdate) =>
      job.run<RealOutcome>(
        (remote) => remote.run(request, proxy(onUpdate)),
        { kind: 'cancelled' },
        (message) => ({ kind: 'failed', message }),
      ),
    cancel: () => job.cancel((remote) => remote.cancel()),
    live: (edits) => job.remote().live(edits),
    cores: () => job.remote().cores(),
  };
}
