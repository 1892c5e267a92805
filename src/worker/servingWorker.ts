/// <reference lib="webworker" />
/**
 * The serving-world worker (BCEdge): a thin comlink adapter over `ServingSession` — the
 * generic calls (`liveWorker.ts`) and the serving world's own (`servingApi.ts`: agents, sweeps).
 */
import { expose } from 'comlink';
import type { ServingFrame } from './servingProtocol';
import { workerHost } from './liveWorker';
import { learningAtHandFor, learningFactoryFor } from './learningLoader';
import { servingApi } from './servingApi';
import { ServingSession } from './servingSession';
import { SweepRunner } from './servingSweeps';

const frames = workerHost<ServingFrame>();

/**
 * Loading TensorFlow.js holds this worker for about a third of a second (compiling the
 * module), so the learners' load starts once a frame whose simulated time has moved went out:
 * the lab's first frame does not wait for it (the learning lanes join later anyway). A run
 * left paused starts it after LEARNER_LOAD_WAIT_MS.
 */
const LEARNER_LOAD_WAIT_MS = 1000;
let afterFirstFrame: (() => void)[] = [];
const host: typeof frames.host = {
  ...frames.host,
  emit: (frame, buffers) => {
    frames.host.emit(frame, buffers);
    if (frame.timeMs > 0 && afterFirstFrame.length > 0) release();
  },
};
function release(): void {
  const due = afterFirstFrame;
  afterFirstFrame = [];
  for (const start of due) setTimeout(start, 0);
}
function deferLearning(start: () => void): void {
  afterFirstFrame.push(start);
  setTimeout(() => {
    const i = afterFirstFrame.indexOf(start);
    if (i < 0) return;
    afterFirstFrame.splice(i, 1);
    start();
  }, LEARNER_LOAD_WAIT_MS);
}

const api = servingApi(new ServingSession(host), frames, {
  learningFor: learningFactoryFor,
  learningAtHand: learningAtHandFor,
  deferLearning,
  // Fig. 1 and Fig. 15 sweeps, in slices between the live run's ticks.
  sweeps: new SweepRunner({ now: () => performance.now(), schedule: (fn, delayMs) => void setTimeout(fn, delayMs) }),
  // Where the shipped agents are until the page tells (it knows its own base URL).
  agentsBaseUrl: new URL('/agents/', self.location.origin).href,
});

export type ServingWorkerApi = typeof api;
expose(api);
