/** Hogs in the page (ARCHITECTURE §2): each a Web Worker of its own, started by the measure and real workers. */
import type { HogConfig, HogReport } from '../measure/hogLoop';
import type { SpawnHog } from '../measure/hogs';

/** Starts one hog as a Web Worker; terminating it stops the hog. */
export const spawnWebHog: SpawnHog = (config: HogConfig, onReport, onError) => {
  const worker = new Worker(new URL('./hogWorker.ts', import.meta.url), { type: 'module', name: `hog-${config.kind}` });
  worker.onmessage = (event: MessageEvent<HogReport>) => onReport(event.data);
  worker.onerror = (event) => onError(new Error(event.message || 'a hog worker failed'));
  worker.postMessage(config);
  return { terminate: () => worker.terminate(), start: () => worker.postMessage('go') };
};
