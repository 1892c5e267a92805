/// <reference lib="webworker" />
// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../../index';
/**
 * The serving-world worker (BCEdge): a thin comlink adapter over `ServingSession` — the
 * generic calls (`liveWorker.ts`) and the serving world's own (`servingApi.ts`: agents, sweeps).
 */
import { expose } from 'comlink';
import type { ServingFrame } from './servingProtocol';
import { workerHost } from '../../../worker/liveWorker';
import { BackgroundGate } from '../../../worker/backgroundGate';
import { learningAtHandFor, learningFactoryFor } from './learningLoader';
import { servingApi } from './servingApi';
import { oracleWorkerPort } from './oracleWorkerPort';
import { ServingSession } from './servingSession';
import { SweepRunner } from './servingSweeps';

const frames = workerHost<ServingFrame>();

/**
 * First frame first: the reference lanes' searches, the sweeps and the learners' load
 * (compiling TensorFlow.js holds this worker for about a third of a second) start once a
 * frame whose simulated time has moved went out after a load, so that the lab's first frame
 * waits for none of them (the lanes they feed join later anyway); for a run left paused at 0,
 * BACKGROUND_WAIT_MS after it came to stand there.
 */
const BACKGROUND_WAIT_MS = 1000;
const gate = new BackgroundGate(frames.host.schedule, BACKGROUND_WAIT_MS);
const background = (start: () => void) => gate.defer(start);
const host: typeof frames.host = {
  ...frames.host,
  emit: (frame, buffers) => {
    frames.host.emit(frame, buffers);
    gate.framed(frame.timeMs);
  },
  background,
};

// The reference lanes search in a worker of their own (oracleWorker.ts), beside the live run.
const api = servingApi(new ServingSession(host, {}, oracleWorkerPort()), frames, {
  learningFor: learningFactoryFor,
  learningAtHand: learningAtHandFor,
  background,
  // Fig. 1 and Fig. 15 sweeps, in slices between the live run's ticks, once the run has moved.
  sweeps: new SweepRunner({ now: () => performance.now(), schedule: (fn, delayMs) => void setTimeout(fn, delayMs), background }),
  // Where the shipped agents are until the page tells (it knows its own base URL).
  agentsBaseUrl: new URL('/agents/', self.location.origin).href,
});

export type ServingWorkerApi = typeof api;
expose(api);
