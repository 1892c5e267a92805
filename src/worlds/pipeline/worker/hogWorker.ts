/// <reference lib="webworker" />
/**
 * One hog in the page (ARCHITECTURE §2): started by the measure worker with its config as the
 * first message, it loops forever posting its work rate (armed: from its second message on);
 * terminating the worker stops it.
 */
import { runHog, type HogConfig } from '../measure/hogLoop';

self.onmessage = (event: MessageEvent<HogConfig>) => {
  // An armed hog's next message (any) starts its loop.
  runHog(event.data, (report) => self.postMessage(report), () => performance.now(), (go) => {
    self.onmessage = () => go();
  });
};
