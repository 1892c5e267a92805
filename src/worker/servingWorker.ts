/// <reference lib="webworker" />
/**
 * The serving-world worker (BCEdge): a thin comlink adapter over `ServingSession` — the
 * generic calls (`liveWorker.ts`) and the serving world's own (agents, sweeps).
 */
import { expose } from 'comlink';
import type { ServingApi, ServingFrame, ServingSweepProgress } from './servingProtocol';
import { liveApi, workerHost } from './liveWorker';
import { parseAnyScenario } from '../scenario/parse';
import { isLearningScheduler } from '../schedulers/serving/registry';
import { learningFactoryFor } from './learningLoader';
import { ServingSession } from './servingSession';
import { checkSweepRequest, SweepRunner } from './servingSweeps';

/** Where the shipped agents are (the page tells: it knows its own base URL). */
let agentsBaseUrl = new URL('/agents/', self.location.origin).href;

const frames = workerHost<ServingFrame>();
const session = new ServingSession(frames.host);

/** Fig. 1 and Fig. 15 sweeps, in slices between the live run's ticks. */
const sweeps = new SweepRunner({ now: () => performance.now(), schedule: (fn, delayMs) => void setTimeout(fn, delayMs) });

const sweepRequests = { figure1: 0, rps: 0 };

const api: ServingApi = {
  ...liveApi(session, frames),
  configure: (options: { agentsBaseUrl: string }) => {
    agentsBaseUrl = options.agentsBaseUrl;
  },
  load: async (scenario: unknown) => {
    // Learning lanes need tfjs (and maybe a shipped agent) before the session can build them.
    const parsed = parseAnyScenario(scenario);
    if (parsed.ok && parsed.scenario.world === 'serving') {
      try {
        session.setLearning(await learningFactoryFor(parsed.scenario, agentsBaseUrl));
      } catch (error) {
        const lane = parsed.scenario.serving.lanes.findIndex((l) => isLearningScheduler(l.scheduler));
        return { ok: false as const, errors: [{ path: `serving.lanes[${lane}]`, message: `could not start its learner: ${error instanceof Error ? error.message : String(error)}` }] };
      }
    }
    return session.load(scenario);
  },
  exportAgent: (lane: number) => session.exportAgent(lane),
  explainUpdate: (lane: number) => session.explainUpdate(lane),
  importAgent: (lane: number, file: unknown) => session.importAgent(lane, file),
  setArrivalRate: (rateRps: number) => session.setArrivalRate(rateRps),
  setModelConfig: (lane: number, model: number, batchSize: number, instances: number) => session.setModelConfig(lane, model, batchSize, instances),
  addBackground: (intensity: number, memoryMb: number) => session.addBackground(intensity, memoryMb),
  removeBackground: (id: number) => session.removeBackground(id),
  sweep: async (request: unknown, onProgress: (progress: ServingSweepProgress) => void) => {
    const checked = checkSweepRequest(request);
    if (!checked.ok) return { ok: false as const, cancelled: false as const, errors: checked.errors };
    // The newest request of a kind wins, even when an older one is still loading tfjs.
    const kind = checked.request.kind;
    const own = ++sweepRequests[kind];
    let learning = null;
    if (checked.request.kind === 'rps') {
      try {
        learning = await learningFactoryFor(checked.request.scenario, agentsBaseUrl);
      } catch (error) {
        return { ok: false as const, cancelled: false as const, errors: [{ path: 'sweep.scenario.serving.lanes', message: `could not start a learner: ${error instanceof Error ? error.message : String(error)}` }] };
      }
    }
    if (own !== sweepRequests[kind]) return { ok: false as const, cancelled: true as const };
    return sweeps.start(checked.request, learning, (progress) => void onProgress(progress));
  },
};

export type ServingWorkerApi = typeof api;
expose(api);
