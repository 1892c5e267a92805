/// <reference lib="webworker" />
/**
 * The serving-world worker (BCEdge): a thin comlink adapter over `ServingSession` — the
 * generic calls (`liveWorker.ts`) and the serving world's own (`servingApi.ts`: agents, sweeps).
 */
import { expose } from 'comlink';
import type { ServingFrame } from './servingProtocol';
import { workerHost } from './liveWorker';
import { learningFactoryFor } from './learningLoader';
import { servingApi } from './servingApi';
import { ServingSession } from './servingSession';
import { SweepRunner } from './servingSweeps';

const frames = workerHost<ServingFrame>();
const api = servingApi(new ServingSession(frames.host), frames, {
  learningFor: learningFactoryFor,
  // Fig. 1 and Fig. 15 sweeps, in slices between the live run's ticks.
  sweeps: new SweepRunner({ now: () => performance.now(), schedule: (fn, delayMs) => void setTimeout(fn, delayMs) }),
  // Where the shipped agents are until the page tells (it knows its own base URL).
  agentsBaseUrl: new URL('/agents/', self.location.origin).href,
});

export type ServingWorkerApi = typeof api;
expose(api);
