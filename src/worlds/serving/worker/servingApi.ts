/**
 * The serving world's worker API (ARCHITECTURE §1, §3): the generic calls (`liveApi`), its
 * live edits and agents (answered by `ServingSession`, which checks every argument), its
 * learning lanes' loading and its sweeps. Built here, apart from `servingWorker.ts`'s
 * `expose`, so that tests call the very object the page talks to, in Node, with their own
 * learning loader and sweep clock.
 */
import type { ServingScenario } from '../schema';
import { parseWorldScenario } from '../../../scenario/parse';
import { servingWorld } from '../world';
import { isLearningScheduler, type LearningFactory } from '../schedulers/registry';
import { liveApi, liveEdits } from '../../../worker/liveWorker';
import { describeValue, refuse } from '../../../worker/liveSession';
import type { ServingApi, ServingFrame, ServingSweepProgress } from './servingProtocol';
import type { ServingSession } from './servingSession';
import { checkSweepRequest, type SweepRunner } from './servingSweeps';

/** What the serving API needs from where it runs. */
export interface ServingApiHost {
  /** tfjs (and the shipped agents a lane starts from) for a scenario's learning lanes; null when it has none. */
  learningFor(scenario: ServingScenario, agentsBaseUrl: string): Promise<LearningFactory | null>;
  /**
   * The same, when everything it needs has loaded already (tfjs and the agents), without
   * waiting; null when something is still to load. Absent: always loaded beside the run.
   */
  learningAtHand?(scenario: ServingScenario, agentsBaseUrl: string): LearningFactory | null;
  /** When to start loading the learners (`start`): background work (`SessionHost.background`); absent: at once. */
  background?(start: () => void): void;
  /** Runs the sweeps in slices between the live run's ticks. */
  readonly sweeps: SweepRunner;
  /** Where the shipped agents are, until the page says (`configure`). */
  readonly agentsBaseUrl: string;
}

/** The API a serving worker exposes over `session`; `frames` registers the page's frame callback. */
export function servingApi(session: ServingSession, frames: { subscribe(callback: (frame: ServingFrame) => void): void }, host: ServingApiHost): ServingApi {
  let agentsBaseUrl = host.agentsBaseUrl;
  const sweepRequests = { figure1: 0, rps: 0 };
  /** Increases with every load: a learner that finishes loading for an older one is not used. */
  let loads = 0;
  return {
    ...liveApi(session, frames),
    configure: (options: unknown) => {
      const url = options !== null && typeof options === 'object' ? (options as { agentsBaseUrl?: unknown }).agentsBaseUrl : undefined;
      if (typeof url !== 'string' || !URL.canParse(url)) return refuse('agentsBaseUrl', `must be an absolute URL, got ${describeValue(url)}`);
      agentsBaseUrl = url;
      return { ok: true };
    },
    load: (scenario: unknown) => {
      // Validated once, here: the session takes the scenario as validated (loadValidated).
      const parsed = parseWorldScenario(servingWorld, scenario);
      if (!parsed.ok) return parsed;
      const learns = parsed.scenario.serving.lanes.some((l) => isLearningScheduler(l.scheduler));
      const atHand = learns ? (host.learningAtHand?.(parsed.scenario, agentsBaseUrl) ?? null) : null;
      // Learning lanes need tfjs (and maybe a shipped agent). When it is not at hand it loads
      // beside the run: the other lanes start at once and the learning lanes join once it is
      // here (ARCHITECTURE §3).
      const waits = learns && atHand === null;
      const before = session.learningState();
      if (waits) session.learningLoading();
      else session.setLearning(atHand);
      const loaded = session.loadValidated(parsed.scenario);
      if (!loaded.ok) {
        // Refused: the last good scenario stays, with its learners as they were (a learner on its way still comes).
        session.setLearningState(before);
        return loaded;
      }
      const own = ++loads;
      if (!waits) return loaded;
      const lane = parsed.scenario.serving.lanes.findIndex((l) => isLearningScheduler(l.scheduler));
      const start = () => {
        if (own !== loads) return;
        host.learningFor(parsed.scenario, agentsBaseUrl).then(
          (factory) => {
            if (own !== loads) return;
            if (factory === null) session.learningFailed(`serving.lanes[${lane}]: TensorFlow.js could not be loaded`);
            else session.learningLoaded(factory);
          },
          (error: unknown) => {
            if (own === loads) session.learningFailed(`serving.lanes[${lane}]: could not start its learner: ${error instanceof Error ? error.message : String(error)}`);
          },
        );
      };
      if (host.background === undefined) start();
      else host.background(start);
      return loaded;
    },
    exportAgent: (lane: number) => session.exportAgent(lane),
    explainUpdate: (lane: number) => session.explainUpdate(lane),
    importAgent: (lane: number, file: unknown) => session.importAgent(lane, file),
    ...liveEdits(session, {
      setArrivalRate: (rateRps: number) => session.setArrivalRate(rateRps),
      setModelConfig: (lane: number, model: number, batchSize: number, instances: number) => session.setModelConfig(lane, model, batchSize, instances),
      addBackground: (intensity: number, memoryMb: number) => session.addBackground(intensity, memoryMb),
      removeBackground: (id: number) => session.removeBackground(id),
    }),
    sweep: async (request: unknown, onProgress: (progress: ServingSweepProgress) => void) => {
      const checked = checkSweepRequest(request);
      if (!checked.ok) return { ok: false as const, cancelled: false as const, errors: checked.errors };
      if (typeof onProgress !== 'function') return { ok: false as const, cancelled: false as const, errors: [{ path: 'onProgress', message: `must be a callback, got ${describeValue(onProgress)}` }] };
      // The newest request of a kind wins, even when an older one is still loading tfjs.
      const kind = checked.request.kind;
      const own = ++sweepRequests[kind];
      let learning = null;
      if (checked.request.kind === 'rps') {
        try {
          learning = await host.learningFor(checked.request.scenario, agentsBaseUrl);
        } catch (error) {
          return { ok: false as const, cancelled: false as const, errors: [{ path: 'sweep.scenario.serving.lanes', message: `could not start a learner: ${error instanceof Error ? error.message : String(error)}` }] };
        }
      }
      if (own !== sweepRequests[kind]) return { ok: false as const, cancelled: true as const };
      return host.sweeps.start(checked.request, learning, (progress) => void onProgress(progress));
    },
  };
}
