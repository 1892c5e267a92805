import type { PipelineFrame, PipelineApi } from '../../worlds/pipeline/worker/pipelineProtocol';
import type { SessionHost } from '../../worker/liveLoop';
import type { ServingApi, ServingFrame } from '../../worlds/serving/worker/servingProtocol';
import { PipelineSession } from '../../worlds/pipeline/worker/pipelineSession';
import { ServingSession } from '../../worlds/serving/worker/servingSession';
import { createPipelineStore, type PipelineLabStore } from '../../worlds/pipeline/store/pipelineStore';
import { createServingStore, type ServingStore } from '../../worlds/serving/store/servingStore';
import type { WorkerClient } from '../restartingWorker';
import type { AskToStart } from '../longRun';

/**
 * A worker client over an object in the same thread (a session, without the worker): every
 * method answers with a promise, as through comlink; `listen` registers the frame callback.
 */
export function inProcessClient<Api, F>(target: object, listen: (onFrame: (frame: F) => void) => void): WorkerClient<Api, F> {
  const own: Record<PropertyKey, unknown> = { subscribe: async (onFrame: (frame: F) => void) => listen(onFrame) };
  return new Proxy(own, {
    get: (o, name) => {
      if (name in o) return o[name];
      const method = (target as Record<PropertyKey, unknown>)[name];
      if (typeof method !== 'function') return name === 'configure' ? async () => undefined : undefined;
      return async (...args: unknown[]) => (method as (...a: unknown[]) => unknown).apply(target, args);
    },
  }) as WorkerClient<Api, F>;
}

/** The lab store wired to a pipeline session in the same thread (the worker's code, without the worker), with a manual clock. */
export function inProcessPipeline(ask?: AskToStart): { readonly store: PipelineLabStore; readonly session: PipelineSession } {
  let listener: ((frame: PipelineFrame) => void) | null = null;
  const session = new PipelineSession({ now: () => 0, schedule: () => undefined, emit: (frame) => listener?.(frame) });
  const client = inProcessClient<PipelineApi, PipelineFrame>(session, (onFrame) => {
    listener = onFrame;
  });
  return { store: createPipelineStore(client, () => 0, ask), session };
}

/**
 * The serving store wired to a serving session in the same thread, with a manual clock; `host`
 * gives the session a clock and timers (`testing/manualHost.ts`: a reference lane's search
 * runs in its tasks), else the clock stands at 0 and nothing scheduled runs.
 */
export function inProcessServing(ask?: AskToStart, host?: Pick<SessionHost<ServingFrame>, 'now' | 'schedule'>): { readonly store: ServingStore; readonly session: ServingSession } {
  let listener: ((frame: ServingFrame) => void) | null = null;
  const session = new ServingSession({ now: host?.now ?? (() => 0), schedule: host?.schedule ?? (() => undefined), emit: (frame) => listener?.(frame) });
  const client = inProcessClient<ServingApi, ServingFrame>(session, (onFrame) => {
    listener = onFrame;
  });
  return { store: createServingStore(client, () => 0, ask), session };
}
